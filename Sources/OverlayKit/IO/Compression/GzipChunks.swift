import OverlayModel

/// gzip (or zlib) data inflated a piece at a time, as the reader asks for it: what a server
/// sends a client that takes no gzip, one chunk per write, so a large tile never lies inflated
/// in memory whole. Input is fed 64 bytes at a time, so one chunk is at most about 66 KiB
/// (deflate's largest ratio is about 1:1032) beyond ``chunkBytes``.
public final class GzipChunks {
    /// The output size a call to ``next()`` aims for.
    public let chunkBytes: Int
    private let input: [UInt8]
    private var consumed = 0
    private var produced = 0
    private let limit: Int
    private let source: String
    private let inflater: Inflater

    /// Chunks of `gzip` inflated, at most `limit` bytes in all; `source` names the data in errors.
    /// - Throws: `Diagnostic` `tile.archive-bad-gzip` when zlib cannot start.
    public init(_ gzip: [UInt8], limit: Int, source: String, chunkBytes: Int = 64 << 10) throws {
        input = gzip
        self.limit = limit
        self.source = source
        self.chunkBytes = max(1, chunkBytes)
        do {
            inflater = try Inflater(framing: .gzipOrZlib)
        } catch {
            throw Diagnostic(.error, code: .tileArchiveBadGzip, message: "\(source): cannot start inflating")
        }
    }

    /// The next inflated bytes, nil after the last.
    /// - Throws: `Diagnostic` `tile.archive-bad-gzip` for corrupt or truncated data,
    ///   `tile.archive-too-large` past the limit.
    public func next() throws -> [UInt8]? {
        var output = [UInt8]()
        // Each pass consumes at least one byte of input, so the loop ends.
        while output.count < chunkBytes && !inflater.isFinished && consumed < input.count {
            let end = min(input.count, consumed + 64)
            do {
                try input[consumed..<end].withUnsafeBytes { slice in
                    try inflater.inflate(slice) { chunk in
                        guard produced + chunk.count <= limit else {
                            throw Diagnostic(.error, code: .tileArchiveTooLarge,
                                             message: "\(source): gzip data unpacks to more than \(limit) bytes")
                        }
                        produced += chunk.count
                        output.append(contentsOf: chunk)
                    }
                }
            } catch let failure as Inflater.Failure {
                throw Diagnostic(.error, code: .tileArchiveBadGzip, message: "\(source): gzip data is corrupt (\(failure))")
            }
            consumed = end
        }
        if output.isEmpty {
            guard inflater.isFinished else {
                throw Diagnostic(.error, code: .tileArchiveBadGzip, message: "\(source): gzip data is truncated")
            }
            return nil
        }
        return output
    }
}
