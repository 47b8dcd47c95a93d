import OverlayModel

extension DiffReport {
    /// The version of the JSON report's layout (`Schemas/diff-report.schema.json`).
    public static let jsonVersion = 1

    /// The JSON report: inputs, summary and one object per change.
    static func json(_ result: DiffResult) -> String {
        let summary = result.summary
        var totals = JSONObject()
        totals.append("changes", .integer(Int64(summary.changes)))
        for kind in FeatureChange.Kind.allCases { totals.append(kind.rawValue, .integer(Int64(summary.count(kind)))) }
        totals.append("unchanged", .integer(Int64(summary.unchanged)))
        let root: JSONObject = [
            "version": .integer(Int64(jsonVersion)),
            "old": .object(["file": result.oldName.map(JSONValue.string) ?? .null, "features": .integer(Int64(summary.oldFeatures))]),
            "new": .object(["file": result.newName.map(JSONValue.string) ?? .null, "features": .integer(Int64(summary.newFeatures))]),
            "summary": .object(totals),
            "changes": .array(result.changes.map { .object(jsonObject($0)) }),
        ]
        var bytes = JSONBytes()
        bytes.appendObject(root)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// One change: its class, id, location (and the old one), geometry, properties, style, folders.
    static func jsonObject(_ change: FeatureChange) -> JSONObject {
        var object: JSONObject = [
            "change": .string(change.kind.rawValue),
            "id": change.label.map(JSONValue.string) ?? .null,
            "location": change.location.map { .object(jsonObject($0)) } ?? .null,
        ]
        if change.kind != .removed, change.kind != .added, let old = change.old?.location {
            object.append("oldLocation", .object(jsonObject(old)))
        }
        switch change.kind {
        case .added, .removed:
            let feature = (change.new ?? change.old)!
            let properties = ComparableFeature(feature, options: DiffOptions()).properties
            object.append("geometry", .object(shapeObject(feature.shape)))
            object.append("properties", .object([change.kind == .added ? "added" : "removed": .object(properties)]))
        case .modified, .moved:
            if let geometry = change.geometry {
                var entry = JSONObject()
                entry.append("type", geometry.newKind.map { .string($0.rawValue) } ?? .null)
                entry.append("oldType", geometry.oldKind.map { .string($0.rawValue) } ?? .null)
                entry.append("hausdorffMetres", .number(geometry.hausdorffMetres))
                entry.append("areaChange", .number(geometry.areaChange))
                entry.append("lengthChange", .number(geometry.lengthChange))
                entry.append("oldVertices", .integer(Int64(geometry.oldVertices)))
                entry.append("newVertices", .integer(Int64(geometry.newVertices)))
                object.append("geometry", .object(entry))
            }
            if !change.properties.isEmpty { object.append("properties", .object(valueChanges(change.properties))) }
            if !change.style.isEmpty { object.append("style", .object(valueChanges(change.style))) }
        }
        if let folders = change.folders {
            object.append("folders", .object(["old": .array(folders.old.map(JSONValue.string)), "new": .array(folders.new.map(JSONValue.string))]))
        }
        return object
    }

    /// `{"added": {k: v}, "removed": {k: v}, "changed": {k: {"old": v, "new": v}}}`, empty parts left out.
    private static func valueChanges(_ changes: [ValueChange]) -> JSONObject {
        var added = JSONObject(), removed = JSONObject(), changed = JSONObject()
        for change in changes {
            switch (change.old, change.new) {
            case (nil, let new?): added.append(change.key, new)
            case (let old?, nil): removed.append(change.key, old)
            case (let old?, let new?): changed.append(change.key, .object(["old": old, "new": new]))
            case (nil, nil): break
            }
        }
        var object = JSONObject()
        if !added.isEmpty { object.append("added", .object(added)) }
        if !removed.isEmpty { object.append("removed", .object(removed)) }
        if !changed.isEmpty { object.append("changed", .object(changed)) }
        return object
    }

    /// An added or removed shape: its kind, vertices and bounding box in degrees.
    private static func shapeObject(_ shape: Shape?) -> JSONObject {
        guard let shape else { return ["type": .null] }
        var object: JSONObject = ["type": .string(shape.kind.rawValue), "vertices": .integer(Int64(shape.vertexCount))]
        let measures = GeometryMeasures(shape)
        if measures.area > 0 { object.append("area", .number(measures.area)) }
        if measures.length > 0 { object.append("length", .number(measures.length)) }
        return object
    }

    static func jsonObject(_ location: SourceLocation) -> JSONObject {
        var object: JSONObject = [
            "file": location.file.map(JSONValue.string) ?? .null,
            "line": .integer(Int64(location.line)),
            "column": .integer(Int64(location.column)),
        ]
        if let pointer = location.jsonPointer { object.append("pointer", .string(pointer)) }
        if let path = location.kmlPath { object.append("kmlPath", .string(path)) }
        return object
    }
}
