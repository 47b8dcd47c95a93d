import OverlayModel

// ExtendedData and Schema: `Data`, `SchemaData` typed by its `Schema`'s SimpleFields (or
// typed later, when the Schema comes after), and other namespaces' elements as text.
extension KMLParserCore {
    func parseSchema() throws {
        let schema = try KMLSchemaPrescan.readSchema(xml) { child in try skipReported(child, in: "Schema") }
        // A Schema whose values were already read as text stays text (one type per column).
        if let id = schema.id, !textOnlySchemas.contains(id) { schemas[id] = schema.fields }
        if let name = schema.name, schemas[name] == nil, !textOnlySchemas.contains(name) { schemas[name] = schema.fields }
        legacyPlacemarks.define(name: schema.name, parent: schema.parent, fields: schema.fields)
    }

    func parseExtendedData(into properties: inout KMLPropertyBuilder) throws {
        try xml.forEachChild { child in
            switch child {
            case "Data":
                let key = xml.attribute("name")
                var value: String?
                try xml.forEachChild { part in
                    if part == "value" { value = try xml.readText() } else { try xml.skipElement() }
                }
                properties.appendData(key, .string(value ?? ""))
            case "SchemaData":
                let url = xml.attribute("schemaUrl") ?? ""
                let schemaID = url.hasPrefix("#") ? String(url.dropFirst()) : url
                let textOnly = textOnlySchemas.contains(schemaID)
                let fields = textOnly ? nil : schemas[schemaID]
                // "#id" not seen yet: typed when the feature is released (the Schema may come later).
                let late = fields == nil && url.hasPrefix("#") && !textOnly
                if fields == nil && !late && !textOnly {
                    report(.kmlMissingSchema, "SchemaData names schema '\(url)', which is not in this document; its values are read as text",
                           line: xml.line, once: "schema:" + url)
                }
                if fields != nil { schemaFieldCache.begin(schemaID: schemaID, version: schemaVersion) }
                try xml.forEachChild { part in
                    switch part {
                    case "SimpleData":
                        let line = xml.line
                        if let fields, try readSimpleData(fields: fields, line: line, into: &properties) { return }
                        let name = xml.attribute("name")
                        let key = name ?? ""
                        let text = try xml.readText()
                        let propertyKey = properties.appendData(name, typedValue(text, field: fields?[key], key: key, line: line))
                        if late {
                            lateSchemaValues.append(LateSchemaValue(schemaURL: url, schemaID: schemaID, key: key, propertyKey: propertyKey,
                                                                    line: line, isArray: false))
                        }
                    case "SimpleArrayData":
                        // Per-vertex values of a gx:Track, beside its times.
                        let name = xml.attribute("name")
                        let key = name ?? ""
                        let line = xml.line
                        var values: [JSONValue] = []
                        try xml.forEachChild { item in
                            let line = xml.line
                            if item == "value" { values.append(typedValue(try xml.readText(), field: fields?[key], key: key, line: line)) } else { try xml.skipElement() }
                        }
                        let propertyKey = properties.appendCoordinateArray(name, values)
                        if late {
                            lateSchemaValues.append(LateSchemaValue(schemaURL: url, schemaID: schemaID, key: key, propertyKey: propertyKey,
                                                                    line: line, isArray: true))
                        }
                    default:
                        try skipReported(part, in: "SchemaData")
                    }
                }
            default:
                // Arbitrary XML from another namespace: keep its text under its qualified name.
                let key = xml.qualifiedName
                properties.appendData(key, .string(try xml.readText()))
            }
        }
    }

    /// A SimpleData of a known Schema read as bytes (`KMLSchemaFieldCache`): its name matched
    /// without a String, its value typed from the bytes, one String made for a text value.
    /// Returns false, having read nothing, when the name is missing or escaped: the caller
    /// reads it the general way.
    private func readSimpleData(fields: [String: (type: String, displayName: String?)], line: Int,
                                into properties: inout KMLPropertyBuilder) throws -> Bool {
        guard let entry = xml.withAttributeBytes("name", { bytes in
            bytes.flatMap { schemaFieldCache.entry(named: $0, fields: fields) }
        }) else { return false }
        valueBuffer.removeAll(keepingCapacity: true)
        try xml.readText(into: &valueBuffer)
        let value = valueBuffer.withUnsafeBufferPointer { typedValue($0, entry: entry, line: line) }
        properties.appendSchemaValue(entry, in: schemaFieldCache.names, value)
        return true
    }

    /// `typedValue(_:field:key:line:)` of the text `bytes`, without a String for the usual
    /// values (numbers with no surrounding whitespace, plain text); everything else goes
    /// through the String path, so both give the same value and the same warnings.
    private func typedValue(_ bytes: UnsafeBufferPointer<UInt8>, entry: KMLSchemaFieldCache.Entry, line: Int) -> JSONValue {
        switch entry.kind {
        case .text, .string:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .integer, .number:
            // Untrimmed: the first and last bytes are ASCII and not whitespace.
            guard let base = bytes.baseAddress, bytes.count > 0, bytes[0] < 0x80, bytes[bytes.count - 1] < 0x80,
                  !XMLWhitespace.contains(bytes[0]), !XMLWhitespace.contains(bytes[bytes.count - 1]) else { break }
            if entry.kind == .integer {
                if let value = JSONNumberParser.parseInteger(base, count: bytes.count) { return .integer(value) }
            } else if bytes.count <= 9, let value = KMLCoordinates.number(base, count: bytes.count) {
                // Longer ones may be integers beyond 32 bits: the String path tells.
                return .number(value)
            }
        case .special:
            break
        }
        return typedValue(String(decoding: bytes, as: UTF8.self), field: entry.field, key: entry.key, line: line)
    }

    func typedValue(_ text: String, field: (type: String, displayName: String?)?, key: String, line: Int) -> JSONValue {
        guard let field else { return .string(text) }
        var trimmed = text.kmlTrimmed
        switch field.type {
        case "int", "uint", "short", "ushort":
            if !trimmed.isEmpty, let value = trimmed.withUTF8({ JSONNumberParser.parseInteger($0.baseAddress!, count: $0.count) }) { return .integer(value) }
            if let value = Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) { return .integer(value) }
        case "float", "double":
            // An integer literal beyond 32 bits is an integer that needed a wider type than
            // xsd:int (the writer uses double up to 2^53): read back as the integer it was.
            if trimmed.utf8.count > 9, let value = Int64(trimmed), !(Int64(Int32.min)...Int64(Int32.max) ~= value),
               abs(value) <= 1 << 53 {
                return .integer(value)
            }
            if !trimmed.isEmpty, let value = trimmed.withUTF8({ KMLCoordinates.number($0.baseAddress!, count: $0.count) }) { return .number(value) }
        case "bool":
            if let value = KMLStyleParser.bool(trimmed) { return .bool(value) }
        case "string":
            if field.displayName == KMLConventions.jsonFieldDisplayName {
                let scanner = JSONScanner(input: ByteInput(string: text))
                if let value = try? scanner.readValue(), (try? scanner.peekSignificant()) == nil { return value }
            }
            return .string(text)
        default:
            return .string(text)
        }
        report(.kmlInvalidValue, "SimpleData \(key) '\(trimmed)' is not a valid \(field.type); kept as text", line: line)
        return .string(text)
    }
}
