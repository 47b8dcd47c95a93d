#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// How a tile set is stored: loose files in a directory, or one archive file.
public enum TileArchiveFormat: String, Sendable, CaseIterable, Codable {
    /// `DIR/z/x/y.mvt` (or `.geojson`) plus `DIR/metadata.json` in the tippecanoe/GDAL layout.
    case directory
    /// One PMTiles v3 file (Hilbert-ordered, gzip tiles and directories).
    case pmtiles
    /// One MBTiles 1.3 SQLite file (TMS rows, gzip tiles).
    case mbtiles

    /// The format a path's extension names: `.pmtiles`, `.mbtiles`, anything else a directory.
    public init(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".pmtiles") {
            self = .pmtiles
        } else if lower.hasSuffix(".mbtiles") {
            self = .mbtiles
        } else {
            self = .directory
        }
    }

    /// The extension of `output` when it would be taken for a tile directory although it has
    /// one that is not a tile set's, or nil. A one-letter typo (`out.pmtile`) or a feature
    /// file's name (`out.geojson`, `out.mvt`) would otherwise become a directory of every tile to
    /// the max zoom (millions of files), so such a name is a directory only when the caller says
    /// so, as tippecanoe asks for `-e` to write one.
    public static func undeclaredDirectoryExtension(_ output: String) -> String? {
        guard !output.isEmpty, output != "-", TileArchiveFormat(path: output) == .directory else { return nil }
        return PathName(output).nameExtension
    }
}

/// Receives tiles one at a time and commits the whole set at once.
///
/// `write` may be called from several threads at once, in any tile order. Nothing appears at
/// the output path until `finish(metadata:)` succeeds (the set is built beside it and renamed
/// into place); `abort()` — or dropping the writer unfinished — removes everything written.
public protocol TileArchiveWriter: AnyObject, Sendable {
    /// The output path.
    var path: String { get }
    /// Adds one tile. `tile` is the UNCOMPRESSED tile (MVT or GeoJSON bytes); archives gzip it.
    /// Writing the same id twice is an error.
    /// - Throws: `Diagnostic` `io.*` when the bytes cannot be stored.
    func write(_ id: TileID, _ tile: [UInt8]) throws
    /// Adds one tile whose gzip-compressed bytes are already known (`gzipped` is `tile` as
    /// `Gzip.compress` writes it); archives that store gzip take them instead of compressing
    /// again. The default ignores them.
    /// - Throws: as ``write(_:_:)``.
    func write(_ id: TileID, _ tile: [UInt8], gzipped: [UInt8]) throws
    /// Adds the same tile at every position of `block` (a solid region). Archives that can
    /// address a run of identical tiles store it once; the default writes each tile.
    /// - Throws: as ``write(_:_:)``.
    func writeBlock(_ block: TileBlock, _ tile: [UInt8]) throws
    /// Adds the same tile at every position of `block`, its gzip-compressed bytes already known
    /// (`gzipped` is `tile` as `Gzip.compress` writes it: `tile-join` writes one joined tile as
    /// several blocks). The default ignores them.
    /// - Throws: as ``write(_:_:)``.
    func writeBlock(_ block: TileBlock, _ tile: [UInt8], gzipped: [UInt8]) throws
    /// True when ``writeBlock(_:_:)`` stores a block once, whatever its size (PMTiles' run
    /// lengths); false when it writes every tile.
    var storesBlocksOnce: Bool { get }
    /// Writes the metadata and moves the finished set into place, replacing what was there.
    /// - Throws: `Diagnostic` `io.*`; the temporary set is removed and the old output kept.
    func finish(metadata: TileSetMetadata) throws
    /// Removes everything written so far; the old output (if any) is untouched. Safe to call twice.
    func abort()
}

extension TileArchiveWriter {
    /// Blocks are written tile by tile unless the writer says otherwise.
    public var storesBlocksOnce: Bool { false }

    /// Writes the tile as ``write(_:_:)`` does.
    public func write(_ id: TileID, _ tile: [UInt8], gzipped: [UInt8]) throws {
        try write(id, tile)
    }

    /// Writes each tile of the block, one by one.
    public func writeBlock(_ block: TileBlock, _ tile: [UInt8]) throws {
        try block.forEachTile { try write($0, tile) }
    }

    /// Writes the block as ``writeBlock(_:_:)`` does.
    public func writeBlock(_ block: TileBlock, _ tile: [UInt8], gzipped: [UInt8]) throws {
        try writeBlock(block, tile)
    }
}

