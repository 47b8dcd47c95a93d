import OverlayModel

/// Writes a zip archive front to back in one pass: each entry's local header and deflated
/// data, then the central directory, kept in memory meanwhile (about 60 bytes plus the name per
/// entry), and the end record — zip64 records where the count passes 65,535 or a size or offset
/// 4 GiB. O(total bytes + entries).
///
/// Replaces ZIPFoundation's `Archive.addEntry`, which rewrites the whole central directory
/// after every entry: KMZ → KMZ was quadratic in the entries (36 s for 70,000).
///
/// Deterministic: every entry has the same timestamp (1980-01-01 00:00, the earliest DOS
/// date), no extra fields but zip64's, so the same entries give the same bytes.
struct ZipWriter {
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var offset: Int64 = 0
    private var directory: [UInt8] = []
    private var count = 0
    /// One deflate stream, reset per entry (a new one per entry cost 256 KB of zlib state each).
    private let deflater: Deflater

    /// A writer handing the archive's bytes, in order, to `sink`.
    init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        self.sink = sink
        deflater = try Deflater()
    }

    /// Adds an entry holding `bytes`, deflated.
    mutating func add(path: String, bytes: [UInt8]) throws {
        var compressed: [UInt8] = []
        try deflater.reset()
        try bytes.withUnsafeBytes { try deflater.deflate($0, finish: true) { compressed.append(contentsOf: $0) } }
        let crc = bytes.withUnsafeBytes { Inflater.crc32(0, $0) }
        let sink = sink
        try add(path: path, crc: crc, compressedSize: Int64(compressed.count), uncompressedSize: Int64(bytes.count)) {
            try compressed.withUnsafeBytes { try sink($0) }
        }
    }

    /// Adds an entry holding the bytes of `file`, deflated into a spool file first (the local
    /// header needs the sizes and CRC), so memory stays bounded whatever its size.
    mutating func add(path: String, file: TemporaryFile) throws {
        let spool = try TemporaryFile()
        try deflater.reset()
        var crc: UInt32 = 0
        try file.forEachChunk { chunk in
            crc = Inflater.crc32(crc, chunk)
            try deflater.deflate(chunk, finish: false) { try spool.write($0) }
        }
        try deflater.deflate(UnsafeRawBufferPointer(start: nil, count: 0), finish: true) { try spool.write($0) }
        let sink = sink
        try add(path: path, crc: crc, compressedSize: Int64(spool.size), uncompressedSize: Int64(file.size)) {
            try spool.forEachChunk { try sink($0) }
        }
    }

    /// Writes the central directory and the end records; the archive is complete.
    mutating func finish() throws {
        let directoryOffset = offset
        try emit(directory)
        let directorySize = Int64(directory.count)
        directory = []
        var end: [UInt8] = []
        let needsZip64 = count >= 0xFFFF || directoryOffset >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        if needsZip64 {
            let zip64EndOffset = offset
            // zip64 end of central directory record (56 bytes) and its locator.
            end.appendLittleEndian(0x0606_4b50, 4); end.appendLittleEndian(44, 8)
            end.appendLittleEndian(45, 2); end.appendLittleEndian(45, 2); end.appendLittleEndian(0, 4); end.appendLittleEndian(0, 4)
            end.appendLittleEndian(count, 8); end.appendLittleEndian(count, 8)
            end.appendLittleEndian(directorySize, 8); end.appendLittleEndian(directoryOffset, 8)
            end.appendLittleEndian(0x0706_4b50, 4); end.appendLittleEndian(0, 4); end.appendLittleEndian(zip64EndOffset, 8)
            end.appendLittleEndian(1, 4)
        }
        let shortCount = needsZip64 ? 0xFFFF : count
        end.appendLittleEndian(0x0605_4b50, 4); end.appendLittleEndian(0, 2); end.appendLittleEndian(0, 2)
        end.appendLittleEndian(shortCount, 2); end.appendLittleEndian(shortCount, 2)
        end.appendLittleEndian(needsZip64 ? 0xFFFF_FFFF : directorySize, 4)
        end.appendLittleEndian(needsZip64 ? 0xFFFF_FFFF : directoryOffset, 4)
        end.appendLittleEndian(0, 2)
        try emit(end)
    }

    private mutating func add(path: String, crc: UInt32, compressedSize: Int64, uncompressedSize: Int64,
                              writeData: () throws -> Void) throws {
        let name = Array(path.utf8)
        guard name.count <= 0xFFFF else {
            throw Diagnostic(.error, code: .ioWriteFailed, message: "zip entry name longer than 65,535 bytes: \(path.prefix(60))…")
        }
        let sizesNeed64 = compressedSize >= 0xFFFF_FFFF || uncompressedSize >= 0xFFFF_FFFF
        let offsetNeeds64 = offset >= 0xFFFF_FFFF
        // Bit 11: the name is UTF-8 (set only when it is not plain ASCII, as zip tools do).
        let flags = name.contains { $0 >= 0x80 } ? 0x0800 : 0
        let version = sizesNeed64 || offsetNeeds64 ? 45 : 20
        let dosTime = 0, dosDate = 1 << 5 | 1  // 1980-01-01 00:00
        // The fields local header and directory record share, from "version needed" to the name's length.
        func appendCommon(_ bytes: inout [UInt8]) {
            bytes.appendLittleEndian(version, 2); bytes.appendLittleEndian(flags, 2); bytes.appendLittleEndian(8, 2)
            bytes.appendLittleEndian(dosTime, 2); bytes.appendLittleEndian(dosDate, 2); bytes.appendLittleEndian(crc, 4)
            bytes.appendLittleEndian(sizesNeed64 ? 0xFFFF_FFFF : compressedSize, 4)
            bytes.appendLittleEndian(sizesNeed64 ? 0xFFFF_FFFF : uncompressedSize, 4)
            bytes.appendLittleEndian(name.count, 2)
        }
        let centralZip64Count = (sizesNeed64 ? 16 : 0) + (offsetNeeds64 ? 8 : 0)
        directory.appendLittleEndian(0x0201_4b50, 4)
        directory.appendLittleEndian(version, 2)  // version made by: MS-DOS attributes (none)
        appendCommon(&directory)
        directory.appendLittleEndian(centralZip64Count == 0 ? 0 : 4 + centralZip64Count, 2)
        directory.appendLittleEndian(0, 2); directory.appendLittleEndian(0, 2); directory.appendLittleEndian(0, 2)
        directory.appendLittleEndian(0, 4)
        directory.appendLittleEndian(offsetNeeds64 ? 0xFFFF_FFFF : offset, 4)
        directory += name
        if centralZip64Count > 0 {
            directory.appendLittleEndian(1, 2); directory.appendLittleEndian(centralZip64Count, 2)
            if sizesNeed64 { directory.appendLittleEndian(uncompressedSize, 8); directory.appendLittleEndian(compressedSize, 8) }
            if offsetNeeds64 { directory.appendLittleEndian(offset, 8) }
        }
        var local: [UInt8] = []
        local.reserveCapacity(30 + name.count + 20)
        local.appendLittleEndian(0x0403_4b50, 4)
        appendCommon(&local)
        local.appendLittleEndian(sizesNeed64 ? 20 : 0, 2)
        local += name
        if sizesNeed64 {
            local.appendLittleEndian(1, 2); local.appendLittleEndian(16, 2)
            local.appendLittleEndian(uncompressedSize, 8); local.appendLittleEndian(compressedSize, 8)
        }
        try emit(local)
        try writeData()
        offset += compressedSize
        count += 1
    }

    private mutating func emit(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try sink($0) }
        offset += Int64(bytes.count)
    }
}

private extension Array where Element == UInt8 {
    /// Appends the low `count` bytes of `value`, least significant first (zip's byte order).
    mutating func appendLittleEndian(_ value: some BinaryInteger, _ count: Int) {
        let bits = UInt64(truncatingIfNeeded: value)
        for index in 0..<count { append(UInt8(truncatingIfNeeded: bits >> (8 * index))) }
    }
}
