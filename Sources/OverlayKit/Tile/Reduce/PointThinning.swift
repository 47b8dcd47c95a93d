#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// tippecanoe's dropping of points by rate (`-r`, `-B`): walking the points in spatial order,
/// each zoom z below the base zoom keeps one in `rate^(base − z)`, and a point kept at a zoom
/// is kept at every deeper one. The result is each point's first zoom; which points survive
/// depends only on the input, never on threads.
enum PointThinning {
    /// The first zoom each entry is shown at, by the entry's `source`.
    /// - Parameters:
    ///   - order: the point features in spatial order.
    ///   - featureCount: input features (the result's size; non-points get 0).
    static func minZooms(_ order: SpatialOrder, featureCount: Int, rate: Double, baseZoom: Int,
                         maxZoom: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: featureCount)
        guard rate > 1, baseZoom > 0 else { return result }
        let intervals = (0...maxZoom).map { zoom in zoom < baseZoom ? pow(rate, Double(baseZoom - zoom)) : 1 }
        var sequence = [Double](repeating: 0, count: maxZoom + 1)
        for entry in order.entries {
            for zoom in 0...maxZoom { sequence[zoom] += 1 }
            var first = 0
            for zoom in stride(from: maxZoom, through: 0, by: -1) {
                if sequence[zoom] < 0 {
                    first = zoom + 1
                    break
                }
                sequence[zoom] -= intervals[zoom]
            }
            result[entry.source] = UInt8(first)
        }
        return result
    }

    /// tippecanoe's `-Bg`: the lowest zoom at which no tile holds more than `limit` points, so
    /// every point can be kept from there down (the max zoom when none is that sparse).
    static func guessBaseZoom(_ order: SpatialOrder, limit: Int, maxZoom: Int) -> Int {
        for zoom in 0...maxZoom where order.densestTileCount(zoom: zoom) <= limit { return zoom }
        return maxZoom
    }
}
