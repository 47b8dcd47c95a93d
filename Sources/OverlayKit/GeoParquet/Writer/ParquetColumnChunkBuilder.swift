import OverlayModel

/// The values of one leaf column in the row group being built: levels and PLAIN values go into
/// a data page (v1) that is compressed and closed at a row boundary once it holds about 1 MiB;
/// the closed pages wait in memory until the row group is written. Keeps the chunk's
/// statistics (null count, min/max of numbers).
struct ParquetColumnChunkBuilder {
    /// The column's layout.
    let column: ParquetLeafColumn
    /// The uncompressed value bytes after which a page is closed (at the next row boundary).
    static let pageBytes = 1 << 20

    private var definitions: RLEHybridEncoder
    private var repetitions: RLEHybridEncoder
    private var values: [UInt8] = []
    private var booleans: [Bool] = []
    private var pageLevelCount = 0

    /// The compressed pages with their headers.
    private(set) var pages: [UInt8] = []
    /// Level entries (values and nulls) in the chunk.
    private(set) var valueCount = 0
    /// Bytes of the pages with their headers before compression.
    private(set) var uncompressedSize = 0
    /// Nulls in the chunk (entries whose definition level is below the maximum).
    private(set) var nullCount = 0
    private var minimumDouble = Double.infinity, maximumDouble = -Double.infinity
    private var minimumInteger = Int64.max, maximumInteger = Int64.min
    /// The chunk's GEOMETRY statistics (2.0): its box and the WKB type codes present.
    var geospatial: (bounds: WKBWriter.GeometryBounds, types: Set<UInt32>)?

    /// An empty chunk of `column`.
    init(column: ParquetLeafColumn) {
        self.column = column
        definitions = RLEHybridEncoder(bitWidth: RLEHybridEncoder.bitWidth(forMaximum: column.maxDefinition))
        repetitions = RLEHybridEncoder(bitWidth: RLEHybridEncoder.bitWidth(forMaximum: column.maxRepetition))
    }

    /// True when the page holds enough to close at the next row boundary.
    var pageIsFull: Bool { values.count + booleans.count / 8 >= Self.pageBytes }

    /// The bytes the chunk holds so far (closed pages and the open one).
    var heldBytes: Int { pages.count + values.count + booleans.count / 8 }

    private mutating func levels(definition: Int, repetition: Int) {
        definitions.append(UInt32(definition))
        repetitions.append(UInt32(repetition))
        pageLevelCount += 1
        valueCount += 1
    }

    /// A null (or an empty list) at `definition` below the maximum.
    mutating func appendNull(definition: Int = 0, repetition: Int = 0) {
        levels(definition: definition, repetition: repetition)
        nullCount += 1
    }

    /// A DOUBLE value.
    mutating func append(_ value: Double, repetition: Int = 0) {
        levels(definition: column.maxDefinition, repetition: repetition)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { values.append(contentsOf: $0) }
        if column.hasMinMax, !value.isNaN {
            minimumDouble = Swift.min(minimumDouble, value)
            maximumDouble = Swift.max(maximumDouble, value)
        }
    }

    /// An INT64 value.
    mutating func append(_ value: Int64, repetition: Int = 0) {
        levels(definition: column.maxDefinition, repetition: repetition)
        withUnsafeBytes(of: value.littleEndian) { values.append(contentsOf: $0) }
        if column.hasMinMax {
            minimumInteger = Swift.min(minimumInteger, value)
            maximumInteger = Swift.max(maximumInteger, value)
        }
    }

    /// A BOOLEAN value.
    mutating func append(_ value: Bool, repetition: Int = 0) {
        levels(definition: column.maxDefinition, repetition: repetition)
        booleans.append(value)
    }

    /// A BYTE_ARRAY value.
    mutating func append<Bytes: Collection>(bytes: Bytes, repetition: Int = 0) where Bytes.Element == UInt8 {
        levels(definition: column.maxDefinition, repetition: repetition)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { values.append(contentsOf: $0) }
        values.append(contentsOf: bytes)
    }

    /// Closes the open page, if it holds anything: compresses it and puts it after the others.
    mutating func closePage(_ compressor: ParquetPageCompressor) throws {
        guard pageLevelCount > 0 else { return }
        var body: [UInt8] = []
        if column.maxRepetition > 0 {
            repetitions.finish()
            Self.appendLengthPrefixed(repetitions.bytes, to: &body)
        }
        if column.maxDefinition > 0 {
            definitions.finish()
            Self.appendLengthPrefixed(definitions.bytes, to: &body)
        }
        if !booleans.isEmpty {
            var packed = [UInt8](repeating: 0, count: (booleans.count + 7) / 8)
            for (index, value) in booleans.enumerated() where value { packed[index >> 3] |= 1 << UInt8(index & 7) }
            body += packed
        } else {
            body += values
        }
        let compressed = try compressor.compress(body)
        guard body.count <= Int(Int32.max), compressed.count <= Int(Int32.max) else {
            throw Diagnostic(.error, code: .ioWriteFailed, message: "a Parquet page of column \(column.path.joined(separator: ".")) exceeds 2 GiB")
        }
        var header = CompactThriftEncoder()
        header.field(1, i32: 0)  // DATA_PAGE
        header.field(2, i32: Int32(body.count))
        header.field(3, i32: Int32(compressed.count))
        header.beginStruct(5)
        header.field(1, i32: Int32(pageLevelCount))
        header.field(2, i32: 0)  // PLAIN
        header.field(3, i32: 3)  // RLE
        header.field(4, i32: 3)  // RLE
        header.endStruct()
        header.endStruct()
        pages += header.bytes
        pages += compressed
        uncompressedSize += header.bytes.count + body.count
        values.removeAll(keepingCapacity: true)
        booleans.removeAll(keepingCapacity: true)
        definitions = RLEHybridEncoder(bitWidth: definitions.bitWidth)
        repetitions = RLEHybridEncoder(bitWidth: repetitions.bitWidth)
        pageLevelCount = 0
    }

    private static func appendLengthPrefixed(_ bytes: [UInt8], to body: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { body.append(contentsOf: $0) }
        body += bytes
    }

    /// The chunk's `Statistics` struct as field `id` of `encoder`: null count, and min/max of
    /// a number column that has values.
    func writeStatistics(_ id: Int16, to encoder: inout CompactThriftEncoder) {
        encoder.beginStruct(id)
        encoder.field(3, i64: Int64(nullCount))
        var minimum: [UInt8]?, maximum: [UInt8]?
        if column.hasMinMax {
            switch column.physicalType {
            case .double where minimumDouble <= maximumDouble:
                // Parquet's rule for doubles: a zero bound is written -0.0 as a minimum and +0.0 as a maximum.
                let low = minimumDouble == 0 ? -0.0 : minimumDouble, high = maximumDouble == 0 ? 0.0 : maximumDouble
                minimum = withUnsafeBytes(of: low.bitPattern.littleEndian) { Array($0) }
                maximum = withUnsafeBytes(of: high.bitPattern.littleEndian) { Array($0) }
            case .int64 where minimumInteger <= maximumInteger:
                minimum = withUnsafeBytes(of: minimumInteger.littleEndian) { Array($0) }
                maximum = withUnsafeBytes(of: maximumInteger.littleEndian) { Array($0) }
            default: break
            }
        }
        if let maximum, let minimum {
            encoder.field(5, binary: maximum)
            encoder.field(6, binary: minimum)
            encoder.field(7, bool: true)
            encoder.field(8, bool: true)
        }
        encoder.endStruct()
    }
}
