#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// tippecanoe's dropping of points by rate (`-r`, `-B`): walking the points in spatial order,
/// each zoom z below the base zoom keeps one in `rate^(base − z)`, and a point kept at a zoom
/// is kept at every deeper one. Like tippecanoe, each tile also keeps the first point of its
/// buffered square along the curve whatever the rate says (tippecanoe's "the first feature in
/// each tile is always kept"): the tile's own first point, unless a point of an earlier tile on
/// the curve lies in the tile's buffer (`TileShadows`). The result is each point's first zoom;
/// which points survive depends only on the input, never on threads.
enum PointThinning {
    /// The first zoom each entry is shown at, by the entry's `source`.
    /// - Parameters:
    ///   - order: the point features in spatial order.
    ///   - featureCount: input features (the result's size; non-points get 0).
    static func minZooms(_ order: SpatialOrder, featureCount: Int, rate: Double, baseZoom: Int,
                         maxZoom: Int, buffer: Double) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: featureCount)
        guard rate > 1, baseZoom > 0 else { return result }
        var walker = Walker(rate: rate, baseZoom: baseZoom, maxZoom: maxZoom, buffer: buffer)
        for entry in order.entries { result[entry.source] = walker.next(key: entry.key) }
        return result
    }

    /// The walk along the curve, one point at a time: each zoom z below the base keeps one point
    /// in `rate^(base − z)` (tippecanoe's `calc_feature_minzoom`), and a point kept at a zoom is
    /// kept at every deeper one; a point that is the first of its tile at a zoom (the point before
    /// it lies in another tile) is kept there too, unless the tile is shadowed (`TileShadows`).
    /// What a point gets depends only on how many points came before it, where the last of them
    /// lies and the shadows the points before cast, so the walk can run over points streamed from
    /// disk, or start anywhere from a saved state and the shadows on its tiles.
    struct Walker {
        private let intervals: [Double]
        private var sequence: [Double]
        /// The key of the point before, nil before the first.
        private var previousKey: UInt64?
        private let maxZoom: Int
        /// The tiles whose buffer holds a point of an earlier tile.
        private(set) var shadows: TileShadows

        /// Where a walk stands after some points: what `init(rate:baseZoom:maxZoom:buffer:state:shadows:)` resumes from.
        struct State: Codable, Equatable, Sendable {
            /// Per zoom 0…max, tippecanoe's `drop_state.seq`.
            var sequence: [Double]
            /// The key of the last point walked (nil: none yet).
            var previousKey: UInt64?
        }

        /// A walk from the first point; `buffer`: the tiles' buffer as a fraction of their side
        /// (`TileOptions.buffer / extent`).
        init(rate: Double, baseZoom: Int, maxZoom: Int, buffer: Double) {
            self.maxZoom = maxZoom
            intervals = (0...maxZoom).map { zoom in zoom < baseZoom ? pow(rate, Double(baseZoom - zoom)) : 1 }
            sequence = [Double](repeating: 0, count: maxZoom + 1)
            shadows = TileShadows(buffer: buffer, zooms: min(baseZoom, maxZoom))
        }

        /// A walk resumed from `state` (another walk's, after the points before), with `shadows`
        /// holding at least the shadows the points before cast on the tiles of the points to come.
        init(rate: Double, baseZoom: Int, maxZoom: Int, buffer: Double, state: State, shadows: TileShadows) {
            self.init(rate: rate, baseZoom: baseZoom, maxZoom: maxZoom, buffer: buffer)
            if state.sequence.count == sequence.count { sequence = state.sequence }
            previousKey = state.previousKey
            self.shadows = shadows
        }

        /// Where the walk stands: what `init(rate:baseZoom:maxZoom:buffer:state:shadows:)` resumes from.
        var state: State { State(sequence: sequence, previousKey: previousKey) }

        /// The first zoom the next point along the curve (Morton key `key`, not below the last
        /// one's) is shown at: the first its rate keeps it at, or the first where it is the first
        /// point of its tile's buffered square, whichever is lower.
        mutating func next(key: UInt64) -> UInt8 {
            let byRate = nextByRate()
            let alone = Self.firstZoomAlone(key, after: previousKey)
            previousKey = key
            var first = byRate
            // Where it is its tile's first point, the tile's shadow is looked at once (and
            // forgotten): the lowest zoom unshadowed is its first, and every deeper one is
            // unshadowed too (a child's buffered square lies in its parent's).
            if Int(alone) < shadows.zooms {
                for zoom in Int(alone)..<shadows.zooms {
                    let shadowed = shadows.take(zoom: zoom, key: key)
                    if !shadowed && first == byRate { first = min(byRate, UInt8(zoom)) }
                }
            }
            shadows.cast(key)
            return first
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

    /// The tiles, per zoom below the base, whose buffered square holds a point of an earlier tile
    /// along the curve: tippecanoe reads a tile's features in curve order, buffer included, and
    /// keeps the first, so such a tile's first point is not its own and its own first point is
    /// not kept for it. Whether a tile is shadowed depends only on the points, so the shadows
    /// can be cast as the walk goes or gathered beforehand (a split run's partitions).
    struct TileShadows: Sendable {
        /// The buffer, as a fraction of a tile's side.
        let buffer: Double
        /// Zooms 0..<`zooms` are kept (those below the base zoom).
        let zooms: Int
        /// Per zoom, the Z-order indexes of the shadowed tiles not yet reached.
        private var shadowed: [Set<UInt64>]
        /// Per zoom, the size from which the shadows of tiles passed are forgotten.
        private var pruneAt: [Int]

        init(buffer: Double, zooms: Int) {
            self.buffer = buffer
            self.zooms = max(0, zooms)
            shadowed = Array(repeating: [], count: self.zooms)
            pruneAt = Array(repeating: 4096, count: self.zooms)
        }

        /// The tile of `key` at `zoom` (its Z-order index, as `PartitionRouter.index(of:)`).
        static func tile(_ key: UInt64, zoom: Int) -> UInt64 { zoom == 0 ? 0 : key >> UInt64(64 - 2 * zoom) }

        /// The later tiles (Z-order index above its own) at `zoom` whose buffered square holds the
        /// point with `key`: up to three neighbours across the edges it lies within the buffer of.
        static func shadowed(by key: UInt64, zoom: Int, buffer: Double) -> [UInt64] {
            guard zoom > 0 else { return [] }
            let (x, y) = (deinterleave(key >> 1), deinterleave(key))
            let shift = UInt32(32 - zoom), side = Double(UInt64(1) << UInt64(shift)), reach = buffer * side
            let column = x >> shift, row = y >> shift, last = UInt32((1 << zoom) - 1)
            func steps(_ at: UInt32, _ tile: UInt32) -> [Int] {
                let offset = Double(at - (tile << shift))
                return [0] + (offset < reach && tile > 0 ? [-1] : []) + (side - offset <= reach && tile < last ? [1] : [])
            }
            let own = tile(key, zoom: zoom)
            var result = [UInt64]()
            for dx in steps(x, column) {
                for dy in steps(y, row) where dx != 0 || dy != 0 {
                    let index = SpatialOrder.key(column: UInt32(Int(column) + dx), row: UInt32(Int(row) + dy))
                    if index > own { result.append(index) }
                }
            }
            return result
        }

        /// Casts the shadows of the point with `key` on the later tiles at every zoom kept.
        mutating func cast(_ key: UInt64) {
            for zoom in 0..<zooms {
                for index in Self.shadowed(by: key, zoom: zoom, buffer: buffer) { insert(zoom: zoom, index: index, passed: Self.tile(key, zoom: zoom)) }
            }
        }

        /// Marks tile `index` at `zoom` shadowed (gathered beforehand).
        mutating func insert(zoom: Int, index: UInt64) {
            guard zoom < zooms else { return }
            shadowed[zoom].insert(index)
        }

        /// Whether the tile of `key` at `zoom` is shadowed; forgotten then (only a tile's first
        /// point asks).
        mutating func take(zoom: Int, key: UInt64) -> Bool {
            shadowed[zoom].remove(Self.tile(key, zoom: zoom)) != nil
        }

        /// Every shadow kept, by zoom (sorted).
        var tiles: [[UInt64]] { shadowed.map { $0.sorted() } }

        private mutating func insert(zoom: Int, index: UInt64, passed: UInt64) {
            shadowed[zoom].insert(index)
            // Tiles before `passed` were reached already: their shadows are no longer asked for.
            if shadowed[zoom].count > pruneAt[zoom] {
                shadowed[zoom] = shadowed[zoom].filter { $0 > passed }
                pruneAt[zoom] = max(4096, 2 * shadowed[zoom].count)
            }
        }

        /// The even bits of `value`, packed (the inverse of `SpatialOrder`'s interleave).
        private static func deinterleave(_ value: UInt64) -> UInt32 {
            var bits = value & 0x5555_5555_5555_5555
            bits = (bits | (bits >> 1)) & 0x3333_3333_3333_3333
            bits = (bits | (bits >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
            bits = (bits | (bits >> 4)) & 0x00FF_00FF_00FF_00FF
            bits = (bits | (bits >> 8)) & 0x0000_FFFF_0000_FFFF
            bits = (bits | (bits >> 16)) & 0x0000_0000_FFFF_FFFF
            return UInt32(bits)
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

extension PointThinning {
    /// Whether `options` thin points: a drop rate above 1, a base zoom above 0, and no
    /// clustering (a cluster stands for every point in its count: nothing is thinned away).
    /// The one condition of a run in one process (`TileSource`) and of a split run (`TileJob`).
    static func thins(_ options: TileOptions) -> Bool {
        options.pointDropRate > 1 && options.resolvedBaseZoom > 0 && options.clusterDistance == 0
    }

    /// The walk that thins points with `options` from the first point, or nil where they thin none.
    static func walker(for options: TileOptions) -> Walker? {
        guard thins(options) else { return nil }
        return Walker(rate: options.pointDropRate, baseZoom: options.resolvedBaseZoom, maxZoom: options.maxZoom,
                      buffer: options.thinningBuffer)
    }

    /// The walk that thins points with `options`, resumed from `state` with `shadows` (a split
    /// run's partition), or nil where they thin none.
    static func walker(for options: TileOptions, resumedFrom state: Walker.State, shadows: TileShadows) -> Walker? {
        guard thins(options) else { return nil }
        return Walker(rate: options.pointDropRate, baseZoom: options.resolvedBaseZoom, maxZoom: options.maxZoom,
                      buffer: options.thinningBuffer, state: state, shadows: shadows)
    }
}
