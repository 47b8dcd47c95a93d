/// What a tile set's tiles are, as the archive names it: PMTiles' tile type byte (spec v3 §3.
/// header, "Tile Type") or the MBTiles/TileJSON `format` string. A decoder is found by this
/// value (`TileDecoders`), so a second vector encoding plugs in by its type and format alone.
public struct TileContentType: Hashable, Sendable, CustomStringConvertible {
    /// A short name: `mvt`, `mlt`, `geojson`, `png`, `jpeg`, `webp`, `avif` or `unknown`.
    public var name: String
    /// The HTTP media type tiles are served with.
    public var mediaType: String
    /// The file extension of a served tile, without the dot.
    public var fileExtension: String
    /// PMTiles' tile type byte (0 for none of the spec's types).
    public var pmtilesType: UInt8
    /// The MBTiles/TileJSON `format` value.
    public var format: String
    /// True for vector encodings (features with properties), false for images.
    public var isVector: Bool

    /// A content type from its parts (for encodings this file does not list).
    public init(name: String, mediaType: String, fileExtension: String, pmtilesType: UInt8, format: String, isVector: Bool) {
        self.name = name
        self.mediaType = mediaType
        self.fileExtension = fileExtension
        self.pmtilesType = pmtilesType
        self.format = format
        self.isVector = isVector
    }

    /// Mapbox Vector Tile 2.1 (PMTiles type 1, format `pbf`).
    public static let mvt = TileContentType(name: "mvt", mediaType: "application/vnd.mapbox-vector-tile", fileExtension: "mvt",
                                            pmtilesType: 1, format: "pbf", isVector: true)
    /// MapLibre Tile (PMTiles type 6, format `mlt`).
    public static let mlt = TileContentType(name: "mlt", mediaType: "application/vnd.maplibre-vector-tile", fileExtension: "mlt",
                                            pmtilesType: 6, format: "mlt", isVector: true)
    /// One GeoJSON FeatureCollection per tile (directories written by `tile --format geojson`).
    public static let geojson = TileContentType(name: "geojson", mediaType: "application/geo+json", fileExtension: "geojson",
                                                pmtilesType: 0, format: "geojson", isVector: true)
    /// PNG images (PMTiles type 2).
    public static let png = TileContentType(name: "png", mediaType: "image/png", fileExtension: "png", pmtilesType: 2, format: "png", isVector: false)
    /// JPEG images (PMTiles type 3).
    public static let jpeg = TileContentType(name: "jpeg", mediaType: "image/jpeg", fileExtension: "jpg", pmtilesType: 3, format: "jpg", isVector: false)
    /// WebP images (PMTiles type 4).
    public static let webp = TileContentType(name: "webp", mediaType: "image/webp", fileExtension: "webp", pmtilesType: 4, format: "webp", isVector: false)
    /// AVIF images (PMTiles type 5).
    public static let avif = TileContentType(name: "avif", mediaType: "image/avif", fileExtension: "avif", pmtilesType: 5, format: "avif", isVector: false)
    /// Bytes of no known encoding.
    public static let unknown = TileContentType(name: "unknown", mediaType: "application/octet-stream", fileExtension: "bin",
                                                pmtilesType: 0, format: "", isVector: false)

    /// Every type listed here.
    public static let known: [TileContentType] = [.mvt, .mlt, .geojson, .png, .jpeg, .webp, .avif]

    /// The type a PMTiles header's tile type byte names; 0 (unknown) falls back to the
    /// metadata's `format`, as go-pmtiles' writers leave the byte 0 for GeoJSON tiles.
    public init(pmtilesType: UInt8, format: String) {
        if pmtilesType != 0, let match = Self.known.first(where: { $0.pmtilesType == pmtilesType }) {
            self = match
        } else {
            self = TileContentType(format: format)
        }
    }

    /// The type an MBTiles/TileJSON `format` names (`pbf` and `mvt` are MVT; `jpeg` is JPEG).
    public init(format: String) {
        let lower = format.lowercased()
        switch lower {
        case "pbf", "mvt": self = .mvt
        case "jpeg": self = .jpeg
        default: self = Self.known.first(where: { $0.format == lower }) ?? .unknown
        }
    }

    public var description: String { name }
}
