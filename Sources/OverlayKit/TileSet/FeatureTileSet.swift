import Foundation
import OverlayModel

/// Tiles cut from features on demand (`TileIndex`, geojson-vt's algorithm) and encoded as gzip
/// Mapbox Vector Tiles in one layer: what `serve` gives for a GeoJSON or KML file. Encoded
/// tiles are kept (up to ``cacheBytes`` bytes, the oldest forgotten first), so a tile is cut and
/// compressed once while it is kept.
public final class FeatureTileSet: TileProvider, @unchecked Sendable {
    /// The tile set's metadata: the layer with its fields, bounds, zooms 0…`options.maxZoom`.
    public let metadata: TileSetMetadata
    /// Always MVT.
    public let contentType = TileContentType.mvt
    /// The layer's name in the tiles.
    public let layer: String
    /// The most bytes of encoded tiles kept; older ones are cut again when asked for.
    public var cacheBytes: Int { cache.byteLimit }
    /// The default of ``cacheBytes``: 64 MiB.
    public static let defaultCacheBytes = 64 << 20
    private let index: TileIndex
    private let encoder: MVTEncoder
    private let cache: StoredTileCache

    /// Prepares `features` for tiling into `layer` with `options` (geojson-vt's defaults: max
    /// zoom 14, tolerance 3, extent 4096, buffer 64), keeping up to `cacheBytes` of encoded tiles.
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options.
    public init(features: [Feature], layer: String, options: TileOptions = TileOptions(),
                cacheBytes: Int = FeatureTileSet.defaultCacheBytes) throws {
        self.layer = layer
        cache = StoredTileCache(byteLimit: cacheBytes)
        // Drill-downs are not kept (the encoded tiles are, in the bounded cache): memory stays
        // what the index's first pass built, however many distinct tiles are asked for.
        index = try TileIndex(features: features, options: options, retainsDrillDowns: false)
        encoder = MVTEncoder(layerName: layer)
        var summary = DatasetSummary()
        for feature in features { summary.add(feature) }
        var fields = [TileSetMetadata.VectorLayer.Field]()
        for entry in summary.propertyTypes {
            let types = Set(entry.types)
            let type = types == ["string"] ? "String" : types == ["number"] ? "Number" : types == ["boolean"] ? "Boolean" : "Mixed"
            fields.append(.init(name: entry.key, type: type))
        }
        for feature in features {
            for member in SimpleStyle.properties(for: feature.style ?? Style()) where !fields.contains(where: { $0.name == member.key }) {
                let type = member.value.stringValue != nil ? "String" : member.value.boolValue != nil ? "Boolean" : "Number"
                fields.append(.init(name: member.key, type: type))
            }
        }
        var bounds: TileSetMetadata.Bounds?
        if let box = summary.boundingBox {
            // Across the antimeridian TileJSON bounds cannot say west > east: the world's width.
            bounds = box.west <= box.east ? .init(west: box.west, south: box.south, east: box.east, north: box.north)
                : .init(west: -180, south: box.south, east: 180, north: box.north)
        }
        let center = bounds.map {
            TileSetMetadata.Center(longitude: ($0.west + $0.east) / 2, latitude: ($0.south + $0.north) / 2,
                                   zoom: min(options.maxZoom, summary.zoomToFit() ?? 0))
        }
        metadata = TileSetMetadata(name: layer, bounds: bounds, center: center, minZoom: 0, maxZoom: options.maxZoom,
                                   vectorLayers: [.init(id: layer, fields: fields, minZoom: 0, maxZoom: options.maxZoom)])
    }

    /// Reads every feature of the GeoJSON, GeoJSONSeq, KML or KMZ file at `path` into a layer
    /// named `layer` (nil: the file's name without its extension), keeping up to `cacheBytes`
    /// of encoded tiles.
    /// - Throws: the reader's `Diagnostic` for bad input, `io.*` when the file cannot be read.
    public convenience init(path: String, layer: String? = nil, options: TileOptions = TileOptions(),
                            cacheBytes: Int = FeatureTileSet.defaultCacheBytes) throws {
        let document = try FeatureIO.readAll(path: path)
        try self.init(features: document.features, layer: layer ?? PathName(path).stem, options: options, cacheBytes: cacheBytes)
    }

    public func storedTile(_ id: TileID) throws -> StoredTile? {
        if let cached = cache.tile(id) { return cached }
        var stored: StoredTile?
        // TileIndex builds one tile at a time under its own lock; encoding runs in parallel.
        if let tile = index.tile(z: id.z, x: id.x, y: id.y), !tile.features.isEmpty, id.z <= metadata.maxZoom {
            stored = StoredTile(bytes: try Gzip.compress(encoder.encode(tile).0), compression: .gzip)
        }
        cache.keep(stored, as: id)
        return stored
    }
}
