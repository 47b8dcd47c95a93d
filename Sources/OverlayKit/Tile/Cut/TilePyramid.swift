import Dispatch
import Foundation
import OverlayModel

/// Builds every tile of a zoom range top-down and hands each non-empty one to a callback,
/// without keeping tiles in memory: each subtree is walked depth-first and its clipped
/// features are released as soon as its children are built. Subtrees below the first few
/// zooms run in parallel; each tile's content does not depend on the order, so the output is
/// the same on any number of threads.
public enum TilePyramid {
    /// What one zoom produced and dropped.
    public struct ZoomCounts: Hashable, Sendable {
        /// The zoom these counts are for.
        public var zoom: Int
        /// Tiles written.
        public var tiles = 0
        /// Tiles that features reached but where every part was dropped: not written.
        public var emptyTiles = 0
        /// Bytes written.
        public var bytes = 0
        /// Feature and ring counts summed over the zoom's tiles (a feature in 4 tiles counts 4).
        public var statistics = TileStatistics()

        /// Zero counts for `zoom`.
        public init(zoom: Int) { self.zoom = zoom }

        /// Zero counts for every zoom from 0 to `maxZoom`, indexed by zoom.
        static func zooms(through maxZoom: Int) -> [ZoomCounts] { (0...maxZoom).map { ZoomCounts(zoom: $0) } }

