import Dispatch
import Foundation
import OverlayModel

/// Builds every tile of a zoom range top-down and hands each non-empty one to a callback,
/// without keeping tiles: the one walk over either feature store.
///
/// - In memory, the first few zooms are cut a level at a time (each level's tiles side by
///   side), then each subtree below them depth-first, in parallel, its clipped features
///   released as soon as its children are built.
/// - On disk, a tile whose records are too many to hold is cut while its records are read, and
///   each feature's pieces in its children go to the children's files (tippecanoe's way); a
///   tile whose records fit (24 MB of records) is read into memory and its subtree walked there.
///   Each is a task (`TaskStack`) on the run's threads, so memory holds at most one such subtree
///   per thread, whatever the input's size.
///
/// Each tile's content does not depend on the order, the store or the threads: the tiles are
/// the same, byte for byte, in memory and on disk, on any number of threads.
public enum TilePyramid {
    /// What one zoom produced and dropped.
    public typealias ZoomCounts = TileZoomCounts

    /// A subtree whose records take at most this many bytes is read into memory and walked there.
    static let loadBytes = 24 << 20

    /// Builds tiles from `minZoom` to the source's `maxZoom`.
    /// - Parameters:
    ///   - source: the projected features and the tile options.
    ///   - minZoom: the lowest zoom built.
    ///   - parallelism: threads to use (1 = all on the calling thread).
    ///   - emit: called once per non-empty tile, possibly from several threads at once;
    ///     returns the number of bytes it wrote. It may reduce the tile (a byte or feature
    ///     budget) and count that in the tile's statistics. An error stops the build and is rethrown.
    ///   - emitBlock: when given, a solid tile (every feature a polygon covering it) is not cut further: for each
    ///     deeper zoom one tile is cut and handed over with the block it stands for (every tile
    ///     of that zoom below the solid one, all identical); returns the bytes of one copy.
    ///     When nil, every tile is cut and emitted one by one.
    /// - Returns: counts for each zoom from `minZoom` to `maxZoom`.
    public static func build(_ source: TileSource, minZoom: Int, parallelism: Int = 2,
                             emit: @escaping @Sendable (inout VectorTile) throws -> Int,
                             emitBlock: (@Sendable (inout VectorTile, TileBlock) throws -> Int)? = nil) throws -> [ZoomCounts] {
        try build(source, minZoom: minZoom, parallelism: parallelism, loadBytes: loadBytes, emit: emit, emitBlock: emitBlock)
    }

    /// `build` with the most bytes of records a subtree may have to be walked in memory (tests
    /// make it 0: every tile is then cut while its records are read). `readsDeferred` when
    /// `emit` reads features through `VectorTile.feature(at:)` (the encoders do): a dense tile's
    /// attributes then stay stored until it is encoded; otherwise they are decoded first.
    static func build(_ source: TileSource, minZoom: Int, parallelism: Int, loadBytes: Int, readsDeferred: Bool = false,
                      emit: @escaping @Sendable (inout VectorTile) throws -> Int,
                      emitBlock: (@Sendable (inout VectorTile, TileBlock) throws -> Int)?) throws -> [ZoomCounts] {
        let maxZoom = source.options.maxZoom
        let walk = Walk(options: source.options, minZoom: minZoom, lastZoom: maxZoom, parallelism: max(1, parallelism),
                        emit: readsDeferred ? emit : resolving(emit), emitBlock: readsDeferred ? emitBlock : emitBlock.map(resolving))
        return try walk.cutAll(source, loadBytes: loadBytes)
    }

    /// Walks a sample of the pyramid for a plan (`TileSampling`): about `tilesPerZoom` tiles a
    /// zoom are cut, on the store the run would use, and each is handed to `emit` with the
    /// tiles it stands for (its weight; a solid tile's block also gives the block, whose copies
    /// the weight does not include). Solid tiles are found as the run finds them.
    /// - Returns: the unweighted counts of the tiles visited, per zoom from `minZoom`.
    static func sample(_ source: TileSource, minZoom: Int, parallelism: Int, tilesPerZoom: Int,
                       emit: @escaping @Sendable (inout VectorTile, _ weight: Double, TileBlock?) throws -> Int) throws -> [ZoomCounts] {
        let walk = Walk(options: source.options, minZoom: minZoom, lastZoom: source.options.maxZoom,
                        parallelism: max(1, parallelism), emit: { _ in 0 }, emitBlock: nil, sampled: emit,
                        rootShare: TileSampling.Share(weight: 1, budget: Double(max(1, tilesPerZoom))))
        return try walk.cutAll(source, loadBytes: loadBytes)
    }

