#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A named file of many sections written in any interleaving and read back section by section:
/// what one worker of a distributed run hands to the others (a shard's records by partition).
/// Each section's bytes are buffered and appended as chunks; an index of the chunks (section,
/// offset, length) and a footer close the file, which appears only when complete
/// (`AtomicOutput`).
///
///     "OKSECT1\n"
///     chunks
///     index: per chunk u32 section, u32 length, u64 offset (little-endian)
///     footer: u64 index offset, u64 chunk count, "OKSECEND"
final class SectionedFileWriter {
    private let output: AtomicOutput
    private let descriptor: Int32
    private var size = 8
    private var buffers = [Int: [UInt8]]()
    private var buffered = 0
    private var chunks = [(section: UInt32, offset: UInt64, length: UInt32)]()
    private static let chunkBytes = 1 << 18
    private static let bufferedBytes = 32 << 20

    /// A file to be written at `path` (replacing what is there once complete).
    /// - Throws: `io.*` when it cannot be created.
    init(path: String) throws {
        output = try AtomicOutput(path: path, kind: .stream, replaceExisting: true)
        descriptor = try output.openStream()
        try POSIX.writeAll(descriptor, Array(Self.magic.utf8), at: 0, what: path)
    }

    deinit {
        if !buffers.isEmpty || !chunks.isEmpty { output.abort() }
    }

    static let magic = "OKSECT1\n"
    static let footerMagic = "OKSECEND"

    /// Appends `bytes` to `section`.
    func append(_ bytes: [UInt8], to section: Int) throws {
        buffers[section, default: []].append(contentsOf: bytes)
        buffered += bytes.count
        if buffers[section]!.count >= Self.chunkBytes { try flush(section) }
        if buffered >= Self.bufferedBytes { for section in buffers.keys.sorted() { try flush(section) } }
    }

    private func flush(_ section: Int) throws {
        guard let bytes = buffers.removeValue(forKey: section), !bytes.isEmpty else { return }
        try POSIX.writeAll(descriptor, bytes, at: size, what: output.path)
        chunks.append((UInt32(section), UInt64(size), UInt32(bytes.count)))
        size += bytes.count
        buffered -= bytes.count
    }

    /// Writes what is buffered, the index and the footer, and puts the file in place.
    func finish() throws {
        for section in buffers.keys.sorted() { try flush(section) }
        var tail = [UInt8]()
        for chunk in chunks {
            withUnsafeBytes(of: chunk.section.littleEndian) { tail.append(contentsOf: $0) }
            withUnsafeBytes(of: chunk.length.littleEndian) { tail.append(contentsOf: $0) }
            withUnsafeBytes(of: chunk.offset.littleEndian) { tail.append(contentsOf: $0) }
        }
        withUnsafeBytes(of: UInt64(size).littleEndian) { tail.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(chunks.count).littleEndian) { tail.append(contentsOf: $0) }
        tail.append(contentsOf: Self.footerMagic.utf8)
        try POSIX.writeAll(descriptor, tail, at: size, what: output.path)
        try output.commit(descriptor: descriptor)
        chunks = []
    }
}

/// Reads the sections of a file `SectionedFileWriter` wrote.
final class SectionedFileReader: @unchecked Sendable {
    let path: String
    private let descriptor: Int32
    /// Each section's chunks in the order they were written.
    private var chunks = [Int: [(offset: Int, length: Int)]]()

    /// Opens `path` and reads its index.
    /// - Throws: `io.not-found`/`io.read-failed`; `tile.bad-work-file` when it is not such a file.
    init(path: String) throws {
        self.path = path
        switch POSIX.open(path, O_RDONLY) {
        case .success(let descriptor): self.descriptor = descriptor
        case .failure(let errno):
            throw Diagnostic(.error, code: errno == .noSuchFile ? .tileBadWorkFile : .ioReadFailed,
                             message: "cannot open \(path): \(errno)")
        }
        guard let info = POSIX.status(path), info.st_size >= 32 else { throw Self.damaged(path) }
        let size = Int(info.st_size)
        let footer = try POSIX.read(descriptor, count: 24, at: Int64(size - 24), what: path)
        guard footer.count == 24, String(decoding: footer[16...], as: UTF8.self) == SectionedFileWriter.footerMagic else {
            throw Self.damaged(path)
        }
        let (indexOffset, count) = footer.withUnsafeBytes {
            (Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self))),
             Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))))
        }
        guard indexOffset >= 8, count >= 0, count <= (size - 24 - indexOffset) / 16, indexOffset + count * 16 == size - 24 else {
            throw Self.damaged(path)
        }
        let index = try POSIX.read(descriptor, count: count * 16, at: Int64(indexOffset), what: path)
        try index.withUnsafeBytes { raw in
            for entry in 0..<count {
                let section = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry * 16, as: UInt32.self)))
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry * 16 + 4, as: UInt32.self)))
                let offset = Int(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: entry * 16 + 8, as: UInt64.self)))
                guard offset >= 8, offset <= indexOffset, length <= indexOffset - offset else { throw Self.damaged(path) }
                chunks[section, default: []].append((offset, length))
            }
        }
    }

    deinit { close(descriptor) }

    private static func damaged(_ path: String) -> Diagnostic {
        Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is not a complete file of a distributed tile run")
    }

    /// The sections that have bytes.
    var sections: [Int] { chunks.keys.sorted() }

    /// Bytes in `section`.
    func size(of section: Int) -> Int { chunks[section]?.reduce(0) { $0 + $1.length } ?? 0 }

    /// How many chunks `section` has.
    func chunkCount(of section: Int) -> Int { chunks[section]?.count ?? 0 }

    /// The `index`-th chunk of `section`.
    func chunk(_ index: Int, of section: Int) throws -> [UInt8] {
        let chunk = chunks[section]![index]
        return try POSIX.read(descriptor, count: chunk.length, at: Int64(chunk.offset), what: path)
    }

    /// Calls `body` with each chunk of `section`, in order.
    func forEachChunk(of section: Int, _ body: ([UInt8]) throws -> Void) throws {
        for chunk in chunks[section] ?? [] {
            try body(try POSIX.read(descriptor, count: chunk.length, at: Int64(chunk.offset), what: path))
        }
    }
}
