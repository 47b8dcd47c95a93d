import OverlayModel

/// One opened GeoParquet file: its footer, schema and `geo` metadata checked, and its row groups
/// decoded one at a time into features. Immutable after `init`, and its reads are positioned
/// (`pread`), so several threads may decode row groups of one file at once.
struct GeoParquetFile: @unchecked Sendable {
    private let source: RandomAccessBytes
    let footer: ParquetFooter
    private let tree: ParquetSchemaTree
    let metadata: GeoParquetMetadata
    /// The top-level fields read as properties, in schema order, and the geometry field.
    let propertyFields: [ParquetSchemaTree.Node]
    private let geometryField: ParquetSchemaTree.Node
    /// The columns overlaykit's own metadata names as the feature id and the KML folder path.
    private let idField: ParquetSchemaTree.Node?
    private let foldersField: ParquetSchemaTree.Node?
    /// Property columns whose nulls stand for an absent key (overlaykit's own metadata).
    private let absentWhenNull: Set<String>
    /// The collection members overlaykit's writer kept in its metadata.
    let collectionMembers: JSONObject
    /// The leaves of the 1.1 covering's xmin, ymin, xmax and ymax, when the file has one.
    private let coveringLeaves: [Int]?
    /// The name diagnostics use.
    let fileName: String
    /// Where the footer starts: page indexes lie before it.
    private let dataEnd: Int64

    /// Opens `input` and reads its footer and `geo` metadata; `geometryColumn` picks a
    /// geometry column other than the primary one.
    /// - Throws: a `Diagnostic` (`geoparquet.*`) naming the file and what is wrong.
    init(input: ByteInput, geometryColumn: String?) throws {
        let source = try RandomAccessBytes(input)
        self.source = source
        fileName = source.name
        let size = source.size
        func bad(_ message: String) -> Diagnostic {
            Diagnostic(.error, code: .geoparquetBadFile, message: "\(source.name): \(message)", location: SourceLocation(file: input.name, line: 0, column: 0))
        }
        guard size >= 12 else { throw bad("\(size) bytes is too short for Parquet (its magic and footer take 12)") }
        let head = try source.read(at: 0, count: 4)
        let tail = try source.read(at: size - 8, count: 8)
        guard head == Array("PAR1".utf8), tail.count == 8, Array(tail[4...]) == Array("PAR1".utf8) else {
            throw bad("not a Parquet file: it does not start and end with the magic PAR1\(head == Array("PAR1".utf8) ? " (truncated? the end is not PAR1)" : "")")
        }
        let footerLength = Int64(tail[0]) | Int64(tail[1]) << 8 | Int64(tail[2]) << 16 | Int64(tail[3]) << 24
        guard footerLength > 0, footerLength <= size - 12 else {
            throw bad("the footer length \(footerLength) points past the file of \(size) bytes (truncated?)")
        }
        dataEnd = size - 8 - footerLength
        let footerBytes = try source.read(at: size - 8 - footerLength, count: Int(footerLength))
        do {
            footer = try ParquetFooter(thrift: footerBytes, fileSize: size - 8 - footerLength)
            tree = try ParquetSchemaTree(footer.schema)
        } catch let failure as CompactThriftDecoder.Failure {
            throw bad("the footer is corrupt: \(failure.reason)")
        } catch let failure as ParquetDecodingFailure {
            throw bad("the footer's schema is corrupt: \(failure.reason)")
        }
        do {
            metadata = try GeoParquetMetadata(keyValues: footer.keyValues, schema: tree, column: geometryColumn)
        } catch var diagnostic as Diagnostic {
            diagnostic.message = "\(source.name): \(diagnostic.message)"
            diagnostic.location = SourceLocation(file: input.name, line: 0, column: 0)
            throw diagnostic
        }
        let metadata = metadata
        guard let geometryField = tree.fields.first(where: { $0.element.name == metadata.geometry.name }) else {
            throw bad("no column \(metadata.geometry.name)")
        }
        self.geometryField = geometryField
        // overlaykit's own metadata: which columns hold the feature id and the folder path.
        var own = JSONObject()
        if let text = footer.keyValues.first(where: { $0.key == GeoParquetConventions.metadataKey })?.value,
           case .object(let object)? = ParquetJSONText.parse(text) {
            own = object
        }
        let tree = tree
        func ownField(_ key: String) -> ParquetSchemaTree.Node? {
            guard let name = own[key]?.stringValue else { return nil }
            return tree.fields.first { $0.element.name == name && !metadata.geometryColumnNames.contains(name) }
        }
        collectionMembers = own["collection_members"]?.objectValue ?? JSONObject()
        if case .array(let names)? = own["absent_when_null"] {
            absentWhenNull = Set(names.compactMap(\.stringValue))
        } else {
            absentWhenNull = []
        }
        idField = ownField("id_column")
        foldersField = ownField("folders_column")
        let ownNames = Set([idField, foldersField].compactMap { $0?.element.name })
        propertyFields = tree.fields.filter {
            !metadata.geometryColumnNames.contains($0.element.name) && $0.element.name != metadata.geometry.coveringColumn
                && !ownNames.contains($0.element.name)
        }
        let leaves = tree.leaves
        let covering = metadata.geometry.coveringPaths?.compactMap { path in leaves.firstIndex { $0.path == path } }
        coveringLeaves = covering?.count == 4 ? covering : nil
        var rows = 0
        for (index, group) in footer.rowGroups.enumerated() {
            guard group.columns.count == tree.leaves.count else {
                throw bad("row group \(index) has \(group.columns.count) column chunks where the schema has \(tree.leaves.count) columns")
            }
            rows += group.rowCount
            guard rows <= footer.rowCount || footer.rowCount == 0 else { throw bad("the row groups hold more rows than the footer's \(footer.rowCount)") }
        }
    }

