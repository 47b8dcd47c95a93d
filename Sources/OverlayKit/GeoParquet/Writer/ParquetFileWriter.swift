import OverlayModel

/// Lays out the Parquet file: the magic, then each row group's column chunks one after the
/// other as rows arrive, then the footer (compact Thrift `FileMetaData`) with the key-value
/// metadata, its length and the magic again. A row group is written when it reaches the row or
/// byte bound, so only one is held.
struct ParquetFileWriter {
    private let output: ByteOutput
    private let layout: GeoParquetSchema.Layout
    private let options: GeoParquetWriteOptions
    private let compressor: ParquetPageCompressor
    private var builders: [ParquetColumnChunkBuilder]
    private var rowsInGroup = 0
    private var totalRows = 0
    /// The footer's RowGroup structs, encoded as each group is written.
    private var rowGroups: [[UInt8]] = []
    private var start: Int
    /// The leaves of property columns, and which hold JSON text.
    private let propertyLeaves: [Int]
    private let jsonLeaves: Set<Int>

    /// A file writer that writes the magic at once.
    init(output: ByteOutput, layout: GeoParquetSchema.Layout, options: GeoParquetWriteOptions) throws {
        self.output = output
        self.layout = layout
        self.options = options
        compressor = try ParquetPageCompressor(codec: options.codec)
        builders = layout.leaves.map { ParquetColumnChunkBuilder(column: $0) }
        propertyLeaves = layout.propertyColumns.compactMap { layout.propertyLeaf[$0.key] }
        jsonLeaves = Set(layout.propertyColumns.filter { $0.type == .json }.compactMap { layout.propertyLeaf[$0.key] })
        start = output.bytesWritten
        try output.write(Array("PAR1".utf8))
    }

    /// Adds one row; writes the row group when it is full.
    mutating func append(_ record: GeoParquetSpillRecord) throws {
        if let leaf = layout.idLeaf {
            let type = layout.leaves[leaf].physicalType
            switch (record.id, type) {
            case (nil, _): builders[leaf].appendNull()
            case (.integer(let value)?, .int64): builders[leaf].append(value)
            case (.integer(let value)?, .double): builders[leaf].append(Double(value))
            case (.number(let value)?, .double): builders[leaf].append(value)
            case (let id?, _): builders[leaf].append(bytes: id.description.utf8)
            }
        }
        var seen = [Bool](repeating: false, count: builders.count)
        for member in record.properties.members {
            guard let leaf = layout.propertyLeaf[member.key] else { continue }
            seen[leaf] = true
            appendProperty(member.value, leaf: leaf)
        }
        for leaf in propertyLeaves where !seen[leaf] { builders[leaf].appendNull() }
        if let leaf = layout.foldersLeaf {
            if record.folders.isEmpty {
                builders[leaf].appendNull()
            } else {
                for (index, folder) in record.folders.enumerated() {
                    builders[leaf].append(bytes: folder.utf8, repetition: index == 0 ? 0 : 1)
                }
            }
        }
        let geometryLeaf = layout.geometryLeaf
        if let geometry = record.geometry {
            builders[geometryLeaf].append(bytes: geometry)
            if options.version == .v2_0 {
                var statistics = builders[geometryLeaf].geospatial ?? (WKBWriter.GeometryBounds(), [])
                if !record.bounds.isEmpty { statistics.bounds.formUnion(record.bounds) }
                statistics.types.insert(record.typeCode)
                builders[geometryLeaf].geospatial = statistics
            }
        } else {
            builders[geometryLeaf].appendNull()
        }
        let bbox = layout.bboxLeaf
        if record.geometry != nil, !record.bounds.isEmpty {
            builders[bbox].append(record.bounds.minX)
            builders[bbox + 1].append(record.bounds.minY)
            builders[bbox + 2].append(record.bounds.maxX)
            builders[bbox + 3].append(record.bounds.maxY)
        } else {
            for offset in 0..<4 { builders[bbox + offset].appendNull() }
        }
        rowsInGroup += 1
        totalRows += 1
        var held = 0
        for index in builders.indices {
            if builders[index].pageIsFull { try builders[index].closePage(compressor) }
            held += builders[index].heldBytes
        }
        if rowsInGroup >= options.rowGroupRows || held >= options.rowGroupBytes { try writeRowGroup() }
    }

