import Foundation
import OverlayModel

/// gzip (through `Deflater` and `Inflater`): tiles and PMTiles directories are
/// stored gzip-compressed, as tippecanoe and the PMTiles clients expect.
enum Gzip {
    /// The largest uncompressed tile accepted when reading (MVT tiles over 500 KiB are already
    /// unusual; this bounds what a hostile archive can make us allocate).
    static let maximumTileSize = 64 << 20

    /// True when the bytes start with the gzip magic number.
    static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
    }

    /// gzip-compresses `bytes` at level 6 (zlib's default), as tippecanoe does, with libdeflate
    /// (`WholeBufferGzip`). Measured on the 40,000 tiles of countries z0–8 (docs/tile.md): level 1
    /// writes 1.2% more bytes and saves about 0.2 s of CPU, level 4 the same bytes as 6 (within
    /// 0.01%) for no measurable time. Compressors are reused rather than set up per tile.
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        let compressor = try compressors.take()
        defer { compressors.give(compressor) }
        return try compressor.compress(bytes)
    }

    /// Compressors kept for reuse, one per thread compressing at a time.
    private static let compressors = CompressorPool()

    private final class CompressorPool: @unchecked Sendable {
        private let lock = NSLock()
        private var spare = [WholeBufferGzip]()

        func take() throws -> WholeBufferGzip {
            lock.lock()
            let compressor = spare.popLast()
            lock.unlock()
            return try compressor ?? WholeBufferGzip()
        }

        func give(_ compressor: WholeBufferGzip) {
            lock.lock()
            // At most a few per core: more only happen when threads outnumber cores.
            if spare.count < 64 { spare.append(compressor) }
            lock.unlock()
        }
    }

    /// Unpacks gzip (or zlib) data, refusing output larger than `limit` bytes.
    /// - Throws: `Diagnostic` `tile.archive-bad-gzip` naming `source` for corrupt data or too much output.
    static func decompress(_ bytes: [UInt8], limit: Int, source: String) throws -> [UInt8] {
        var output = [UInt8]()
        do {
            let inflater = try Inflater(framing: .gzipOrZlib)
            try bytes.withUnsafeBytes { input in
                try inflater.inflate(input) { chunk in
                    guard output.count + chunk.count <= limit else {
                        throw Diagnostic(.error, code: .tileArchiveTooLarge,
                                         message: "\(source): gzip data unpacks to more than \(limit) bytes")
                    }
                    output.append(contentsOf: chunk)
                }
            }
            try inflater.finish()
        } catch let failure as Inflater.Failure {
            let reason = if case .truncated = failure { "truncated" } else { "corrupt (\(failure))" }
            throw Diagnostic(.error, code: .tileArchiveBadGzip, message: "\(source): gzip data is \(reason)")
        }
        return output
    }
}
