import Foundation
import OverlayModel

/// Another provider's vector tiles rewritten into another encoding as they are asked for
/// (``VectorTileTranscoder``, layer by layer, same features): how `serve` shows an MLT tile set
/// to a MapLibre GL JS that reads MVT only. Tiles are gzip-compressed and kept up to
/// `cacheBytes` (given to `init`; the oldest forgotten first), so a tile is transcoded once while kept.
public final class TranscodedTileProvider: TileProvider, @unchecked Sendable {
    /// The source's metadata with the target's `format`.
    public let metadata: TileSetMetadata
    /// The target encoding's content type.
    public let contentType: TileContentType
    /// The tiles as stored.
    public let source: any TileProvider
    private let sourceEncoding: TileEncoding
    private let targetEncoding: TileEncoding
    private let cache: StoredTileCache
    /// The default of `init`'s `cacheBytes`: 64 MiB.
    public static let defaultCacheBytes = 64 << 20

    /// `source`'s tiles in `encoding` (`.mvt` or `.mlt`), keeping up to `cacheBytes` of them.
    /// - Throws: `tile.bad-option` when `source` holds no MVT or MLT tiles or `encoding` is GeoJSON.
    public init(_ source: any TileProvider, as encoding: TileEncoding, cacheBytes: Int = TranscodedTileProvider.defaultCacheBytes) throws {
        guard let from = TileEncoding(contentType: source.contentType), encoding != .geojson else {
            throw Diagnostic(.error, code: .tileBadOption,
                             message: "cannot transcode \(source.contentType.name) tiles to \(encoding.rawValue): only MVT and MLT")
        }
        self.source = source
        sourceEncoding = from
        targetEncoding = encoding
        contentType = encoding == .mlt ? .mlt : .mvt
        var metadata = source.metadata
        metadata.format = encoding.metadataFormat
        self.metadata = metadata
        cache = StoredTileCache(byteLimit: cacheBytes)
    }

    /// Tile `id` in the target encoding, gzip-compressed; nil when the source has none.
    /// - Throws: what the source throws, `mvt.bad-tile`/`mlt.bad-tile` for a tile that does not decode.
    public func storedTile(_ id: TileID) throws -> StoredTile? {
        if let cached = cache.tile(id) { return cached }
        var made: StoredTile?
        if let stored = try source.storedTile(id) {
            let plain = try stored.uncompressed(source: "tile \(id)")
            let bytes = try VectorTileTranscoder.transcode(plain, from: sourceEncoding, to: targetEncoding)
            made = StoredTile(bytes: try Gzip.compress(bytes), compression: .gzip)
        }
        cache.keep(made, as: id)
        return made
    }
}

extension TileEncoding {
    /// The vector encoding of tiles of `contentType`: MVT or MLT; nil for any other.
    init?(contentType: TileContentType) {
        switch contentType {
        case .mvt: self = .mvt
        case .mlt: self = .mlt
        default: return nil
        }
    }
}
