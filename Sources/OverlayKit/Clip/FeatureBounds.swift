import OverlayModel

/// The bounds of a tile's features in map points (geojson-vt's `tile.minX` …), used to
/// accept or reject all of them at once when clipping the children.
struct FeatureBounds {
    var minX = 2 * MapProjection.worldSize
    var minY = MapProjection.worldSize
    var maxX = -MapProjection.worldSize
    var maxY = 0.0

    /// Nothing yet.
    init() {}

    /// A feature's bounds.
    init(_ feature: ProjectedFeature) {
        minX = feature.minX
        minY = feature.minY
        maxX = feature.maxX
        maxY = feature.maxY
    }

    /// Grows to take in `other`.
    mutating func include(_ other: FeatureBounds) {
        minX = min(minX, other.minX)
        minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX)
        maxY = max(maxY, other.maxY)
    }
}
