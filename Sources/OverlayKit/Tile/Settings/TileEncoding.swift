/// How each tile's features are encoded.
public enum TileEncoding: String, Sendable, CaseIterable, Codable {
    /// Mapbox Vector Tile 2.1 (metadata format "pbf").
    case mvt
    /// One GeoJSON FeatureCollection per tile (metadata format "geojson"; directories only).
    case geojson
}