    /// Builds the tiles of `root`'s subtree from `minZoom` to `lastZoom` (at most the max zoom,
    /// whose tiles keep full detail) from what a store holds for it (clipped to `root`, in the
    /// run's order): one partition of a run split over machines (`TileJob`), or the zooms above
    /// its partitions. Arguments and result as `build`; the counts are indexed by zoom, 0 to the
    /// max zoom.
    static func build(_ zoomZero: ZoomZeroFeatures, root: TileID, options: TileOptions, minZoom: Int, lastZoom: Int,
                      parallelism: Int, readsDeferred: Bool = false,
                      emit: @escaping @Sendable (inout VectorTile) throws -> Int,
                      emitBlock: (@Sendable (inout VectorTile, TileBlock) throws -> Int)?) throws -> [ZoomCounts] {
        let walk = Walk(options: options, minZoom: minZoom, lastZoom: min(lastZoom, options.maxZoom), parallelism: max(1, parallelism),
                        emit: readsDeferred ? emit : resolving(emit), emitBlock: readsDeferred ? emitBlock : emitBlock.map(resolving))
        var counts = ZoomCounts.zooms(through: options.maxZoom)
        guard root.z <= walk.lastZoom else { return counts }
        try walk.cut(zoomZero, root: root, loadBytes: loadBytes, counts: &counts)
        return counts
    }

    /// `emit` handed tiles whose attributes are all decoded.
    private static func resolving(_ emit: @escaping @Sendable (inout VectorTile) throws -> Int) -> @Sendable (inout VectorTile) throws -> Int {
        { tile in
            tile.resolveDeferredAttributes()
            return try emit(&tile)
        }
    }

    private static func resolving(_ emit: @escaping @Sendable (inout VectorTile, TileBlock) throws -> Int)
            -> @Sendable (inout VectorTile, TileBlock) throws -> Int {
        { tile, block in
            tile.resolveDeferredAttributes()
            return try emit(&tile, block)
        }
    }

    /// A tile waiting to be cut in memory: the features clipped to it, and its part of a sampled walk.
    struct PendingTile {
        var features: [ProjectedFeature]
        var id: TileID
        var share: TileSampling.Share
    }

    /// What every tile of one build shares.
    struct Walk: @unchecked Sendable {
        let options: TileOptions
        let minZoom: Int
        /// The deepest zoom cut: the max zoom, or the zoom above a distributed run's partitions.
        let lastZoom: Int
        let parallelism: Int
        let emit: @Sendable (inout VectorTile) throws -> Int
        let emitBlock: (@Sendable (inout VectorTile, TileBlock) throws -> Int)?
        /// A plan's walk (`sample`): every tile visited goes here, with its weight, instead of
        /// to `emit` or `emitBlock`; only the children `TileSampling` keeps are visited.
        var sampled: (@Sendable (inout VectorTile, Double, TileBlock?) throws -> Int)? = nil
        /// The root's share: every tile visited, unless a plan's walk.
        var rootShare = TileSampling.Share.whole
        /// Hands the memory of finished disk-walk tasks back to the system, so resident memory
        /// follows what is live.
        let trimmer = FreedMemoryTrimmer()
        /// One heavy tile at a time, whatever the thread count.
        let heavyTiles = HeavyTileGate()

        /// Whether solid tiles end their subtree with blocks.
        var findsSolidTiles: Bool { emitBlock != nil || sampled != nil }

        /// Cuts the whole pyramid of `source`, from its disk store or memory.
        func cutAll(_ source: TileSource, loadBytes: Int) throws -> [ZoomCounts] {
            let maxZoom = source.options.maxZoom
            var counts = ZoomCounts.zooms(through: maxZoom)
            try cut(source.store.zoomZero, root: TileID(z: 0, x: 0, y: 0), loadBytes: loadBytes, counts: &counts)
            return Array(counts[min(minZoom, maxZoom)...])
        }

