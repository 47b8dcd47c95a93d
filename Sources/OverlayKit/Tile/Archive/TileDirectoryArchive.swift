#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// Writes `DIR/z/x/y.mvt` (uncompressed, as GDAL and tile servers read them) and
/// `DIR/metadata.json`, building the set in a sibling temporary directory renamed into place.
final class TileDirectoryWriter: TileArchiveWriter, @unchecked Sendable {
    let path: String
    private let output: AtomicOutput
    private let temporary: String
    /// The temporary directory, open: tiles are created relative to it, so once an interrupt
    /// has removed it no writer can bring it back (creating in a removed directory fails).
    private let root: Int32
    private let tileExtension: String
    private let lock = NSLock()
    private var createdFolders = Set<String>()

    init(output: AtomicOutput, tileExtension: String) throws {
        self.output = output
        path = output.path
        self.tileExtension = tileExtension
        temporary = try output.temporaryDirectory()
        switch POSIX.open(temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
        case .success(let descriptor): root = descriptor
        case .failure(let error):
            output.abort()
            throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot open \(temporary): \(error)")
        }
    }

    func write(_ id: TileID, _ tile: [UInt8]) throws {
        let folder = "\(id.z)/\(id.x)"
        lock.lock()
        let known = createdFolders.contains(folder)
        lock.unlock()
        if !known {
            for relative in ["\(id.z)", folder] {
                if case .failure(let error) = POSIX.makeDirectory(relative, beneath: root, mode: 0o755), error != .fileExists {
                    throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot create \(temporary)/\(relative): \(error)")
                }
            }
            lock.lock()
            createdFolders.insert(folder)
            lock.unlock()
        }
        let file = "\(folder)/\(id.y).\(tileExtension)"
        let fd: Int32
        switch POSIX.open(file, beneath: root, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644) {
        case .success(let opened): fd = opened
        case .failure(let error):
            throw Diagnostic(.error, code: error == .fileExists ? .tileDuplicateTile : .ioCreateFailed,
                             message: "cannot create tile \(id) in \(path): \(error)")
        }
        defer { POSIX.close(fd) }
        try tile.withUnsafeBytes { try ArchiveFiles.writeAll(fd, $0, path: "\(temporary)/\(file)") }
    }

    func finish(metadata: TileSetMetadata) throws {
        do {
            let file = temporary + "/metadata.json"
            let fd: Int32
            switch POSIX.open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644) {
            case .success(let opened): fd = opened
            case .failure(let error):
                throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot create \(file): \(error)")
            }
            defer { POSIX.close(fd) }
            try metadata.directoryJSON().withUnsafeBytes { try ArchiveFiles.writeAll(fd, $0, path: file) }
            // Tiles reach the disk before the rename makes them visible: one sync of this file
            // system (syncfs) rather than one fsync per tile file.
            try ArchiveFiles.sync(fd, path: file)
            POSIX.syncFileSystem(of: fd)
            try output.commit(temporary)
        } catch {
            output.abort()
            throw error
        }
    }

    func abort() { output.abort() }

    deinit {
        POSIX.close(root)
        output.abort()
    }
}

/// Reads a tile directory: `metadata.json` (tippecanoe/GDAL layout; absent: empty metadata) and
/// every `z/x/y.mvt`, `.pbf` or `.geojson` file. Tiles gzip-compressed on disk are unpacked. A
/// tile is opened beneath the directory's descriptor, component by component without following
/// symbolic links (`POSIX.openRegularFile(_:beneath:)`), and must be a regular file: a link out
/// of the directory, a FIFO or a device reads as absent, whatever is swapped in while serving.
final class TileDirectoryReader: TileArchiveReader {
    let path: String
    let metadata: TileSetMetadata
    /// Each tile's file, relative to the directory.
    private let files: [TileID: String]
    /// The directory, open; reopened by its path once it has been removed (replaced by a new run).
    private var root: Int32

