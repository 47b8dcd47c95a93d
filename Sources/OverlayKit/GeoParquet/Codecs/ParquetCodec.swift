import CBrotli
import CLZ4
import CSnappy
import CZstd
import OverlayModel

/// Parquet's page codecs. A page decompresses into a buffer of its declared size and no
/// further: a page that would grow past it (a bomb) or stop short of it is an error.
enum ParquetCodec: Int, Sendable {
    case uncompressed = 0, snappy = 1, gzip = 2, lzo = 3, brotli = 4, lz4 = 5, zstd = 6, lz4Raw = 7

    /// The codec's name as Parquet spells it, for messages.
    var name: String {
        switch self {
        case .uncompressed: "UNCOMPRESSED"
        case .snappy: "SNAPPY"
        case .gzip: "GZIP"
        case .lzo: "LZO"
        case .brotli: "BROTLI"
        case .lz4: "LZ4"
        case .zstd: "ZSTD"
        case .lz4Raw: "LZ4_RAW"
        }
    }

    /// Why a page does not decompress.
    struct Failure: Error { let reason: String }

    /// `input` decompressed to exactly `size` bytes.
    func decompress(_ input: ArraySlice<UInt8>, size: Int) throws -> [UInt8] {
        guard size >= 0 else { throw Failure(reason: "negative uncompressed page size \(size)") }
        if self == .uncompressed {
            guard input.count == size else { throw Failure(reason: "an uncompressed page of \(input.count) bytes declares \(size)") }
            return Array(input)
        }
        var output = [UInt8](repeating: 0, count: size)
        let produced: Int = try input.withUnsafeBytes { source in
            try output.withUnsafeMutableBytes { target in
                try decompress(source, into: target)
            }
        }
        guard produced == size else {
            throw Failure(reason: "a \(name) page decompresses to \(produced) bytes, not the \(size) its header declares")
        }
        return output
    }

    private func decompress(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer) throws -> Int {
        let src = source.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        let dst = target.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!
        switch self {
        case .uncompressed:
            return 0
        case .snappy:
            var length = 0
            guard snappy_uncompressed_length(src.assumingMemoryBound(to: CChar.self), source.count, &length) == SNAPPY_OK else {
                throw Failure(reason: "the SNAPPY page is corrupt")
            }
            guard length <= target.count else { throw Failure(reason: "a SNAPPY page decompresses to \(length) bytes, more than the \(target.count) declared") }
            var produced = target.count
            guard snappy_uncompress(src.assumingMemoryBound(to: CChar.self), source.count, dst.assumingMemoryBound(to: CChar.self), &produced) == SNAPPY_OK else {
                throw Failure(reason: "the SNAPPY page is corrupt")
            }
            return produced
        case .zstd:
            let result = ZSTD_decompress(dst, target.count, src, source.count)
            guard ZSTD_isError(result) == 0 else {
                throw Failure(reason: "the ZSTD page does not decompress into its declared \(target.count) bytes: \(String(cString: ZSTD_getErrorName(result)))")
            }
            return result
        case .brotli:
            var produced = target.count
            guard BrotliDecoderDecompress(source.count, src.assumingMemoryBound(to: UInt8.self), &produced, dst.assumingMemoryBound(to: UInt8.self)) == BROTLI_DECODER_RESULT_SUCCESS else {
                throw Failure(reason: "the BROTLI page is corrupt or larger than its declared \(target.count) bytes")
            }
            return produced
        case .lz4Raw:
            guard source.count <= Int(Int32.max), target.count <= Int(Int32.max) else { throw Failure(reason: "an LZ4_RAW page over 2 GiB") }
            let result = LZ4_decompress_safe(src.assumingMemoryBound(to: CChar.self), dst.assumingMemoryBound(to: CChar.self), Int32(source.count), Int32(target.count))
            guard result >= 0 else { throw Failure(reason: "the LZ4_RAW page is corrupt or larger than its declared \(target.count) bytes") }
            return Int(result)
        case .gzip:
            let inflater = try Inflater(framing: .gzipOrZlib)
            var produced = 0
            do {
                try inflater.inflate(source) { chunk in
                    guard chunk.count <= target.count - produced else {
                        throw Failure(reason: "a GZIP page decompresses past its declared \(target.count) bytes")
                    }
                    UnsafeMutableRawBufferPointer(rebasing: target[produced..<(produced + chunk.count)]).copyMemory(from: chunk)
                    produced += chunk.count
                }
                try inflater.finish()
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(reason: "the GZIP page is corrupt")
            }
            return produced
        case .lzo, .lz4:
            throw Failure(reason: "the \(name) codec is not read (deprecated by Parquet; rewrite with ZSTD, SNAPPY or LZ4_RAW)")
        }
    }
}

/// Compresses pages for the writer with one of the codecs it writes (UNCOMPRESSED, SNAPPY, GZIP,
/// ZSTD), keeping one compression context for every page (not thread-safe: one per writer).
final class ParquetPageCompressor {
    /// The codec pages are compressed with.
    let codec: ParquetCodec
    private var zstdContext: OpaquePointer?
    private var gzip: WholeBufferGzip?

    /// The zstd level: zstd's default, as pyarrow and DuckDB write.
    static let zstdLevel: Int32 = 3

    /// A compressor for `codec`.
    /// - Throws: `Diagnostic` `io.compress-failed` for a codec the writer does not write.
    init(codec: ParquetCodec) throws {
        self.codec = codec
        switch codec {
        case .uncompressed, .snappy: break
        case .zstd:
            guard let context = ZSTD_createCCtx() else {
                throw Diagnostic(.error, code: .ioCompressFailed, message: "zstd could not allocate a compression context")
            }
            zstdContext = context
        case .gzip:
            gzip = try WholeBufferGzip()
        default:
            throw Diagnostic(.error, code: .ioCompressFailed, message: "the \(codec.name) codec is not written")
        }
    }

    deinit { if let zstdContext { ZSTD_freeCCtx(zstdContext) } }

    /// `input` compressed.
    /// - Throws: `Diagnostic` `io.compress-failed` naming the codec.
    func compress(_ input: [UInt8]) throws -> [UInt8] {
        switch codec {
        case .zstd:
            let bound = ZSTD_compressBound(input.count)
            var failure: String?
            let output = [UInt8](unsafeUninitializedCapacity: max(bound, 1)) { buffer, count in
                let result = input.withUnsafeBytes { source in
                    ZSTD_compressCCtx(zstdContext, buffer.baseAddress, bound, source.baseAddress, source.count, Self.zstdLevel)
                }
                if ZSTD_isError(result) != 0 {
                    failure = String(cString: ZSTD_getErrorName(result))
                    count = 0
                } else {
                    count = result
                }
            }
            if let failure { throw Diagnostic(.error, code: .ioCompressFailed, message: "zstd could not compress a page of \(input.count) bytes: \(failure)") }
            return output
        case .snappy:
            let bound = snappy_max_compressed_length(input.count)
            var ok = true
            let output = [UInt8](unsafeUninitializedCapacity: max(bound, 1)) { buffer, count in
                var length = bound
                let status = input.withUnsafeBytes { source in
                    snappy_compress(source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count,
                                    UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), &length)
                }
                ok = status == SNAPPY_OK
                count = ok ? length : 0
            }
            guard ok else { throw Diagnostic(.error, code: .ioCompressFailed, message: "snappy could not compress a page of \(input.count) bytes") }
            return output
        case .gzip:
            return try gzip!.compress(input)
        default:
            return input
        }
    }
}
