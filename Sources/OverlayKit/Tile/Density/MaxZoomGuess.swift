#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// tippecanoe's `-zg`: the max zoom from how far apart features are, and how far apart the
/// vertices of lines and polygons are. Feature spacing is the geometric mean of the distances
/// between features that neighbour each other in spatial order (equal positions left out); the
/// guess is the lowest zoom at which it spans 8 tile units (half a screen pixel at extent 4096),
/// three zooms beyond where neighbours first stand apart. Vertex spacing is the geometric mean
/// distance between consecutive vertices; its zoom is where that spans 2 tile units, so full
/// detail is drawn. The guess is the larger of the two, as tippecanoe chooses, clamped to 0…20;
/// inputs with fewer than two distinct positions and no lines or polygons get 14.
enum MaxZoomGuess {
    /// The guess for features in `order` whose lines and polygons are `features`.
    static func guess(_ order: SpatialOrder, features: [ProjectedFeature], extent: Int = 4096) -> Int {
        let spacing = guess(order, extent: extent)
        var logSum = 0.0, count = 0
        for feature in features where feature.type != .point {
            for ring in feature.rings where ring.count > 1 {
                var index = ring.start * 3
                let end = (ring.start + ring.count - 1) * 3
                while index < end {
                    let dx = feature.coordinates[index + 3] - feature.coordinates[index]
                    let dy = feature.coordinates[index + 4] - feature.coordinates[index + 1]
                    let distance = (dx * dx + dy * dy).squareRoot()
                    if distance > 0, distance.isFinite {
                        logSum += log2(distance)
                        count += 1
                    }
                    index += 3
                }
            }
        }
        guard count > 0 else { return spacing ?? 14 }
        let vertices = zoom(spanning: 2, logDistance: logSum / Double(count), extent: extent)
        return max(spacing ?? 0, vertices)
    }

    /// The lowest zoom at which `units` tile units fit in a distance of 2^logDistance map points.
    private static func zoom(spanning units: Double, logDistance: Double, extent: Int) -> Int {
        // A tile unit at zoom z is 2^28 / (2^z · extent) map points.
        let zoom = (log2(MapProjection.worldSize / Double(extent)) - (logDistance - log2(units))).rounded(.up)
        return Int(saturating: min(20, max(0, zoom)))
    }

    /// The feature-spacing guess: the lowest zoom whose tile unit is at most an eighth of the
    /// spacing; nil with fewer than two distinct positions.
    static func guess(_ order: SpatialOrder, extent: Int = 4096) -> Int? {
        var logSum = 0.0, count = 0
        var previous: SpatialOrder.Entry?
        for entry in order.entries {
            defer { previous = entry }
            guard let last = previous else { continue }
            let distance = ((entry.x - last.x) * (entry.x - last.x) + (entry.y - last.y) * (entry.y - last.y)).squareRoot()
            guard distance > 0, distance.isFinite else { continue }
            logSum += log2(distance)
            count += 1
        }
        guard count > 0 else { return nil }
        return zoom(spanning: 8, logDistance: logSum / Double(count), extent: extent)
    }
}
