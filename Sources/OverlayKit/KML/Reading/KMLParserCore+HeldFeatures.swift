import OverlayModel

/// A feature read but not yet handed out: its style may be defined later in the document.
struct PendingFeature {
    var feature: Feature
    var styleUrl: String?
    var inlineStyle: Style?
    var inlineMap: KMLStyleMap?
    var line: Int
    /// SimpleData read as text because their Schema was not defined yet: typed on release.
    var lateSchemaValues: [LateSchemaValue] = []
}

/// A SimpleData (or SimpleArrayData) value whose `SchemaData` names a Schema not seen yet.
struct LateSchemaValue {
    var schemaURL: String
    var schemaID: String
    var key: String
    /// The property (or coordinate array) name the value was read under (docs/kml.md "Property names").
    var propertyKey: String
    var line: Int
    var isArray: Bool
}

// Style resolution and the queue of held features: a feature whose style or Schema is not
// defined yet waits (with everything after it, so order is kept) until it is, or the end.
extension KMLParserCore {
    func releaseReady() -> Feature? {
        guard queueHead < queue.count else { return nil }
        let pending = queue[queueHead]
        let held = queue.count - queueHead
        if !finished && held <= KMLReader.maximumHeldFeatures {
            if let url = pending.styleUrl, !styles.isResolvable(url) { return nil }
            if let map = pending.inlineMap, !styles.isResolvable(map) { return nil }
            // A Schema defined after its placemarks: held, as late styles are, so types come out right.
            if pending.lateSchemaValues.contains(where: { schemas[$0.schemaID] == nil }) { return nil }
        } else if !finished {
            learnLateSchemas(for: pending)
        }
        queue[queueHead] = PendingFeature(feature: Feature(shape: nil), line: 0)
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead > 1024 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return resolveStyle(typeLateSchemaValues(pending))
    }

    /// Too many features wait for a Schema: learn every Schema of the input from a second read
    /// (once), or, when the input cannot be read twice, read the missing Schemas' values as
    /// text from here to the end, so that each column keeps one type.
    private func learnLateSchemas(for pending: PendingFeature) {
        let missing = pending.lateSchemaValues.filter { schemas[$0.schemaID] == nil && !textOnlySchemas.contains($0.schemaID) }
        guard !missing.isEmpty else { return }
        if !schemasPrescanned, let copy = input.independentCopy() {
            schemasPrescanned = true
            for schema in KMLSchemaPrescan.schemas(in: copy, name: xml.fileName) {
                if let id = schema.id, schemas[id] == nil { schemas[id] = schema.fields }
                if let name = schema.name, schemas[name] == nil { schemas[name] = schema.fields }
            }
            return
        }
        guard !schemasPrescanned else { return }
        for late in missing where !textOnlySchemas.contains(late.schemaID) {
            textOnlySchemas.insert(late.schemaID)
            report(.kmlLateSchema, "SchemaData names schema '\(late.schemaURL)', not defined before \(KMLReader.maximumHeldFeatures) "
                   + "placemarks using it, and \(xml.fileName ?? "standard input") cannot be read twice to find it; "
                   + "all its values are read as text so that each column has one type (read from a file to type them)",
                   line: late.line)
        }
    }

    /// Types the values read before their Schema, or reports the Schema missing.
    private func typeLateSchemaValues(_ pending: PendingFeature) -> PendingFeature {
        guard !pending.lateSchemaValues.isEmpty, var properties = pending.feature.properties else { return pending }
        var result = pending
        for late in pending.lateSchemaValues where !textOnlySchemas.contains(late.schemaID) {
            guard let fields = schemas[late.schemaID] else {
                report(.kmlMissingSchema, "SchemaData names schema '\(late.schemaURL)', which is not defined in this document; its values are read as text",
                       line: late.line, once: "schema:" + late.schemaURL)
                continue
            }
            let field = fields[late.key]
            if late.isArray {
                guard var coordinateProperties = properties["coordinateProperties"]?.objectValue,
                      case .array(let values)? = coordinateProperties[late.propertyKey] else { continue }
                coordinateProperties[late.propertyKey] = .array(values.map { value in
                    value.stringValue.map { typedValue($0, field: field, key: late.key, line: late.line) } ?? value
                })
                properties["coordinateProperties"] = .object(coordinateProperties)
            } else if let text = properties[late.propertyKey]?.stringValue {
                properties[late.propertyKey] = typedValue(text, field: field, key: late.key, line: late.line)
            }
        }
        result.feature.properties = properties
        result.lateSchemaValues = []
        return result
    }

    private func resolveStyle(_ pending: PendingFeature) -> Feature {
        var feature = pending.feature
        var resolved = KMLStyleTable.Resolved()
        if let url = pending.styleUrl { resolved = styles.resolve(url) }
        if let map = pending.inlineMap {
            let inline = styles.resolve(map)
            resolved.normal = inline.normal ?? resolved.normal
            resolved.highlight = inline.highlight ?? resolved.highlight
            resolved.missing += inline.missing
            resolved.external += inline.external
        }
        for id in resolved.missing {
            warnings.append(Diagnostic(.warning, code: .kmlMissingStyle,
                                       message: "styleUrl #\(id) names no Style or StyleMap in this document; the feature keeps only its inline style",
                                       location: feature.location))
        }
        for url in resolved.external {
            warnings.append(Diagnostic(.warning, code: .kmlExternalStyle,
                                       message: "styleUrl \(url) points outside this document and is not fetched",
                                       location: feature.location))
        }
        var normal = resolved.normal
        var highlight = resolved.highlight
        if let inline = pending.inlineStyle {
            normal = (normal ?? Style()).overridden(by: inline)
            highlight = highlight.map { $0.overridden(by: inline) }
        }
        feature.style = normal.flatMap { $0.isEmpty ? nil : $0 }
        feature.highlightStyle = highlight.flatMap { $0.isEmpty ? nil : $0 }
        return feature
    }
}
