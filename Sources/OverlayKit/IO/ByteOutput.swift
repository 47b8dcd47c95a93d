#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A buffered destination for bytes: a file written atomically, or standard output.
///
/// A file is written to a temporary sibling and renamed over the target only by `commit()`,
/// so a failed run never leaves a half-written file. Writes are buffered (1 MiB).
public final class ByteOutput {
    /// The target path, or nil for standard output.
    public let path: String?
    private var descriptor: Int32
    private var temporaryPath: String?
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
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw Diagnostic(.error, code: "io.create-failed",
                             message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        fchmod(fd, 0o644)
        self.path = path
        descriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
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
        guard let temporaryPath, let path else { return }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
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
            self.temporaryPath = nil
        }
    }
}