        static func += (a: inout ZoomCounts, b: ZoomCounts) {
            a.tiles = a.tiles.addingSaturating(b.tiles)
            a.emptyTiles = a.emptyTiles.addingSaturating(b.emptyTiles)
            a.bytes = a.bytes.addingSaturating(b.bytes)
            a.statistics += b.statistics
        }
    }

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
        if let spilled = source.spilled {
            return try ExternalPyramid.build(source, store: spilled, minZoom: minZoom, parallelism: parallelism, emit: emit,
                                             emitBlock: emitBlock)
        }
        let maxZoom = source.options.maxZoom
        var counts = ZoomCounts.zooms(through: maxZoom)
        var frontier: [([ProjectedFeature], TileID)] = source.features.isEmpty ? [] : [(source.features, TileID(z: 0, x: 0, y: 0))]
        // Top zooms one level at a time until there are enough subtrees to share out.
        while !frontier.isEmpty && (parallelism <= 1 || frontier.count < 8 * parallelism) && frontier[0].1.z < min(maxZoom, 6) {
            var next = [([ProjectedFeature], TileID)]()
            for (features, id) in frontier {
                next += try visit(features, id, source: source, minZoom: minZoom, counts: &counts, emit: emit,
                                  emitBlock: emitBlock)
            }
            frontier = next
        }
        let subtrees = frontier
        let lock = NSLock()
        var firstError: Error?
        var results = [[ZoomCounts]](repeating: [], count: subtrees.count)
        let work = { @Sendable (index: Int) -> ([ZoomCounts], Error?) in
            var local = ZoomCounts.zooms(through: maxZoom)
            do {
                var stack = [subtrees[index]]
                while let (features, id) = stack.popLast() {
                    stack += try visit(features, id, source: source, minZoom: minZoom, counts: &local, emit: emit,
                                       emitBlock: emitBlock)
                }
                return (local, nil)
            } catch {
                return (local, error)
            }
        }
        if parallelism <= 1 {
            for index in subtrees.indices {
                let (local, error) = work(index)
                if let error { throw error }
                results[index] = local
            }
        } else {
            let box = ResultBox(count: subtrees.count)
            DispatchQueue.concurrentPerform(iterations: subtrees.count) { index in
                let (local, error) = work(index)
                lock.lock()
                box.results[index] = local
                if let error, box.error == nil { box.error = error }
                lock.unlock()
            }
            results = box.results
            firstError = box.error
        }
        if let firstError { throw firstError }
        for local in results {
            for (zoom, zoomCounts) in local.enumerated() { counts[zoom] += zoomCounts }
        }
        return Array(counts[min(minZoom, maxZoom)...])
    }

    private final class ResultBox: @unchecked Sendable {
        var results: [[ZoomCounts]]
        var error: Error?
        init(count: Int) { results = Array(repeating: [], count: count) }
    }

    /// Builds one tile, emits it when it has features, and returns its non-empty children (none
    /// when the tile is solid and its subtree was emitted as blocks).
    private static func visit(_ features: [ProjectedFeature], _ id: TileID, source: TileSource, minZoom: Int,
                              counts: inout [ZoomCounts], emit: (inout VectorTile) throws -> Int,
                              emitBlock: ((inout VectorTile, TileBlock) throws -> Int)?) throws -> [([ProjectedFeature], TileID)] {
        let cutter = TileCutter(source)
        var (tile, bounds) = cutter.cut(features, id)
        if id.z >= minZoom { try emitCounted(&tile, counts: &counts, emit: emit) }
        guard id.z < source.options.maxZoom else { return [] }
        if let emitBlock, SolidTile.isSolid(features, tile: id, options: source.options) {
            try visitSolid(features, id, bounds: bounds, cutter: cutter, minZoom: minZoom, counts: &counts, emitBlock: emitBlock)
            return []
        }
        let parts = TileSource.split(features, tile: id, bounds: bounds, options: source.options)
        var children = [([ProjectedFeature], TileID)]()
        for (part, child) in zip(parts, TileSource.children(of: id)) where !part.isEmpty {
            children.append((part, child))
        }
        // Depth-first from a stack: push in reverse so the first child is built first.
        return children.reversed()
    }

    /// Emits `tile` unless it is empty, and counts it (written or empty, and its statistics).
    static func emitCounted(_ tile: inout VectorTile, counts: inout [ZoomCounts],
                            emit: (inout VectorTile) throws -> Int) throws {
        let zoom = tile.id.z
        if tile.features.isEmpty {
            counts[zoom].emptyTiles += 1
        } else {
            counts[zoom].tiles += 1
            counts[zoom].bytes += try emit(&tile)
        }
        counts[zoom].statistics += tile.statistics
    }

    /// Below a solid tile: cuts one path of first children down to the deepest zoom and emits
    /// each tile of it for its whole block (4^depth identical tiles). O(zooms) tiles cut.
    static func visitSolid(_ features: [ProjectedFeature], _ root: TileID, bounds: TileBuilder.Bounds,
                           cutter: TileCutter, minZoom: Int, counts: inout [ZoomCounts],
                           emitBlock: (inout VectorTile, TileBlock) throws -> Int) throws {
        var features = features, bounds = bounds, id = root
        while id.z < cutter.options.maxZoom {
            features = TileSource.split(features, tile: id, bounds: bounds, options: cutter.options)[0]
            id = TileSource.children(of: id)[0]
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
}

/// Cuts one tile from the features clipped to it, and clusters its points when the options ask
/// for it at this zoom: the one step every tile of `TilePyramid` and `ExternalPyramid` takes.
struct TileCutter {
    let options: TileOptions
    let visibility: FeatureVisibility
    let propertyTable: MVTPropertyTable?
    let attributes: (Int) -> TileAttributes
    /// The layer of an input position (polygons share borders within their layer).
    let layers: @Sendable (Int) -> Int
    /// The polygons held for shared borders (`TileOptions.sharedBorders`).
    let candidates: SharedBorderCandidates?

    /// Cuts from a source whose attributes are in memory.
    init(_ source: TileSource) {
        let attributes = source.attributes
        self.init(options: source.options, visibility: source.visibility, propertyTable: source.propertyTable,
                  layers: source.layerOf, candidates: source.sharedBorderCandidates, attributes: { attributes[$0] })
    }

    init(options: TileOptions, visibility: FeatureVisibility, propertyTable: MVTPropertyTable?,
         layers: @escaping @Sendable (Int) -> Int, candidates: SharedBorderCandidates?,
         attributes: @escaping (Int) -> TileAttributes) {
        self.options = options
        self.visibility = visibility
        self.propertyTable = propertyTable
        self.layers = layers
        self.candidates = candidates
        self.attributes = attributes
    }

    /// The tile `id` of `features` (clustered as asked), and their bounds.
    func cut(_ features: [ProjectedFeature], _ id: TileID) -> (VectorTile, TileBuilder.Bounds) {
        var accumulator = TileBuilder.Accumulator(tile: id, options: options, visibility: visibility,
                                                  keepsPropertySources: propertyTable != nil, capacity: features.count,
                                                  layers: layers, candidates: candidates)
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
