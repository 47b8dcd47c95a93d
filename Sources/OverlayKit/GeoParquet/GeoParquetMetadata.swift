import OverlayModel

/// What a GeoParquet file says about its geometry columns: the `geo` key-value metadata
/// (GeoParquet 1.0 / 1.1) or, without it, the Parquet GEOMETRY / GEOGRAPHY logical types
/// (GeoParquet 2.0), checked against the schema.
struct GeoParquetMetadata: Sendable {
    /// How a geometry column is stored.
    enum Encoding: String, Sendable {
        case wkb = "WKB"
        case point, linestring, polygon, multipoint, multilinestring, multipolygon
    }

    /// One geometry column.
    struct Column: Sendable {
        var name: String
        var encoding: Encoding
        /// The top-level struct column holding this column's bbox (1.1 covering), if any.
        var coveringColumn: String?
        /// The paths of the covering's xmin, ymin, xmax and ymax columns (1.1), when all four are named.
        var coveringPaths: [[String]]? = nil
    }

    /// The metadata's version (`2.0` for the logical types alone).
    var version: String
    /// The column read as the features' geometry.
    var geometry: Column
    /// Every geometry column's name (the others are not read as properties).
    var geometryColumnNames: Set<String>

    /// The metadata of a file with `schema` and `keyValues`; `column` picks a geometry column
    /// other than the primary one.
    init(keyValues: [(key: String, value: String?)], schema: ParquetSchemaTree, column requested: String?) throws {
        let fields = Dictionary(schema.fields.map { ($0.element.name, $0) }, uniquingKeysWith: { first, _ in first })
        if let text = keyValues.first(where: { $0.key == "geo" })?.value {
            guard let json = ParquetJSONText.parse(text), case .object(let geo) = json else {
                throw Self.failure("the `geo` metadata is not a JSON object")
            }
            version = geo["version"]?.stringValue ?? "1.0.0"
            guard case .object(let columns)? = geo["columns"], !columns.members.isEmpty else {
                throw Self.failure("the `geo` metadata has no `columns`")
            }
            geometryColumnNames = Set(columns.members.map(\.key))
            let name = requested ?? geo["primary_column"]?.stringValue ?? columns.members[0].key
            guard case .object(let column)? = columns[name] else {
                if requested != nil {
                    throw Diagnostic(.error, code: .geoparquetGeometryColumn,
                                     message: "--geometry-column \(name) is not one of the file's geometry columns (\(columns.members.map(\.key).joined(separator: ", ")))")
                }
                throw Self.failure("the `geo` metadata's primary_column \(name) is not in its `columns`")
            }
            guard let field = fields[name] else { throw Self.failure("the `geo` metadata names column \(name), which the file does not have") }
            let encodingName = column["encoding"]?.stringValue ?? ""
            guard let encoding = Encoding(rawValue: encodingName) ?? Encoding(rawValue: encodingName.lowercased()), encodingName != "wkb" else {
                throw Self.failure("column \(name) has encoding \"\(encodingName)\", not WKB or a GeoArrow one (point, linestring, polygon, multipoint, multilinestring, multipolygon)")
            }
            if encoding == .wkb, field.element.physicalType != .byteArray {
                throw Self.failure("column \(name) is declared WKB but is not a binary column")
            }
            if encoding != .wkb, field.children.isEmpty {
                throw Self.failure("column \(name) is declared \(encoding.rawValue) but is not a nested (GeoArrow) column")
            }
            if let crs = column["crs"] { try Self.checkCRS(crs, column: name) }
            var covering: String?
            var coveringPaths: [[String]]?
            if case .object(let cover)? = column["covering"], case .object(let bbox)? = cover["bbox"],
               case .array(let xmin)? = bbox["xmin"], let first = xmin.first?.stringValue {
                guard fields[first] != nil else { throw Self.failure("the covering of column \(name) names column \(first), which the file does not have") }
                covering = first
                let paths = ["xmin", "ymin", "xmax", "ymax"].compactMap { key -> [String]? in
                    guard case .array(let path)? = bbox[key] else { return nil }
                    let names = path.compactMap(\.stringValue)
                    return names.count == path.count && !names.isEmpty ? names : nil
                }
                if paths.count == 4 { coveringPaths = paths }
            }
            geometry = Column(name: name, encoding: encoding, coveringColumn: covering, coveringPaths: coveringPaths)
        } else {
            let native = schema.fields.filter {
                if case .geometry = $0.element.logicalType { return true }
                if case .geography = $0.element.logicalType { return true }
                return false
            }
            guard !native.isEmpty else {
                throw Self.failure("the file has no `geo` metadata and no GEOMETRY or GEOGRAPHY column: it is Parquet, not GeoParquet")
            }
            geometryColumnNames = Set(native.map(\.element.name))
            guard let field = requested.map({ name in native.first { $0.element.name == name } }) ?? native.first else {
                throw Diagnostic(.error, code: .geoparquetGeometryColumn, message: "--geometry-column \(requested ?? "") is not one of the file's geometry columns (\(native.map(\.element.name).joined(separator: ", ")))")
            }
            switch field.element.logicalType {
            case .geometry(let crs), .geography(let crs):
                if let crs { try Self.checkCRS(.string(crs), column: field.element.name) }
            default: break
            }
            version = "2.0"
            geometry = Column(name: field.element.name, encoding: .wkb, coveringColumn: nil)
        }
    }

    private static func failure(_ message: String) -> Diagnostic {
        Diagnostic(.error, code: .geoparquetBadMetadata, message: message)
    }

    /// Accepts longitude/latitude CRSs only: OGC:CRS84, EPSG:4326 (GeoParquet puts x = longitude
    /// whatever the CRS's axis order), an undefined one (`null`), as PROJJSON or as text.
    private static func checkCRS(_ crs: JSONValue, column: String) throws {
        let accepted = ["OGC:CRS84", "EPSG:4326", "SRID:4326", "OGC:CRS:84", "4326"]
        switch crs {
        case .null:
            return
        case .string(let text):
            if accepted.contains(text.uppercased()) { return }
            throw Diagnostic(.error, code: .geoparquetUnsupportedCRS,
                             message: "column \(column) is in CRS \(text); only longitude/latitude (OGC:CRS84, EPSG:4326) is read: reproject it first (ogr2ogr -t_srs EPSG:4326)")
        case .object(let projjson):
            if case .object(let id)? = projjson["id"] {
                let authority = id["authority"]?.stringValue ?? ""
                let code: String
                switch id["code"] {
                case .integer(let number)?: code = String(number)
                case .string(let text)?: code = text
                default: code = ""
                }
                let name = "\(authority):\(code)"
                if accepted.contains(name.uppercased()) { return }
                throw Diagnostic(.error, code: .geoparquetUnsupportedCRS,
                                 message: "column \(column) is in CRS \(name) (\(projjson["name"]?.stringValue ?? "unnamed")); only longitude/latitude (OGC:CRS84, EPSG:4326) is read: reproject it first (ogr2ogr -t_srs EPSG:4326)")
            }
            throw Diagnostic(.error, code: .geoparquetUnsupportedCRS,
                             message: "column \(column) is in a CRS without an id (\(projjson["name"]?.stringValue ?? "unnamed")); only longitude/latitude (OGC:CRS84, EPSG:4326) is read")
        default:
            throw failure("column \(column) has a `crs` that is neither PROJJSON, text nor null")
        }
    }
}
