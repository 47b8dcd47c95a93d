/// The type names a KML `SimpleField` may carry, shared by the reader (which types the values)
/// and the validator (ATC 26), so both take the same spellings.
enum KMLSimpleFieldType {
    /// The eight SimpleField types.
    static let names: Set<String> = ["string", "int", "uint", "short", "ushort", "float", "double", "bool"]

    /// A type without its XML Schema prefix: `xsd:int` (or `xs:int`) is the QName of the
    /// built-in type `int`, which the OGC ETS accepts as the bare name.
    static func normalized(_ type: String) -> String {
        for prefix in ["xsd:", "xs:"] where type.hasPrefix(prefix) { return String(type.dropFirst(prefix.count)) }
        return type
    }
}
