import OverlayModel

// ExtendedData: a placemark's properties as `SchemaData` of a shared `Schema` (typed by their
// values) and the conventions' `Data`.
extension KMLWriter {
    mutating func appendExtendedData(data: JSONObject, properties: JSONObject) {
        guard !data.isEmpty || !properties.isEmpty else { return }
        scratch.append("<ExtendedData>")
        for member in data {
            scratch.append("<Data name=\"")
            appendText(member.key, attribute: true)
            scratch.append("\"><value>")
            appendText(member.value.stringValue ?? "")
            scratch.append("</value></Data>")
        }
        if !properties.isEmpty {
            let fields = properties.members.map { SchemaField(name: $0.key, type: KMLWriter.fieldType($0.value)) }
            let id = schemas.id(for: fields).id
            scratch.appendRaw("<SchemaData schemaUrl=\"#\u{3}\(id)\">")
            for member in properties {
                scratch.append("<SimpleData name=\"")
                appendText(member.key, attribute: true)
                scratch.append("\">")
                switch member.value {
                case .string(let text): appendText(text)
                case .integer(let value): scratch.appendInteger(value)
                case .number(let value): scratch.appendNumber(value)
                case .bool(let flag): scratch.append(flag ? "true" : "false")
                default: appendText(member.value.kmlJSONText)
                }
                scratch.append("</SimpleData>")
            }
            scratch.append("</SchemaData>")
        }
        scratch.append("</ExtendedData>")
    }

    private static func fieldType(_ value: JSONValue) -> String {
        switch value {
        case .string: "string"
        // The narrowest KML type that holds the value exactly: xsd:int and xsd:unsignedInt
        // are 32 bits (GDAL read 1234567890123 typed int back as 2147483647), a double holds
        // every integer up to 2^53; beyond, JSON text in a string field keeps every digit.
        case .integer(let value) where Int64(Int32.min)...Int64(Int32.max) ~= value: "int"
        case .integer(let value) where 0...Int64(UInt32.max) ~= value: "uint"
        case .integer(let value) where -(Int64(1) << 53)...(Int64(1) << 53) ~= value: "double"
        case .integer: "json"
        case .number: "double"
        case .bool: "bool"
        default: "json"
        }
    }
}
