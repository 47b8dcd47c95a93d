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
        var template = Array("\(directory)/overlaykit-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else {
            throw Diagnostic(.error, code: "io.create-failed",
                             message: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        descriptor = fd
        if keepPath {
            path = name
            cleanupToken = InterruptCleanup.register(name)
        } else {
            unlink(name)
            path = nil
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
        close(descriptor)
        if let path {
            unlink(path)
            InterruptCleanup.unregister(cleanupToken)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw Diagnostic(.error, code: "io.write-failed",
                                 message: "cannot write a temporary file: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
        size += bytes.count
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Calls `body` with the contents in chunks of at most 1 MiB, from the start.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < size {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, min($0.count, size - offset), off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Diagnostic(.error, code: "io.read-failed", message: "cannot read a temporary file: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += count
        }
    }

    /// Reads `count` bytes at `offset` (fewer at the end).
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        try readFully(descriptor, at: Int64(offset), count: count, what: "a temporary file")
    }
}

/// `count` bytes of a file at `offset` by `pread`, retrying short reads and EINTR; fewer at the
/// end of the file. `what` names the file in the error.
/// - Throws: `Diagnostic` `io.read-failed`.
func readFully(_ descriptor: Int32, at offset: Int64, count: Int, what: String) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
        if got < 0 {
            if errno == EINTR { continue }
            throw Diagnostic(.error, code: "io.read-failed", message: "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        if got == 0 { break }
        filled += got
    }
    return filled == count ? bytes : Array(bytes[0..<filled])
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}
