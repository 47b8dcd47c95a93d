/// How each tile's features are encoded.
public enum TileEncoding: String, Sendable, CaseIterable, Codable {
    /// Mapbox Vector Tile 2.1 (metadata format "pbf").
    case mvt
    /// MapLibre Tiles 1 (metadata format "mlt", PMTiles tile type 6).
    case mlt
    /// One GeoJSON FeatureCollection per tile (metadata format "geojson"; directories only).
    case geojson
}

extension TileEncoding {
    /// The tile set metadata's `format`: "pbf", "mlt" or "geojson" (MBTiles' spelling; PMTiles
    /// takes its tile type from it).
    public var metadataFormat: String {
        switch self {
        case .mvt: "pbf"
        case .mlt: "mlt"
        case .geojson: "geojson"
        }
    }

    /// The encoding a tile set metadata's `format` names, nil for formats of no vector encoding.
    public init?(metadataFormat format: String) {
        switch format {
        case "pbf", "mvt", "": self = .mvt
        case "mlt": self = .mlt
        case "geojson": self = .geojson
        default: return nil
        }
    }

    /// The file extension of a directory's tiles, without the dot.
    public var fileExtension: String {
        switch self {
        case .mvt: "mvt"
        case .mlt: "mlt"
        case .geojson: "geojson"
        }
    }
}
