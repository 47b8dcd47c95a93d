#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A finished tile set opened for reading (PMTiles, MBTiles or a directory of z/x/y tiles,
/// recognised by its bytes, not its name), with its tiles decoded by the decoder of its
/// `TileContentType`: what `overlaykit info TILESET`, `render` of a tile set and `serve` read.
///
/// ```swift
/// let tiles = try TileSet(path: "countries.pmtiles")
/// let report = try tiles.inspect()                        // per zoom: tiles, bytes, features
/// let features = try tiles.features(at: TileID(z: 2, x: 2, y: 1)) ?? []   // degrees, RFC 7946
/// ```
public final class TileSet {
    /// The path it was opened from.
    public let path: String
    /// The container.
    public let format: TileArchiveFormat
    /// The archive reader underneath.
    public let reader: any TileArchiveReader

    /// The tile set's metadata.
    public var metadata: TileSetMetadata { reader.metadata }
    /// What its tiles are.
    public var contentType: TileContentType { reader.contentType }

    /// Opens `path`: a directory, or a file whose first bytes are PMTiles' or SQLite's magic.
    /// - Throws: `Diagnostic` `io.not-found` when nothing is there, `tile.not-a-tile-set` for a
    ///   file that is neither, `tile.archive-*` when it is damaged.
    public init(path: String) throws {
        guard POSIX.status(path) != nil else {
            throw Diagnostic(.error, code: .ioNotFound, message: "\(path) does not exist")
        }
        guard let format = Self.recognizedFormat(path) else {
            throw Diagnostic(.error, code: .tileNotATileSet,
                             message: "\(path) is not a tile set: give a directory of z/x/y tiles, a PMTiles or an MBTiles file",
                             location: SourceLocation(file: path, line: 1, column: 1))
        }
        self.path = path
        self.format = format
        switch format {
        case .directory: reader = try TileDirectoryReader(path: path)
        case .pmtiles: reader = try PMTilesReader(path: path)
        case .mbtiles: reader = try MBTilesReader(path: path)
        }
    }

    /// The container `path` holds, told by its bytes: a directory, `PMTiles` followed by
    /// version byte, or `SQLite format 3` (MBTiles); nil for anything else, a missing path, and
    /// a folder of GeoParquet files (a data set of features, not a directory of tiles).
    public static func recognizedFormat(_ path: String) -> TileArchiveFormat? {
        guard let format = TileArchive.recognizedFormat(path) else { return nil }
        return format == .directory && GeoParquetReader.isDataSetFolder(path) ? nil : format
    }

    /// Whether `path` names a tile set rather than features: the one test of every command
    /// that takes either (`info`, `render`, `serve`, `diff`). Standard input (`-`, or no path)
    /// is read as features.
    public static func isTileSet(_ path: String?) -> Bool {
        guard let path, path != "-" else { return false }
        return recognizedFormat(path) != nil
    }

    /// The decoded layers of tile `id`, or nil when the set has no such tile.
    /// - Throws: `Diagnostic` `tileset.undecodable` for tiles of an encoding without a decoder,
    ///   `mvt.bad-tile` (or the encoding's code) for bad bytes, `tile.archive-*` for a damaged set.
    public func layers(at id: TileID) throws -> [DecodedTileLayer]? {
        let decoder = try TileDecoders.require(contentType, source: path)
        guard let bytes = try reader.tile(id) else { return nil }
        do {
            return try decoder.decodeLayers(bytes)
        } catch let diagnostic as Diagnostic {
            throw Diagnostic(.error, code: diagnostic.code, message: "\(path) tile \(id.z)/\(id.x)/\(id.y): \(diagnostic.message)")
        }
    }

    /// Tile `id` as features in degrees (`DecodedTileGeography`), as `tippecanoe-decode`
    /// prints them; nil when the set has no such tile.
    /// - Throws: as ``layers(at:)``.
    public func features(at id: TileID) throws -> [Feature]? {
        try layers(at: id).map { DecodedTileGeography.features(of: $0, tile: id) }
    }
}

extension TileID {
    /// Reads `z/x/y` (also `z/x/y.ext`, as tile URLs end), checked against the grid.
    /// - Throws: `Diagnostic` `tileset.bad-tile-id` saying what is wrong.
    public init(parsing text: String) throws {
        var body = Substring(text)
        if let dot = body.lastIndex(of: "."), !body[body.index(after: dot)...].contains("/") { body = body[..<dot] }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        func bad(_ why: String) -> Diagnostic {
            Diagnostic(.error, code: .tilesetBadTileID, message: "\"\(text)\" is not a tile address: \(why)")
        }
        guard parts.count == 3 else { throw bad("give z/x/y, three whole numbers") }
        guard let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]) else { throw bad("z, x and y must be whole numbers") }
        guard (0...30).contains(z) else { throw bad("zoom \(z) is not 0…30") }
        guard (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else {
            throw bad("x and y must be 0…\((1 << z) - 1) at zoom \(z)")
        }
        self.init(z: z, x: x, y: y)
    }
}
