import CSystemZlib
import OverlayModel

/// Streaming deflate at zlib's default level: raw (no framing), as zip entries store it, or
/// gzip, as tiles and PMTiles directories are stored. Bytes go in chunk by chunk, compressed
/// bytes come out through a closure; `reset()` starts the next stream.
final class Deflater {
    /// What wraps the deflate data.
    enum Framing {
        /// No header or trailer (zip entries).
        case raw
        /// A gzip header and trailer (tiles, PMTiles directories).
        case gzip
    }

    /// zlib's state points back at the `z_stream`, so it lives at a fixed address.
    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 1 << 16)

    /// A deflate stream at zlib's default level (6).
    init(framing: Framing = .raw) throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits -15: raw deflate; 15 + 16: a gzip header and trailer instead of zlib's.
        let windowBits: Int32 = framing == .raw ? -15 : 15 + 16
        guard deflateInit2_(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw Diagnostic(.error, code: .ioCompressFailed, message: "zlib deflateInit2 failed")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Starts a new stream, as a fresh `Deflater` would (same bytes out) without its allocations.
    func reset() throws {
        guard deflateReset(stream) == Z_OK else {
            throw Diagnostic(.error, code: .ioCompressFailed, message: "zlib deflateReset failed")
        }
    }

    /// Compresses `input` (all of it), handing compressed output to `body`; with `finish`, ends
    /// the stream. Each pass of the loop consumes input or produces output, so it ends.
    func deflate(_ input: UnsafeRawBufferPointer, finish: Bool, into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        stream.pointee.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
        stream.pointee.avail_in = uInt(input.count)
        defer { stream.pointee.next_in = nil; stream.pointee.avail_in = 0 }
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                let status = CSystemZlib.deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                stream.pointee.next_out = nil
                return (status, target.count - Int(stream.pointee.avail_out))
            }
            if produced > 0 {
                try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            switch status {
            case Z_STREAM_END:
                return
            case Z_OK:
                // Without finish: done once all input is taken and zlib had output room to spare.
                if !finish && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
            case Z_BUF_ERROR where !finish:
                // No progress possible: the input is taken and nothing waits to be written.
                return
            default:
                throw Diagnostic(.error, code: .ioCompressFailed, message: "zlib deflate failed (\(status))")
            }
        }
    }

    /// `bytes` as one whole stream (after a reset: the same bytes as a fresh stream).
    func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        try reset()
        var compressed = [UInt8]()
        compressed.reserveCapacity(bytes.count / 2 + 64)
        try bytes.withUnsafeBytes { input in
            try deflate(input, finish: true) { compressed.append(contentsOf: $0) }
        }
        return compressed
    }
}
