#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// The thin layer over the C library's file calls that every reader and writer goes through:
/// one place retries interrupted calls (`EINTR`) and short transfers, and every failure becomes
/// a `Diagnostic` naming the file and the system's reason. No other file calls the C library's
/// file functions or `strerror` (a test in `POSIXLayerTests` checks): descriptors and paths here
/// (`POSIX+Descriptors.swift`, `POSIX+Paths.swift`), the same layer split by concern.
package enum POSIX {
    /// The value of a system call that reports failure as -1 with `errno`, or that `errno`;
    /// a call interrupted by a signal (`EINTR`) is repeated when `retryOnInterrupt` is set.
    @inline(__always)
    static func valueOrErrno<Value: SignedInteger>(retryOnInterrupt: Bool = true,
                                                   _ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let value = call()
            if value != -1 { return .success(value) }
            let error = errno
            if error == EINTR && retryOnInterrupt { continue }
            return .failure(Errno(rawValue: error))
        }
    }

    /// A failed system call's `errno`, with the system's text for messages.
    package struct Errno: Error, Equatable, CustomStringConvertible {
        /// The `errno` value.
        let rawValue: Int32
        /// `strerror`'s text, e.g. "No space left on device".
        package var description: String { String(cString: strerror(rawValue)) }

        /// The error `rawValue` (an `errno` value, also as other libraries report it, e.g.
        /// SwiftNIO's `IOError.errnoCode`).
        /// - Parameter rawValue: the `errno` value.
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// The reader of a pipe went away.
        static let brokenPipe = Errno(rawValue: EPIPE)
        /// The name is taken.
        static let fileExists = Errno(rawValue: EEXIST)
        /// A component of the path does not exist.
        static let noSuchFile = Errno(rawValue: ENOENT)

        /// The current `errno`.
        static var current: Errno { Errno(rawValue: errno) }
    }

    /// Opens `path`; interrupted opens are retried.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) -> Result<Int32, Errno> {
        valueOrErrno { systemOpen(path, flags, mode) }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, what: String) throws -> Int {
        switch valueOrErrno({ systemRead(descriptor, buffer.baseAddress, buffer.count) }) {
        case .success(let count): return count
        case .failure(let error):
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(what): \(error)")
        }
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the descriptor's position
    /// (`pread`); 0 at the end.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int,
                     what: String) throws -> Int {
        switch valueOrErrno({ pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }) {
        case .success(let count): return count
        case .failure(let error):
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(what): \(error)")
        }
    }

    /// Writes every byte at the descriptor's position, retrying short writes.
    /// - Throws: `Errno.brokenPipe` unchanged (a consumer that went away is not an I/O error to
    ///   report); `Diagnostic` `io.write-failed` for anything else.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, what: String) throws {
        var offset = 0
        while offset < bytes.count {
            switch valueOrErrno({ systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }) {
            case .success(let count): offset += count
            case .failure(let error) where error == .brokenPipe: throw error
            case .failure(let error):
                throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot write \(what): \(error)")
            }
        }
    }

    /// Writes what one `write` call takes of `bytes`; the rest is not retried. For best-effort
    /// text on standard error, where a failure has nowhere to be reported; files and pipes of
    /// results go through `writeAll(_:_:what:)`.
    /// - Parameters:
    ///   - descriptor: the descriptor to write to.
    ///   - bytes: the bytes.
    /// - Returns: how many bytes were written, or the failure.
    @discardableResult
    package static func writeOnce(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        guard let base = bytes.baseAddress else { return .success(0) }
        return valueOrErrno { systemWrite(descriptor, base, bytes.count) }
    }

    /// Writes every byte at `position`, retrying short writes.
    /// - Throws: `Diagnostic` `io.write-failed`.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at position: Int, what: String) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                switch valueOrErrno({ pwrite(descriptor, raw.baseAddress! + offset, raw.count - offset, off_t(position + offset)) }) {
                case .success(let count): offset += count
                case .failure(let error):
                    throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot write \(what): \(error)")
                }
            }
        }
    }

    /// Up to `count` bytes at `offset`, retrying short reads; fewer only at the end of the file.
    /// - Throws: `Diagnostic` `io.read-failed`.
    static func read(_ descriptor: Int32, count: Int, at offset: Int64, what: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes.withUnsafeMutableBytes { raw in
                valueOrErrno { pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            }
            switch result {
            case .success(0): return Array(bytes[0..<filled])
            case .success(let got): filled += got
            case .failure(let error):
                throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(what): \(error)")
            }
        }
        return bytes
    }

    /// Opens the regular file at `relative` (components split at `/`) beneath the folder open as
    /// `folder`, without following any symbolic link on the way (`openat` with `O_NOFOLLOW` for
    /// each component) and without blocking (`O_NONBLOCK`, so a FIFO does not wait for a writer);
    /// what was opened is then checked (`fstat`), not the path before opening it, so no race can
    /// swap in a link out of the folder. Returns nil for anything that is not a regular file
    /// there: absent, a symbolic link, a FIFO, a device, `..`.
    /// - Throws: `POSIX.Errno` for other failures (EMFILE, EACCES).
    static func openRegularFile(_ relative: String, beneath folder: Int32) throws -> Int32? {
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = components.last, !components.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        var directory = folder
        defer { if directory != folder { close(directory) } }
        let refused: Set<Int32> = [ENOENT, ELOOP, ENOTDIR, ENXIO, EISDIR]
        for component in components.dropLast() {
            switch valueOrErrno({ openat(directory, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }) {
            case .success(let next):
                if directory != folder { close(directory) }
                directory = next
            case .failure(let error):
                if refused.contains(error.rawValue) { return nil }
                throw error
            }
        }
        let descriptor: Int32
        switch valueOrErrno({ openat(directory, String(last), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            if refused.contains(error.rawValue) { return nil }
            throw error
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, type(info) == S_IFREG else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// The file's status without following a final symbolic link, or nil when nothing is there.
    static func linkStatus(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    /// The file's status, following symbolic links, or nil when nothing is there.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// The file type bits of a status (`S_IFREG`, `S_IFDIR`, …).
    static func type(_ info: stat) -> mode_t { info.st_mode & S_IFMT }

    /// The size of the regular file at `path` (following symbolic links); nil for a directory
    /// or when nothing is there.
    static func regularFileSize(_ path: String) -> Int? {
        guard let info = status(path), type(info) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Hands the whole pages inside `bytes` back to the system (`madvise(MADV_DONTNEED)`), so a
    /// large working buffer stops counting in the resident size once its tail is garbage. The
    /// pages stay mapped and read as anything afterwards: only for memory the caller owns and
    /// does not read again before freeing it. Partial pages at either end are left alone.
    static func discardPages(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        let address = Int(bitPattern: base)
        let start = (address + page - 1) / page * page, end = (address + bytes.count) / page * page
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(first, end - start, Int32(MADV_DONTNEED))
    }
}

@inline(__always)
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags, mode)
    #else
    Darwin.open(path, flags, mode)
    #endif
}

@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
}
