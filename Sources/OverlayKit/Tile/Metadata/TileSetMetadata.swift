import Foundation
import OverlayModel

/// A tile set's description as tile clients expect it (TileJSON 3.0 / MBTiles 1.3 fields), plus
/// OverlayKit's per-zoom account of what was dropped.
///
/// One value serves all three formats: `directoryJSON()` is the tippecanoe/GDAL `metadata.json`
/// (flat strings, `json` holding `vector_layers` and `tilestats`), `mbtilesRows()` the MBTiles
/// `metadata` table, `pmtilesJSON()` the PMTiles JSON metadata. Each reads back with the matching
/// parser, which also reads what tippecanoe writes.
public struct TileSetMetadata: Hashable, Sendable {
    /// The tile set's name.
    public var name: String
    /// A sentence about it (empty when none).
    public var description: String
    /// Tile encoding: "pbf" (Mapbox Vector Tile) or "geojson".
    public var format: String
    /// West, south, east, north in degrees; nil when the set is empty.
    public var bounds: Bounds?
    /// Where a client should start: longitude, latitude, zoom; nil when the set is empty.
    public var center: Center?
    /// Lowest zoom with tiles.
    public var minZoom: Int
    /// Highest zoom with tiles.
    public var maxZoom: Int
    /// The layers in the tiles and their fields.
    public var vectorLayers: [VectorLayer]
    /// Mapbox tilestats (layer geometry types and attribute types), kept as JSON; nil when none.
    public var tileStats: JSONValue?
    /// OverlayKit's per-zoom account of dropped features and rings; nil for sets made elsewhere.
    public var dropReport: TileDropReport?
    /// Other top-level metadata keys read from the archive (e.g. tippecanoe's `generator`),
    /// written back unchanged.
    public var other: JSONObject

    /// A degrees bounding box.
    public struct Bounds: Hashable, Sendable {
        /// West longitude.
        public var west: Double
        /// South latitude.
        public var south: Double
        /// East longitude.
        public var east: Double
        /// North latitude.
        public var north: Double

        /// A box from its four edges in degrees.
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
        }

