/// The parts of a Parquet file's footer (`FileMetaData`) the reader uses, checked against the
/// file's size as they are read.
struct ParquetFooter: Sendable {
    /// Parquet's physical types.
    typealias PhysicalType = ParquetPhysicalType

    /// Parquet's logical (and legacy converted) annotations the reader maps to JSON.
    enum LogicalType: Sendable, Equatable {
        case string, json, bson, uuid, enumeration, date, float16
        case decimal(scale: Int, precision: Int)
        case integer(bitWidth: Int, signed: Bool)
        /// A timestamp: unit as a power of ten below a second (3, 6, 9).
        case timestamp(unitDigits: Int)
        case time(unitDigits: Int)
        case list, map
        /// Parquet's GEOMETRY / GEOGRAPHY (WKB in a BYTE_ARRAY), with the CRS the type names.
        case geometry(crs: String?)
        case geography(crs: String?)
    }

    /// How often a schema node occurs in its parent.
    enum Repetition: Int, Sendable { case required = 0, optional, repeated }

    /// One node of the flattened schema tree.
    struct SchemaElement: Sendable {
        var name: String
        var physicalType: PhysicalType?
        var typeLength: Int
        var repetition: Repetition
        var childCount: Int
        var logicalType: LogicalType?
    }

    /// One column chunk of a row group.
    struct ColumnChunk: Sendable {
        var path: [String]
        var codec: Int
        var valueCount: Int
        /// Where the chunk's pages start (the dictionary page's offset when it has one).
        var start: Int64
        var compressedSize: Int64
        /// The chunk's pages' bytes before compression, as the footer states it (unchecked: for
        /// estimates only); the compressed size when the footer leaves it out.
        var uncompressedSize: Int64 = 0
        /// The chunk's statistics min and max (plain-encoded), when written.
        var minimum: [UInt8]? = nil
        var maximum: [UInt8]? = nil
        /// The geospatial statistics' box (xmin, xmax, ymin, ymax) of a GEOMETRY column, when written.
        var geospatialBox: [Double]? = nil
        /// Where the chunk's page index is (OffsetIndex: page locations; ColumnIndex: page min and
        /// max), as the footer states it: checked against the file only when it is read.
        var offsetIndex: IndexLocation? = nil
        var columnIndex: IndexLocation? = nil
    }

    /// Where a page index structure is: its offset and length, unchecked.
    struct IndexLocation: Sendable, Equatable {
        var offset: Int64
        var length: Int64
    }

    /// One row group.
    struct RowGroup: Sendable {
        var rowCount: Int
        var columns: [ColumnChunk]
    }

    var schema: [SchemaElement]
    var rowCount: Int
    var rowGroups: [RowGroup]
    var keyValues: [(key: String, value: String?)]

    /// The footer of a file of `fileSize` bytes, from its Thrift bytes.
    init(thrift bytes: [UInt8], fileSize: Int64) throws {
        var decoder = CompactThriftDecoder(bytes)
        let meta = try decoder.readStruct()
        guard let schemaList = meta[2]?.list, !schemaList.isEmpty else { throw CompactThriftDecoder.Failure(reason: "the footer has no schema") }
        schema = try schemaList.map { value in
            guard let element = value.structure else { throw CompactThriftDecoder.Failure(reason: "a schema element is not a struct") }
            return try Self.schemaElement(element)
        }
        guard let rows = meta.int(3), rows >= 0 else { throw CompactThriftDecoder.Failure(reason: "the footer's row count is missing or negative") }
        rowCount = rows
        rowGroups = try (meta[4]?.list ?? []).enumerated().map { index, value in
            guard let group = value.structure, let groupRows = group.int(3), groupRows >= 0 else {
                throw CompactThriftDecoder.Failure(reason: "row group \(index) has no row count")
            }
            let columns = try (group[1]?.list ?? []).map { chunk -> ColumnChunk in
                guard let meta = chunk.structure?[3]?.structure,
                      let path = meta[3]?.list?.compactMap(\.string), let codec = meta.int(4),
                      let values = meta.int(5), values >= 0,
                      let dataOffset = meta[9]?.integer, let size = meta[7]?.integer else {
                    throw CompactThriftDecoder.Failure(reason: "a column chunk of row group \(index) lacks its metadata")
                }
                var start = dataOffset
                if let dictionary = meta[11]?.integer, dictionary > 0, dictionary < dataOffset { start = dictionary }
                guard start >= 4, size >= 0, start <= fileSize, size <= fileSize - start else {
                    throw CompactThriftDecoder.Failure(reason: "column \(path.joined(separator: ".")) of row group \(index) points past the file (offset \(start), \(size) bytes, file \(fileSize) bytes)")
                }
                var column = ColumnChunk(path: path, codec: codec, valueCount: values, start: start, compressedSize: size)
                column.uncompressedSize = max(0, meta[6]?.integer ?? size)
                if let statistics = meta[12]?.structure {
                    // min_value / max_value; the deprecated min / max order doubles the same way.
                    column.minimum = statistics[6]?.binary ?? statistics[2]?.binary
                    column.maximum = statistics[5]?.binary ?? statistics[1]?.binary
                }
                if let structure = chunk.structure {
                    // ColumnChunk 4/5: offset_index_offset/length; 6/7: column_index_offset/length.
                    if let offset = structure[4]?.integer, let length = structure[5]?.integer {
                        column.offsetIndex = IndexLocation(offset: offset, length: length)
                    }
                    if let offset = structure[6]?.integer, let length = structure[7]?.integer {
                        column.columnIndex = IndexLocation(offset: offset, length: length)
                    }
                }
                if let box = meta[17]?.structure?[1]?.structure {
                    let bounds = (1...4).compactMap { id -> Double? in if case .double(let value)? = box[Int16(id)] { value } else { nil } }
                    if bounds.count == 4 { column.geospatialBox = bounds }
                }
                return column
            }
            return RowGroup(rowCount: groupRows, columns: columns)
        }
        keyValues = (meta[5]?.list ?? []).compactMap { value in
            guard let pair = value.structure, let key = pair[1]?.string else { return nil }
            return (key, pair[2]?.string)
        }
    }

