import OverlayModel

/// One layer of a decoded vector tile: features in tile units (0…extent, plus the buffer).
public struct DecodedTileLayer: Hashable, Sendable {
    /// The layer's name.
    public var name: String
    /// Tile units across the tile.
    public var extent: Int
    /// The layer's features in tile order (geometry as `TileFeature` holds it: polygon rings
    /// closed, exteriors clockwise with y down).
    public var features: [TileFeature]

    /// A layer from its parts.
    public init(name: String, extent: Int, features: [TileFeature]) {
        self.name = name
        self.extent = extent
        self.features = features
    }
}
