/// What the input held that cannot be tiled, so nothing disappears unexplained.
public struct TileInputCounts: Hashable, Sendable, Codable {
    /// Features read.
    public var features = 0
    /// Features with a null geometry.
    public var withoutGeometry = 0
    /// Features whose geometry has no positions.
    public var withoutPositions = 0

    /// Nothing read yet.
    public init() {}
}
