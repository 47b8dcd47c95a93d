import OverlayModel

/// `metadata.json` for a tile directory: what was tiled, how, and everything that was left out
/// per zoom, so each dropped feature or ring is accounted for.
public struct TileMetadata: Sendable {
    /// The tile set's name.
    public var name: String
    /// Tile format, `mvt` or `geojson`.
    public var format: String
    /// The layer name inside the tiles.
    public var layer: String
    /// The lowest zoom written.
    public var minZoom: Int
    /// Per zoom: tiles, features and what was dropped.
    public var zooms: [TilePyramid.ZoomCounts]
    /// What MVT could not hold, over all tiles.
    public var losses: MVTEncoder.Losses

    /// Metadata for a finished pyramid.
    public init(name: String, format: String, layer: String, minZoom: Int,
                zooms: [TilePyramid.ZoomCounts], losses: MVTEncoder.Losses) {
        self.name = name
        self.format = format
        self.layer = layer
        self.minZoom = minZoom
        self.zooms = zooms
        self.losses = losses
    }

    /// The JSON text (one object, keys in a fixed order, trailing newline).
    public func json(for source: TileSource) -> [UInt8] {
        var out = JSONBytes()
        let options = source.options
        func key(_ name: StaticString, first: Bool = false) {
            if !first { out.append(",\n  ") }
            out.append("\"")
            out.append(name)
            out.append("\": ")
        }
        out.append("{\n  ")
        key("name", first: true); out.appendString(name)
        key("format"); out.appendString(format)
        key("minzoom"); out.appendInteger(Int64(minZoom))
        key("maxzoom"); out.appendInteger(Int64(options.maxZoom))
        key("bounds")
        let rect = source.boundingMapRect
        if rect.isNull {
            out.append("null")
        } else {
            // TileJSON bounds cannot cross the antimeridian: data across it has tiles at both edges.
            var (west, east) = source.longitudeExtent.westEast ?? (-180, 180)
            if west > east { (west, east) = (-180, 180) }
            let bounds = [west, MapProjection.latitude(y: rect.maxY), east, MapProjection.latitude(y: rect.minY)]
            out.append("[")
            for (index, value) in bounds.enumerated() {
                if index > 0 { out.append(",") }
                out.appendCoordinate(value, decimals: 7)
            }
            out.append("]")
        }
        key("extent"); out.appendInteger(Int64(options.extent))
        key("buffer"); out.appendInteger(Int64(options.buffer))
        key("tolerance"); out.appendNumber(options.tolerance)
        key("layers")
        out.append("[{\"id\": ")
        out.appendString(layer)
        out.append(", \"fields\": {")
        for (index, field) in Self.fields(source.attributes).enumerated() {
            if index > 0 { out.append(", ") }
            out.appendString(field.key)
            out.append(": ")
            out.appendString(field.type)
        }
        out.append("}}]")
        key("input")
        let counts = source.inputCounts
        out.append("{\"features\": ")
        out.appendInteger(Int64(counts.features))
        out.append(", \"withoutGeometry\": ")
        out.appendInteger(Int64(counts.withoutGeometry))
        out.append(", \"withoutPositions\": ")
        out.appendInteger(Int64(counts.withoutPositions))
        out.append("}")
        key("notWritten")
        out.append("{\"idsNotUnsignedIntegers\": ")
        out.appendInteger(Int64(losses.idsNotWritten))
        out.append(", \"nullPropertyValues\": ")
        out.appendInteger(Int64(losses.nullValuesNotWritten))
        out.append(", \"propertyValuesWrittenAsJSONText\": ")
        out.appendInteger(Int64(losses.valuesWrittenAsJSON))
        out.append("}")
        key("zooms")
        out.append("[")
        for (index, zoom) in zooms.enumerated() {
            let stats = zoom.statistics
            out.append(index == 0 ? "\n    " : ",\n    ")
            let fields: [(StaticString, Int)] = [
                ("zoom", zoom.zoom), ("tiles", zoom.tiles), ("emptyTilesNotWritten", zoom.emptyTiles), ("bytes", zoom.bytes),
                ("features", stats.features), ("droppedFeatures", stats.droppedFeatures),
                ("droppedTinyRings", stats.droppedTinyRings), ("droppedTinyLines", stats.droppedTinyLines),
                ("droppedDegenerateRings", stats.droppedDegenerateRings),
                ("droppedDegenerateLines", stats.droppedDegenerateLines),
                ("repairedRings", stats.repairedRings), ("selfCrossingRings", stats.selfCrossingRings),
            ]
            out.append("{")
            for (position, field) in fields.enumerated() {
                if position > 0 { out.append(", ") }
                out.append("\"")
                out.append(field.0)
                out.append("\": ")
                out.appendInteger(Int64(field.1))
            }
            out.append("}")
        }
        out.append("\n  ]")
        key("explanation")
        out.appendString("Counts are per tile (a feature in 4 tiles counts 4). droppedFeatures: features that "
            + "reached a tile but lost every part there. droppedTinyRings/Lines: smaller than the zoom's tolerance "
            + "(area < tolerance², length < tolerance). droppedDegenerateRings/Lines: fewer than 4 points (rings) "
            + "or 2 (lines), or no area, even at full detail, and holes of dropped exteriors. repairedRings: "
            + "simplified less than asked to stay valid. selfCrossingRings: still crossing at the least "
            + "simplification tried.")
        out.append("\n}\n")
        return out.bytes
    }

    /// Property names and their value types ("String", "Number", "Boolean", or "Mixed"), in
    /// order of first appearance.
    static func fields(_ attributes: [TileAttributes]) -> [(key: String, type: String)] {
        var order = [String](), types = [String: String]()
        for attribute in attributes {
            for member in attribute.properties ?? JSONObject() {
                let type: String
                switch member.value {
                case .null: continue
                case .bool: type = "Boolean"
                case .integer, .number: type = "Number"
                default: type = "String"
                }
                if let known = types[member.key] {
                    if known != type { types[member.key] = "Mixed" }
                } else {
                    order.append(member.key)
                    types[member.key] = type
                }
            }
        }
        return order.map { ($0, types[$0]!) }
    }
}
