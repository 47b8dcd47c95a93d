#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// An anonymous scratch file in `$TMPDIR` (or /tmp), unlinked as soon as it is created so it
/// disappears with the process: for spooling output that must come after something not yet
/// known (KML's shared styles precede the placemarks that use them), in bounded memory.
final class TemporaryFile {
    private let descriptor: Int32
    /// Bytes written so far.
    private(set) var size = 0
    /// The path while the file is still linked (only when `keepPath` was asked for).
    let path: String?
    /// The `InterruptCleanup` entry of a linked file.
    private var cleanupToken: Int?

    /// - Parameter keepPath: leave the file linked (removed on deinit), for APIs that want a path.
    init(keepPath: Bool = false, suffix: String = "") throws {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        func failed(_ error: POSIX.Errno) -> Diagnostic {
            Diagnostic(.error, code: .ioCreateFailed, message: "cannot create a temporary file in \(directory): \(error)")
        }
        guard keepPath else {
            // No name at all where the system allows it: a SIGKILL cannot strand one.
            switch POSIX.makeAnonymousFile(in: directory, prefix: "overlaykit-") {
            case .success(let anonymous): descriptor = anonymous
            case .failure(let error): throw failed(error)
            }
            path = nil
            return
        }
        switch POSIX.makeTemporaryFile("\(directory)/overlaykit-XXXXXX", suffix: suffix) {
        case .success(let file):
            (path, descriptor) = (file.path, file.descriptor)
            cleanupToken = InterruptCleanup.register(file.path)
        case .failure(let error): throw failed(error)
        }
    }

    /// A path that opens this file while it is open here, even unlinked (`/proc/self/fd/N` on
    /// Linux, `/dev/fd/N` elsewhere): for libraries that want a path to read, without leaving a
    /// name a SIGKILL would strand.
    var descriptorPath: String {
        #if os(Linux)
        "/proc/self/fd/\(descriptor)"
        #else
        "/dev/fd/\(descriptor)"
        #endif
    }

    deinit {
        POSIX.close(descriptor)
        if let path {
            POSIX.unlink(path)
            InterruptCleanup.unregister(cleanupToken)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try POSIX.writeAll(descriptor, bytes, what: "a temporary file")
        size += bytes.count
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Calls `body` with the contents in chunks of at most 1 MiB, from the start.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var offset = 0
        while offset < size {
            let chunk = try POSIX.read(descriptor, count: min(1 << 20, size - offset), at: Int64(offset), what: "a temporary file")
            if chunk.isEmpty { break }
            try chunk.withUnsafeBytes { try body($0) }
            offset += chunk.count
        }
    }

    /// Reads `count` bytes at `offset` (fewer at the end).
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        try readFully(descriptor, at: Int64(offset), count: count, what: "a temporary file")
    }
}

/// `count` bytes of a file at `offset` (fewer at the end of the file). `what` names the file in
/// the error.
/// - Throws: `Diagnostic` `io.read-failed`.
func readFully(_ descriptor: Int32, at offset: Int64, count: Int, what: String) throws -> [UInt8] {
    try POSIX.read(descriptor, count: count, at: offset, what: what)
}
