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
        var walker = Walker(rate: rate, baseZoom: baseZoom, maxZoom: maxZoom)
        for entry in order.entries { result[entry.source] = walker.next() }
        return result
    }

    /// The walk along the curve, one point at a time: each zoom z below the base keeps one point
    /// in `rate^(base − z)`, and a point kept at a zoom is kept at every deeper one. What a point
    /// gets depends only on how many points came before it, so the walk can run over points
    /// streamed from disk, or start anywhere from a saved state.
    struct Walker {
        private let intervals: [Double]
        private var sequence: [Double]
        private let maxZoom: Int

        init(rate: Double, baseZoom: Int, maxZoom: Int) {
            self.maxZoom = maxZoom
            intervals = (0...maxZoom).map { zoom in zoom < baseZoom ? pow(rate, Double(baseZoom - zoom)) : 1 }
            sequence = [Double](repeating: 0, count: maxZoom + 1)
        }

        /// A walk resumed from `state` (another walk's, after the points before).
        init(rate: Double, baseZoom: Int, maxZoom: Int, state: [Double]) {
            self.init(rate: rate, baseZoom: baseZoom, maxZoom: maxZoom)
            if state.count == sequence.count { sequence = state }
        }

        /// Where the walk stands: what `init(rate:baseZoom:maxZoom:state:)` resumes from.
        var state: [Double] { sequence }

        /// The first zoom the next point along the curve is shown at.
        mutating func next() -> UInt8 {
            for zoom in 0...maxZoom { sequence[zoom] += 1 }
            var first = 0
            for zoom in stride(from: maxZoom, through: 0, by: -1) {
                if sequence[zoom] < 0 {
                    first = zoom + 1
                    break
                }
                sequence[zoom] -= intervals[zoom]
            }
            return UInt8(first)
        }
    }

    /// The most points in one tile at each zoom, from the points' keys in ascending order (a
    /// tile is a run of equal key prefix).
    struct DensestTiles {
        private var previous: [UInt64?]
        private var run: [Int]
        private(set) var best: [Int]

        init(maxZoom: Int) {
            previous = Array(repeating: nil, count: maxZoom + 1)
            run = Array(repeating: 0, count: maxZoom + 1)
            best = Array(repeating: 0, count: maxZoom + 1)
        }

        /// Counts the next point along the curve.
        mutating func add(_ key: UInt64) {
            for zoom in best.indices {
                let tile = zoom == 0 ? 0 : key >> UInt64(64 - 2 * zoom)
                if tile == previous[zoom] { run[zoom] += 1 } else { run[zoom] = 1; previous[zoom] = tile }
                best[zoom] = max(best[zoom], run[zoom])
            }
        }

        /// The lowest zoom whose densest tile holds at most `limit` points; the max zoom when none does.
        func baseZoom(limit: Int) -> Int {
            Self.baseZoom(best, limit: limit, maxZoom: best.count - 1)
        }

        /// The lowest zoom up to `maxZoom` whose densest tile (`best`, by zoom) holds at most
        /// `limit` points; `maxZoom` when none does.
        static func baseZoom(_ best: [Int], limit: Int, maxZoom: Int) -> Int {
            (0...min(maxZoom, best.count - 1)).first { best[$0] <= limit } ?? maxZoom
        }
    }
}