    init(path: String) throws {
        self.path = path
        guard ArchiveFiles.isDirectory(path) else {
            throw Diagnostic(.error, code: .ioNotFound, message: "\(path) is not a directory")
        }
        let metadataPath = path + "/metadata.json"
        if FileManager.default.fileExists(atPath: metadataPath) {
            let bytes = try ArchiveFiles.readFile(metadataPath, limit: 64 << 20)
            metadata = try TileSetMetadata.fromDirectoryJSON(bytes, source: metadataPath)
        } else {
            metadata = TileSetMetadata(name: PathName(path).lastComponent, bounds: nil, center: nil,
                                       minZoom: 0, maxZoom: 0, vectorLayers: [])
        }
        var files = [TileID: String]()
        let manager = FileManager.default
        for zName in (try? manager.contentsOfDirectory(atPath: path)) ?? [] {
            guard let z = Int(zName), (0...30).contains(z), ArchiveFiles.isDirectory(path + "/" + zName) else { continue }
            for xName in (try? manager.contentsOfDirectory(atPath: "\(path)/\(zName)")) ?? [] {
                guard let x = Int(xName), x >= 0, x < 1 << z else { continue }
                for yName in (try? manager.contentsOfDirectory(atPath: "\(path)/\(zName)/\(xName)")) ?? [] {
                    let parts = yName.split(separator: ".", maxSplits: 1)
                    guard parts.count == 2, ["mvt", "pbf", "mlt", "geojson"].contains(parts[1]),
                          let y = Int(parts[0]), y >= 0, y < 1 << z else { continue }
                    files[TileID(z: z, x: x, y: y)] = "\(zName)/\(xName)/\(yName)"
                }
            }
        }
        self.files = files
        root = try Self.openFolder(path)
    }

    deinit { POSIX.close(root) }

    private static func openFolder(_ path: String) throws -> Int32 {
        switch POSIX.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
        case .success(let descriptor): return descriptor
        case .failure(let error): throw Diagnostic(.error, code: .ioOpenFailed, message: "cannot open \(path): \(error)")
        }
    }

    func tileIDs() throws -> [TileID] { files.keys.sorted() }

    func tile(_ id: TileID) throws -> [UInt8]? {
        try storedTile(id)?.uncompressed(source: files[id].map { "\(path)/\($0)" } ?? path)
    }

    func storedTile(_ id: TileID) throws -> StoredTile? {
        guard let file = files[id] else { return nil }
        var descriptor = try open(file)
        if descriptor == nil && folderWasRemoved() {
            // The directory was replaced (a new `tile --force` run): serve the one now at the path.
            let reopened = try Self.openFolder(path)
            POSIX.close(root)
            root = reopened
            descriptor = try open(file)
        }
        guard let descriptor else { return nil }
        defer { POSIX.close(descriptor) }
        let info: stat
        switch POSIX.status(of: descriptor) {
        case .success(let status): info = status
        case .failure(let error):
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(path)/\(file): \(error)")
        }
        guard Int(info.st_size) <= Gzip.maximumTileSize else {
            throw Diagnostic(.error, code: .tileArchiveTooLarge,
                             message: "\(path)/\(file) has \(info.st_size) bytes, more than the limit of \(Gzip.maximumTileSize)")
        }
        return StoredTile(detecting: try ArchiveFiles.read(descriptor, count: Int(info.st_size), at: 0, path: "\(path)/\(file)"))
    }

    private func open(_ file: String) throws -> Int32? {
        do {
            return try POSIX.openRegularFile(file, beneath: root)
        } catch let error as POSIX.Errno {
            throw Diagnostic(.error, code: .ioOpenFailed, message: "cannot open \(path)/\(file): \(error)")
        }
    }

    /// True when the directory open as `root` has no name left (removed or renamed over).
    private func folderWasRemoved() -> Bool {
        guard case .success(let info) = POSIX.status(of: root) else { return false }
        return info.st_nlink == 0
    }
}
