import Foundation
import OverlayModel

/// Tiles on demand, for callers that serve them (geojson-vt's index): built once from features,
/// it slices tiles top-down to `indexMaxZoom` (or until a tile holds `indexMaxPoints` points or
/// fewer), keeps the source geometry where it stopped, and `tile(z:x:y:)` drills down from the
/// nearest such ancestor to any zoom up to `maxZoom`, caching what it builds.
///
/// With ``retainsDrillDowns`` false (what `serve` uses) a drill-down keeps nothing: the tiles
/// below the first pass are cut from the nearest first-pass tile each time they are asked for,
/// so memory stays what the first pass built whatever number of distinct tiles is requested
/// (geojson-vt keeps every tile and its features on the way down: a server's memory grew
/// without bound); the caller caches encoded tiles in a bounded cache instead.
///
/// Safe to call from several threads; builds run one at a time.
public final class TileIndex: @unchecked Sendable {
    /// The options the tiles are cut with.
    public let options: TileOptions
    /// The prepared features and their attributes.
    public let source: TileSource
    private let lock = NSLock()
    private var tiles: [TileID: Stored] = [:]
    private var creationOrder: [TileID] = []
    /// Whether tiles built by drilling down are kept (geojson-vt's way, the default).
    public let retainsDrillDowns: Bool

    private struct Stored {
        var tile: VectorTile
        var bounds: FeatureBounds
        /// The clipped features, kept where splitting stopped so deeper tiles can be built.
        var features: [ProjectedFeature]?
    }

    /// Prepares the features and builds the index's first tiles.
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options.
    public convenience init(features: [Feature], options: TileOptions = TileOptions(), retainsDrillDowns: Bool = true) throws {
        try self.init(source: TileSource(features: features, options: options), retainsDrillDowns: retainsDrillDowns)
    }

    /// An index over the projected features of `source`; `retainsDrillDowns` false keeps only
    /// the first pass's tiles (memory bounded by it).
    public init(source: TileSource, retainsDrillDowns: Bool = true) {
        self.options = source.options
        self.source = source
        self.retainsDrillDowns = retainsDrillDowns
        if !source.features.isEmpty { split(source.features, TileID(z: 0, x: 0, y: 0), target: nil) }
    }

    /// Every tile built so far, in the order it was built.
    public var builtTiles: [TileID] {
        lock.lock()
        defer { lock.unlock() }
        return creationOrder
    }

    /// The tile at z/x/y (x wraps around the world), or nil when no feature reaches it or it
    /// is outside 0…24 / the grid. Built and cached on first request.
    public func tile(z: Int, x: Int, y: Int) -> VectorTile? {
        guard (0...24).contains(z) else { return nil }
        let count = 1 << z
        guard (0..<count).contains(y) else { return nil }
        let x = ((x % count) + count) % count
        let id = TileID(z: z, x: x, y: y)
        lock.lock()
        defer { lock.unlock() }
        if let stored = tiles[id] { return stored.tile }
        var ancestor = id
        var parent: Stored?
        while parent == nil && ancestor.z > 0 {
            ancestor = TileID(z: ancestor.z - 1, x: ancestor.x >> 1, y: ancestor.y >> 1)
            parent = tiles[ancestor]
        }
        guard let parent, let features = parent.features else { return nil }
        guard retainsDrillDowns else { return drill(features, from: ancestor, bounds: parent.bounds, to: id) }
        split(features, ancestor, target: id)
        return tiles[id]?.tile
    }

    /// The tile `target` cut from `features` of its ancestor `start` along the path between
    /// them, keeping nothing: the same tile `split` with a target builds (each step clips the
    /// features of the tile above), nil past ``TileOptions/maxZoom``.
    private func drill(_ features: [ProjectedFeature], from start: TileID, bounds: FeatureBounds, to target: TileID) -> VectorTile? {
        guard target.z <= options.maxZoom else { return nil }
        var (features, id, bounds) = (features, start, bounds)
        while id.z < target.z {
            guard !features.isEmpty else { return nil }
            let steps = target.z - id.z - 1
            let child = TileID(z: id.z + 1, x: target.x >> steps, y: target.y >> steps)
            let parts = TileSplit.split(features, tile: id, bounds: bounds, options: options)
            guard let index = TileSplit.children(of: id).firstIndex(of: child) else { return nil }
            features = parts[index]
            id = child
            let built = TileBuilder.build(features, tile: id, options: options, attributes: source.attributes,
                                          propertyTable: source.propertyTable)
            if id == target { return built.0 }
            bounds = built.1
        }
        return nil
    }

    /// geojson-vt's `splitTile`: builds the tile and, unless it stops here, its four children.
    /// The first pass (no target) stops at `indexMaxZoom` or `indexMaxPoints`; a drill-down
    /// follows only the target's ancestors and stops at the target or `maxZoom`.
    private func split(_ features: [ProjectedFeature], _ start: TileID, target: TileID?) {
        var stack: [([ProjectedFeature], TileID)] = [(features, start)]
        while let (features, id) = stack.popLast() {
            if tiles[id] == nil {
                let (tile, bounds) = TileBuilder.build(features, tile: id, options: options, attributes: source.attributes,
                                                       propertyTable: source.propertyTable)
                tiles[id] = Stored(tile: tile, bounds: bounds, features: nil)
                creationOrder.append(id)
            }
            tiles[id]!.features = features
            if let target {
                if id.z == options.maxZoom || id.z == target.z { continue }
                let steps = target.z - id.z
                if id.x != target.x >> steps || id.y != target.y >> steps { continue }
            } else if id.z == options.indexMaxZoom || tiles[id]!.tile.sourcePointCount <= options.indexMaxPoints {
                continue
            }
            tiles[id]!.features = nil
            if features.isEmpty { continue }
            let parts = TileSplit.split(features, tile: id, bounds: tiles[id]!.bounds, options: options)
            for (part, child) in zip(parts, TileSplit.children(of: id)) { stack.append((part, child)) }
        }
    }
}
