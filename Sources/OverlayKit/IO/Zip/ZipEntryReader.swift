import OverlayModel

/// Reads one zip entry's bytes: stored or deflated, in bounded chunks, checked against the
/// sizes and the CRC-32 the directory gives.
enum ZipEntryReader {
    /// Compressed bytes read per step.
    private static let chunkSize = 1 << 18

    /// Passes the entry's inflated bytes to `body` in chunks; `body` may throw to stop (size limits).
    /// - Throws: `ZipFailure` when the entry is encrypted, uses another method, lies outside the
    ///   file, is corrupt or truncated, or its size or CRC-32 differs from the directory's.
    static func read(_ entry: ZipEntry, from zip: RandomAccessBytes,
                     into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard entry.flags & 1 == 0 else { throw ZipFailure(description: "it is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipFailure(description: "it uses compression method \(entry.method) (only stored and deflate are read)")
        }
        let header = try zip.read(at: entry.localHeaderOffset, count: 30)
        guard header.count == 30, header.littleEndian32(at: 0) == 0x0403_4b50 else {
            throw ZipFailure(description: "its local header is missing")
        }
        let dataOffset = entry.localHeaderOffset + 30 + Int64(header.littleEndian16(at: 26)) + Int64(header.littleEndian16(at: 28))
        guard entry.compressedSize >= 0, entry.uncompressedSize >= 0, dataOffset <= zip.size,
              entry.compressedSize <= zip.size - dataOffset else {
            throw ZipFailure(description: "its data runs past the end of the file (truncated?)")
        }
        let inflater = entry.method == 8 ? try Inflater(framing: .raw) : nil
        var crc: UInt32 = 0
        var produced: Int64 = 0
        func checkedBody(_ chunk: UnsafeRawBufferPointer) throws {
            crc = Inflater.crc32(crc, chunk)
            produced += Int64(chunk.count)
            try body(chunk)
        }
        var position: Int64 = 0
        do {
            while position < entry.compressedSize, inflater?.isFinished != true {
                let chunk = try zip.read(at: dataOffset + position, count: Int(min(Int64(chunkSize), entry.compressedSize - position)))
                guard !chunk.isEmpty else { break }
                position += Int64(chunk.count)
                try chunk.withUnsafeBytes { bytes in
                    if let inflater { try inflater.inflate(bytes, into: checkedBody) } else { try checkedBody(bytes) }
                }
            }
            try inflater?.finish()
        } catch Inflater.Failure.truncated {
            throw ZipFailure(description: "its deflate data ends early (truncated or corrupt)")
        } catch Inflater.Failure.corrupt(let status) {
            throw ZipFailure(description: "its deflate data is corrupt (zlib \(status))")
        }
        guard produced == entry.uncompressedSize else {
            throw ZipFailure(description: "it inflates to \(produced) bytes, the archive says \(entry.uncompressedSize)")
        }
        guard crc == entry.crc32 else {
            throw ZipFailure(description: "its CRC-32 is \(String(crc, radix: 16)), the archive says \(String(entry.crc32, radix: 16))")
        }
    }
}
