import OverlayModel

/// How much of the map a run's features reach, for an estimate of the tiles it writes before
/// the first tile (`TileSource.estimatedTiles`): polygons by their exterior area, lines by their
/// length, points one tile each. Every geometry kind counts, so a line across the world at z14
/// (16,384 tiles) counts as much as it costs. O(1) per feature.
package struct FeatureReach: Sendable, Codable {
    /// The polygons' exterior area in map points², each input feature once.
    package private(set) var polygonArea = 0.0
    /// The lines' length in map points.
    package private(set) var lineLength = 0.0
    /// Line parts: each reaches at least one tile at every zoom.
    package private(set) var lineParts = 0
    /// Point positions: each is in one tile at every zoom.
    package private(set) var points = 0

    /// Nothing yet.
    package init() {}

    /// Adds one projected feature (a wrapped copy is a piece of its feature, so lines and points
    /// add up); its polygon area only when `countingArea` (once per input feature).
    package mutating func add(_ feature: ProjectedFeature, countingArea: Bool) {
        switch feature.type {
        case .polygon:
            guard countingArea else { return }
            for ring in feature.rings where ring.isOuter { polygonArea += ring.size }
        case .line:
            // A ring's `size` is its whole source line's, kept on every clipped piece and wrapped
            // copy: the piece's own length is measured instead.
            let c = feature.coordinates
            for ring in feature.rings {
                var index = ring.start + 1
                while index < ring.start + ring.count {
                    let dx = c[3 * index] - c[3 * index - 3], dy = c[3 * index + 1] - c[3 * index - 2]
                    lineLength += (dx * dx + dy * dy).squareRoot()
                    index += 1
                }
                lineParts += 1
            }
        case .point:
            points += feature.coordinates.count / 3
        }
    }

    /// Adds what `other` measured.
    package mutating func merge(_ other: FeatureReach) {
        polygonArea += other.polygonArea
        lineLength += other.lineLength
        lineParts += other.lineParts
        points += other.points
    }

    /// About how many tiles the features reach at `zoom`: area · 4^z / world² (at most the
    /// world) plus length · 2^z / world plus one per line part and point, at most 4^z.
    package func tiles(atZoom zoom: Int) -> Double {
        let world = MapProjection.worldSize
        let across = Double(sign: .plus, exponent: zoom, significand: 1)
        let all = across * across
        let reached = min(polygonArea / (world * world), 1) * all + lineLength / world * across
            + Double(lineParts) + Double(points)
        return min(reached, all)
    }
}
