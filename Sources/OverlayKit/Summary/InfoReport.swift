import OverlayModel

/// Formats a `DatasetSummary` for people (text) or programs (JSON).
public enum InfoReport {
    /// Kinds in a fixed order, for deterministic output.
    private static let kindOrder: [ShapeKind] = ShapeKind.allCases

    /// The summary as text for people (`overlaykit info`).
    public static func text(_ summary: DatasetSummary, source: String?) -> String {
        var lines = ["source: \(source ?? "<stdin>")", "features: \(summary.featureCount)"]
        for kind in kindOrder {
            if let count = summary.kindCounts[kind] { lines.append("  \(kind.rawValue): \(count)") }
        }
        if summary.nullGeometryCount > 0 { lines.append("  null geometry: \(summary.nullGeometryCount)") }
        lines.append("vertices: \(summary.vertexCount)")
        if let box = summary.boundingBox {
            lines.append("bbox (west, south, east, north): \(box.west), \(box.south), \(box.east), \(box.north)"
                         + (summary.crossesAntimeridian ? " (crosses the antimeridian)" : ""))
            let rect = summary.boundingMapRect
            lines.append("boundingMapRect (x, y, width, height): \(rect.minX), \(rect.minY), \(rect.width), \(rect.height)")
        } else {
            lines.append("bbox: none (no coordinates)")
        }
        if let zoom = summary.zoomToFit() { lines.append("zoom to fit 1024x1024: \(zoom)") }
        lines.append("properties: \(summary.propertyTypes.count)")
        for entry in summary.propertyTypes {
            lines.append("  \(entry.key): \(entry.types.joined(separator: "|"))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The summary as one JSON object (`overlaykit info --json`).
    public static func json(_ summary: DatasetSummary, source: String?) -> String {
        var object = JSONObject()
        object.append("source", source.map { .string($0) } ?? .null)
        object.append("features", .integer(Int64(summary.featureCount)))
        var kinds = JSONObject()
        for kind in kindOrder {
            if let count = summary.kindCounts[kind] { kinds.append(kind.rawValue, .integer(Int64(count))) }
        }
        object.append("kinds", .object(kinds))
        object.append("nullGeometry", .integer(Int64(summary.nullGeometryCount)))
        object.append("vertices", .integer(Int64(summary.vertexCount)))
        if let box = summary.boundingBox {
            object.append("bbox", .array([.number(box.west), .number(box.south), .number(box.east), .number(box.north)]))
            object.append("crossesAntimeridian", .bool(summary.crossesAntimeridian))
            let rect = summary.boundingMapRect
            object.append("boundingMapRect", .object([
                "x": .number(rect.minX), "y": .number(rect.minY),
                "width": .number(rect.width), "height": .number(rect.height),
            ]))
        } else {
            object.append("bbox", .null)
        }
        object.append("zoomToFit1024", summary.zoomToFit().map { .integer(Int64($0)) } ?? .null)
        var properties = JSONObject()
        for entry in summary.propertyTypes {
            properties.append(entry.key, .array(entry.types.map { .string($0) }))
        }
        object.append("properties", .object(properties))
        var bytes = JSONBytes()
        bytes.appendObject(object)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }
}