    /// What the footer says bounds row group `index`'s geometries, as (xmin, ymin, xmax, ymax):
    /// GeoParquet 2.0's geospatial statistics of the geometry column, else the min and max
    /// statistics of the 1.1 covering columns; nil when the file says nothing usable.
    func declaredBox(ofRowGroup index: Int) -> RowGroupBox? {
        let columns = footer.rowGroups[index].columns
        if let leaf = geometryField.children.isEmpty ? geometryField.leafRange.first : nil,
           let box = columns[leaf].geospatialBox, box.count == 4 {
            return RowGroupBox(xmin: box[0], ymin: box[2], xmax: box[1], ymax: box[3])
        }
        guard let coveringLeaves else { return nil }
        func statistic(_ leaf: Int, maximum: Bool) -> Double? {
            (maximum ? columns[leaf].maximum : columns[leaf].minimum).flatMap { plainNumber($0, leaf: leaf) }
        }
        guard let xmin = statistic(coveringLeaves[0], maximum: false), let ymin = statistic(coveringLeaves[1], maximum: false),
              let xmax = statistic(coveringLeaves[2], maximum: true), let ymax = statistic(coveringLeaves[3], maximum: true) else { return nil }
        return RowGroupBox(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
    }

    /// A plain-encoded DOUBLE or FLOAT statistic of leaf `leaf` as a number.
    private func plainNumber(_ bytes: [UInt8], leaf: Int) -> Double? {
        switch tree.leaves[leaf].element.physicalType {
        case .double?:
            guard bytes.count == 8 else { return nil }
            return Double(bitPattern: bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        case .float?:
            guard bytes.count == 4 else { return nil }
            return Double(Float(bitPattern: bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
        default:
            return nil
        }
    }

    /// The rows of row group `index` that may meet `query` by the page indexes of the 1.1
    /// covering columns; nil when one of the four has no page index (or the file no covering).
    /// - Throws: `geoparquet.bad-file` naming the row group and column when a page index is
    ///   inconsistent with the file or the row group.
    func pageSelection(ofRowGroup index: Int, query: GeographicBox) throws -> PageRowSelection? {
        guard let coveringLeaves else { return nil }
        let group = footer.rowGroups[index]
        guard group.rowCount > 0 else { return nil }
        var columns = [[(firstRow: Int, bound: Double?)]]()
        for (position, leaf) in coveringLeaves.enumerated() {
            guard let pageIndex = try self.pageIndex(ofRowGroup: index, leaf: leaf, bounds: true),
                  let nulls = pageIndex.nullPages, let bounds = position < 2 ? pageIndex.minimums : pageIndex.maximums else { return nil }
            columns.append(pageIndex.pages.indices.map { page -> (firstRow: Int, bound: Double?) in
                (firstRow: pageIndex.pages[page].firstRow, bound: nulls[page] ? nil : plainNumber(bounds[page], leaf: leaf))
            })
        }
        return PageRowSelection(columns: columns, rowCount: group.rowCount, query: query)
    }

    /// The page index of leaf `leaf` in row group `index` (nil when the chunk has none).
    private func pageIndex(ofRowGroup index: Int, leaf: Int, bounds: Bool) throws -> ParquetPageIndex? {
        let group = footer.rowGroups[index]
        do {
            return try ParquetPageIndex.read(source, chunk: group.columns[leaf], rowCount: group.rowCount, dataEnd: dataEnd, bounds: bounds)
        } catch let error as ParquetDecodingFailure {
            throw failure(.geoparquetBadFile, "row group \(index), column \(tree.leaves[leaf].path.joined(separator: ".")): \(error.reason)")
        }
    }

    /// The features of row group `index`, with the properties of `fields` (a subset of
    /// ``propertyFields``, in schema order) and then `extra` (a Hive folder's partition values);
    /// only the rows of `rows` when given (a ``PageRowSelection``'s ranges): a column with a page
    /// index decodes only the pages that hold them, any other decodes every page and drops the
    /// rest, so every column gives the same rows.
    func features(ofRowGroup index: Int, fields propertyFields: [ParquetSchemaTree.Node],
                  extra: [JSONObject.Member] = [], rows: [Range<Int>]? = nil) throws -> [Feature] {
        let group = footer.rowGroups[index]
        let fields = [geometryField] + propertyFields + [idField, foldersField].compactMap { $0 }
        let kept = rows ?? [0..<group.rowCount]
        let keptCount = kept.reduce(0) { $0 + $1.count }
        var chunks = [Int: ColumnChunkData]()
        for field in fields {
            for leaf in field.leafRange {
                let chunk = group.columns[leaf]
                let column = tree.leaves[leaf].path.joined(separator: ".")
                guard chunk.path == tree.leaves[leaf].path else {
                    throw failure(.geoparquetBadFile, "row group \(index): column chunk \(leaf) is \(chunk.path.joined(separator: ".")), not \(column)")
                }
                guard chunk.compressedSize <= Int64(Int.max >> 1) else { throw failure(.geoparquetBadFile, "row group \(index), column \(column): a chunk too large") }
                if rows != nil, let located = try pageIndex(ofRowGroup: index, leaf: leaf, bounds: false) {
                    chunks[leaf] = try pagesOf(chunk, leaf: leaf, pageIndex: located, kept: kept, rowCount: group.rowCount, group: index)
                    continue
                }
                let bytes = try source.read(at: chunk.start, count: Int(chunk.compressedSize))
                guard bytes.count == Int(chunk.compressedSize) else {
                    throw failure(.geoparquetBadFile, "row group \(index), column \(column): the chunk runs past the end of the file")
                }
                do {
                    let data = try ColumnChunkReader.read(bytes, leaf: tree.leaves[leaf], codec: chunk.codec, valueCount: chunk.valueCount)
                    chunks[leaf] = rows == nil ? data : data.keepingRows(kept, decoded: [0..<group.rowCount], leaf: tree.leaves[leaf])
                } catch let error as ParquetDecodingFailure {
                    throw failure(.geoparquetBadFile, "row group \(index), column \(column): \(error.reason)")
                }
            }
        }
        // Every row has at least one entry in each column: a row count beyond them is a lie.
        let geometryEntries = chunks[geometryField.leafRange.lowerBound]?.entryCount ?? 0
        guard keptCount <= geometryEntries else {
            throw failure(.geoparquetBadFile, "row group \(index) declares \(group.rowCount) rows, but column \(metadata.geometry.name) holds \(geometryEntries) values")
        }
        var assembler = ParquetRecordAssembler(chunks: chunks, leaves: tree.leaves)
        var features = [Feature]()
        features.reserveCapacity(keptCount)
        let geometryName = metadata.geometry.name
        let location = SourceLocation(file: fileName, line: 0, column: 0)
        let isWKB = metadata.geometry.encoding == .wkb && geometryField.children.isEmpty
        for row in kept.joined() {
            let shape: Shape?
            do {
                if isWKB {
                    shape = try assembler.nextBytes(geometryField).flatMap(WKBReader.shape)
                } else {
                    shape = try GeoArrowShape.shape(try assembler.next(geometryField), encoding: metadata.geometry.encoding)
                }
            } catch let error as WKBReader.Failure {
                throw failure(.geoparquetInvalidGeometry, "row group \(index), column \(geometryName), row \(row): invalid WKB: \(error.reason)")
            } catch let error as GeoArrowShape.Failure {
                throw failure(.geoparquetInvalidGeometry, "row group \(index), column \(geometryName), row \(row): invalid \(metadata.geometry.encoding.rawValue) geometry: \(error.reason)")
            } catch let error as ParquetDecodingFailure {
                throw failure(.geoparquetBadFile, "row group \(index), column \(geometryName), row \(row): \(error.reason)")
            }
            var properties = JSONObject()
            properties.members.reserveCapacity(propertyFields.count + extra.count)
            for field in propertyFields {
                do {
                    let value = try assembler.next(field)
                    if case .null = value, absentWhenNull.contains(field.element.name) { continue }
                    properties.members.append(.init(key: field.element.name, value: value))
                } catch let error as ParquetDecodingFailure {
                    throw failure(.geoparquetBadFile, "row group \(index), column \(field.element.name), row \(row): \(error.reason)")
                }
            }
            properties.members.append(contentsOf: extra)
            var feature = Feature(properties: properties, shape: shape.map { GeoJSONConventions.decorate($0, properties: properties) },
                                  location: location)
            feature.style = SimpleStyle.style(from: properties)
            do {
                if let idField { feature.id = Self.featureID(try assembler.next(idField)) }
                if let foldersField, case .array(let names) = try assembler.next(foldersField) {
                    feature.folderPath = names.compactMap(\.stringValue)
                }
            } catch let error as ParquetDecodingFailure {
                throw failure(.geoparquetBadFile, "row group \(index), row \(row): \(error.reason)")
            }
            features.append(feature)
        }
        return features
    }

    /// The rows `kept` of a column chunk with a page index: its dictionary page and the data
    /// pages that hold a kept row are read and decoded, and the rows outside `kept` dropped.
    private func pagesOf(_ chunk: ParquetFooter.ColumnChunk, leaf: Int, pageIndex: ParquetPageIndex, kept: [Range<Int>],
                         rowCount: Int, group: Int) throws -> ColumnChunkData {
        let column = tree.leaves[leaf].path.joined(separator: ".")
        let selected = PageRowSelection.pages(of: pageIndex, meeting: kept, rowCount: rowCount)
        // The dictionary page (if any) lies between the chunk's start and its first data page.
        let first = pageIndex.pages[0].offset
        var bytes = try source.read(at: chunk.start, count: Int(first - chunk.start))
        var decoded = [Range<Int>]()
        var run: (start: Int64, end: Int64)?
        func flush() throws {
            guard let span = run else { return }
            let read = try source.read(at: span.start, count: Int(span.end - span.start))
            guard read.count == Int(span.end - span.start) else {
                throw failure(.geoparquetBadFile, "row group \(group), column \(column): a page runs past the end of the file")
            }
            bytes += read
            run = nil
        }
        for page in selected {
            let location = pageIndex.pages[page]
            let rows = pageIndex.rows(ofPage: page, rowCount: rowCount)
            if let last = decoded.last, last.upperBound == rows.lowerBound { decoded[decoded.count - 1] = last.lowerBound..<rows.upperBound } else { decoded.append(rows) }
            let end = location.offset + Int64(location.size)
            if let span = run, span.end == location.offset { run = (span.start, end) } else { try flush(); run = (location.offset, end) }
        }
        try flush()
        do {
            let data = try ColumnChunkReader.read(bytes, leaf: tree.leaves[leaf], codec: chunk.codec, valueCount: chunk.valueCount, wholeChunk: false)
            let expected = decoded.reduce(0) { $0 + $1.count }
            guard data.rowCount == expected else {
                throw ParquetDecodingFailure(reason: "the offset index places \(expected) rows in the \(selected.count) pages read, which hold \(data.rowCount)")
            }
            return decoded == kept ? data : data.keepingRows(kept, decoded: decoded, leaf: tree.leaves[leaf])
        } catch let error as ParquetDecodingFailure {
            throw failure(.geoparquetBadFile, "row group \(group), column \(column): \(error.reason)")
        }
    }

    /// A feature id from an id column's value: a string, an integer or another number.
    private static func featureID(_ value: JSONValue) -> FeatureID? {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        default: nil
        }
    }

    private func failure(_ code: Diagnostic.Code, _ message: String) -> Diagnostic {
        Diagnostic(.error, code: code, message: "\(fileName): \(message)", location: SourceLocation(file: fileName, line: 0, column: 0))
    }
}
