import OverlayModel

/// What a target (a web map, a mobile library, an upload service) accepts: the input formats
/// it loads and the limits it puts on them, each with where it is published. `ProfileCheck`
/// measures inputs against profiles; `ValidationProfile.builtIn` holds the published ones and
/// `ValidationProfile(contentsOf:)` reads a user's own (JSON or YAML).
public struct ValidationProfile: Hashable, Sendable {
    /// The name `--profile` takes and reports use: `google-maps`.
    public var name: String
    /// A title for people: "Google Maps JavaScript API (KmlLayer)".
    public var title: String
    /// Where the limits are published (a URL); each limit may name its own.
    public var source: String?
    /// The input formats the target loads (`geojson`, `geojsonseq`, `kml`, `kmz`, `mbtiles`,
    /// `pmtiles`); nil when it takes any.
    public var formats: [String]?
    /// The limits, in the order reports list them.
    public var limits: [ProfileLimit]

    /// A profile with its name, title, source, accepted formats and limits.
    public init(name: String, title: String, source: String? = nil, formats: [String]? = nil, limits: [ProfileLimit]) {
        self.name = name
        self.title = title
        self.source = source
        self.formats = formats
        self.limits = limits
    }

    /// The formats `formats` may name.
    public static let formatNames = FileFormat.allCases.filter { [.geojson, .geojsonseq, .kml, .kmz].contains($0) }.map(\.rawValue)
        + [TileArchiveFormat.mbtiles.rawValue, TileArchiveFormat.pmtiles.rawValue]
}

/// One limit of a profile: a measure of an input and the largest (or smallest) value the
/// target accepts, inclusive, with the severity of passing it and where it is published.
public struct ProfileLimit: Hashable, Sendable {
    /// Unique within its profile; reports name the rule `profile/<profile>/<id>`.
    public var id: String
    /// What is measured.
    public var measure: ProfileMeasure
    /// The largest value accepted (inclusive), if any.
    public var maximum: Int64?
    /// The smallest value accepted (inclusive), if any.
    public var minimum: Int64?
    /// The input formats the limit applies to (nil: every format its measure applies to).
    public var formats: [String]?
    /// `error` when the target refuses the input, `warning` or `note` for advice.
    public var severity: Diagnostic.Severity
    /// What the limit says, in one line: "at most 1,000 features in the document".
    public var summary: String
    /// Where the limit is published (a URL), when not the profile's source.
    public var source: String?

    /// A limit on `measure`: at most `maximum` and at least `minimum`.
    public init(id: String, measure: ProfileMeasure, maximum: Int64? = nil, minimum: Int64? = nil, formats: [String]? = nil,
                severity: Diagnostic.Severity = .error, summary: String, source: String? = nil) {
        self.id = id
        self.measure = measure
        self.maximum = maximum
        self.minimum = minimum
        self.formats = formats
        self.severity = severity
        self.summary = summary
        self.source = source
    }

    /// Whether the limit applies to inputs of `format` (a `ValidationResult.formatName`).
    func applies(to format: String) -> Bool {
        measure.formats.contains(format) && (formats?.contains(format) ?? true)
    }
}

/// What a profile limit measures in an input. Each measure applies to some formats only
/// (`formats`); docs/validate.md says exactly how each is counted.
public enum ProfileMeasure: String, CaseIterable, Hashable, Sendable {
    /// The file's size as stored (a KMZ compressed), in bytes.
    case fileBytes = "file-bytes"
    /// The KML document's size uncompressed (a KMZ's main KML), in bytes.
    case kmlBytes = "kml-bytes"
    /// Features in the document: KML Placemarks and Ground, Screen and PhotoOverlays (a KMZ's
    /// main KML; NetworkLinks are counted apart), GeoJSON Features (a bare geometry is one).
    case features
    /// KML NetworkLinks in the document.
    case networkLinks = "network-links"
    /// How deeply KML elements nest (the root element is level 1).
    case elementDepth = "element-depth"
    /// KML layers as GDAL's KML driver reads them: each Document or Folder holding Placemarks
    /// of its own.
    case layers
    /// Layers whose name another layer of the document already has.
    case duplicateLayerNames = "duplicate-layer-names"
    /// Placemarks in the largest layer.
    case layerFeatures = "layer-features"
    /// Entries in a KMZ (files and folders), as its zip directory lists them.
    case kmzEntries = "kmz-entries"
    /// A KMZ's files uncompressed, all together, in bytes.
    case kmzBytes = "kmz-bytes"
    /// A KMZ's largest image (PNG, JPEG, GIF, BMP, WebP, TIFF) uncompressed, in bytes.
    case kmzImageBytes = "kmz-image-bytes"
    /// `.kml` files in a KMZ.
    case kmzKMLFiles = "kmz-kml-files"
    /// `.kmz` files inside a KMZ.
    case kmzArchives = "kmz-archives"
    /// Characters (Unicode scalars) of a GeoJSON text.
    case jsonCharacters = "json-characters"
    /// How deeply a GeoJSON text's arrays and objects nest.
    case jsonDepth = "json-depth"
    /// A tile set's largest tile, in bytes as stored (docs/validate.md: how it is read).
    case tileBytes = "tile-bytes"
    /// Tiles in a tile set.
    case tiles
    /// A tile set's highest zoom level holding a tile.
    case maxZoom = "max-zoom"

    /// The formats the measure applies to.
    public var formats: Set<String> {
        let kml: Set<String> = ["kml", "kmz"], json: Set<String> = ["geojson", "geojsonseq"], tiles: Set<String> = ["mbtiles", "pmtiles"]
        switch self {
        case .fileBytes: return kml.union(json).union(tiles)
        case .features: return kml.union(json)
        case .kmlBytes, .networkLinks, .elementDepth, .layers, .duplicateLayerNames, .layerFeatures: return kml
        case .kmzEntries, .kmzBytes, .kmzImageBytes, .kmzKMLFiles, .kmzArchives: return ["kmz"]
        case .jsonCharacters, .jsonDepth: return json
        case .tileBytes, .tiles, .maxZoom: return tiles
        }
    }

    /// The unit values are counted in, for messages and reports.
    public var unit: String {
        switch self {
        case .fileBytes, .kmlBytes, .kmzBytes, .kmzImageBytes, .tileBytes: "bytes"
        case .features, .layerFeatures: "features"
        case .networkLinks: "network links"
        case .elementDepth, .jsonDepth: "levels"
        case .layers: "layers"
        case .duplicateLayerNames: "duplicate layer names"
        case .kmzEntries: "entries"
        case .kmzKMLFiles: "KML files"
        case .kmzArchives: "KMZ files"
        case .jsonCharacters: "characters"
        case .tiles: "tiles"
        case .maxZoom: "zoom"
        }
    }
}
