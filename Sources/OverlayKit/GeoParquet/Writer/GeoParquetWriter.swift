import OverlayModel

/// Writes features as GeoParquet (1.1 by default; 2.0 with ``GeoParquetWriteOptions/version``):
/// a WKB `geometry` column, a `bbox` covering column with min/max statistics per row group,
/// one column per property key, an `id` column and a `folders` list column when features have
/// them, ZSTD pages (v1, PLAIN values, RLE levels).
///
/// Parquet keeps one schema for every row group, and a column's type must hold every feature's
/// value, so the writer reads the features twice: ``write(_:)`` adds each feature to a spill
/// (memory up to a budget, then an anonymous temporary file; sorted runs for
/// ``GeoParquetWriteOptions/Order/hilbert``) while learning the columns, and ``finish()`` reads
/// the spill back and writes the row groups and the footer. Memory is bounded by one row group
/// and the spill's budget, whatever the number of features. Nothing reaches the output before
/// ``finish()``.
///
/// As the GeoJSON writer does: a circle is a Point with a `radius` property (meters), a style
/// becomes simplestyle properties, and rings follow RFC 7946's winding. A highlight style, style
/// parts simplestyle cannot say, and GeoJSON foreign members have no place and are each named in
/// one warning.
public struct GeoParquetWriter: FeatureWriter {
    private let output: ByteOutput
    private let options: GeoParquetWriteOptions
    private let spill: GeoParquetSpill
    private var schema = GeoParquetSchema()
    private var wkb = WKBWriter()
    private var recordBytes: [UInt8] = []
    private var warnings: [Diagnostic] = []
    private var finished = false
    private var reportedRenames: Set<String> = []
    private var droppedForeignMembers: [String] = []
    private var droppedForeignMemberSet: Set<String> = []
    private var highlightStyles = 0
    private var unsaidStyles = 0
    private var collectionMembers = JSONObject()

    /// A writer into `output`, laid out as `options.geoParquet` says.
    /// - Parameters:
    ///   - output: where the file goes (a file, standard output or memory).
    ///   - options: the writer options; only ``WriterOptions/geoParquet`` applies (coordinates
    ///     are stored as exact doubles, so ``WriterOptions/precision`` does not).
    public init(output: ByteOutput, options: WriterOptions = WriterOptions()) {
        self.output = output
        self.options = options.geoParquet
        spill = GeoParquetSpill(sorted: options.geoParquet.order == .hilbert)
    }

    /// Warnings about what GeoParquet cannot hold, since the last call.
    public mutating func takeWarnings() -> [Diagnostic] {
        defer { warnings.removeAll() }
        return warnings
    }

    /// Adds one feature to the spill, learning its columns.
    /// - Throws: `Diagnostic` `io.*` when the temporary file cannot be written.
    public mutating func write(_ feature: Feature) throws {
        var properties = feature.properties ?? JSONObject()
        for rename in properties.renameDuplicateKeys() where reportedRenames.insert(rename.original).inserted {
            warnings.append(Diagnostic(.warning, code: .outputDuplicateNameRenamed,
                                       message: "member \"\(rename.original)\" appears more than once in one object; a later one is written as \"\(rename.renamed)\" (reported once per name)"))
        }
        let (shape, repairs) = ShapeRepair.writable(feature)
        warnings += repairs
        if case .circle(let circle)? = shape, properties["radius"]?.doubleValue != circle.radius {
            properties["radius"] = .number(circle.radius)
        }
        if let style = feature.style {
            properties = SimpleStyle.properties(properties, carrying: style) ?? properties
            if SimpleStyle.style(from: SimpleStyle.properties(for: style)) != style { unsaidStyles += 1 }
        }
        if feature.highlightStyle != nil { highlightStyles += 1 }
        for member in feature.foreignMembers.members where droppedForeignMemberSet.insert(member.key).inserted {
            droppedForeignMembers.append(member.key)
        }
        var geometry: [UInt8]?
        var typeCode: UInt32 = 0
        if let shape {
            wkb.write(shape)
            geometry = wkb.bytes
            typeCode = wkb.typeCode
        }
        let record = GeoParquetSpillRecord(id: feature.id, properties: properties, folders: feature.folderPath,
                                           geometry: geometry, typeCode: typeCode, bounds: wkb.bounds)
        schema.observe(record)
        var key = UInt64.max
        if geometry != nil, !wkb.bounds.isEmpty {
            key = HilbertIndex.key(longitude: (wkb.bounds.minX + wkb.bounds.maxX) / 2, latitude: (wkb.bounds.minY + wkb.bounds.maxY) / 2)
        }
        if geometry == nil { wkb = WKBWriter() }
        recordBytes.removeAll(keepingCapacity: true)
        record.encode(into: &recordBytes)
        try spill.append(recordBytes, key: key)
    }

