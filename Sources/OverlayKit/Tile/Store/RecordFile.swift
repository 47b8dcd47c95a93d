#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// The bytes a run's temporary files hold now and at most, shared by its files (on any thread).
final class RecordFileUsage: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    /// The most bytes the files held at once.
    private(set) var peak = 0

    /// Counts `delta` bytes written (positive) or freed (negative).
    func add(_ delta: Int) {
        lock.lock()
        defer { lock.unlock() }
        current += delta
        peak = max(peak, current)
    }
}

/// A temporary file that has no name: created in a folder and unlinked at once, so the kernel
/// frees its space when the last descriptor closes — on a normal exit, a thrown error, a
/// crash or `kill -9` alike. Nothing is ever left behind to clean up.
///
/// Records are appended through a buffer and read back with `pread`, so several readers may
/// read one file at once while nothing writes it. The buffer is taken on the first append and
/// given back by `flush` (a run keeps many files waiting to be read: none holds a buffer), and
/// pieces as large as it go straight to the file.
final class RecordFile: @unchecked Sendable {
    private let descriptor: Int32
    /// The folder it was made in (for messages).
    let folder: String
    /// Bytes written so far, buffered ones included.
    private(set) var size = 0
    private var buffer = [UInt8]()
    private static let bufferBytes = 1 << 20
    private var usage: RecordFileUsage?

    /// Creates an empty, already unlinked file in `folder`, its bytes counted in `usage`.
    /// - Throws: `Diagnostic` `io.create-failed` when the folder cannot hold one.
    init(in folder: String, usage: RecordFileUsage? = nil) throws {
        self.folder = folder
        self.usage = usage
        switch POSIX.makeAnonymousFile(in: folder, prefix: "overlaykit-records-") {
        case .success(let anonymous): descriptor = anonymous
        case .failure(let error):
            throw Diagnostic(.error, code: .ioCreateFailed,
                             message: "cannot create a temporary file in \(folder): \(error) (see --tmpdir)")
        }
    }

    deinit {
        POSIX.close(descriptor)
        usage?.add(-size)
    }

    /// Counts the file's bytes in `other` from now on (a part's file joining the run's store).
    func count(in other: RecordFileUsage) {
        guard other !== usage else { return }
        usage?.add(-size)
        other.add(size)
        usage = other
    }

    /// Appends `bytes` (buffered, unless they are a buffer's worth already).
    func append(_ bytes: [UInt8]) throws {
        size += bytes.count
        usage?.add(bytes.count)
        if buffer.isEmpty && bytes.count >= Self.bufferBytes {
            try write(bytes)
            return
        }
        if buffer.capacity == 0 { buffer.reserveCapacity(Self.bufferBytes) }
        buffer += bytes
        if buffer.count >= Self.bufferBytes {
            try write(buffer)
            // Kept for the next appends, unless a large piece grew it.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * Self.bufferBytes)
        }
    }

    /// Writes what is buffered and gives the buffer back (the next append takes a new one).
    /// - Throws: `Diagnostic` `io.write-failed` ("No space left on device" when the disk is full).
    func flush() throws {
        if !buffer.isEmpty { try write(buffer) }
        buffer = []
    }

    /// Writes `bytes`, the file's last ones, after what was written before them.
    private func write(_ bytes: [UInt8]) throws {
        try POSIX.writeAll(descriptor, bytes, at: size - bytes.count,
                           what: "a temporary file in \(folder) (see --tmpdir)")
    }

    /// Forgets everything after the first `offset` bytes (a tile found solid takes back the
    /// children it wrote).
    func truncate(to offset: Int) throws {
        precondition(offset <= size)
        let flushed = size - buffer.count
        if offset >= flushed {
            buffer.removeLast(size - offset)
        } else {
            buffer.removeAll(keepingCapacity: true)
            guard case .success = POSIX.truncate(descriptor, to: offset) else {
                throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot shorten a temporary file in \(folder)")
            }
        }
        usage?.add(offset - size)
        size = offset
    }

    /// Reads up to `count` flushed bytes at `offset` (fewer at the end).
    /// - Throws: `Diagnostic` `io.read-failed`.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        let available = max(0, min(count, size - buffer.count - offset))
        let bytes = try POSIX.read(descriptor, count: available, at: Int64(offset), what: "a temporary file in \(folder)")
        guard bytes.count == available else {
            throw Diagnostic(.error, code: .ioReadFailed, message: "a temporary file in \(folder) ended early")
        }
        return bytes
    }
}

/// Reads the length-prefixed records of a `RecordFile` one after another, from a start offset.
struct RecordReader {
    private let file: RecordFile
    private var buffer = [UInt8]()
    /// Where `buffer` starts in the file, and the next record's offset in `buffer`.
    private var bufferStart: Int
    private var position = 0
    private static let chunkBytes = 1 << 20

    /// A reader of `file`'s records from `offset` (flushed before reading).
    init(_ file: RecordFile, from offset: Int = 0) throws {
        try file.flush()
        self.file = file
        bufferStart = offset
    }

    /// Offset of the next record in the file.
    var offset: Int { bufferStart + position }

    /// Calls `body` with the next record's bytes (valid only inside it); nil at the end. With
    /// `advance` false the record stays the next one (a look ahead).
    mutating func next<Result>(advance: Bool = true, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result? {
        guard try ensure(4) else { return nil }
        let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt32.self) })
        guard try ensure(4 + length) else {
            throw Diagnostic(.error, code: .ioReadFailed, message: "a temporary file in \(file.folder) ends inside a record")
        }
        let start = position + 4
        if advance { position = start + length }
        return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<start + length])) }
    }

    /// True when `count` bytes from `position` are in the buffer (reading more as needed);
    /// false at the end of the file.
    private mutating func ensure(_ count: Int) throws -> Bool {
        if position + count <= buffer.count { return true }
        let start = bufferStart + position
        guard start < file.size else { return false }
        buffer = try file.read(at: start, count: max(count, Self.chunkBytes))
        bufferStart = start
        position = 0
        return count <= buffer.count
    }
}