/// Reads a finished tile set.
public protocol TileArchiveReader: AnyObject {
    /// The path it was opened from.
    var path: String { get }
    /// The tile set's metadata (what `finish(metadata:)` stored, or what tippecanoe wrote).
    var metadata: TileSetMetadata { get }
    /// Every tile id in the set, sorted by `TileID`'s order (z, then x, then y).
    /// - Throws: `Diagnostic` `tile.archive-*` for a damaged archive.
    func tileIDs() throws -> [TileID]
    /// Every tile as runs of tiles that share one stored tile (``TileRun``), never expanded: a
    /// PMTiles archive's directory entries in tile id order, clipped where a later entry starts
    /// inside an earlier one (as a lookup reads them); an archive that stores each tile apart
    /// has a run of one per tile, in ``tileIDs()``'s order (a default). Runs never overlap.
    /// Memory: one ``TileRun`` per entry, whatever the tiles they address.
    /// - Throws: `Diagnostic` `tile.archive-*` for a damaged archive.
    func tileRuns() throws -> [TileRun]
    /// The bytes every tile of `run` (one of ``tileRuns()``'s) has, as stored, or nil when the
    /// tile is gone (a default over ``storedTile(_:)`` of the run's first tile).
    /// - Throws: as ``tile(_:)``.
    func storedTile(of run: TileRun) throws -> StoredTile?
    /// The tile's UNCOMPRESSED bytes, or nil when the set has no such tile.
    /// - Throws: `Diagnostic` `tile.archive-*` for a damaged archive, `io.*` for read errors.
    func tile(_ id: TileID) throws -> [UInt8]?
    /// The tile's bytes as the set stores them (gzip or plain), or nil when it has no such
    /// tile (`TileSet/StoredTile.swift` has a default over ``tile(_:)``).
    /// - Throws: as ``tile(_:)``.
    func storedTile(_ id: TileID) throws -> StoredTile?
    /// What the tiles are: PMTiles' tile type, else the metadata's `format` (a default).
    var contentType: TileContentType { get }
}

/// Opens and creates tile sets in any of the three formats.
public enum TileArchive {
    /// Options for creating a tile set.
    public struct CreateOptions: Sendable {
        /// Replace an existing output (otherwise an existing non-empty output is an error).
        public var replaceExisting = false
        /// File extension of directory tiles, without the dot ("mvt" or "geojson").
        public var tileExtension = "mvt"

        /// The defaults: refuse to replace, `.mvt` tiles.
        public init() {}
    }

    /// Opens a tile set for reading, recognised by what it is, not by its name
    /// (``recognizedFormat(_:)``): a PMTiles file written without an extension, or an MBTiles
    /// file named `.pmtiles`, opens as what it holds.
    /// - Throws: `Diagnostic` `io.*` when it cannot be opened, `tile.not-a-tile-set` for an
    ///   existing file that is neither, `tile.archive-*` when it is damaged.
    public static func open(_ path: String) throws -> any TileArchiveReader {
        switch recognizedFormat(path) {
        case .directory: return try TileDirectoryReader(path: path)
        case .pmtiles: return try PMTilesReader(path: path)
        case .mbtiles: return try MBTilesReader(path: path)
        case nil:
            guard POSIX.status(path) != nil else {
                // Nothing there: the reader the name suggests says so (io.*).
                switch TileArchiveFormat(path: path) {
                case .pmtiles: return try PMTilesReader(path: path)
                case .mbtiles: return try MBTilesReader(path: path)
                case .directory: return try TileDirectoryReader(path: path)
                }
            }
            throw Diagnostic(.error, code: .tileNotATileSet,
                             message: "\(path) is not a tile set: give a directory of z/x/y tiles, a PMTiles or an MBTiles file"
                                + " (recognised by their first bytes, whatever their names)",
                             location: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// The container `path` holds, told by its bytes — the one test every reader of tile sets
    /// uses (`tile-join`, `info`, `render`, `serve`): a directory, a file starting with `PMTiles`
    /// (then its version byte), or with SQLite's header `SQLite format 3\0` (MBTiles); nil for
    /// anything else, a missing path or one that cannot be read.
    public static func recognizedFormat(_ path: String) -> TileArchiveFormat? {
        if ArchiveFiles.isDirectory(path) { return .directory }
        guard case .success(let descriptor) = POSIX.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { POSIX.close(descriptor) }
        guard let head = try? POSIX.read(descriptor, count: 16, at: 0, what: path) else { return nil }
        if head.starts(with: Array("PMTiles".utf8)) { return .pmtiles }
        if head.starts(with: Array("SQLite format 3".utf8) + [0]) { return .mbtiles }
        return nil
    }

    /// Starts a tile set at `path` in `format` (nil: from the extension).
    ///
    /// Follows `AtomicOutput`'s policy, the one every OverlayKit output follows: an existing
    /// output (other than an empty directory) is refused unless `options.replaceExisting`; a
    /// symbolic link is followed and the file or directory it names replaced; the folder that
    /// holds `path` must exist. Takes a lock (`path.lock`, `flock`) so a second run on the same
    /// output fails at once, and removes temporary leftovers of killed runs.
    /// - Throws: `Diagnostic` `io.output-locked`, `io.output-exists`, `io.create-failed`.
    public static func create(_ path: String, format: TileArchiveFormat? = nil,
                              options: CreateOptions = CreateOptions()) throws -> any TileArchiveWriter {
        let output = try AtomicOutput(path: path, kind: .archive, replaceExisting: options.replaceExisting)
        switch format ?? TileArchiveFormat(path: path) {
        case .directory: return try TileDirectoryWriter(output: output, tileExtension: options.tileExtension)
        case .pmtiles: return try PMTilesWriter(output: output)
        case .mbtiles: return try MBTilesWriter(output: output)
        }
    }
}
