import OverlayModel

/// The columns of the file, learned in the writer's first pass over every feature: each
/// property key in the order first seen with its unified type, whether any feature has an id or
/// a folder path, and the geometry types and extent. After the pass it names the columns
/// (renaming a property that would clash with a column the writer adds) and lays out the
/// Parquet schema and its leaf columns.
struct GeoParquetSchema {
    /// Property keys in the order first seen.
    private(set) var keys: [String] = []
    /// Each key's unified type.
    private(set) var types: [String: GeoParquetValueType] = [:]
    /// The `id` column's type, nil when no feature has an id.
    private(set) var idType: GeoParquetValueType?
    /// True when some feature has a folder path.
    private(set) var hasFolders = false
    /// The WKB type codes present.
    private(set) var typeCodes: Set<UInt32> = []
    /// The box of every geometry.
    private(set) var bounds = WKBWriter.GeometryBounds()
    /// Records seen, and how many of them have each key.
    private var records = 0
    private var presence: [String: Int] = [:]
    /// Keys some feature gives an explicit null.
    private var explicitNulls: Set<String> = []

    /// The columns the writer adds (besides properties).
    static let geometryName = "geometry", bboxName = "bbox", idName = "id", foldersName = "folders"

    /// Learns one record's columns.
    mutating func observe(_ record: GeoParquetSpillRecord) {
        records += 1
        for member in record.properties.members {
            presence[member.key, default: 0] += 1
            let type = GeoParquetValueType(of: member.value)
            if type == .null { explicitNulls.insert(member.key) }
            if let known = types[member.key] {
                if known != type { types[member.key] = known.unified(with: type) }
            } else {
                keys.append(member.key)
                types[member.key] = type
            }
        }
        if let id = record.id {
            let type: GeoParquetValueType
            switch id {
            case .string: type = .string
            case .integer: type = .integer
            case .number: type = .double
            }
            idType = idType.map { $0.unifiedID(with: type) } ?? type
        }
        if !record.folders.isEmpty { hasFolders = true }
        if record.typeCode != 0 {
            typeCodes.insert(record.typeCode)
            if !record.bounds.isEmpty { bounds.formUnion(record.bounds) }
        }
    }

    /// What the second pass writes: the column of each property key (renamed where it clashes
    /// with a column the writer adds), the leaf columns in schema order, and the renames.
    struct Layout {
        /// The leaf columns, in order: id, properties, folders, geometry, bbox's four.
        var leaves: [ParquetLeafColumn]
        /// The leaf index of each property key.
        var propertyLeaf: [String: Int]
        /// The leaf index of the id, folders and geometry columns, and of bbox's xmin.
        var idLeaf: Int?, foldersLeaf: Int?, geometryLeaf: Int, bboxLeaf: Int
        /// Each property written under another name: (key, column name).
        var renames: [(key: String, column: String)]
        /// The column name of each property key, in key order.
        var propertyColumns: [(key: String, column: String, type: GeoParquetValueType)]
    }

    /// The layout of the columns.
    func layout() -> Layout {
        var reserved: Set<String> = [Self.geometryName, Self.bboxName]
        if idType != nil { reserved.insert(Self.idName) }
        if hasFolders { reserved.insert(Self.foldersName) }
        var taken = reserved.union(keys)
        var leaves: [ParquetLeafColumn] = []
        var idLeaf: Int?
        if let idType {
            idLeaf = leaves.count
            leaves.append(ParquetLeafColumn(path: [Self.idName], physicalType: idType.physicalType, maxDefinition: 1, maxRepetition: 0,
                                            hasMinMax: idType == .integer || idType == .double))
        }
        var propertyLeaf: [String: Int] = [:]
        var renames: [(key: String, column: String)] = []
        var propertyColumns: [(key: String, column: String, type: GeoParquetValueType)] = []
        for key in keys {
            var column = key
            if reserved.contains(key) {
                column = JSONObject.uniqueName(for: key) { taken.contains($0) }
                taken.insert(column)
                renames.append((key, column))
            }
            let type = types[key] ?? .null
            propertyLeaf[key] = leaves.count
            propertyColumns.append((key, column, type))
            leaves.append(ParquetLeafColumn(path: [column], physicalType: type.physicalType, maxDefinition: 1, maxRepetition: 0,
                                            hasMinMax: type == .integer || type == .double))
        }
        var foldersLeaf: Int?
        if hasFolders {
            foldersLeaf = leaves.count
            leaves.append(ParquetLeafColumn(path: [Self.foldersName, "list", "element"], physicalType: .byteArray,
                                            maxDefinition: 2, maxRepetition: 1, hasMinMax: false))
        }
        let geometryLeaf = leaves.count
        leaves.append(ParquetLeafColumn(path: [Self.geometryName], physicalType: .byteArray, maxDefinition: 1, maxRepetition: 0, hasMinMax: false))
        let bboxLeaf = leaves.count
        for name in ["xmin", "ymin", "xmax", "ymax"] {
            leaves.append(ParquetLeafColumn(path: [Self.bboxName, name], physicalType: .double, maxDefinition: 1, maxRepetition: 0, hasMinMax: true))
        }
        return Layout(leaves: leaves, propertyLeaf: propertyLeaf, idLeaf: idLeaf, foldersLeaf: foldersLeaf,
                      geometryLeaf: geometryLeaf, bboxLeaf: bboxLeaf, renames: renames, propertyColumns: propertyColumns)
    }

