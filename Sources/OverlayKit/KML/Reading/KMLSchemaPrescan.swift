/// KML `Schema` declarations: reading one, and collecting all of a document's in one pass.
///
/// The pass is for a `Schema` that comes after more placemarks use it than the reader may
/// hold (`KMLReader.maximumHeldFeatures`): rather than type the first values as text and the
/// later ones by the Schema, the reader reads the input once more from the start, keeping only
/// the Schemas (memory: their fields), and then types every value alike. Only inputs that can be
/// read twice (files, memory) allow it; standard input cannot, and then the Schema's values stay
/// text throughout.
enum KMLSchemaPrescan {
    /// One `Schema`: its `id`, `name`, `parent` (pre-2.2) attributes and fields by name.
    struct Schema {
        var id: String?
        var name: String?
        var parent: String?
        var fields: [String: KMLLegacySchemaPlacemarks.Field] = [:]
    }

    /// Reads the `Schema` element the reader is on, leaving it on its end tag; `skipped` is
    /// called (positioned on the child) for a child that is not a named `SimpleField`.
    static func readSchema(_ xml: XMLStreamReader, skipped: (String) throws -> Void) throws -> Schema {
        var schema = Schema(id: xml.attribute("id"), name: xml.attribute("name"), parent: xml.attribute("parent"))
        try xml.forEachChild { child in
            guard child == "SimpleField", let fieldName = xml.attribute("name") else {
                try skipped(child)
                return
            }
            let type = KMLSimpleFieldType.normalized(xml.attribute("type") ?? "string")
            var displayName: String?
            try xml.forEachChild { part in
                if part == "displayName" { displayName = try xml.readText() } else { try xml.skipElement() }
            }
            schema.fields[fieldName] = (type, displayName)
        }
        return schema
    }

    /// Every `Schema` of the document in `input`, in document order. Stops quietly at the
    /// first XML error: the main pass reaches and reports it. O(n) in the input, memory
    /// bounded by the parser's chunk and the Schemas.
    static func schemas(in input: ByteInput, name: String?) -> [Schema] {
        var result: [Schema] = []
        guard let xml = try? XMLStreamReader(input: input, name: name) else { return result }
        do {
            while try xml.read() {
                if xml.kind == .element && xml.localName == "Schema" {
                    result.append(try readSchema(xml) { _ in try xml.skipElement() })
                }
            }
        } catch {
            return result
        }
        return result
    }
}
