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

        static func += (a: inout ZoomCounts, b: ZoomCounts) {
            a.tiles += b.tiles
            a.emptyTiles += b.emptyTiles
            a.bytes += b.bytes
            a.statistics += b.statistics
        }
    }

    /// Builds tiles from `minZoom` to the source's `maxZoom`.
    /// - Parameters:
    ///   - source: the projected features and the tile options.
    ///   - minZoom: the lowest zoom built.
    ///   - parallelism: threads to use (1 = all on the calling thread).
    ///   - emit: called once per non-empty tile, possibly from several threads at once;
    ///     returns the number of bytes it wrote. An error stops the build and is rethrown.
    /// - Returns: counts for each zoom from `minZoom` to `maxZoom`.
    public static func build(_ source: TileSource, minZoom: Int, parallelism: Int = 2,
                             emit: @escaping @Sendable (VectorTile) throws -> Int) throws -> [ZoomCounts] {
        let maxZoom = source.options.maxZoom
        var counts = (0...maxZoom).map { ZoomCounts(zoom: $0) }
        var frontier: [([ProjectedFeature], TileID)] = source.features.isEmpty ? [] : [(source.features, TileID(z: 0, x: 0, y: 0))]
        // Top zooms one level at a time until there are enough subtrees to share out.
        while !frontier.isEmpty && (parallelism <= 1 || frontier.count < 8 * parallelism) && frontier[0].1.z < min(maxZoom, 6) {
            var next = [([ProjectedFeature], TileID)]()
            for (features, id) in frontier {
                next += try visit(features, id, source: source, minZoom: minZoom, counts: &counts[id.z], emit: emit)
            }
            frontier = next
        }
        let subtrees = frontier
        let lock = NSLock()
        var firstError: Error?
        var results = [[ZoomCounts]](repeating: [], count: subtrees.count)
        let work = { @Sendable (index: Int) -> ([ZoomCounts], Error?) in
            var local = (0...maxZoom).map { ZoomCounts(zoom: $0) }
            do {
                var stack = [subtrees[index]]
                while let (features, id) = stack.popLast() {
                    stack += try visit(features, id, source: source, minZoom: minZoom, counts: &local[id.z], emit: emit)
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

    /// Builds one tile, emits it when it has features, and returns its non-empty children.
    private static func visit(_ features: [ProjectedFeature], _ id: TileID, source: TileSource, minZoom: Int,
                              counts: inout ZoomCounts,
                              emit: (VectorTile) throws -> Int) throws -> [([ProjectedFeature], TileID)] {
        let (tile, bounds) = TileBuilder.build(features, tile: id, options: source.options, attributes: source.attributes,
                                               propertyTable: source.propertyTable)
        if id.z >= minZoom {
            counts.statistics += tile.statistics
            if tile.features.isEmpty {
                counts.emptyTiles += 1
            } else {
                counts.tiles += 1
                counts.bytes += try emit(tile)
            }
        }
        guard id.z < source.options.maxZoom else { return [] }
        let parts = TileSource.split(features, tile: id, bounds: bounds, options: source.options)
        var children = [([ProjectedFeature], TileID)]()
        for (part, child) in zip(parts, TileSource.children(of: id)) where !part.isEmpty {
            children.append((part, child))
        }
        // Depth-first from a stack: push in reverse so the first child is built first.
        return children.reversed()
    }
}
