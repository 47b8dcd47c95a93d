import CSQLite
import Foundation
import OverlayModel

/// A thin SQLite connection (the only file importing `CSQLite`); errors name the failing call.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    let path: String
    /// A read-only connection reads a file from elsewhere: its failures are bad data, not I/O.
    private let readOnly: Bool

    init(path: String, readOnly: Bool) throws {
        self.path = path
        self.readOnly = readOnly
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(status)"
            sqlite3_close(handle)
            handle = nil
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot open \(path) as SQLite: \(message)")
        }
    }

    deinit { close() }

    /// Refuses any string or blob longer than `bytes` (SQLITE_LIMIT_LENGTH): a stored value is
    /// refused before SQLite copies it out, a computed one (a hostile view's `zeroblob`) before
    /// it is made, so a step fails ("string or blob too big") rather than allocating.
    func limitValueLength(_ bytes: Int32) {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, bytes)
    }

    /// SQLite's message for the last failure on this connection.
    var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    func close() {
        if let handle { sqlite3_close_v2(handle) }   // v2: closes once live statements are finalized
        handle = nil
    }

    private func failure(_ call: String) -> Diagnostic {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        return Diagnostic(.error, code: readOnly ? .tileArchiveMbtiles : .ioWriteFailed, message: "\(path): SQLite \(call): \(message)")
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure("exec \(sql.prefix(40))") }
    }

    /// A prepared statement, finalized on deinit.
    final class Statement {
        fileprivate var statement: OpaquePointer?
        fileprivate let database: SQLiteDatabase

        fileprivate init(_ database: SQLiteDatabase, _ sql: String) throws {
            self.database = database
            guard sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw database.failure("prepare \(sql.prefix(40))")
            }
        }

        deinit { sqlite3_finalize(statement) }

        func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(statement, index, Int64(value)) }
        func bind(_ index: Int32, _ text: String) {
            // SQLITE_TRANSIENT: SQLite copies the text before bind returns.
            sqlite3_bind_text(statement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        func bind(_ index: Int32, _ bytes: [UInt8]) {
            bytes.withUnsafeBytes { raw in
                _ = sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }

        /// Runs to the next row: true when a row is ready.
        func step() throws -> Bool {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.failure("step")
            }
        }

        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
        func text(_ column: Int32) -> String {
            guard let pointer = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: pointer)
        }
        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }

    func prepare(_ sql: String) throws -> Statement { try Statement(self, sql) }
}

/// Writes an MBTiles 1.3 file: `metadata` (name/value rows) and `tiles` (TMS row order, gzip
/// data), in one transaction into a temporary file renamed into place by `finish`. Like
/// tippecanoe, `tiles` is a view over `map` (z/x/y → tile id) and `images` (each distinct tile
/// once, found by hash and compared byte for byte), so ocean tiles are stored once.
final class MBTilesWriter: TileArchiveWriter, @unchecked Sendable {
    let path: String
    private let output: AtomicOutput
    private let temporaryPath: String
    private var database: SQLiteDatabase?
    private let insert: SQLiteDatabase.Statement
    private let insertImage: SQLiteDatabase.Statement
    private let selectImage: SQLiteDatabase.Statement
    /// Content hash → ids of the distinct images with that hash.
    private var imagesByHash: [UInt64: [String]] = [:]
    private let lock = NSLock()

