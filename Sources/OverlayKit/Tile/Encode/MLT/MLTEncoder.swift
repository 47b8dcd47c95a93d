import OverlayModel

/// Encodes tiles as MapLibre Tiles (MLT 1, one feature table per layer, tag 0x01), from the
/// same `VectorTile` the MVT encoder gets, so both hold the same clipped and simplified features.
///
/// A feature table is columnar: an id column (when a feature has an id MVT could hold), the
/// geometry column (`MLTGeometryColumn`), then one typed column per property name in the tile's
/// first-use order (`MLTPropertyColumn`). Every integer stream takes the smallest of the
/// specification's encodings (`MLTIntegerStream`), strings plain, as a dictionary or an FSST
/// dictionary (`MLTStringColumn`), booleans and presence bits ORC's RLE. Features keep their
/// order. The specification: maplibre/maplibre-tile-spec, docs/specification.md.
public struct MLTEncoder: Sendable {
    /// The name of the layer (feature table) each tile holds.
    public var layerName: String
    /// Whether text columns may be FSST-compressed (when that is their smallest form). Tiles an
    /// archive gzips are smaller without it: FSST's codes leave gzip little to find, and HTML
    /// descriptions came out 29 % larger with it (docs/tile.md "MLT and gzip").
    public var compressesStrings: Bool

    /// An encoder writing one feature table named `layerName`.
    /// - Parameters:
    ///   - layerName: the feature table's name.
    ///   - compressesStrings: allow FSST for text columns; false for tiles that are gzipped after.
    public init(layerName: String, compressesStrings: Bool = true) {
        self.layerName = layerName
        self.compressesStrings = compressesStrings
    }

    /// The tile's bytes and what could not be written as it was (ids that are not unsigned
    /// integers, null values — MLT marks them absent —, arrays and objects written as JSON text;
    /// values of a mixed-kind column written as text count in `valuesWrittenAsJSON`).
    public func encode(_ tile: VectorTile) -> ([UInt8], TileEncodingLosses) {
        var losses = TileEncodingLosses()
        var shapes = [MLTGeometryColumn.Shape](), ids = [UInt64?]()
        shapes.reserveCapacity(tile.features.count)
        ids.reserveCapacity(tile.features.count)
        var rows = [Int]()                                                 // each drawn feature's index in the tile
        rows.reserveCapacity(tile.features.count)
        let table = tile.propertyTable.flatMap {
            tile.propertySources.count == tile.features.count && !tile.propertySources.contains(-1) ? $0 : nil
        }
        var properties = [JSONObject?]()                                   // without a table: each row's
        for index in tile.features.indices {
            let feature = tile.feature(at: index)
            guard let shape = MLTGeometryColumn.shape(of: feature) else { continue }
            rows.append(index)
            shapes.append(shape)
            if table == nil { properties.append(feature.properties) }
            var id: UInt64?
            if let featureID = feature.id {
                id = MVTEncoder.unsignedID(featureID)
                if id == nil { losses.idsNotWritten += 1 }
            }
            ids.append(id)
        }
        guard !shapes.isEmpty else { return ([], losses) }
        // A property table's values are distinct (equal values share a number); a tile's own are not.
        let written: MLTKeptColumns.Columns
        if let table {
            let tableCells = table.mltCells                                // one look-up a tile: it takes a lock and a cast
            let sources = rows.map { tile.propertySources[$0] }, entries = table.entries
            for source in sources {
                losses.nullValuesNotWritten += entries[source].nullValues
                losses.valuesWrittenAsJSON += entries[source].jsonValues
            }
            // The columns are a function of the entries alone: kept for tiles of the same features.
            written = tableCells.kept.columns(entries: sources) {
                var counted = TileEncodingLosses()                         // counted above, from the entries
                let columns = Self.columns(sources, table: table, keys: tableCells.keys, losses: &counted)
                return Self.write(columns, rowCount: sources.count, cells: tableCells.values, distinctCells: true,
                                  fsst: compressesStrings, fsstTables: tableCells.fsstTables)
            }
        } else {
            let (columns, cells) = Self.columns(properties, losses: &losses)
            written = Self.write(columns, rowCount: properties.count, cells: cells, distinctCells: false,
                                 fsst: compressesStrings, fsstTables: nil)
        }
        losses.valuesWrittenAsJSON += written.convertedToText

        // Room for the usual ids and geometry at once (at most 1 MB ahead): growing a buffer by
        // doubling costs more than the columns of a tile of a few features.
        var metadata = [UInt8](), data = [UInt8](), scratch = MLTColumnScratch()
        metadata.reserveCapacity(32)
        data.reserveCapacity(min(1 << 20, 64 + 48 * shapes.count))
        MLTWire.appendString(layerName, to: &metadata)
        MLTWire.appendVarint(UInt64(tile.extent), to: &metadata)
        let hasIDs = ids.contains { $0 != nil }
        MLTWire.appendVarint(UInt64(written.count + (hasIDs ? 2 : 1)), to: &metadata)
        if hasIDs {
            let nullable = ids.contains(nil)
            let long = ids.contains { ($0 ?? 0) > UInt64(UInt32.max) }
            MLTWire.appendVarint((long ? 2 : 0) | (nullable ? 1 : 0), to: &metadata)
            if nullable { scratch.appendBooleanStream(ids.map { $0 != nil }, kind: .present, to: &data) }
            MLTIntegerStream.append(ids.compactMap { $0 }, signed: false, kind: .data,
                                    logicalStream: MLTWire.DictionaryKind.none.rawValue, to: &data)
        }
        MLTWire.appendVarint(4, to: &metadata)                            // geometry
        MLTGeometryColumn.append(shapes, to: &data)
        // Metadata: the table's, then each property column's; data: ids, geometry, then the columns.
        let length = metadata.count + written.metadata.count + data.count + written.data.count
        var layer = [UInt8]()
        layer.reserveCapacity(length + 12)
        MLTWire.appendVarint(UInt64(1 + length), to: &layer)
        layer.append(1)                                                   // tag 0x01: an MLT 1 feature table
        layer += metadata
        layer += written.metadata
        layer += data
        layer += written.data
        return (layer, losses)
    }