    /// Keeps a collection's members (a GeoJSON FeatureCollection's `name`, a KML Document's name)
    /// in overlaykit's own file metadata, which the reader gives back; a KMZ's files have no
    /// place in GeoParquet: each is named in a warning.
    public mutating func carry(_ context: DocumentContext) -> [Diagnostic] {
        collectionMembers = context.collectionMembers
        return DocumentContext.droppedResources(context, formatName: "GeoParquet")
    }

    /// Writes the file: the row groups from the spill, then the footer; flushes.
    /// - Throws: `Diagnostic` `io.*` when the output or the temporary file fails.
    public mutating func finish() throws {
        guard !finished else { return }
        finished = true
        reportDropped()
        let layout = schema.layout()
        for rename in layout.renames {
            warnings.append(Diagnostic(.warning, code: .outputDuplicateNameRenamed,
                                       message: "property \"\(rename.key)\" is written as column \"\(rename.column)\": GeoParquet's \(rename.key) column is the writer's own"))
        }
        var file = try ParquetFileWriter(output: output, layout: layout, options: options)
        try spill.forEach { bytes in
            let record: GeoParquetSpillRecord
            do {
                record = try GeoParquetSpillRecord(decoding: bytes)
            } catch {
                throw Diagnostic(.error, code: .ioReadFailed, message: "the GeoParquet writer's temporary file does not read back")
            }
            try file.append(record)
        }
        try file.finish(schema: schema, metadata: geoMetadata(layout))
        try output.flush()
    }

    private mutating func reportDropped() {
        if highlightStyles > 0 {
            warnings.append(Diagnostic(.warning, code: .outputStyleDropped,
                                       message: "\(highlightStyles) feature(s) have a highlight style (a KML StyleMap's), which GeoParquet has no place for; only the normal style is written, as simplestyle properties"))
        }
        if unsaidStyles > 0 {
            warnings.append(Diagnostic(.warning, code: .outputStyleDropped,
                                       message: "\(unsaidStyles) feature(s) have style parts simplestyle properties cannot say (icon href, scale or heading, label style, line dash, cap or join); they are not written"))
        }
        if !droppedForeignMembers.isEmpty {
            warnings.append(Diagnostic(.warning, code: .convertDroppedMembers,
                                       message: "Feature members " + droppedForeignMembers.joined(separator: ", ") + " (GeoJSON foreign members) have no place in GeoParquet and are not written"))
        }
    }

    /// The `geo` metadata and overlaykit's own (which columns are the id and the folders, the
    /// collection's members).
    private func geoMetadata(_ layout: GeoParquetSchema.Layout) -> [(key: String, value: String)] {
        var column = JSONObject()
        column.append("encoding", .string("WKB"))
        column.append("geometry_types", .array(schema.geometryTypeNames.map { .string($0) }))
        let bounds = schema.bounds
        if !bounds.isEmpty {
            column.append("bbox", .array([bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].map { .number($0) }))
        }
        var covering = JSONObject()
        for name in ["xmin", "ymin", "xmax", "ymax"] {
            covering.append(name, .array([.string(GeoParquetSchema.bboxName), .string(name)]))
        }
        column.append("covering", .object(["bbox": .object(covering)]))
        var geo = JSONObject()
        geo.append("version", .string(options.version == .v2_0 ? "2.0.0" : "1.1.0"))
        geo.append("primary_column", .string(GeoParquetSchema.geometryName))
        geo.append("columns", .object([GeoParquetSchema.geometryName: .object(column)]))
        var text = JSONBytes()
        text.appendValue(.object(geo))
        var result = [(key: "geo", value: String(decoding: text.bytes, as: UTF8.self))]
        var own = JSONObject()
        if layout.idLeaf != nil { own.append("id_column", .string(GeoParquetSchema.idName)) }
        if layout.foldersLeaf != nil { own.append("folders_column", .string(GeoParquetSchema.foldersName)) }
        let columnOfKey = Dictionary(layout.propertyColumns.map { ($0.key, $0.column) }, uniquingKeysWith: { first, _ in first })
        let sparse = schema.absentWhenNull.compactMap { columnOfKey[$0] }
        if !sparse.isEmpty { own.append("absent_when_null", .array(sparse.map { .string($0) })) }
        if !collectionMembers.isEmpty { own.append("collection_members", .object(collectionMembers)) }
        if !own.isEmpty {
            var ownText = JSONBytes()
            ownText.appendValue(.object(own))
            result.append((GeoParquetConventions.metadataKey, String(decoding: ownText.bytes, as: UTF8.self)))
        }
        return result
    }
}