        /// Cuts `root`'s subtree from what a store holds for it at zoom 0: records on disk (tiles
        /// too big to hold cut while read) or features in memory.
        func cut(_ zoomZero: ZoomZeroFeatures, root: TileID, loadBytes: Int, counts: inout [ZoomCounts]) throws {
            switch zoomZero {
            case .records(let runs, let folder, let usage):
                try cutSubtree(runs, root: root, folder: folder, usage: usage, loadBytes: loadBytes, counts: &counts)
            case .features(let features, let attributes, let propertyTable):
                guard !features.isEmpty else { return }
                let cutter = TileCutter(options: options, propertyTable: propertyTable, attributes: { attributes[$0] })
                try cutInMemory([PendingTile(features: features, id: root, share: rootShare)], cutter: cutter, counts: &counts)
            }
        }

        /// Walks the subtrees of `roots` in memory: the top zooms one level at a time until
        /// there are enough subtrees to share out, each level's tiles side by side (a level of
        /// a few heavy tiles holds the whole input: one thread cut zooms 1 and 2 of the 10m land
        /// alone), then the subtrees side by side.
        func cutInMemory(_ roots: [PendingTile], cutter: TileCutter, counts: inout [ZoomCounts]) throws {
            var frontier = roots
            while !frontier.isEmpty && (parallelism <= 1 || frontier.count < 8 * parallelism)
                    && frontier[0].id.z < min(lastZoom, 6) {
                let level = frontier
                let visited = try WorkerThreads.map(level.indices, parallelism: parallelism) { index in
                    var local = ZoomCounts.zooms(through: options.maxZoom)
                    let children = try visit(level[index], cutter: cutter, counts: &local)
                    return (children: children, counts: local)
                }
                frontier = visited.flatMap(\.children)
                for tile in visited { Self.add(tile.counts, to: &counts) }
            }
            let subtrees = frontier
            let results = try WorkerThreads.map(subtrees.indices, parallelism: parallelism) { index -> [ZoomCounts] in
                var local = ZoomCounts.zooms(through: options.maxZoom)
                var stack = [subtrees[index]]
                while let pending = stack.popLast() {
                    stack += try visit(pending, cutter: cutter, counts: &local)
                }
                return local
            }
            for local in results { Self.add(local, to: &counts) }
        }

        /// Builds one tile, emits it when it has features, and returns its non-empty children (none
        /// when the tile is solid and its subtree was emitted as blocks; a plan's walk keeps some).
        private func visit(_ pending: PendingTile, cutter: TileCutter, counts: inout [ZoomCounts]) throws -> [PendingTile] {
            let features = pending.features, id = pending.id
            var (tile, bounds) = cutter.cut(features, id)
            if id.z >= minZoom {
                try heavyTiles.run(heavy: tile.features.count >= HeavyTileGate.features) {
                    try emitCounted(&tile, share: pending.share, counts: &counts)
                }
            }
            guard id.z < lastZoom else { return [] }
            if findsSolidTiles, SolidTile.isSolid(features, tile: id, options: options) {
                try visitSolid(features, id, share: pending.share, bounds: bounds, cutter: cutter, counts: &counts)
                return []
            }
            let parts = TileSplit.split(features, tile: id, bounds: bounds, options: options)
            var children = [PendingTile]()
            for (part, child) in zip(parts, TileSplit.children(of: id)) where !part.isEmpty {
                children.append(PendingTile(features: part, id: child, share: pending.share))
            }
            if pending.share.budget.isFinite {
                let sizes = children.map { child -> Double? in
                    findsSolidTiles && SolidTile.isSolid(child.features, tile: child.id, options: options)
                        ? nil : TileSampling.size(of: child.features, tile: child.id, options: options)
                }
                let shares = TileSampling.visited(children.map(\.id), sizes: sizes, of: pending.share)
                children = zip(children, shares).compactMap { child, share in
                    share.map { PendingTile(features: child.features, id: child.id, share: $0) }
                }
            }
            // Depth-first from a stack: push in reverse so the first child is built first.
            return children.reversed()
        }

