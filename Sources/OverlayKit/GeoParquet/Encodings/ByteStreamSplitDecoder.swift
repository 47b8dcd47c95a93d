/// Parquet's BYTE_STREAM_SPLIT: byte k of every value stored together in stream k; the values
/// are put back together and read as PLAIN.
enum ByteStreamSplitDecoder {
    /// Appends `count` values to `values`.
    static func decode(_ bytes: ArraySlice<UInt8>, count: Int, typeLength: Int, into values: inout ParquetValues) throws {
        let width: Int
        switch values.type {
        case .int32, .float: width = 4
        case .int64, .double: width = 8
        case .fixedLenByteArray: width = typeLength
        default: throw ParquetDecodingFailure(reason: "BYTE_STREAM_SPLIT of a \(values.type) column")
        }
        let stride = width > 0 ? bytes.count / width : 0
        guard width > 0, count >= 0, count <= stride else {
            throw ParquetDecodingFailure(reason: "BYTE_STREAM_SPLIT of \(count) values runs past its page of \(bytes.count) bytes")
        }
        var joined = [UInt8](repeating: 0, count: count * width)
        let base = bytes.startIndex
        for stream in 0..<width {
            for index in 0..<count { joined[index * width + stream] = bytes[base + stream * stride + index] }
        }
        try PlainDecoder.decode(joined[...], count: count, typeLength: typeLength, into: &values)
    }
}
