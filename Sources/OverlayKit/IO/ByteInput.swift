#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A source of bytes: a file, standard input, or memory. Parsers pull chunks from it, so a
/// file of any size streams through in bounded memory.
///
/// A reference type because it owns an open file descriptor; it closes it when released.
public final class ByteInput {
    /// The name diagnostics use: the path as given, or nil for standard input or memory.
    public let name: String?
    /// Bytes handed out so far (for progress reports).
    public private(set) var bytesRead: Int = 0
    /// Total size when known (regular files), for progress reports.
    public let expectedSize: Int?

    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private var memory: [UInt8]
    private var memoryOffset = 0
    /// Bytes read ahead by `peek(_:)`, replayed before reading on.
    private var pending: [UInt8] = []
    /// For a copy made by `independentCopy()`: where the next `pread` starts (the descriptor
    /// is shared with the original, so its own offset is never used).
    private var positionalOffset: Int?
    /// For a copy made by `slice(_:)`: where its bytes end (reads stop there).
    private var positionalLimit: Int?

    /// Opens a file, or standard input for nil or "-".
    /// - Throws: `Diagnostic` `io.open-failed` naming the file and the system's reason, located
    ///   at the file (`file:1:1`).
    public convenience init(path: String?) throws {
        try self.init(path: path, name: path)
    }

    /// Opens a file as `init(path:)` does, or standard input for nil or "-", with `name` as the
    /// name diagnostics use (nil: standard input's): for a file standing in for another, such
    /// as standard input spooled to a temporary file to be read twice.
    init(path: String?, name: String?) throws {
        if path == nil || path == "-" {
            self.name = nil
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            expectedSize = nil
        } else {
            let path = path!
            // Located at the file, as every other finding about it is (`validate` said so alone).
            let location = SourceLocation(file: path, line: 1, column: 1)
            let fd: Int32
            switch POSIX.open(path, O_RDONLY | O_CLOEXEC) {
            case .success(let opened): fd = opened
            case .failure(let error):
                throw Diagnostic(.error, code: .ioOpenFailed, message: "cannot open \(path): \(error)", location: location)
            }
            // A failed `fstat` leaves the status zero: neither a folder nor a regular file.
            let info = (try? POSIX.status(of: fd).get()) ?? stat()
            if POSIX.type(info) == S_IFDIR {
                POSIX.close(fd)
                throw Diagnostic(.error, code: .ioOpenFailed, message: "cannot read \(path): it is a directory", location: location)
            }
            self.name = name
            descriptor = fd
            ownsDescriptor = true
            expectedSize = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        }
        memory = []
    }

    /// Bytes in memory, e.g. for tests or a KMZ entry.
    public init(bytes: [UInt8], name: String? = nil) {
        self.name = name
        descriptor = -1
        ownsDescriptor = false
        memory = bytes
        expectedSize = bytes.count
    }

    /// An input holding the UTF-8 of `string`; `name` is the file name diagnostics show.
    public convenience init(string: String, name: String? = nil) {
        self.init(bytes: Array(string.utf8), name: name)
    }

    /// A copy of a file input that reads it from the start, whatever the original has read.
    private init(duplicating descriptor: Int32, name: String?, expectedSize: Int?) {
        self.name = name
        self.descriptor = descriptor
        ownsDescriptor = true
        self.expectedSize = expectedSize
        memory = []
        positionalOffset = 0
    }

    deinit {
        if ownsDescriptor { POSIX.close(descriptor) }
    }

    /// A second reader of the same bytes from their start, independent of this one; nil for
    /// standard input, pipes and anything else that cannot be read twice. For a reader that
    /// must look ahead in the whole input once (KML's late `Schema`s) without holding it.
    func independentCopy() -> ByteInput? {
        if descriptor < 0 { return ByteInput(bytes: memory, name: name) }
        // A regular file opened by path (`expectedSize` is set only for those).
        guard ownsDescriptor, expectedSize != nil else { return nil }
        guard case .success(let copy) = POSIX.duplicate(descriptor) else { return nil }
        return ByteInput(duplicating: copy, name: name, expectedSize: expectedSize)
    }

    /// The bytes `range` of a regular file opened by path, or of memory, as an input of their
    /// own that reads them with positional reads (independent of this one and of other slices,
    /// so threads may read slices side by side); nil for anything else.
    package func slice(_ range: Range<Int>) -> ByteInput? {
        if descriptor < 0 {
            // Shares the bytes (copy on write: none are ever written).
            let copy = ByteInput(bytes: memory, name: name)
            copy.memoryOffset = min(max(0, range.lowerBound), memory.count)
            copy.positionalLimit = min(max(copy.memoryOffset, range.upperBound), memory.count)
            return copy
        }
        guard let copy = independentCopy() else { return nil }
        copy.positionalOffset = range.lowerBound
        copy.positionalLimit = range.upperBound
        return copy
    }

    /// Reads up to `buffer.count` bytes; returns 0 at the end of input.
    /// - Throws: `Diagnostic` `io.read-failed`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if !pending.isEmpty {
            let count = min(buffer.count, pending.count)
            pending.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            pending.removeFirst(count)
            bytesRead += count
            return count
        }
        let count = try readFromSource(into: buffer)
        bytesRead += count
        return count
    }

    /// Reads from the file or memory, ignoring `pending`.
    private func readFromSource(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if descriptor < 0 {
            let count = min(buffer.count, (positionalLimit ?? memory.count) - memoryOffset)
            if count > 0 {
                memory.withUnsafeBytes {
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[memoryOffset..<memoryOffset + count]))
                }
                memoryOffset += count
            }
            return count
        }
        let what = name ?? "standard input"
        if let offset = positionalOffset {
            var buffer = buffer
            if let limit = positionalLimit {
                guard offset < limit else { return 0 }
                buffer = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, limit - offset)])
            }
            let count = try POSIX.read(descriptor, into: buffer, at: offset, what: what)
            positionalOffset = offset + count
            return count
        }
        return try POSIX.read(descriptor, into: buffer, what: what)
    }

    /// The first `count` bytes (fewer at the end of input), without consuming them: later reads
    /// return them again. For detecting a format from content.
    public func peek(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            var chunk = [UInt8](repeating: 0, count: count - pending.count)
            let got = try chunk.withUnsafeMutableBytes { try readFromSource(into: $0) }
            if got == 0 { break }
            pending.append(contentsOf: chunk[0..<got])
        }
        return Array(pending.prefix(count))
    }

    /// The whole input when it is in memory and nothing has been read yet (random-access formats
    /// such as zip then need no copy).
    var unreadMemory: [UInt8]? {
        descriptor < 0 && bytesRead == 0 ? memory : nil  // peeked bytes are still in `memory`
    }

    /// Everything that is left, in one array (for formats that need random access, like zip).
    public func readAll() throws -> [UInt8] {
        var result = [UInt8]()
        if let expectedSize { result.reserveCapacity(expectedSize) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if got == 0 { return result }
            result.append(contentsOf: chunk[0..<got])
        }
    }
}
