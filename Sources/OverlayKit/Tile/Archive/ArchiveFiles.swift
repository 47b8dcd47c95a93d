#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Small file-system helpers shared by the archive readers and writers, over `POSIX`.
enum ArchiveFiles {
    static func isDirectory(_ path: String) -> Bool {
        POSIX.status(path).map { POSIX.type($0) == S_IFDIR } ?? false
    }

    /// Writes all bytes to a descriptor, retrying short writes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        do {
            try POSIX.writeAll(fd, bytes, what: path)
        } catch let error as POSIX.Errno {
            throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot write \(path): \(error)")
        }
    }

    /// Writes all bytes at an offset.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at position: Int, path: String) throws {
        try POSIX.writeAll(fd, bytes, at: position, what: path)
    }

    /// Reads exactly `count` bytes at an offset.
    /// - Throws: `tile.archive-truncated` when the file ends first, `io.read-failed`.
    static func read(_ fd: Int32, count: Int, at position: Int, path: String) throws -> [UInt8] {
        let bytes = try POSIX.read(fd, count: count, at: Int64(position), what: path)
        guard bytes.count == count else {
            throw Diagnostic(.error, code: .tileArchiveTruncated,
                             message: "\(path) ends at byte \(position + bytes.count), before the \(count) bytes at \(position)")
        }
        return bytes
    }

    /// Flushes a file to disk so a rename after it never exposes unwritten data.
    static func sync(_ fd: Int32, path: String) throws {
        if case .failure(let error) = POSIX.sync(fd) {
            throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot write \(path): \(error)")
        }
    }

    /// A whole file, refused when larger than `limit` bytes (hostile archives are size-limited).
    static func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        let fd: Int32
        switch POSIX.open(path, O_RDONLY | O_CLOEXEC) {
        case .success(let opened): fd = opened
        case .failure(let error):
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot open \(path): \(error)")
        }
        defer { POSIX.close(fd) }
        let info: stat
        switch POSIX.status(of: fd) {
        case .success(let status): info = status
        case .failure(let error):
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(path): \(error)")
        }
        guard Int(info.st_size) <= limit else {
            throw Diagnostic(.error, code: .tileArchiveTooLarge,
                             message: "\(path) has \(info.st_size) bytes, more than the limit of \(limit)")
        }
        return try read(fd, count: Int(info.st_size), at: 0, path: path)
    }
}
