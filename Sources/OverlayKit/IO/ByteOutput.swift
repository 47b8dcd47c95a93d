import OverlayModel

/// A buffered destination for bytes: a file written atomically, or standard output.
///
/// A regular file is written to a temporary sibling and renamed over the target only by
/// `commit()`, so a failed run never leaves a half-written file; an existing file keeps its
/// permissions. A symbolic link is followed and the file it names is replaced (the link stays),
/// as `cp` does. A FIFO, a device or a socket (`-o /dev/null`, `-o >(gzip)`) is opened and
/// written directly: renaming over it would replace the device with a regular file. Temporary
/// files are removed on SIGINT/SIGTERM/SIGHUP (`InterruptCleanup`). Writes are buffered (1 MiB).
public final class ByteOutput {
    /// The target path, or nil for standard output.
    public let path: String?
    private var descriptor: Int32
    private var temporaryPath: String?
    private var cleanupToken: Int?
    /// Where the renamed file goes: `path`, or the file a symbolic link at `path` names.
    private var finalPath: String?
    private var buffer: [UInt8] = []
    private var finished = false
    /// Bytes accepted so far.
    public private(set) var bytesWritten = 0

    /// Raised when the reader of a pipe went away (`EPIPE`): the consumer wants no more, which
    /// is not an error for a command in a pipeline.
    public struct Closed: Error {}

    /// Opens standard output for nil or "-", otherwise a temporary file beside `path`.
    public init(path: String?) throws {
        buffer.reserveCapacity(1 << 20)
        if path == nil || path == "-" {
            self.path = nil
            descriptor = STDOUT_FILENO
            return
        }
        let path = path!
        self.path = path
        var target = path
        var existing = stat()
        if lstat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFLNK {
            // Follow the link to the file it names; a dangling link is written through directly.
            guard let resolved = realpath(path, nil) else {
                descriptor = try ByteOutput.openDirectly(path)
                return
            }
            target = String(cString: resolved)
            free(resolved)
        }
        var mode: mode_t = 0o644
        if stat(target, &existing) == 0 {
            if (existing.st_mode & S_IFMT) != S_IFREG {
                descriptor = try ByteOutput.openDirectly(path)
                return
            }
            mode = existing.st_mode & 0o7777
        }
        finalPath = target
        if let fd = ByteOutput.openUnnamed(beside: target, mode: mode) {
            // No name until commit: even SIGKILL leaves nothing behind.
            descriptor = fd
            return
        }
        var template = Array((target + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw Diagnostic(.error, code: "io.create-failed",
                             message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        fchmod(fd, mode)
        descriptor = fd
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        temporaryPath = temporary
        cleanupToken = InterruptCleanup.register(temporary)
    }

    /// An unnamed file in the target's directory (Linux `O_TMPFILE`), or nil where the file
    /// system or the platform has none (then a named temporary file is used).
    private static func openUnnamed(beside target: String, mode: mode_t) -> Int32? {
        #if os(Linux)
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        // O_TMPFILE is a compound macro Swift does not import: __O_TMPFILE | O_DIRECTORY.
        let unnamedFlag: Int32 = 0o20_000_000 | O_DIRECTORY
        let fd = open(directory, unnamedFlag | O_WRONLY | O_CLOEXEC, mode)
        guard fd >= 0 else { return nil }
        fchmod(fd, mode)
        return fd
        #else
        return nil
        #endif
    }

    /// Gives the unnamed file a temporary name beside the target (`linkat` through /proc, which
    /// cannot replace a file), so that `rename` can then replace the target atomically.
    private func nameUnnamedFile(beside target: String) throws -> String {
        for _ in 0..<100 {
            let name = target + ".tmp-" + String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
            if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 { return name }
            if errno != EEXIST { break }
        }
        throw Diagnostic(.error, code: "io.write-failed",
                         message: "cannot move output into place at \(path ?? target): \(String(cString: strerror(errno)))")
    }

    /// Opens a target that is not a regular file (FIFO, device, socket, dangling link) for writing in place.
    private static func openDirectly(_ path: String) throws -> Int32 {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw Diagnostic(.error, code: "io.create-failed", message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Collects output in memory (`bytes`), for tests and for containers such as KMZ.
    public init() {
        path = nil
        descriptor = -1
    }

    deinit { abandon() }

    /// Everything written, when collecting in memory.
    public var bytes: [UInt8] { buffer }

    /// Writes the UTF-8 of `text`.
    @inlinable
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        bytesWritten += bytes.count
        if buffer.count >= 1 << 20 && descriptor >= 0 { try flush() }
    }

    /// Writes the bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Hands buffered bytes to the system.
    public func flush() throws {
        guard descriptor >= 0, !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let count = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                let count = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { throw Closed() }
                    throw Diagnostic(.error, code: "io.write-failed",
                                     message: "cannot write \(path ?? "standard output"): \(String(cString: strerror(errno)))")
                }
                offset += count
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and, for a file, renames the temporary file over the target.
    public func commit() throws {
        try flush()
        guard !finished else { return }
        finished = true
        guard let path else { return }
        if temporaryPath == nil, let finalPath {
            // The unnamed file: named for the instant before the rename.
            let name: String
            do {
                name = try nameUnnamedFile(beside: finalPath)
            } catch {
                close(descriptor)
                descriptor = -1
                throw error
            }
            temporaryPath = name
            cleanupToken = InterruptCleanup.register(name)
        }
        guard let temporaryPath, let finalPath else {
            // Written in place (FIFO, device): closing reports a late write error, e.g. on NFS.
            let closed = close(descriptor)
            descriptor = -1
            if closed != 0 {
                throw Diagnostic(.error, code: "io.write-failed", message: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return
        }
        let closed = close(descriptor)
        descriptor = -1
        defer { InterruptCleanup.unregister(cleanupToken) }
        guard closed == 0, rename(temporaryPath, finalPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            self.temporaryPath = nil
            throw Diagnostic(.error, code: "io.write-failed", message: "cannot move output into place at \(path): \(reason)")
        }
        self.temporaryPath = nil
    }

    /// Drops the temporary file (on failure); standard output keeps what was flushed.
    public func abandon() {
        guard !finished else { return }
        finished = true
        if let temporaryPath {
            close(descriptor)
            unlink(temporaryPath)
            InterruptCleanup.unregister(cleanupToken)
            self.temporaryPath = nil
        } else if path != nil && descriptor >= 0 {
            // Unnamed, it vanishes on close; written in place, what was written stays (a FIFO's
            // reader has it already).
            close(descriptor)
            descriptor = -1
        }
    }
}
