import OverlayModel

/// The file formats OverlayKit reads or writes.
public enum FileFormat: String, CaseIterable, Sendable {
    /// RFC 7946 GeoJSON: one FeatureCollection, Feature or geometry.
    case geojson
    /// RFC 8142 GeoJSON text sequences, or newline-delimited GeoJSON: one feature per record.
    case geojsonseq
    /// KML 2.2.
    case kml
    /// Zipped KML with its resources.
    case kmz
    /// GeoParquet 1.0, 1.1 and 2.0 (read; see docs/geoparquet.md).
    case geoparquet
    /// Mapbox Vector Tiles (written by `tile`).
    case mvt
    /// Scalable Vector Graphics (written by `render`).
    case svg
    /// Portable Network Graphics (written by `render`).
    case png

    /// The format a file name's extension names, if any.
    public init?(pathExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "geojson", "json": self = .geojson
        case "geojsons", "geojsonl", "geojsonseq", "ndjson", "jsonl", "jsonseq": self = .geojsonseq
        case "kml": self = .kml
        case "kmz": self = .kmz
        case "parquet", "geoparquet": self = .geoparquet
        case "mvt", "pbf": self = .mvt
        case "svg": self = .svg
        case "png": self = .png
        default: return nil
        }
    }

    /// The format the first bytes of a file show, if any: `PK` is a zip (KMZ), `<` XML (KML),
    /// RS (0x1E) a GeoJSON text sequence, `{` GeoJSON, `PAR1` (Parquet's magic) GeoParquet.
    public init?(sniffing prefix: [UInt8]) {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { self = .kmz; return }
        if prefix.starts(with: [0x50, 0x41, 0x52, 0x31]) { self = .geoparquet; return }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        switch first {
        case UInt8(ascii: "<"): self = .kml
        case 0x1E: self = .geojsonseq
        case UInt8(ascii: "{"), UInt8(ascii: "["): self = .geojson
        default: return nil
        }
    }

    /// True for formats that hold features and can be read back.
    public var isFeatureFormat: Bool { [.geojson, .geojsonseq, .kml, .kmz, .geoparquet].contains(self) }
}