    init(output: AtomicOutput) throws {
        self.output = output
        path = output.path
        let (temporary, fd) = try output.temporaryFile()
        POSIX.close(fd)
        temporaryPath = temporary
        let database = try SQLiteDatabase(path: temporary, readOnly: false)
        // No journal: the file is private until renamed, and a failed run deletes it.
        try database.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE TABLE images (tile_data BLOB, tile_id TEXT);
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            CREATE UNIQUE INDEX images_id ON images (tile_id);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
            BEGIN;
            """)
        insert = try database.prepare("INSERT INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
        insertImage = try database.prepare("INSERT INTO images (tile_data, tile_id) VALUES (?, ?)")
        selectImage = try database.prepare("SELECT tile_data FROM images WHERE tile_id = ?")
        self.database = database
    }

    deinit { output.abort() }

    func write(_ id: TileID, _ tile: [UInt8]) throws {
        try write(id, tile, gzipped: Gzip.compress(tile))
    }

    func write(_ id: TileID, _ tile: [UInt8], gzipped compressed: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        insert.bind(1, id.z)
        insert.bind(2, id.x)
        insert.bind(3, (1 << id.z) - 1 - id.y)   // TMS: row 0 is the southernmost
        insert.bind(4, try imageID(compressed))
        defer { insert.reset() }
        do {
            _ = try insert.step()
        } catch let error as Diagnostic where error.message.contains("UNIQUE") {
            throw Diagnostic(.error, code: .tileDuplicateTile, message: "tile \(id) was written twice to \(path)")
        }
    }

    /// The id of an image with these bytes, inserting it when new (called under the lock).
    private func imageID(_ compressed: [UInt8]) throws -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in compressed { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let known = imagesByHash[hash] ?? []
        for candidate in known {
            selectImage.bind(1, candidate)
            defer { selectImage.reset() }
            if try selectImage.step(), selectImage.blob(0) == compressed { return candidate }
        }
        let id = String(hash, radix: 16) + (known.isEmpty ? "" : "-\(known.count)")
        insertImage.bind(1, compressed)
        insertImage.bind(2, id)
        defer { insertImage.reset() }
        _ = try insertImage.step()
        imagesByHash[hash, default: []].append(id)
        return id
    }

    func finish(metadata: TileSetMetadata) throws {
        lock.lock()
        defer { lock.unlock() }
        do {
            guard let database else { throw Diagnostic(.error, code: .ioWriteFailed, message: "\(path) was already finished") }
            let row = try database.prepare("INSERT INTO metadata (name, value) VALUES (?, ?)")
            for entry in metadata.mbtilesRows() {
                row.bind(1, entry.name)
                row.bind(2, entry.value)
                _ = try row.step()
                row.reset()
            }
            try database.execute("""
                CREATE UNIQUE INDEX name ON metadata (name);
                COMMIT;
                """)
            database.close()
            self.database = nil
            if case .success(let fd) = POSIX.open(temporaryPath, O_RDONLY | O_CLOEXEC) {
                defer { POSIX.close(fd) }
                try ArchiveFiles.sync(fd, path: temporaryPath)
            }
            try output.commit(temporaryPath)
        } catch {
            database?.close()
            database = nil
            output.abort()
            throw error
        }
    }

    func abort() {
        lock.lock()
        database?.close()
        database = nil
        lock.unlock()
        output.abort()
    }
}

/// Reads an MBTiles file (ours or tippecanoe's): metadata rows and gzip or plain tiles.
final class MBTilesReader: TileArchiveReader {
    let path: String
    let metadata: TileSetMetadata
    private let database: SQLiteDatabase
    private let select: SQLiteDatabase.Statement

    init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Diagnostic(.error, code: .ioNotFound, message: "\(path) does not exist")
        }
        database = try SQLiteDatabase(path: path, readOnly: true)
        database.limitValueLength(Int32(Gzip.maximumTileSize))
        var rows = [(name: String, value: String)]()
        do {
            let statement = try database.prepare("SELECT name, value FROM metadata")
            while try statement.step() { rows.append((statement.text(0), statement.text(1))) }
            select = try database.prepare("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        } catch {
            throw Diagnostic(.error, code: .tileArchiveMbtiles, message: "\(path) is not an MBTiles file (\((error as? Diagnostic)?.message ?? "\(error)"))")
        }
        metadata = try TileSetMetadata.fromMBTilesRows(rows, source: path)
    }

    func tileIDs() throws -> [TileID] {
        let statement = try database.prepare("SELECT zoom_level, tile_column, tile_row FROM tiles")
        var ids = [TileID]()
        while try statement.step() {
            let z = statement.integer(0), x = statement.integer(1), row = statement.integer(2)
            guard (0...30).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(row) else {
                throw Diagnostic(.error, code: .tileArchiveMbtiles, message: "\(path): tile \(z)/\(x)/\(row) (TMS) is outside the grid")
            }
            ids.append(TileID(z: z, x: x, y: (1 << z) - 1 - row))
        }
        return ids.sorted()
    }

    func tile(_ id: TileID) throws -> [UInt8]? {
        try storedTile(id)?.uncompressed(source: "\(path) (tile \(id))")
    }

    func storedTile(_ id: TileID) throws -> StoredTile? {
        guard (0...30).contains(id.z) else { return nil }
        select.bind(1, id.z)
        select.bind(2, id.x)
        select.bind(3, (1 << id.z) - 1 - id.y)
        defer { select.reset() }
        do {
            guard try select.step() else { return nil }
        } catch {
            // Among the causes: a blob over the tile size limit, refused by SQLite unread.
            throw Diagnostic(.error, code: .tileArchiveMbtiles,
                             message: "\(path): tile \(id.z)/\(id.x)/\(id.y) cannot be read (\(database.lastError); tiles are read up to \(Gzip.maximumTileSize) bytes)")
        }
        return StoredTile(detecting: select.blob(0))
    }
}
