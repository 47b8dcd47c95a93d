#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// tippecanoe's dropping of points by rate (`-r`, `-B`): walking the points in spatial order,
/// each zoom z below the base zoom keeps one in `rate^(base − z)`, and a point kept at a zoom
/// is kept at every deeper one. Like tippecanoe, each tile also keeps its first point along the
/// curve whatever the rate says (tippecanoe's "the first feature in each tile is always kept"),
/// so no tile that holds points is left empty. The result is each point's first zoom; which
/// points survive depends only on the input, never on threads.
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
        for entry in order.entries { result[entry.source] = walker.next(key: entry.key) }
        return result
    }

    /// The walk along the curve, one point at a time: each zoom z below the base keeps one point
    /// in `rate^(base − z)` (tippecanoe's `calc_feature_minzoom`), and a point kept at a zoom is
    /// kept at every deeper one; a point that is the first of its tile at a zoom (the point before
    /// it lies in another tile) is kept there too. What a point gets depends only on how many
    /// points came before it and where the last of them lies, so the walk can run over points
    /// streamed from disk, or start anywhere from a saved state.
    struct Walker {
        private let intervals: [Double]
        private var sequence: [Double]
        /// The key of the point before, nil before the first.
        private var previousKey: UInt64?
        private let maxZoom: Int

        /// Where a walk stands after some points: what `init(rate:baseZoom:maxZoom:state:)` resumes from.
        struct State: Codable, Equatable, Sendable {
            /// Per zoom 0…max, tippecanoe's `drop_state.seq`.
            var sequence: [Double]
            /// The key of the last point walked (nil: none yet).
            var previousKey: UInt64?
        }

        init(rate: Double, baseZoom: Int, maxZoom: Int) {
            self.maxZoom = maxZoom
            intervals = (0...maxZoom).map { zoom in zoom < baseZoom ? pow(rate, Double(baseZoom - zoom)) : 1 }
            sequence = [Double](repeating: 0, count: maxZoom + 1)
        }

        /// A walk resumed from `state` (another walk's, after the points before).
        init(rate: Double, baseZoom: Int, maxZoom: Int, state: State) {
            self.init(rate: rate, baseZoom: baseZoom, maxZoom: maxZoom)
            if state.sequence.count == sequence.count { sequence = state.sequence }
            previousKey = state.previousKey
        }

        /// Where the walk stands: what `init(rate:baseZoom:maxZoom:state:)` resumes from.
        var state: State { State(sequence: sequence, previousKey: previousKey) }

        /// The first zoom the next point along the curve (Morton key `key`, not below the last
        /// one's) is shown at: the first its rate keeps it at, or the first where it is its
        /// tile's first point, whichever is lower.
        mutating func next(key: UInt64) -> UInt8 {
            let byRate = nextByRate()
            let alone = Self.firstZoomAlone(key, after: previousKey)
            previousKey = key
            return min(byRate, alone)
        }

        /// Walks past `count` points whose last has key `lastKey` (a plan resuming after a
        /// partition it has not read: only the count and the last key matter).
        mutating func skip(_ count: Int, lastKey: UInt64) {
            guard count > 0 else { return }
            for _ in 0..<count { _ = nextByRate() }
            previousKey = lastKey
        }

        /// The rate's first zoom for the next point (tippecanoe's `calc_feature_minzoom`).
        private mutating func nextByRate() -> UInt8 {
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

        /// The first zoom at which the point with `key` is alone in its tile so far: the zoom after
        /// the deepest whose tile it shares with the point before (`previous`, nil: none, so zoom
        /// 0); `UInt8.max` for a point at the same place as the one before (no tile separates them).
        /// A tile at zoom z is the top 2z bits of a key (`DensestTiles`).
        static func firstZoomAlone(_ key: UInt64, after previous: UInt64?) -> UInt8 {
            guard let previous else { return 0 }
            let differing = key ^ previous
            return differing == 0 ? .max : UInt8(differing.leadingZeroBitCount / 2 + 1)
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