    private mutating func appendProperty(_ value: JSONValue, leaf: Int) {
        let column = layout.leaves[leaf]
        switch (value, column.physicalType) {
        case (.null, _): builders[leaf].appendNull()
        case (.bool(let flag), .boolean): builders[leaf].append(flag)
        case (.integer(let number), .int64): builders[leaf].append(number)
        case (.integer(let number), .double): builders[leaf].append(Double(number))
        case (.number(let number), .double): builders[leaf].append(number)
        case (.string(let text), .byteArray) where !jsonLeaves.contains(leaf):
            builders[leaf].append(bytes: text.utf8)
        default:
            var text = JSONBytes()
            text.appendValue(value)
            builders[leaf].append(bytes: text.bytes)
        }
    }

    /// Writes the held row group's column chunks and remembers its footer entry.
    private mutating func writeRowGroup() throws {
        guard rowsInGroup > 0 else { return }
        var group = CompactThriftEncoder()
        var totalUncompressed = 0, totalCompressed = 0
        let groupStart = output.bytesWritten - start
        var chunks: [(builder: ParquetColumnChunkBuilder, offset: Int)] = []
        for index in builders.indices {
            try builders[index].closePage(compressor)
            let offset = output.bytesWritten - start
            try output.write(builders[index].pages)
            chunks.append((builders[index], offset))
            totalUncompressed += builders[index].uncompressedSize
            totalCompressed += builders[index].pages.count
            builders[index] = ParquetColumnChunkBuilder(column: builders[index].column)
        }
        let codec = Int32(options.codec.rawValue)
        group.field(1, structList: chunks) { encoder, chunk in
            let builder = chunk.builder
            encoder.field(2, i64: Int64(chunk.offset))
            encoder.beginStruct(3)
            encoder.field(1, i32: Int32(builder.column.physicalType.rawValue))
            encoder.field(2, i32List: [0, 3])  // PLAIN, RLE
            encoder.field(3, stringList: builder.column.path)
            encoder.field(4, i32: codec)
            encoder.field(5, i64: Int64(builder.valueCount))
            encoder.field(6, i64: Int64(builder.uncompressedSize))
            encoder.field(7, i64: Int64(builder.pages.count))
            encoder.field(9, i64: Int64(chunk.offset))
            builder.writeStatistics(12, to: &encoder)
            if let geospatial = builder.geospatial {
                encoder.beginStruct(17)
                if !geospatial.bounds.isEmpty {
                    encoder.beginStruct(1)
                    encoder.field(1, double: geospatial.bounds.minX)
                    encoder.field(2, double: geospatial.bounds.maxX)
                    encoder.field(3, double: geospatial.bounds.minY)
                    encoder.field(4, double: geospatial.bounds.maxY)
                    if geospatial.bounds.minZ <= geospatial.bounds.maxZ {
                        encoder.field(5, double: geospatial.bounds.minZ)
                        encoder.field(6, double: geospatial.bounds.maxZ)
                    }
                    encoder.endStruct()
                }
                encoder.field(2, i32List: geospatial.types.sorted().map { Int32($0) })
                encoder.endStruct()
            }
            encoder.endStruct()
        }
        group.field(2, i64: Int64(totalUncompressed))
        group.field(3, i64: Int64(rowsInGroup))
        group.field(5, i64: Int64(groupStart))
        group.field(6, i64: Int64(totalCompressed))
        group.field(7, i16: Int16(truncatingIfNeeded: rowGroups.count))
        group.endStruct()
        rowGroups.append(group.bytes)
        rowsInGroup = 0
    }

    /// Writes the last row group and the footer.
    mutating func finish(schema: GeoParquetSchema, metadata: [(key: String, value: String)]) throws {
        try writeRowGroup()
        var footer = CompactThriftEncoder()
        footer.field(1, i32: 2)
        schema.writeSchemaElements(layout, version: options.version, to: &footer)
        footer.field(3, i64: Int64(totalRows))
        footer.field(4, structList: rowGroups) { encoder, encoded in
            encoder.appendFields(encoded.dropLast())  // its fields, without its stop byte
        }
        footer.field(5, structList: metadata) { encoder, pair in
            encoder.field(1, string: pair.key)
            encoder.field(2, string: pair.value)
        }
        footer.field(6, string: "overlaykit version 1 (GeoParquet writer)")
        // TYPE_ORDER for every leaf, so readers trust min_value/max_value.
        footer.field(7, structList: layout.leaves) { encoder, _ in
            encoder.beginStruct(1)
            encoder.endStruct()
        }
        footer.endStruct()
        try output.write(footer.bytes)
        try output.write(withUnsafeBytes(of: UInt32(footer.bytes.count).littleEndian) { Array($0) })
        try output.write(Array("PAR1".utf8))
    }
}
