/// Parquet's PLAIN encoding: fixed-width little-endian values, booleans bit-packed, byte arrays
/// each after a 4-byte length. Returns where the values end.
enum PlainDecoder {
    /// Appends `count` values of `values.type` from `bytes` to `values`.
    @discardableResult
    static func decode(_ bytes: ArraySlice<UInt8>, count: Int, typeLength: Int, into values: inout ParquetValues) throws -> Int {
        var position = bytes.startIndex
        func need(_ size: Int) throws {
            guard size >= 0, size <= bytes.endIndex - position else {
                throw ParquetDecodingFailure(reason: "PLAIN values run past their page (\(count) values)")
            }
        }
        func little(_ width: Int) -> UInt64 {
            var raw: UInt64 = 0
            for i in 0..<width { raw |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            position += width
            return raw
        }
        switch values.type {
        case .boolean:
            try need((count + 7) / 8)
            for i in 0..<count { values.booleans.append(bytes[position + i >> 3] >> UInt8(i & 7) & 1 == 1) }
            position += (count + 7) / 8
        case .int32:
            try need(count.multipliedReportingOverflow(by: 4).overflow ? -1 : count * 4)
            for _ in 0..<count { values.int32s.append(Int32(truncatingIfNeeded: little(4))) }
        case .int64:
            try need(count.multipliedReportingOverflow(by: 8).overflow ? -1 : count * 8)
            for _ in 0..<count { values.int64s.append(Int64(bitPattern: little(8))) }
        case .float:
            try need(count.multipliedReportingOverflow(by: 4).overflow ? -1 : count * 4)
            for _ in 0..<count { values.floats.append(Float(bitPattern: UInt32(truncatingIfNeeded: little(4)))) }
        case .double:
            try need(count.multipliedReportingOverflow(by: 8).overflow ? -1 : count * 8)
            for _ in 0..<count { values.doubles.append(Double(bitPattern: little(8))) }
        case .int96, .fixedLenByteArray:
            let width = values.type == .int96 ? 12 : typeLength
            guard width > 0 else { throw ParquetDecodingFailure(reason: "a FIXED_LEN_BYTE_ARRAY of length \(width)") }
            try need(count.multipliedReportingOverflow(by: width).overflow ? -1 : count * width)
            for _ in 0..<count {
                values.appendBytes(bytes[position..<(position + width)])
                position += width
            }
        case .byteArray:
            for _ in 0..<count {
                try need(4)
                let length = Int(little(4))
                try need(length)
                values.appendBytes(bytes[position..<(position + length)])
                position += length
            }
        }
        return position
    }
}
