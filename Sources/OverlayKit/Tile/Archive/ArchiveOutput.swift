import Foundation
import OverlayModel

/// The atomic-output protocol every tile archive writer follows: hold `PATH.lock` (an `flock`,
/// released by the kernel even on kill -9), build the set at a sibling `PATH.tmp-XXXXXX`, and
/// rename it over `PATH` on commit. A killed or failed run leaves the old output or none,
/// never a partial one; its temporary sibling is removed by the next run that takes the lock.
final class ArchiveOutput: @unchecked Sendable {
    let path: String
    let replaceExisting: Bool
    private var lockDescriptor: Int32 = -1
    private let lockPath: String
    private let lock = NSLock()
    private var temporaryPaths: [String] = []
    private var done = false

    init(path: String, replaceExisting: Bool) throws {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        guard !path.isEmpty else {
            throw Diagnostic(.error, code: "io.create-failed", message: "the output path is empty")
        }
        self.path = path
        self.replaceExisting = replaceExisting
        lockPath = path + ".lock"
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && !ArchiveFiles.isDirectory(parent) {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw Diagnostic(.error, code: "io.create-failed", message: "cannot create \(parent): \(error.localizedDescription)")
            }
        }
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Diagnostic(.error, code: "io.create-failed", message: "cannot create \(lockPath): \(ArchiveFiles.lastError())")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw Diagnostic(.error, code: "io.output-locked",
                             message: "\(path) is being written by another run (it holds \(lockPath))")
        }
        lockDescriptor = fd
        removeLeftovers()
        if FileManager.default.fileExists(atPath: path) && !replaceExisting && !ArchiveFiles.isEmptyDirectory(path) {
            release()
            throw Diagnostic(.error, code: "io.output-exists", message: "\(path) exists; use --force to replace it")
        }
    }

    deinit { abort() }

    /// Temporary siblings of runs that were killed: only a run holding the lock may have made them.
    private func removeLeftovers() {
        let parent = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.isEmpty ? "." : parent)) ?? []
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: parent.isEmpty ? name : parent + "/" + name)
        }
    }

    /// A new temporary file beside the output (removed on abort).
    func temporaryFile() throws -> (path: String, descriptor: Int32) {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw Diagnostic(.error, code: "io.create-failed", message: "cannot create a file beside \(path): \(ArchiveFiles.lastError())")
        }
        fchmod(fd, 0o644)
        let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        remember(made)
        return (made, fd)
    }

    /// A new temporary directory beside the output (removed on abort).
    func temporaryDirectory() throws -> String {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Diagnostic(.error, code: "io.create-failed", message: "cannot create a folder beside \(path): \(ArchiveFiles.lastError())")
        }
        let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        chmod(made, 0o755)
        remember(made)
        return made
    }

    private func remember(_ temporary: String) {
        lock.lock()
        temporaryPaths.append(temporary)
        lock.unlock()
    }

    /// Moves a finished temporary file or directory over the output and releases the lock.
    func commit(_ temporary: String) throws {
        var existing = stat()
        if lstat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFDIR {
            // rename(2) cannot replace a non-empty directory: move the old one aside first. Between
            // the two renames there is no output at all, never a partial one.
            var aside = Array((path + ".tmp-XXXXXX").utf8CString)
            guard aside.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                throw Diagnostic(.error, code: "io.write-failed", message: "cannot move \(path) aside: \(ArchiveFiles.lastError())")
            }
            let asidePath = aside.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            remember(asidePath)
            guard rename(path, asidePath) == 0 else {
                throw Diagnostic(.error, code: "io.write-failed", message: "cannot move \(path) aside: \(ArchiveFiles.lastError())")
            }
        }
        guard rename(temporary, path) == 0 else {
            throw Diagnostic(.error, code: "io.write-failed", message: "cannot move the output into place at \(path): \(ArchiveFiles.lastError())")
        }
        lock.lock()
        temporaryPaths.removeAll { $0 == temporary }
        lock.unlock()
        abort()
    }

    /// Removes every temporary file and directory and releases the lock.
    func abort() {
        lock.lock()
        let leftovers = temporaryPaths
        temporaryPaths = []
        let wasDone = done
        done = true
        lock.unlock()
        for leftover in leftovers { try? FileManager.default.removeItem(atPath: leftover) }
        if !wasDone { release() }
    }

    private func release() {
        guard lockDescriptor >= 0 else { return }
        unlink(lockPath)
        close(lockDescriptor)
        lockDescriptor = -1
    }
}

/// Small file-system helpers shared by the archive readers and writers.
enum ArchiveFiles {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func isEmptyDirectory(_ path: String) -> Bool {
        isDirectory(path) && ((try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }

    /// Writes all bytes to a descriptor, retrying short writes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw Diagnostic(.error, code: "io.write-failed", message: "cannot write \(path): \(lastError())")
            }
            offset += count
        }
    }

    /// Writes all bytes at an offset.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at position: Int, path: String) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = pwrite(fd, raw.baseAddress! + offset, raw.count - offset, off_t(position + offset))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Diagnostic(.error, code: "io.write-failed", message: "cannot write \(path): \(lastError())")
                }
                offset += count
            }
        }
    }

    /// Reads exactly `count` bytes at an offset.
    static func read(_ fd: Int32, count: Int, at position: Int, path: String) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var offset = 0
        try result.withUnsafeMutableBytes { raw in
            while offset < count {
                let got = pread(fd, raw.baseAddress! + offset, count - offset, off_t(position + offset))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw Diagnostic(.error, code: "io.read-failed", message: "cannot read \(path): \(lastError())")
                }
                if got == 0 {
                    throw Diagnostic(.error, code: "tile.archive-truncated",
                                     message: "\(path) ends at byte \(position + offset), before the \(count) bytes at \(position)")
                }
                offset += got
            }
        }
        return result
    }

    /// Flushes a file to disk so a rename after it never exposes unwritten data.
    static func sync(_ fd: Int32, path: String) throws {
        guard fsync(fd) == 0 else {
            throw Diagnostic(.error, code: "io.write-failed", message: "cannot write \(path): \(lastError())")
        }
    }

    /// A whole file, refused when larger than `limit` bytes (hostile archives are size-limited).
    static func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Diagnostic(.error, code: "io.read-failed", message: "cannot open \(path): \(lastError())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw Diagnostic(.error, code: "io.read-failed", message: "cannot read \(path): \(lastError())")
        }
        guard Int(info.st_size) <= limit else {
            throw Diagnostic(.error, code: "tile.archive-too-large",
                             message: "\(path) has \(info.st_size) bytes, more than the limit of \(limit)")
        }
        return try read(fd, count: Int(info.st_size), at: 0, path: path)
    }

    /// Flushes the whole file system holding `fd` (Linux `syncfs`, looked up at run time as
    /// Swift's Glibc module does not export it; elsewhere `sync`).
    static func syncFileSystem(of fd: Int32) {
        #if os(Linux)
        typealias SyncFS = @convention(c) (Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
            _ = unsafeBitCast(symbol, to: SyncFS.self)(fd)
            return
        }
        #endif
        #if canImport(Glibc)
        Glibc.sync()
        #else
        Darwin.sync()
        #endif
    }
}
