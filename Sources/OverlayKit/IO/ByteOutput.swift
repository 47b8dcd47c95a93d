#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A buffered destination for bytes: a file put in place atomically, standard output, or memory.
///
/// A file follows `AtomicOutput`'s policy: an existing file is refused unless `replaceExisting`
/// (the CLI's `--force`); it is written to an unnamed or temporary file beside the target and
/// renamed over it only by `commit()`, so a failed run never leaves a half-written file; an
/// existing file keeps its permissions; a symbolic link is followed (the file it names is
/// replaced, the link stays); a FIFO, a device or a socket (`-o /dev/null`, `-o >(gzip)`) is
/// written in place. Writes are buffered (1 MiB).
public final class ByteOutput {
    /// The target path, or nil for standard output.
    public let path: String?
    private var descriptor: Int32
    private let output: AtomicOutput?
    private var buffer: [UInt8] = []
    private var finished = false
    /// Bytes accepted so far.
    public private(set) var bytesWritten = 0

    /// Raised when the reader of a pipe went away (`EPIPE`): the consumer wants no more, which
    /// is not an error for a command in a pipeline.
    public struct Closed: Error {}

    /// Opens standard output for nil or "-", otherwise a file that appears at `path` on `commit()`.
    /// - Parameters:
    ///   - path: the file to write; nil or "-" for standard output.
    ///   - replaceExisting: replace an existing file (otherwise `io.output-exists`).
    /// - Throws: `Diagnostic` `io.output-exists`, or `io.create-failed` (the folder does not
    ///   exist, the path is a directory, the file system refuses).
    public init(path: String?, replaceExisting: Bool = false) throws {
        buffer.reserveCapacity(1 << 20)
        guard let path, path != "-" else {
            self.path = nil
            descriptor = STDOUT_FILENO
            output = nil
            return
        }
        self.path = path
        let output = try AtomicOutput(path: path, kind: .stream, replaceExisting: replaceExisting)
        descriptor = try output.openStream()
        self.output = output
    }

    /// Collects output in memory (`bytes`), for tests and for containers such as KMZ.
    public init() {
        path = nil
        descriptor = -1
        output = nil
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
    /// - Throws: `Closed` when the reader of a pipe went away, `Diagnostic` `io.write-failed`.
    public func flush() throws {
        guard descriptor >= 0, !buffer.isEmpty else { return }
        do {
            try buffer.withUnsafeBytes { try POSIX.writeAll(descriptor, $0, what: path ?? "standard output") }
        } catch let error as POSIX.Errno where error == .brokenPipe {
            throw Closed()
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and, for a file, puts it in place.
    /// - Throws: `Diagnostic` `io.write-failed`; the old file is kept.
    public func commit() throws {
        try flush()
        guard !finished else { return }
        finished = true
        guard let output else { return }
        let descriptor = self.descriptor
        self.descriptor = -1
        try output.commit(descriptor: descriptor)
    }

    /// Drops the unfinished file (on failure); standard output keeps what was flushed, and a
    /// FIFO's or device's reader has what was written to it.
    public func abandon() {
        guard !finished else { return }
        finished = true
        guard let output else { return }
        if descriptor >= 0 { POSIX.close(descriptor) }
        descriptor = -1
        output.abort()
    }
}