    /// The metadata (type and name) and streams of `columns` of `rowCount` rows each (`cells`:
    /// the cells their rows number; `distinctCells`: equal cells have equal numbers;
    /// `fsst`: text may be FSST-compressed; `fsstTables`: tables trained for tiles before, when
    /// there are such).
    private static func write(_ columns: [MLTPropertyColumn], rowCount: Int, cells: [MLTPropertyColumn.Cell],
                              distinctCells: Bool, fsst: Bool, fsstTables: MLTFSSTTables?) -> MLTKeptColumns.Columns {
        var written = MLTKeptColumns.Columns(count: columns.count), scratch = MLTColumnScratch()
        scratch.fsst = fsst
        scratch.fsstTables = fsstTables
        written.metadata.reserveCapacity(24 * columns.count)
        written.data.reserveCapacity(min(1 << 20, 16 * columns.count * (rowCount + 1)))
        for column in columns {
            let (type, nullable, converted) = column.scalarType(cells)
            written.convertedToText += converted
            MLTWire.appendVarint(type.rawValue + (nullable ? 1 : 0), to: &written.metadata)
            MLTWire.appendVarint(UInt64(column.name.count), to: &written.metadata)
            written.metadata += column.name
            column.appendStreams(type: type, nullable: nullable, cells: cells, distinctCells: distinctCells,
                                 scratch: &scratch, to: &written.data)
        }
        return written
    }

    /// The property columns of features' properties, in first-use order of their names, and the
    /// cells their rows number (one per value).
    private static func columns(_ rows: [JSONObject?],
                                losses: inout TileEncodingLosses) -> ([MLTPropertyColumn], [MLTPropertyColumn.Cell]) {
        var names = [[UInt8]](), columnOf = [String: Int](), cells = [MLTPropertyColumn.Cell]()
        var matrix = [UInt32]()                                            // column after column, a row each
        for (row, properties) in rows.enumerated() {
            guard var properties else { continue }
            properties.renameDuplicateKeys()
            for member in properties {
                guard let cell = MLTPropertyColumn.Cell(member.value) else {
                    losses.nullValuesNotWritten += 1
                    continue
                }
                if case .array = member.value { losses.valuesWrittenAsJSON += 1 }
                if case .object = member.value { losses.valuesWrittenAsJSON += 1 }
                let column: Int
                if let known = columnOf[member.key] { column = known } else {
                    column = names.count
                    columnOf[member.key] = column
                    names.append(Array(member.key.utf8))
                    matrix += repeatElement(MLTPropertyColumn.none, count: rows.count)
                }
                matrix[column * rows.count + row] = UInt32(cells.count)
                cells.append(cell)
            }
        }
        return (Self.columns(names: names, matrix: matrix, rowCount: rows.count), cells)
    }

    /// The same from properties encoded once per input feature (`MVTPropertyTable`): keys and
    /// values are looked up by number (rows hold the table's value numbers), with no hashing or
    /// copying of properties per tile (`keys`: the table's key names, `MLTPropertyCells.keys`).
    private static func columns(_ sources: [Int], table: MVTPropertyTable, keys: [[UInt8]],
                                losses: inout TileEncodingLosses) -> [MLTPropertyColumn] {
        let entries = table.entries, rowCount = sources.count
        var names = [[UInt8]](), columnOf = [Int32](repeating: -1, count: keys.count)
        var matrix = [UInt32]()                                            // column after column, a row each
        for (row, source) in sources.enumerated() {
            losses.nullValuesNotWritten += entries[source].nullValues
            losses.valuesWrittenAsJSON += entries[source].jsonValues
            let tags = entries[source].tags
            var index = 0
            while index + 1 < tags.count {
                let key = Int(tags[index]), value = tags[index + 1]
                index += 2
                var column = Int(columnOf[key])
                if column < 0 {
                    column = names.count
                    columnOf[key] = Int32(column)
                    names.append(keys[key])
                    matrix += repeatElement(MLTPropertyColumn.none, count: rowCount)
                }
                matrix[column * rowCount + row] = value
            }
        }
        return Self.columns(names: names, matrix: matrix, rowCount: rowCount)
    }

    /// Columns named `names` whose rows are consecutive pieces of `rowCount` numbers in `matrix`.
    private static func columns(names: [[UInt8]], matrix: [UInt32], rowCount: Int) -> [MLTPropertyColumn] {
        var columns = [MLTPropertyColumn]()
        columns.reserveCapacity(names.count)
        for (column, name) in names.enumerated() {
            columns.append(MLTPropertyColumn(name: name, rows: matrix[column * rowCount..<(column + 1) * rowCount]))
        }
        return columns
    }
}
