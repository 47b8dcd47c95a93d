import OverlayModel

/// One tile's bytes as a tile set stores them: gzip-compressed (PMTiles, MBTiles, tippecanoe
/// directories) or not (`tile`'s directories), so a server can send them untouched with the
/// matching `Content-Encoding`.
public struct StoredTile: Hashable, Sendable {
    /// How the bytes are compressed.
    public enum Compression: String, Hashable, Sendable {
        /// Plain tile bytes.
        case none
        /// gzip (RFC 1952), HTTP's `Content-Encoding: gzip`.
        case gzip
    }

    /// The bytes as stored.
    public var bytes: [UInt8]
    /// Their compression.
    public var compression: Compression

    /// A stored tile from its bytes and compression.
    public init(bytes: [UInt8], compression: Compression) {
        self.bytes = bytes
        self.compression = compression
    }

    /// Bytes that start with the gzip magic number are gzip, the rest plain.
    public init(detecting bytes: [UInt8]) {
        self.init(bytes: bytes, compression: Gzip.isCompressed(bytes) ? .gzip : .none)
    }

    /// The tile's uncompressed bytes.
    /// - Throws: `Diagnostic` `tile.archive-bad-gzip` or `tile.archive-too-large` naming `source`.
    public func uncompressed(source: String) throws -> [UInt8] {
        switch compression {
        case .none: return bytes
        case .gzip: return try Gzip.decompress(bytes, limit: Gzip.maximumTileSize, source: source)
        }
    }
}

extension TileArchiveReader {
    /// By default the uncompressed tile, stored as plain bytes.
    public func storedTile(_ id: TileID) throws -> StoredTile? {
        try tile(id).map { StoredTile(bytes: $0, compression: .none) }
    }

    /// By default a run of one for each of ``tileIDs()``, numbered in their order.
    public func tileRuns() throws -> [TileRun] {
        try tileIDs().enumerated().map { TileRun(tile: $0.element, content: TileRun.Content(offset: UInt64($0.offset), length: 0)) }
    }

    /// By default the stored bytes of the run's first tile.
    public func storedTile(of run: TileRun) throws -> StoredTile? {
        guard let id = run.firstTile else { return nil }
        return try storedTile(id)
    }

    /// By default the type the metadata's `format` names.
    public var contentType: TileContentType { TileContentType(format: metadata.format) }
}