        /// Emits `tile` unless it is empty, and counts it (written or empty, and its statistics).
        func emitCounted(_ tile: inout VectorTile, share: TileSampling.Share = .whole, counts: inout [ZoomCounts]) throws {
            let zoom = tile.id.z
            if tile.features.isEmpty {
                counts[zoom].emptyTiles += 1
            } else {
                counts[zoom].tiles += 1
                counts[zoom].bytes += try sampled.map { try $0(&tile, share.weight, nil) } ?? emit(&tile)
            }
            counts[zoom].statistics += tile.statistics
        }

        /// Below a solid tile: cuts one path of first children down to the deepest zoom and emits
        /// each tile of it for its whole block (4^depth identical tiles). O(zooms) tiles cut.
        func visitSolid(_ features: [ProjectedFeature], _ root: TileID, share: TileSampling.Share = .whole,
                        bounds: FeatureBounds, cutter: TileCutter, counts: inout [ZoomCounts]) throws {
            let emitBlock: @Sendable (inout VectorTile, TileBlock) throws -> Int
            if let sampled {
                emitBlock = { tile, block in try sampled(&tile, share.weight, block) }
            } else if let given = self.emitBlock {
                emitBlock = given
            } else {
                return
            }
            var features = features, bounds = bounds, id = root
            while id.z < lastZoom {
                features = TileSplit.split(features, tile: id, bounds: bounds, options: options)[0]
                id = TileSplit.children(of: id)[0]
                var (tile, tileBounds) = cutter.cut(features, id)
                bounds = tileBounds
                guard id.z >= minZoom else { continue }
                let block = TileBlock(root: root, zoom: id.z)
                let copies = block.tileCount
                if tile.features.isEmpty {
                    counts[id.z].emptyTiles = counts[id.z].emptyTiles.addingSaturating(copies)
                } else {
                    counts[id.z].tiles = counts[id.z].tiles.addingSaturating(copies)
                    counts[id.z].bytes = counts[id.z].bytes.addingSaturating(try emitBlock(&tile, block).multipliedSaturating(by: copies))
                }
                counts[id.z].statistics += tile.statistics.repeated(copies)
            }
        }

        /// Cuts the subtree of `root` from the records of `runs` (in order): tiles too big to hold
        /// are cut while read, subtrees that fit are walked in memory, all as tasks on the run's threads.
        func cutSubtree(_ runs: [RecordRun], root: TileID, folder: String, usage: RecordFileUsage, loadBytes: Int,
                        counts: inout [ZoomCounts]) throws {
            let total = SharedCounts(zooms: ZoomCounts.zooms(through: options.maxZoom))
            let share = rootShare
            try TaskStack.run(threads: parallelism) { stack in
                try cutRecords(runs, tile: root, share: share, folder: folder, usage: usage, loadBytes: loadBytes,
                               stack: stack, total: total)
            }
            Self.add(total.zooms, to: &counts)
        }

        /// Cuts tile `id` from the records of `runs` (in order) and its subtree: read into memory
        /// and walked there when they fit (`loadBytes`), else cut while read, its children's
        /// records written to new files in `folder` and each child pushed as a task of its own.
        func cutRecords(_ runs: [RecordRun], tile id: TileID, share: TileSampling.Share, folder: String, usage: RecordFileUsage,
                        loadBytes: Int, stack: TaskStack, total: SharedCounts) throws {
            let bytes = runs.reduce(0) { $0 + $1.size }
            guard bytes > 0 else { return }
            var counts = ZoomCounts.zooms(through: options.maxZoom)
            if bytes <= loadBytes {
                let (features, attributes) = try RecordRun.load(runs)
                let cutter = TileCutter(options: options, propertyTable: nil, attributes: attributes)
                try walkLoaded(PendingTile(features: features, id: id, share: share), cutter: cutter, stack: stack, total: total)
                trimmer.finished(bytes: bytes)
                return
            }
            let splitting = id.z < lastZoom
            var children = try ChildRecords(folder: splitting ? folder : nil, usage: usage)
            let cut = RecordTileCut(walk: self)
            try cut.cut(id, share: share, runs: runs, children: &children, counts: &counts)
            try children.finish()
            total.add(counts)
            trimmer.finished(bytes: bytes)
            guard let childRuns = children.runs else { return }
            let nonEmpty = zip(childRuns, TileSplit.children(of: id)).filter { $0.0.size > 0 }
            // Record bytes for features: about the same split, read from the files' sizes.
            let shares = TileSampling.visited(nonEmpty.map(\.1), sizes: nonEmpty.map { Double($0.0.size) }, of: share)
            // Pushed last child first, so the first child is taken first.
            for ((run, child), childShare) in zip(nonEmpty, shares).reversed() {
                guard let childShare else { continue }
                stack.push { stack in
                    try cutRecords([run], tile: child, share: childShare, folder: folder, usage: usage,
                                   loadBytes: loadBytes, stack: stack, total: total)
                }
            }
        }

