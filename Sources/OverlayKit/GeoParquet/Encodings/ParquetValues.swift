/// Parquet's physical types (the footer's `Type`).
enum ParquetPhysicalType: Int, Sendable {
    case boolean = 0, int32, int64, int96, float, double, byteArray, fixedLenByteArray
}

/// The values of one column chunk, decoded into flat buffers of their physical type (no value
/// is boxed): numbers in typed arrays, byte arrays as one byte buffer and the end of each.
struct ParquetValues: Sendable {
    /// The physical type held.
    let type: ParquetPhysicalType
    /// BOOLEAN values.
    var booleans: [Bool] = []
    /// INT32 values.
    var int32s: [Int32] = []
    /// INT64 values.
    var int64s: [Int64] = []
    /// FLOAT values.
    var floats: [Float] = []
    /// DOUBLE values.
    var doubles: [Double] = []
    /// BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 values, one after another.
    var bytes: [UInt8] = []
    /// The end of each byte array in ``bytes``.
    var ends: [Int] = []

    /// An empty buffer for `type`.
    init(type: ParquetPhysicalType) { self.type = type }

    /// How many values are held.
    var count: Int {
        switch type {
        case .boolean: booleans.count
        case .int32: int32s.count
        case .int64: int64s.count
        case .float: floats.count
        case .double: doubles.count
        case .int96, .byteArray, .fixedLenByteArray: ends.count
        }
    }

    /// Byte array `index`.
    func byteArray(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Appends one byte array.
    mutating func appendBytes<C: Collection>(_ value: C) where C.Element == UInt8 {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
    }

    /// Appends value `index` of `other` (a dictionary), which has the same type.
    mutating func append(from other: ParquetValues, at index: Int) {
        switch type {
        case .boolean: booleans.append(other.booleans[index])
        case .int32: int32s.append(other.int32s[index])
        case .int64: int64s.append(other.int64s[index])
        case .float: floats.append(other.floats[index])
        case .double: doubles.append(other.doubles[index])
        case .int96, .byteArray, .fixedLenByteArray: appendBytes(other.byteArray(index))
        }
    }
}

/// Why a page's values or levels cannot be decoded.
struct ParquetDecodingFailure: Error {
    /// What is wrong, for the diagnostic.
    let reason: String
}
