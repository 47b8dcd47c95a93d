/// Reads little-endian bit-packed integers (Parquet's RLE/bit-packed and delta encodings pack
/// values least significant bit first) from a byte slice, never past its end.
struct BitReader {
    private let bytes: ArraySlice<UInt8>
    private var bitPosition: Int

    /// A reader at the first bit of `bytes`.
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        bitPosition = 0
    }

    /// The next `width`-bit value (width 0…64).
    mutating func read(width: Int) throws -> UInt64 {
        guard width > 0 else { return 0 }
        guard width <= 64 else { throw ParquetDecodingFailure(reason: "a bit width of \(width)") }
        guard bitPosition + width <= bytes.count * 8 else { throw ParquetDecodingFailure(reason: "bit-packed values run past their page") }
        var result: UInt64 = 0
        var produced = 0
        while produced < width {
            let byte = UInt64(bytes[bytes.startIndex + bitPosition >> 3])
            let offset = bitPosition & 7
            let take = min(8 - offset, width - produced)
            result |= ((byte >> UInt64(offset)) & ((1 << UInt64(take)) - 1)) << UInt64(produced)
            produced += take
            bitPosition += take
        }
        return result
    }
}

/// Unsigned LEB128 varints, as Parquet's encodings write their headers.
enum ParquetVarint {
    /// The varint at `position`, advancing it.
    static func read(_ bytes: ArraySlice<UInt8>, _ position: inout Int) throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.endIndex else { throw ParquetDecodingFailure(reason: "a varint runs past its page") }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw ParquetDecodingFailure(reason: "a varint longer than 10 bytes") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A zigzag varint.
    static func readSigned(_ bytes: ArraySlice<UInt8>, _ position: inout Int) throws -> Int64 {
        let raw = try read(bytes, &position)
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }
}
