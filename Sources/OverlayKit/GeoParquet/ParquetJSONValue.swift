import OverlayModel

/// One Parquet value as the JSON a user expects: integers of every width exact, decimals as
/// numbers, dates and timestamps as RFC 3339 strings (UTC), JSON columns parsed, strings as
/// strings, other binary as base64, NaN and infinities as null (JSON has no place for them).
enum ParquetJSONValue {
    /// Value `index` of `values`, typed by `element`'s logical type.
    static func value(_ values: ParquetValues, at index: Int, element: ParquetFooter.SchemaElement) -> JSONValue {
        let logical = element.logicalType
        switch values.type {
        case .boolean:
            return .bool(values.booleans[index])
        case .int32:
            let raw = values.int32s[index]
            switch logical {
            case .date: return .string(RFC3339.date(days: Int64(raw)))
            case .decimal(let scale, _): return decimal(Double(raw), scale: scale)
            case .integer(_, signed: false): return .integer(Int64(UInt32(bitPattern: raw)))
            case .time(let digits): return .string(RFC3339.time(Int64(raw), digits: digits))
            default: return .integer(Int64(raw))
            }
        case .int64:
            let raw = values.int64s[index]
            switch logical {
            case .timestamp(let digits): return .string(RFC3339.timestamp(raw, digits: digits))
            case .time(let digits): return .string(RFC3339.time(raw, digits: digits))
            case .decimal(let scale, _): return decimal(Double(raw), scale: scale)
            case .integer(_, signed: false) where raw < 0: return .number(Double(UInt64(bitPattern: raw)))
            default: return .integer(raw)
            }
        case .float:
            return number(Double(values.floats[index]))
        case .double:
            return number(values.doubles[index])
        case .int96:
            let bytes = Array(values.byteArray(index))
            var nanos: Int64 = 0
            for i in 0..<8 { nanos |= Int64(bytes[i]) << (8 * Int64(i)) }
            var julian: Int64 = 0
            for i in 0..<4 { julian |= Int64(bytes[8 + i]) << (8 * Int64(i)) }
            let (days, dayOverflow) = (julian - 2_440_588).multipliedReportingOverflow(by: 86_400_000_000_000)
            let (total, sumOverflow) = days.addingReportingOverflow(nanos)
            return dayOverflow || sumOverflow ? .null : .string(RFC3339.timestamp(total, digits: 9))
        case .byteArray, .fixedLenByteArray:
            let bytes = values.byteArray(index)
            switch logical {
            case .string, .enumeration: return .string(String(decoding: bytes, as: UTF8.self))
            case .json:
                let text = String(decoding: bytes, as: UTF8.self)
                return ParquetJSONText.parse(text) ?? .string(text)
            case .decimal(let scale, _): return decimal(bigEndianSigned(bytes), scale: scale)
            case .uuid where bytes.count == 16: return .string(uuid(bytes))
            case .float16 where bytes.count == 2: return number(float16(UInt16(bytes[bytes.startIndex]) | UInt16(bytes[bytes.startIndex + 1]) << 8))
            default: return .string(Base64.encode(bytes))
            }
        }
    }

    private static func number(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }

    private static func decimal(_ unscaled: Double, scale: Int) -> JSONValue {
        guard (-400...400).contains(scale) else { return .null }
        var value = unscaled
        var power = 1.0
        for _ in 0..<abs(scale) { power *= 10 }
        value = scale >= 0 ? value / power : value * power
        return number(value)
    }

    private static func bigEndianSigned(_ bytes: ArraySlice<UInt8>) -> Double {
        guard let first = bytes.first else { return 0 }
        var value = 0.0
        for byte in bytes { value = value * 256 + Double(byte) }
        if first & 0x80 != 0 {
            var range = 1.0
            for _ in bytes { range *= 256 }
            value -= range
        }
        return value
    }

    private static func uuid(_ bytes: ArraySlice<UInt8>) -> String {
        let hex = Array("0123456789abcdef")
        var text = ""
        for (offset, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(offset) { text.append("-") }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return text
    }

    private static func float16(_ bits: UInt16) -> Double {
        let sign = bits & 0x8000 != 0 ? -1.0 : 1.0
        let exponent = Int(bits >> 10 & 0x1F)
        let fraction = Double(bits & 0x3FF)
        if exponent == 0 { return sign * fraction * 0x1p-24 }
        if exponent == 31 { return fraction == 0 ? sign * .infinity : .nan }
        return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
    }
}
