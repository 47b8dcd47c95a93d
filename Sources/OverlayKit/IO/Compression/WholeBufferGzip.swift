import CLibDeflate
import OverlayModel

/// gzip of a whole buffer at once through libdeflate, at level 6 (zlib's default, and what
/// tippecanoe writes): the same format any gzip reader takes, about 2.3× faster than zlib's
/// streaming deflate on tiles (180 MB of 2 million points' tiles: 4.2 s against 9.8 s, 0.25%
/// more bytes). Tiles and PMTiles directories are whole buffers, so nothing needs a stream.
final class WholeBufferGzip {
    /// The compression level: zlib's default.
    static let level: Int32 = 6

    private let compressor: OpaquePointer

    /// A compressor; its buffers are reused for every call (not thread-safe: one per thread).
    init() throws {
        guard let made = libdeflate_alloc_compressor(Self.level) else {
            throw Diagnostic(.error, code: .ioCompressFailed, message: "libdeflate could not allocate a compressor")
        }
        compressor = made
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// `bytes` as one gzip member.
    func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        var written = 0
        let output = try [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            written = bytes.withUnsafeBytes { input in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, buffer.baseAddress, bound)
            }
            guard written > 0 else {
                count = 0
                throw Diagnostic(.error, code: .ioCompressFailed,
                                 message: "libdeflate could not compress \(bytes.count) bytes within \(bound)")
            }
            count = written
        }
        return output
    }
}
