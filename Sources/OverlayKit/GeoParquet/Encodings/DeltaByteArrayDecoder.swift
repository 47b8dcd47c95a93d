/// Parquet's DELTA_LENGTH_BYTE_ARRAY (delta-packed lengths, then the bytes one after another)
/// and DELTA_BYTE_ARRAY (delta-packed prefix lengths shared with the previous value, then the
/// suffixes as DELTA_LENGTH_BYTE_ARRAY).
enum DeltaByteArrayDecoder {
    /// Appends DELTA_LENGTH_BYTE_ARRAY values to `values`; returns where they end.
    @discardableResult
    static func decodeLengths(_ bytes: ArraySlice<UInt8>, maxCount: Int, into values: inout ParquetValues) throws -> Int {
        let (lengths, start) = try DeltaBinaryPackedDecoder.decode(bytes, maxCount: maxCount)
        var position = start
        for length in lengths {
            guard length >= 0, length <= Int64(bytes.endIndex - position) else {
                throw ParquetDecodingFailure(reason: "a DELTA_LENGTH_BYTE_ARRAY length of \(length) runs past its page")
            }
            values.appendBytes(bytes[position..<(position + Int(length))])
            position += Int(length)
        }
        return position
    }

    /// Appends DELTA_BYTE_ARRAY values to `values`.
    static func decodeIncremental(_ bytes: ArraySlice<UInt8>, maxCount: Int, into values: inout ParquetValues) throws {
        let (prefixes, start) = try DeltaBinaryPackedDecoder.decode(bytes, maxCount: maxCount)
        var suffixes = ParquetValues(type: .byteArray)
        try decodeLengths(bytes[start...], maxCount: maxCount, into: &suffixes)
        guard suffixes.count == prefixes.count else {
            throw ParquetDecodingFailure(reason: "DELTA_BYTE_ARRAY has \(prefixes.count) prefixes and \(suffixes.count) suffixes")
        }
        var previous = [UInt8]()
        for (index, prefix) in prefixes.enumerated() {
            guard prefix >= 0, prefix <= Int64(previous.count) else {
                throw ParquetDecodingFailure(reason: "a DELTA_BYTE_ARRAY prefix of \(prefix) is longer than the value before it")
            }
            var value = Array(previous[0..<Int(prefix)])
            value.append(contentsOf: suffixes.byteArray(index))
            values.appendBytes(value)
            previous = value
        }
    }
}
