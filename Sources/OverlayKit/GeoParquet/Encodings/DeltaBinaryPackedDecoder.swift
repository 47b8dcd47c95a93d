/// Parquet's DELTA_BINARY_PACKED encoding: a first value, then blocks of miniblocks of
/// bit-packed deltas above each block's minimum delta. Arithmetic wraps, as the writers' does.
enum DeltaBinaryPackedDecoder {
    /// The values (at most `maxCount`, the page's count) and the position after the last byte they use.
    static func decode(_ bytes: ArraySlice<UInt8>, maxCount: Int) throws -> (values: [Int64], end: Int) {
        var position = bytes.startIndex
        let blockSize = try ParquetVarint.read(bytes, &position)
        let miniblockCount = try ParquetVarint.read(bytes, &position)
        let total = try ParquetVarint.read(bytes, &position)
        var last = try ParquetVarint.readSigned(bytes, &position)
        guard blockSize > 0, blockSize % 128 == 0, blockSize <= 1 << 20, miniblockCount > 0,
              blockSize % miniblockCount == 0, (blockSize / miniblockCount) % 32 == 0 else {
            throw ParquetDecodingFailure(reason: "a DELTA_BINARY_PACKED header with block size \(blockSize) and \(miniblockCount) miniblocks")
        }
        guard total <= UInt64(max(0, maxCount)) else {
            throw ParquetDecodingFailure(reason: "DELTA_BINARY_PACKED declares \(total) values, more than the page's \(maxCount)")
        }
        var values = [Int64]()
        guard total > 0 else { return (values, position) }
        values.reserveCapacity(Int(total))
        values.append(last)
        let perMiniblock = Int(blockSize / miniblockCount)
        while values.count < Int(total) {
            let minDelta = try ParquetVarint.readSigned(bytes, &position)
            guard position + Int(miniblockCount) <= bytes.endIndex else {
                throw ParquetDecodingFailure(reason: "DELTA_BINARY_PACKED bit widths run past their page")
            }
            let widths = bytes[position..<(position + Int(miniblockCount))].map(Int.init)
            position += Int(miniblockCount)
            for width in widths where values.count < Int(total) {
                guard width <= 64 else { throw ParquetDecodingFailure(reason: "a DELTA_BINARY_PACKED bit width of \(width)") }
                let length = width * perMiniblock / 8
                guard length <= bytes.endIndex - position else {
                    throw ParquetDecodingFailure(reason: "a DELTA_BINARY_PACKED miniblock runs past its page")
                }
                var reader = BitReader(bytes[position..<(position + length)])
                position += length
                for _ in 0..<perMiniblock where values.count < Int(total) {
                    let delta = try reader.read(width: width)
                    last = last &+ minDelta &+ Int64(bitPattern: delta)
                    values.append(last)
                }
            }
        }
        return (values, position)
    }
}