    private static func schemaElement(_ element: ThriftStruct) throws -> SchemaElement {
        guard let name = element[4]?.string else { throw CompactThriftDecoder.Failure(reason: "a schema element has no name") }
        let physical = element.int(1).flatMap(PhysicalType.init(rawValue:))
        if element[1] != nil, physical == nil { throw CompactThriftDecoder.Failure(reason: "column \(name) has an unknown physical type") }
        let children = element.int(5) ?? 0
        guard children >= 0 else { throw CompactThriftDecoder.Failure(reason: "column \(name) has a negative child count") }
        return SchemaElement(
            name: name, physicalType: physical, typeLength: element.int(2) ?? 0,
            repetition: element.int(3).flatMap(Repetition.init(rawValue:)) ?? .required,
            childCount: children,
            logicalType: logicalType(element[10]?.structure) ?? convertedType(element.int(6), element))
    }

    private static func unitDigits(_ unit: ThriftStruct?) -> Int {
        guard let unit else { return 3 }
        if unit[2] != nil { return 6 }
        if unit[3] != nil { return 9 }
        return 3
    }

    private static func logicalType(_ union: ThriftStruct?) -> LogicalType? {
        guard let union, let (id, value) = union.fields.first else { return nil }
        let fields = value.structure
        switch id {
        case 1: return .string
        case 2: return .map
        case 3: return .list
        case 4: return .enumeration
        case 5: return .decimal(scale: fields?.int(1) ?? 0, precision: fields?.int(2) ?? 0)
        case 6: return .date
        case 7: return .time(unitDigits: unitDigits(fields?[2]?.structure))
        case 8: return .timestamp(unitDigits: unitDigits(fields?[2]?.structure))
        case 10: return .integer(bitWidth: fields?.int(1) ?? 64, signed: fields?[2]?.integer != 0)
        case 12: return .json
        case 13: return .bson
        case 14: return .uuid
        case 15: return .float16
        case 17: return .geometry(crs: fields?[1]?.string)
        case 18: return .geography(crs: fields?[1]?.string)
        default: return nil
        }
    }

    private static func convertedType(_ raw: Int?, _ element: ThriftStruct) -> LogicalType? {
        switch raw {
        case 0: .string
        case 1, 2: .map
        case 3: .list
        case 4: .enumeration
        case 5: .decimal(scale: element.int(7) ?? 0, precision: element.int(8) ?? 0)
        case 6: .date
        case 7: .time(unitDigits: 3)
        case 8: .time(unitDigits: 6)
        case 9: .timestamp(unitDigits: 3)
        case 10: .timestamp(unitDigits: 6)
        case 11: .integer(bitWidth: 8, signed: false)
        case 12: .integer(bitWidth: 16, signed: false)
        case 13: .integer(bitWidth: 32, signed: false)
        case 14: .integer(bitWidth: 64, signed: false)
        case 15: .integer(bitWidth: 8, signed: true)
        case 16: .integer(bitWidth: 16, signed: true)
        case 17: .integer(bitWidth: 32, signed: true)
        case 18: .integer(bitWidth: 64, signed: true)
        case 19: .json
        case 20: .bson
        default: nil
        }
    }
}
