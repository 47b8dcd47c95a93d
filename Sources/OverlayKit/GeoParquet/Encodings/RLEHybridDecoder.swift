/// Parquet's RLE / bit-packed hybrid encoding, used for repetition and definition levels and
/// for dictionary indexes: runs of one repeated value and groups of eight bit-packed values.
enum RLEHybridDecoder {
    /// `count` values of `bitWidth` bits from `bytes`; fewer values than `count` is an error.
    static func decode(_ bytes: ArraySlice<UInt8>, bitWidth: Int, count: Int) throws -> [Int32] {
        guard (0...32).contains(bitWidth) else { throw ParquetDecodingFailure(reason: "an RLE bit width of \(bitWidth)") }
        var values = [Int32]()
        values.reserveCapacity(count)
        if bitWidth == 0 { return [Int32](repeating: 0, count: count) }
        var position = bytes.startIndex
        let valueBytes = (bitWidth + 7) / 8
        while values.count < count {
            let header = try ParquetVarint.read(bytes, &position)
            if header & 1 == 1 {
                let groups = header >> 1
                let available = UInt64(bytes.endIndex - position) / UInt64(bitWidth)
                guard groups <= available else { throw ParquetDecodingFailure(reason: "a bit-packed run of \(groups) groups runs past its page") }
                let length = Int(groups) * bitWidth
                var reader = BitReader(bytes[position..<(position + length)])
                position += length
                for _ in 0..<(Int(groups) * 8) where values.count < count {
                    values.append(Int32(truncatingIfNeeded: try reader.read(width: bitWidth)))
                }
            } else {
                let run = header >> 1
                guard run > 0 else { throw ParquetDecodingFailure(reason: "an empty RLE run") }
                guard position + valueBytes <= bytes.endIndex else { throw ParquetDecodingFailure(reason: "an RLE run's value runs past its page") }
                var value: UInt32 = 0
                for i in 0..<valueBytes { value |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
                position += valueBytes
                let take = Int(min(run, UInt64(count - values.count)))
                values.append(contentsOf: repeatElement(Int32(bitPattern: value), count: take))
            }
        }
        return values
    }
}
