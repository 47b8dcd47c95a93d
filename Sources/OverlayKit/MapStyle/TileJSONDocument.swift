import OverlayModel

/// A TileJSON 3.0.0 document for a tile set: where its tiles are (`tiles` templates), its
/// zooms, bounds, center and `vector_layers` from the metadata. What a MapLibre vector source's
/// `url` points at.
public enum TileJSONDocument {
    /// The document for `metadata` with tiles at `tiles` (templates with `{z}`, `{x}`, `{y}`).
    public static func json(metadata: TileSetMetadata, tiles: [String]) -> JSONObject {
        var object = JSONObject()
        object.append("tilejson", .string("3.0.0"))
        object.append("name", .string(metadata.name))
        if !metadata.description.isEmpty { object.append("description", .string(metadata.description)) }
        if let attribution = metadata.other["attribution"]?.stringValue { object.append("attribution", .string(attribution)) }
        object.append("scheme", .string("xyz"))
        object.append("tiles", .array(tiles.map { .string($0) }))
        object.append("minzoom", .integer(Int64(metadata.minZoom)))
        object.append("maxzoom", .integer(Int64(metadata.maxZoom)))
        if let bounds = metadata.bounds { object.append("bounds", MapLibreStyle.bounds(bounds)) }
        if let center = metadata.center {
            object.append("center", .array([.number(center.longitude), .number(center.latitude), .integer(Int64(center.zoom))]))
        }
        object.append("vector_layers", metadata.layersJSON()["vector_layers"] ?? .array([]))
        return object
    }

    /// The document as bytes.
    public static func bytes(metadata: TileSetMetadata, tiles: [String]) -> [UInt8] {
        var out = JSONBytes()
        out.appendObject(json(metadata: metadata, tiles: tiles))
        out.append(UInt8(ascii: "\n"))
        return out.bytes
    }
}
