import Foundation
import OverlayModel

/// Tiles on demand, for callers that serve them (geojson-vt's index): built once from features,
/// it slices tiles top-down to `indexMaxZoom` (or until a tile holds `indexMaxPoints` points or
/// fewer), keeps the source geometry where it stopped, and `tile(z:x:y:)` drills down from the
/// nearest such ancestor to any zoom up to `maxZoom`, caching what it builds.
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

    private struct Stored {
        var tile: VectorTile
        var bounds: FeatureBounds
        /// The clipped features, kept where splitting stopped so deeper tiles can be built.
        var features: [ProjectedFeature]?
    }

    /// Prepares the features and builds the index's first tiles.
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options.
    public convenience init(features: [Feature], options: TileOptions = TileOptions()) throws {
        try self.init(source: TileSource(features: features, options: options))
    }

    /// An index over the projected features of `source`.
    public init(source: TileSource) {
        self.options = source.options
        self.source = source
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
        guard let features = parent?.features else { return nil }
        split(features, ancestor, target: id)
        return tiles[id]?.tile
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
