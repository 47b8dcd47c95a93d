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
/// (`AtomicOutput`). Every chunk and the index carry a CRC-32, checked whenever they are read:
/// a file from elsewhere (another machine, an edit) is hostile input, and a damaged byte must
/// end in `tile.bad-work-file`, never in a record decoded from it.
///
///     "OKSECT2\n"
///     chunks
///     index: per chunk u32 section, u32 length, u64 offset, u32 CRC-32 of the chunk (little-endian)
///     footer: u64 index offset, u64 chunk count, u32 CRC-32 of the index, "OKSECEND"
final class SectionedFileWriter {
    private let output: AtomicOutput
    private let descriptor: Int32
    private var size = 8
    private var buffers = [Int: [UInt8]]()
    private var buffered = 0
    private var chunks = [(section: UInt32, offset: UInt64, length: UInt32, crc: UInt32)]()
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

    static let magic = "OKSECT2\n"
    static let footerMagic = "OKSECEND"
    /// Bytes per index entry and in the footer.
    static let indexEntryBytes = 20, footerBytes = 28

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
        chunks.append((UInt32(section), UInt64(size), UInt32(bytes.count), bytes.withUnsafeBytes { Inflater.crc32(0, $0) }))
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
            withUnsafeBytes(of: chunk.crc.littleEndian) { tail.append(contentsOf: $0) }
        }
        let indexCRC = tail.withUnsafeBytes { Inflater.crc32(0, $0) }
        withUnsafeBytes(of: UInt64(size).littleEndian) { tail.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(chunks.count).littleEndian) { tail.append(contentsOf: $0) }
        withUnsafeBytes(of: indexCRC.littleEndian) { tail.append(contentsOf: $0) }
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
    private var chunks = [Int: [(offset: Int, length: Int, crc: UInt32)]]()

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
        let entryBytes = SectionedFileWriter.indexEntryBytes, footerBytes = SectionedFileWriter.footerBytes
        guard let info = POSIX.status(path), info.st_size >= 8 + footerBytes else { throw Self.damaged(path, at: 0, "is too short") }
        let size = Int(info.st_size)
        let head = try POSIX.read(descriptor, count: 8, at: 0, what: path)
        guard head == Array(SectionedFileWriter.magic.utf8) else {
            throw Self.damaged(path, at: 0, "does not start with \(SectionedFileWriter.magic.dropLast()) (written by another version?)")
        }
        let footer = try POSIX.read(descriptor, count: footerBytes, at: Int64(size - footerBytes), what: path)
        guard footer.count == footerBytes, String(decoding: footer[20...], as: UTF8.self) == SectionedFileWriter.footerMagic else {
            throw Self.damaged(path, at: size - footerBytes, "has no footer")
        }
        let (indexOffset, count, indexCRC) = footer.withUnsafeBytes {
            (UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
             UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
        }
        // Compared as UInt64 before any Int is made: a damaged footer may hold any value.
        guard indexOffset >= 8, indexOffset <= UInt64(size - footerBytes),
              count == (UInt64(size - footerBytes) - indexOffset) / UInt64(entryBytes),
              indexOffset + count * UInt64(entryBytes) == UInt64(size - footerBytes) else {
            throw Self.damaged(path, at: size - footerBytes, "has a footer that does not match its size")
        }
        let index = try POSIX.read(descriptor, count: Int(count) * entryBytes, at: Int64(indexOffset), what: path)
        guard index.withUnsafeBytes({ Inflater.crc32(0, $0) }) == indexCRC else {
            throw Self.damaged(path, at: Int(indexOffset), "has an index whose checksum does not match")
        }
        try index.withUnsafeBytes { raw in
            for entry in 0..<Int(count) {
                let section = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry * entryBytes, as: UInt32.self)))
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry * entryBytes + 4, as: UInt32.self)))
                let offset = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: entry * entryBytes + 8, as: UInt64.self))
                let crc = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: entry * entryBytes + 16, as: UInt32.self))
                guard offset >= 8, offset <= indexOffset, UInt64(length) <= indexOffset - offset else {
                    throw Self.damaged(path, at: Int(indexOffset) + entry * entryBytes, "has a chunk outside the file")
                }
                chunks[section, default: []].append((Int(offset), length, crc))
            }
        }
    }

    deinit { POSIX.close(descriptor) }

    private static func damaged(_ path: String, at offset: Int, _ why: String) -> Diagnostic {
        Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) (byte \(offset)) \(why): not a complete file of a distributed tile run")
    }

    /// A chunk's bytes, checked against its checksum.
    private func read(_ chunk: (offset: Int, length: Int, crc: UInt32)) throws -> [UInt8] {
        let bytes = try POSIX.read(descriptor, count: chunk.length, at: Int64(chunk.offset), what: path)
        guard bytes.count == chunk.length, bytes.withUnsafeBytes({ Inflater.crc32(0, $0) }) == chunk.crc else {
            throw Self.damaged(path, at: chunk.offset, "has a chunk whose checksum does not match")
        }
        return bytes
    }

    /// The sections that have bytes.
    var sections: [Int] { chunks.keys.sorted() }

    /// Bytes in `section`.
    func size(of section: Int) -> Int { chunks[section]?.reduce(0) { $0 + $1.length } ?? 0 }

    /// How many chunks `section` has.
    func chunkCount(of section: Int) -> Int { chunks[section]?.count ?? 0 }

    /// The `index`-th chunk of `section`.
    func chunk(_ index: Int, of section: Int) throws -> [UInt8] {
        try read(chunks[section]![index])
    }

    /// Calls `body` with each chunk of `section`, in order.
    func forEachChunk(of section: Int, _ body: ([UInt8]) throws -> Void) throws {
        for chunk in chunks[section] ?? [] {
            try body(try read(chunk))
        }
    }
}
