import CSystemZlib
import OverlayModel

/// Streaming zlib inflate that always ends: compressed bytes go in chunk by chunk, inflated
/// bytes come out through a closure, and a stream whose input runs out before its end block is
/// reported as truncated instead of being waited on (ZIPFoundation's reader spun forever on
/// such a zip entry; found by fuzzing).
final class Inflater {
    /// The framing around the deflate data.
    enum Framing {
        /// Bare deflate, as in zip entries.
        case raw
        /// A gzip or zlib header and trailer, detected from the first bytes.
        case gzipOrZlib
    }

    /// Why inflating stopped.
    enum Failure: Error {
        /// zlib refused the data (the zlib status code).
        case corrupt(Int32)
        /// The input ended before the stream's end block.
        case truncated
    }

    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    /// True once the stream's end block has been inflated; later input is ignored.
    private(set) var isFinished = false

    init(framing: Framing) throws {
        let windowBits: Int32 = framing == .raw ? -15 : 15 + 32
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure.corrupt(Z_MEM_ERROR)
        }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates all of `input`, handing each run of output to `body`. Every pass of the loop
    /// consumes input or produces output, so it ends; zlib's Z_BUF_ERROR means it needs more input.
    func inflate(_ input: UnsafeRawBufferPointer, into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !isFinished, input.count > 0 else { return }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        defer { stream.next_in = nil; stream.avail_in = 0 }
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                let status = CSystemZlib.inflate(&stream, Z_NO_FLUSH)
                return (status, target.count - Int(stream.avail_out))
            }
            if produced > 0 {
                try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            switch status {
            case Z_STREAM_END:
                isFinished = true
                return
            case Z_OK:
                if stream.avail_in == 0 && produced < output.count { return }
            case Z_BUF_ERROR:
                return
            default:
                throw Failure.corrupt(status)
            }
        }
    }

    /// Call after the last input: throws `.truncated` unless the stream's end was reached.
    func finish() throws {
        guard isFinished else { throw Failure.truncated }
    }

    /// The CRC-32 (zip's and gzip's checksum) of `bytes`, continuing from `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        var crc = UInt(crc)
        var offset = 0
        while offset < bytes.count {  // zlib takes a 32-bit length
            let count = min(bytes.count - offset, 1 << 30)
            crc = CSystemZlib.crc32(crc, (base + offset).assumingMemoryBound(to: Bytef.self), uInt(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