        /// A tile with at least this many features is cut as a task of its own, so a large subtree
        /// is shared out among the threads instead of keeping one busy while the others wait.
        static let taskFeatures = 4096

        /// Walks `root`'s subtree in memory, depth-first, pushing each child with many features as
        /// a task of its own.
        func walkLoaded(_ root: PendingTile, cutter: TileCutter, stack: TaskStack, total: SharedCounts) throws {
            var counts = ZoomCounts.zooms(through: options.maxZoom)
            var tiles = [root]
            while let pending = tiles.popLast() {
                for child in try visit(pending, cutter: cutter, counts: &counts) {
                    if child.features.count >= Self.taskFeatures {
                        stack.push { stack in try walkLoaded(child, cutter: cutter, stack: stack, total: total) }
                    } else {
                        tiles.append(child)
                    }
                }
            }
            total.add(counts)
        }

        static func add(_ local: [ZoomCounts], to counts: inout [ZoomCounts]) {
            for (zoom, zoomCounts) in local.enumerated() { counts[zoom] += zoomCounts }
        }
    }

    /// Per-zoom counts that tasks on several threads add to.
    final class SharedCounts: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var zooms: [ZoomCounts]

        init(zooms: [ZoomCounts]) { self.zooms = zooms }

        func add(_ local: [ZoomCounts]) {
            lock.lock()
            Walk.add(local, to: &zooms)
            lock.unlock()
        }
    }
}

/// Cuts one tile from the features clipped to it, and clusters its points when the options ask
/// for it at this zoom: the one step every tile takes, in memory or read from records.
struct TileCutter: @unchecked Sendable {
    let options: TileOptions
    let propertyTable: MVTPropertyTable?
    let attributes: (Int) -> TileAttributes

    init(options: TileOptions, propertyTable: MVTPropertyTable?, attributes: @escaping (Int) -> TileAttributes) {
        self.options = options
        self.propertyTable = propertyTable
        self.attributes = attributes
    }

    /// Cuts from a source whose attributes are in memory.
    init(_ source: TileSource) {
        let attributes = source.attributes
        self.init(options: source.options, propertyTable: source.propertyTable, attributes: { attributes[$0] })
    }

    /// The tile `id` of `features` (clustered as asked), and their bounds.
    func cut(_ features: [ProjectedFeature], _ id: TileID) -> (VectorTile, FeatureBounds) {
        var accumulator = TileBuilder.Accumulator(tile: id, options: options, keepsPropertySources: propertyTable != nil,
                                                  capacity: features.count)
        for feature in features { accumulator.add(feature, attributes: attributes) }
        var (tile, bounds) = accumulator.finish(attributes: attributes, propertyTable: propertyTable)
        cluster(&tile)
        return (tile, bounds)
    }

    /// Clusters `tile`'s points when the options ask for it at its zoom.
    func cluster(_ tile: inout VectorTile) {
        if options.clusterDistance > 0 && tile.id.z <= options.clusterMaxZoom ?? options.maxZoom {
            PointClustering.cluster(&tile, distance: options.clusterDistance * Double(options.extent) / 256,
                                    rules: options.clusterAttributes)
        }
    }
}