    /// The footer's `schema` list (field 2 of FileMetaData) for `layout`.
    func writeSchemaElements(_ layout: Layout, version: GeoParquetWriteOptions.Version, to encoder: inout CompactThriftEncoder) {
        enum Element {
            case group(name: String, children: Int, repetition: Int32, list: Bool)
            case leaf(name: String, type: ParquetPhysicalType, repetition: Int32, annotation: Annotation?)
        }
        enum Annotation { case string, json, geometry }
        func leaf(_ name: String, _ type: GeoParquetValueType) -> Element {
            let annotation: Annotation? = switch type {
            case .string, .null: .string
            case .json: .json
            default: nil
            }
            return .leaf(name: name, type: type.physicalType, repetition: 1, annotation: annotation)
        }
        var elements: [Element] = []
        if let idType { elements.append(leaf(Self.idName, idType)) }
        for property in layout.propertyColumns { elements.append(leaf(property.column, property.type)) }
        if hasFolders {
            elements.append(.group(name: Self.foldersName, children: 1, repetition: 1, list: true))
            elements.append(.group(name: "list", children: 1, repetition: 2, list: false))
            elements.append(.leaf(name: "element", type: .byteArray, repetition: 0, annotation: .string))
        }
        elements.append(.leaf(name: Self.geometryName, type: .byteArray, repetition: 1, annotation: version == .v2_0 ? .geometry : nil))
        elements.append(.group(name: Self.bboxName, children: 4, repetition: 1, list: false))
        for name in ["xmin", "ymin", "xmax", "ymax"] {
            elements.append(.leaf(name: name, type: .double, repetition: 0, annotation: nil))
        }
        let topLevel = (idType == nil ? 0 : 1) + layout.propertyColumns.count + (hasFolders ? 1 : 0) + 2
        let root = Element.group(name: "schema", children: topLevel, repetition: -1, list: false)
        encoder.field(2, structList: [root] + elements) { encoder, element in
            switch element {
            case .group(let name, let children, let repetition, let list):
                if repetition >= 0 { encoder.field(3, i32: repetition) }
                encoder.field(4, string: name)
                encoder.field(5, i32: Int32(children))
                if list {
                    encoder.field(6, i32: 3)  // LIST
                    encoder.beginStruct(10)
                    encoder.beginStruct(3)
                    encoder.endStruct()
                    encoder.endStruct()
                }
            case .leaf(let name, let type, let repetition, let annotation):
                encoder.field(1, i32: Int32(type.rawValue))
                encoder.field(3, i32: repetition)
                encoder.field(4, string: name)
                switch annotation {
                case .string?:
                    encoder.field(6, i32: 0)  // UTF8
                    encoder.beginStruct(10)
                    encoder.beginStruct(1)
                case .json?:
                    encoder.field(6, i32: 19)  // JSON
                    encoder.beginStruct(10)
                    encoder.beginStruct(12)
                case .geometry?:
                    // GEOMETRY without a crs: OGC:CRS84.
                    encoder.beginStruct(10)
                    encoder.beginStruct(17)
                case nil:
                    return
                }
                encoder.endStruct()
                encoder.endStruct()
            }
        }
    }

    /// The property keys some feature lacks and none gives an explicit null: in their columns a
    /// null means "absent", and the reader leaves the member out (in key order).
    var absentWhenNull: [String] {
        keys.filter { (presence[$0] ?? 0) < records && !explicitNulls.contains($0) }
    }

    /// The GeoParquet `geometry_types` names of the codes present, in code order.
    var geometryTypeNames: [String] {
        let names = ["", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"]
        return typeCodes.sorted().map { names[Int($0 % 1000)] + ($0 >= 1000 ? " Z" : "") }
    }
}
