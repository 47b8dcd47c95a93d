/// The type names a KML `SimpleField` may carry, shared by the reader (which types the values)
/// and the validator (ATC 26), so both take the same spellings.
///
/// Two vocabularies meet here. The KML 2.2 specification (OGC 07-147r2 §9.9.2) names eight
/// types `string`, `int`, `uint`, `short`, `ushort`, `float`, `double`, `bool`, which Google
/// Earth writes. The abstract test suite (OGC 07-134r2 ATC 26) names them as XML Schema types:
/// `xsd:string`, `xsd:int`, `xsd:unsignedInt`, `xsd:short`, `xsd:unsignedShort`, `xsd:float`,
/// `xsd:double`, `xsd:boolean`, which the OGC ETS also accepts without the prefix. Both are
/// taken; a prefixed name must be an XML Schema name (`xs:bool` is neither). KML 2.3 (OGC
/// 14-068r2 ATC-126) adds `xsd:date`, `xsd:dateTime` and every type derived from a built-in
/// simple type.
enum KMLSimpleFieldType {
    /// The eight SimpleField types, in the specification's spelling.
    static let names: Set<String> = ["string", "int", "uint", "short", "ushort", "float", "double", "bool"]

    /// ATC 26's XML Schema types, by local name, with the specification's name for each.
    static let xmlSchemaNames: [String: String] = [
        "string": "string", "int": "int", "unsignedInt": "uint", "short": "short", "unsignedShort": "ushort",
        "float": "float", "double": "double", "boolean": "bool",
    ]

    /// The other built-in simple types of XML Schema (Part 2, §3), which KML 2.3 allows: their
    /// values are kept as text (not checked).
    static let kml23Names: Set<String> = [
        "date", "dateTime", "time", "duration", "gYear", "gYearMonth", "gMonth", "gMonthDay", "gDay",
        "decimal", "integer", "long", "byte", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger",
        "negativeInteger", "unsignedLong", "unsignedByte", "normalizedString", "token", "language", "Name", "NCName",
        "NMTOKEN", "anyURI", "QName", "hexBinary", "base64Binary", "ID", "IDREF", "ENTITY", "dateTimeStamp",
    ]

    /// The specification's name a declared type stands for (`xsd:boolean` → `bool`), `string`
    /// for the KML 2.3 types kept as text, or nil when the type is not allowed: ATC 26 in a
    /// KML 2.2 document, ATC-126 in a KML 2.3 one.
    static func resolved(_ declared: String, kml23: Bool) -> String? {
        var local = Substring(declared)
        if let colon = declared.firstIndex(of: ":") {
            guard ["xsd", "xs"].contains(declared[..<colon]) else { return nil }
            local = declared[declared.index(after: colon)...]
        } else if names.contains(declared) {
            return declared
        }
        if let name = xmlSchemaNames[String(local)] { return name }
        return kml23 && kml23Names.contains(String(local)) ? "string" : nil
    }

    /// The type the reader types values by: the specification's name when the declaration is
    /// allowed, else the declared name without an XML Schema prefix (read as text).
    static func normalized(_ type: String) -> String {
        if let name = resolved(type, kml23: false) { return name }
        for prefix in ["xsd:", "xs:"] where type.hasPrefix(prefix) { return String(type.dropFirst(prefix.count)) }
        return type
    }
}
