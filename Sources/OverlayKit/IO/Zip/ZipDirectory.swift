import OverlayModel

/// One file or folder listed in a zip's central directory.
struct ZipEntry {
    /// The path inside the archive (UTF-8, or Latin-1 when the name is not valid UTF-8).
    var path: String
    /// 0 stored, 8 deflate; others are refused when read.
    var method: UInt16
    /// General purpose flags (bit 0: encrypted).
    var flags: UInt16
    var crc32: UInt32
    var compressedSize: Int64
    var uncompressedSize: Int64
    /// Where the entry's local header starts.
    var localHeaderOffset: Int64

    /// Folders are entries whose name ends with a slash.
    var isDirectory: Bool { path.hasSuffix("/") }
}

/// Why a zip or one of its entries cannot be read, in words that finish "… because …".
struct ZipFailure: Error, CustomStringConvertible {
    var description: String
}

/// Reads a zip's central directory (zip64 included), checking every offset and size against
/// the file, so a hostile archive can make it neither read outside the file nor loop.
enum ZipDirectory {
    /// The central directory is at most this large (a million entries with long names).
    static let maximumDirectoryBytes: Int64 = 256 << 20

    /// The entries, in directory order.
    static func entries(of zip: RandomAccessBytes) throws -> [ZipEntry] {
        let (directoryOffset, directorySize, count) = try locateDirectory(in: zip)
        guard directorySize <= maximumDirectoryBytes else {
            throw ZipFailure(description: "its central directory is larger than \(maximumDirectoryBytes >> 20) MiB")
        }
        let directory = try zip.read(at: directoryOffset, count: Int(directorySize))
        var entries: [ZipEntry] = []
        var position = 0
        // Each record is at least 46 bytes, so the directory's size bounds the loop whatever the count says.
        while entries.count < count, position + 46 <= directory.count {
            guard directory.littleEndian32(at: position) == 0x0201_4b50 else {
                throw ZipFailure(description: "central directory record \(entries.count + 1) has a bad signature")
            }
            let nameLength = Int(directory.littleEndian16(at: position + 28))
            let extraLength = Int(directory.littleEndian16(at: position + 30))
            let commentLength = Int(directory.littleEndian16(at: position + 32))
            let end = position + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else {
                throw ZipFailure(description: "central directory record \(entries.count + 1) runs past the directory")
            }
            let nameBytes = directory[position + 46 ..< position + 46 + nameLength]
            var entry = ZipEntry(
                path: String(validating: nameBytes, as: UTF8.self) ?? String(nameBytes.map { Character(Unicode.Scalar($0)) }),
                method: directory.littleEndian16(at: position + 10),
                flags: directory.littleEndian16(at: position + 8),
                crc32: directory.littleEndian32(at: position + 16),
                compressedSize: Int64(directory.littleEndian32(at: position + 20)),
                uncompressedSize: Int64(directory.littleEndian32(at: position + 24)),
                localHeaderOffset: Int64(directory.littleEndian32(at: position + 42)))
            applyZip64Extra(directory[position + 46 + nameLength ..< position + 46 + nameLength + extraLength], to: &entry)
            entries.append(entry)
            position = end
        }
        return entries
    }

    /// The central directory's offset, size and entry count, from the end records.
    private static func locateDirectory(in zip: RandomAccessBytes) throws -> (Int64, Int64, Int) {
        // The end record is 22 bytes plus a comment of at most 65,535.
        let tailStart = max(0, zip.size - 22 - 65_535)
        let tail = try zip.read(at: tailStart, count: Int(zip.size - tailStart))
        guard tail.count >= 22,
              let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.littleEndian32(at: $0) == 0x0605_4b50 })
        else { throw ZipFailure(description: "it has no zip end-of-directory record") }
        var count = Int64(tail.littleEndian16(at: end + 10))
        var size = Int64(tail.littleEndian32(at: end + 12))
        var offset = Int64(tail.littleEndian32(at: end + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // zip64: a locator just before the end record points at the zip64 end record.
            let locatorOffset = tailStart + Int64(end) - 20
            let locator = try zip.read(at: locatorOffset, count: 20)
            if locator.count == 20, locator.littleEndian32(at: 0) == 0x0706_4b50 {
                let record = try zip.read(at: Int64(truncatingIfNeeded: locator.littleEndian64(at: 8)), count: 56)
                guard record.count == 56, record.littleEndian32(at: 0) == 0x0606_4b50 else {
                    throw ZipFailure(description: "its zip64 end record is missing")
                }
                count = Int64(truncatingIfNeeded: record.littleEndian64(at: 32))
                size = Int64(truncatingIfNeeded: record.littleEndian64(at: 40))
                offset = Int64(truncatingIfNeeded: record.littleEndian64(at: 48))
            }
        }
        guard offset >= 0, size >= 0, count >= 0, offset <= zip.size, size <= zip.size - offset else {
            throw ZipFailure(description: "its central directory lies outside the file (truncated?)")
        }
        return (offset, size, Int(clamping: count))
    }

    /// Replaces the 32-bit fields that say 0xFFFFFFFF with their zip64 extra-field values.
    private static func applyZip64Extra(_ extra: ArraySlice<UInt8>, to entry: inout ZipEntry) {
        var position = extra.startIndex
        while position + 4 <= extra.endIndex {
            let id = extra.littleEndian16(at: position)
            let length = Int(extra.littleEndian16(at: position + 2))
            let data = position + 4
            guard data + length <= extra.endIndex else { return }
            if id == 0x0001 {
                var field = data
                func next() -> Int64? {
                    guard field + 8 <= data + length else { return nil }
                    defer { field += 8 }
                    return Int64(truncatingIfNeeded: extra.littleEndian64(at: field))
                }
                if entry.uncompressedSize == 0xFFFF_FFFF, let value = next() { entry.uncompressedSize = value }
                if entry.compressedSize == 0xFFFF_FFFF, let value = next() { entry.compressedSize = value }
                if entry.localHeaderOffset == 0xFFFF_FFFF, let value = next() { entry.localHeaderOffset = value }
                return
            }
            position = data + length
        }
    }
}

extension Collection<UInt8> where Index == Int {
    /// The little-endian integer at `offset` (the caller has checked the bounds).
    func littleEndian16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func littleEndian32(at offset: Int) -> UInt32 {
        UInt32(littleEndian16(at: offset)) | UInt32(littleEndian16(at: offset + 2)) << 16
    }

    func littleEndian64(at offset: Int) -> UInt64 {
        UInt64(littleEndian32(at: offset)) | UInt64(littleEndian32(at: offset + 4)) << 32
    }
}