        /// The smallest box holding both.
        public func union(_ other: Bounds) -> Bounds {
            Bounds(west: min(west, other.west), south: min(south, other.south),
                   east: max(east, other.east), north: max(north, other.north))
        }
    }

    /// A starting view.
    public struct Center: Hashable, Sendable {
        /// Longitude in degrees.
        public var longitude: Double
        /// Latitude in degrees.
        public var latitude: Double
        /// Zoom level.
        public var zoom: Int

        /// A view from its longitude, latitude and zoom.
        public init(longitude: Double, latitude: Double, zoom: Int) {
            self.longitude = longitude
            self.latitude = latitude
            self.zoom = zoom
        }
    }

    /// One entry of TileJSON's `vector_layers`.
    public struct VectorLayer: Hashable, Sendable {
        /// The layer name in the tiles.
        public var id: String
        /// A sentence about the layer (empty when none).
        public var description: String
        /// Property names and their types ("String", "Number", "Boolean", "Mixed"), in order.
        public var fields: [Field]
        /// Lowest zoom the layer appears at.
        public var minZoom: Int
        /// Highest zoom the layer appears at.
        public var maxZoom: Int

        /// One property of a layer.
        public struct Field: Hashable, Sendable {
            /// The property name.
            public var name: String
            /// Its type as TileJSON writes it ("String", "Number", "Boolean", "Mixed").
            public var type: String

            /// A field from its name and type.
            public init(name: String, type: String) {
                self.name = name
                self.type = type
            }
        }

        /// A layer from its parts.
        public init(id: String, description: String = "", fields: [Field], minZoom: Int, maxZoom: Int) {
            self.id = id
            self.description = description
            self.fields = fields
            self.minZoom = minZoom
            self.maxZoom = maxZoom
        }
    }

    /// Metadata from its parts.
    public init(name: String, description: String = "", format: String = "pbf", bounds: Bounds?, center: Center?,
                minZoom: Int, maxZoom: Int, vectorLayers: [VectorLayer], tileStats: JSONValue? = nil,
                dropReport: TileDropReport? = nil, other: JSONObject = JSONObject()) {
        self.name = name
        self.description = description
        self.format = format
        self.bounds = bounds
        self.center = center
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.vectorLayers = vectorLayers
        self.tileStats = tileStats
        self.dropReport = dropReport
        self.other = other
    }

    /// The key OverlayKit's drop report is stored under in every format.
    public static let dropReportKey = "overlaykit"

    // MARK: Writing

    /// `{"vector_layers": […], "tilestats": …}`: the `json` value of MBTiles and metadata.json.
    public func layersJSON() -> JSONObject {
        var object = JSONObject()
        object.append("vector_layers", .array(vectorLayers.map { layer in
            var entry = JSONObject()
            entry.append("id", .string(layer.id))
            entry.append("description", .string(layer.description))
            entry.append("minzoom", .integer(Int64(layer.minZoom)))
            entry.append("maxzoom", .integer(Int64(layer.maxZoom)))
            entry.append("fields", .object(JSONObject(layer.fields.map { .init(key: $0.name, value: .string($0.type)) })))
            return .object(entry)
        }))
        if let tileStats { object.append("tilestats", tileStats) }
        return object
    }

    /// MBTiles 1.3 `metadata` rows (name → text): flat strings, `json` holding the layers, and
    /// the drop report as JSON text under `overlaykit`.
    public func mbtilesRows() -> [(name: String, value: String)] {
        var rows: [(String, String)] = [("name", name), ("description", description), ("version", "2"), ("type", "overlay"),
                                        ("format", format),
                                        ("minzoom", String(minZoom)), ("maxzoom", String(maxZoom))]
        if let bounds {
            rows.append(("bounds", [bounds.west, bounds.south, bounds.east, bounds.north].map(Self.text).joined(separator: ",")))
        }
        if let center {
            rows.append(("center", "\(Self.text(center.longitude)),\(Self.text(center.latitude)),\(center.zoom)"))
        }
        rows.append(("json", Self.text(.object(layersJSON()))))
        if let dropReport { rows.append((Self.dropReportKey, Self.text(.object(dropReport.json())))) }
        for member in other where !Self.knownKeys.contains(member.key) {
            rows.append((member.key, member.value.stringValue ?? Self.text(member.value)))
        }
        return rows
    }

    /// `metadata.json` for a tile directory, as tippecanoe writes it (GDAL's MVT driver reads
    /// this layout): the MBTiles rows as string members, the drop report as an object.
    public func directoryJSON() -> [UInt8] {
        var object = JSONObject()
        for row in mbtilesRows() where row.name != Self.dropReportKey { object.append(row.name, .string(row.value)) }
        if let dropReport { object.append(Self.dropReportKey, .object(dropReport.json())) }
        return Self.pretty(object)
    }

    /// PMTiles JSON metadata: TileJSON-style members with `vector_layers` as an array.
    public func pmtilesJSON() -> [UInt8] {
        var object = JSONObject()
        object.append("name", .string(name))
        object.append("description", .string(description))
        object.append("version", .string("2"))
        object.append("type", .string("overlay"))
        object.append("format", .string(format))
        for member in layersJSON() { object.append(member.key, member.value) }
        if let dropReport { object.append(Self.dropReportKey, .object(dropReport.json())) }
        for member in other where !Self.knownKeys.contains(member.key) { object.append(member.key, member.value) }
        var out = JSONBytes()
        out.appendObject(object)
        return out.bytes
    }

    // MARK: Reading

    /// Reads metadata.json (tippecanoe/GDAL layout, as `directoryJSON()` writes it).
    /// - Throws: `Diagnostic` `tile.archive-metadata` naming `source` when it is not that JSON.
    public static func fromDirectoryJSON(_ bytes: [UInt8], source: String) throws -> TileSetMetadata {
        guard case .object(let object) = try parse(bytes, source: source) else {
            throw Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): metadata is not a JSON object")
        }
        var rows = [(name: String, value: String)]()
        var report: JSONValue?
        for member in object {
            if member.key == dropReportKey, case .object = member.value { report = member.value; continue }
            rows.append((member.key, member.value.stringValue ?? text(member.value)))
        }
        var metadata = try fromMBTilesRows(rows, source: source)
        if let report { metadata.dropReport = try TileDropReport(json: report, source: source) }
        return metadata
    }

    /// Reads MBTiles `metadata` rows (as `mbtilesRows()` writes them, or tippecanoe does).
    /// - Throws: `Diagnostic` `tile.archive-metadata` naming `source` for malformed values.
    public static func fromMBTilesRows(_ rows: [(name: String, value: String)], source: String) throws -> TileSetMetadata {
        var metadata = TileSetMetadata(name: "", format: "pbf", bounds: nil, center: nil, minZoom: 0, maxZoom: 0, vectorLayers: [])
        func numbers(_ text: String, _ key: String, count: Int) throws -> [Double] {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                throw Diagnostic(.error, code: .tileArchiveMetadata,
                                 message: "\(source): metadata \(key) \"\(text)\" is not \(count) comma-separated numbers")
            }
            return parts.map { $0! }
        }
        for row in rows {
            switch row.name {
            case "name": metadata.name = row.value
            case "description": metadata.description = row.value
            case "format": metadata.format = row.value
            case "minzoom": metadata.minZoom = try zoom(row.value, "minzoom", source)
            case "maxzoom": metadata.maxZoom = try zoom(row.value, "maxzoom", source)
            case "bounds":
                let values = try numbers(row.value, "bounds", count: 4)
                metadata.bounds = Bounds(west: values[0], south: values[1], east: values[2], north: values[3])
            case "center":
                let values = try numbers(row.value, "center", count: 3)
                metadata.center = Center(longitude: values[0], latitude: values[1],
                                         zoom: try zoom(String(Int(exactly: values[2].rounded()) ?? -1), "center zoom", source))
            case "json":
                guard case .object(let layers) = try parse(Array(row.value.utf8), source: source + " (json)") else {
                    throw Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): metadata json is not an object")
                }
                try metadata.readLayers(layers, source: source)
            case dropReportKey:
                metadata.dropReport = try TileDropReport(json: parse(Array(row.value.utf8), source: source + " (\(dropReportKey))"),
                                                         source: source)
            case "version", "type": continue
            default: metadata.other.append(row.name, .string(row.value))
            }
        }
        return metadata
    }

    /// Reads PMTiles JSON metadata (as `pmtilesJSON()` writes it, or tippecanoe/go-pmtiles do);
    /// zooms, bounds and center come from the PMTiles header and are passed in.
    /// - Throws: `Diagnostic` `tile.archive-metadata` naming `source` for malformed JSON.
    public static func fromPMTilesJSON(_ bytes: [UInt8], source: String, bounds: Bounds?, center: Center?,
                                       minZoom: Int, maxZoom: Int) throws -> TileSetMetadata {
        var metadata = TileSetMetadata(name: "", format: "pbf", bounds: bounds, center: center,
                                       minZoom: minZoom, maxZoom: maxZoom, vectorLayers: [])
        if bytes.isEmpty { return metadata }
        guard case .object(let object) = try parse(bytes, source: source) else {
            throw Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): metadata is not a JSON object")
        }
        try metadata.readLayers(object, source: source)
        for member in object {
            switch member.key {
            case "name": metadata.name = member.value.stringValue ?? ""
            case "description": metadata.description = member.value.stringValue ?? ""
            case "format": metadata.format = member.value.stringValue ?? "pbf"
            case "vector_layers", "tilestats", "version", "type": continue
            case dropReportKey: metadata.dropReport = try TileDropReport(json: member.value, source: source)
            default: metadata.other.append(member.key, member.value)
            }
        }
        return metadata
    }

    /// Keys this type reads into its own properties.
    static let knownKeys: Set<String> = ["name", "description", "format", "minzoom", "maxzoom", "bounds", "center", "json",
                                         "vector_layers", "tilestats", "version", "type", dropReportKey]

    private mutating func readLayers(_ object: JSONObject, source: String) throws {
        if let stats = object["tilestats"] { tileStats = stats }
        guard let layers = object["vector_layers"] else { return }
        guard case .array(let entries) = layers else {
            throw Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): vector_layers is not an array")
        }
        vectorLayers = try entries.map { entry in
            guard case .object(let layer) = entry, let id = layer["id"]?.stringValue else {
                throw Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): a vector_layers entry has no id")
            }
            let fields = layer["fields"]?.objectValue.map { $0.members.map { Field(name: $0.key, type: $0.value.stringValue ?? "String") } } ?? []
            return VectorLayer(id: id, description: layer["description"]?.stringValue ?? "", fields: fields,
                               minZoom: layer["minzoom"]?.doubleValue.flatMap { Int(exactly: $0) } ?? minZoom,
                               maxZoom: layer["maxzoom"]?.doubleValue.flatMap { Int(exactly: $0) } ?? maxZoom)
        }
    }

    typealias Field = VectorLayer.Field

    private static func zoom(_ text: String, _ key: String, _ source: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), (0...30).contains(value) else {
            throw Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): metadata \(key) \"\(text)\" is not a zoom 0…30")
        }
        return value
    }

    static func parse(_ bytes: [UInt8], source: String) throws -> JSONValue {
        let scanner = JSONScanner(input: ByteInput(bytes: bytes, name: source), initialCapacity: max(16, bytes.count + 1))
        return try scanner.readValue()
    }

    static func text(_ value: JSONValue) -> String {
        var out = JSONBytes()
        out.appendValue(value)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    static func text(_ value: Double) -> String {
        var out = JSONBytes()
        out.appendCoordinate(value, decimals: 7)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// One member per line, for a file people read.
    static func pretty(_ object: JSONObject) -> [UInt8] {
        var out = JSONBytes()
        out.append("{")
        for (index, member) in object.members.enumerated() {
            out.append(index == 0 ? "\n  " : ",\n  ")
            out.appendString(member.key)
            out.append(": ")
            out.appendValue(member.value)
        }
        out.append("\n}\n")
        return out.bytes
    }
}
