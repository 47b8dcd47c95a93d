/// Every KML validation rule by its finding code, with the OGC KML 2.2 Abstract Test Suite
/// test it implements (OGC 07-134r2: "ATC n", identified by
/// `http://www.opengis.net/kml/2.2/atc/level-L/Name`) and its conformance level. Rules the
/// ATS has no test for (geometry validity beyond ATC 17/69/70, gx:Track) have no ATC.
///
/// The level decides when a rule runs (`ValidationOptions.atsLevel`, default 1, as minimal
/// conformance) and the usual severity: level 1 error, level 2 warning, level 3 info.
/// `docs/validate.md` lists the same table, and the SARIF report gives each rule its ATS test.
public enum KMLRuleCatalog {
    /// One rule.
    public struct Rule: Sendable, Hashable {
        /// The finding code, e.g. `kml.data-name-duplicate`.
        public var code: String
        /// The ATS test numbers ("ATC 28") this rule implements; empty for OverlayKit's own rules.
        public var tests: [Int]
        /// The ATS conformance level (1–3) at which the rule runs.
        public var level: Int
        /// What the rule checks, in one line.
        public var summary: String

        /// The ATS identifiers of the tests, e.g. `http://www.opengis.net/kml/2.2/atc/level-1/ExtendedData-Data`.
        public var identifiers: [String] { tests.compactMap { KMLRuleCatalog.testNames[$0] }.map { KMLRuleCatalog.identifier($0) } }
    }

    static func rule(_ code: String, _ tests: [Int], _ level: Int, _ summary: String) -> Rule {
        Rule(code: code, tests: tests, level: level, summary: summary)
    }

    /// The rules, in ATS order.
    public static let rules: [Rule] = [
        rule("kml.root", [1], 1, "the root element is kml"),
        rule("kml.no-root", [1], 1, "the document has a root element"),
        rule("kml.namespace", [1], 1, "the root is in a KML namespace"),
        rule("kml.xml-syntax", [2], 1, "well-formed XML"),
        rule("kml.entity-reference", [2], 1, "no entity references (never expanded)"),
        rule("kml.unknown-element", [2], 1, "every element is a KML 2.2 (or gx) element"),
        rule("kml.misplaced-element", [2], 1, "every element is allowed in its parent"),
        rule("kml.missing-child", [2, 17, 36, 68], 1, "required children (Polygon outerBoundaryIs, coordinates, StyleMap Pair, Pair key)"),
        rule("kml.missing-attribute", [26, 27], 1, "SimpleField name and type, SimpleData name"),
        rule("kml.boundary-rings", [2], 1, "one LinearRing per boundary"),
        rule("kml.enum-value", [2], 1, "enumerated values (altitudeMode, refreshMode, viewRefreshMode, booleans…)"),
        rule("kml.number-syntax", [2], 1, "numeric values are xsd:double"),
        rule("kml.value-range", [2], 1, "angles within their schema type (latitude ±90, longitude ±180…)"),
        rule("kml.empty-value", [2], 1, "an empty numeric or enumerated value (readers take the default)"),
        rule("kml.time-syntax", [2], 1, "when/begin/end are dateTime, date, gYearMonth or gYear"),
        rule("kml.schema", [2], 1, "`--schema`: the XSD"),
        rule("kml.data-uom", [2], 1, "Data and SimpleField uom only in KML 2.3, naming a known unit (UCUM code or URI)"),
        rule("kml.coordinate-syntax", [3], 1, "coordinates are 2D/3D tuples of decimals"),
        rule("kml.coordinate-extra", [3], 1, "no more than 3 values in a tuple"),
        rule("kml.coordinate-range", [3], 1, "positions within WGS 84 ranges (Annex B)"),
        rule("kml.timespan-empty", [4], 1, "TimeSpan has begin or end"),
        rule("kml.timespan-order", [4], 1, "TimeSpan begin is before end"),
        rule("kml.timestamp-when-missing", [5], 1, "TimeStamp has when"),
        rule("kml.style-url-missing", [6], 1, "a styleUrl #fragment names a style in the document"),
        rule("kml.style-url-fragment", [6], 1, "a styleUrl has a fragment"),
        rule("kml.style-url-scheme", [6], 1, "an absolute styleUrl is http(s) or file"),
        rule("kml.style-url-wrong-kind", [6], 1, "a styleUrl #fragment names a Style or StyleMap, not another element"),
        rule("kml.shared-style-parent", [7], 1, "a style named by styleUrl is a child of Document"),
        rule("kml.latlonaltbox-extent", [8], 1, "LatLonAltBox north > south, east > west"),
        rule("kml.latlonaltbox-altitude", [8], 1, "LatLonAltBox minAltitude ≤ maxAltitude, not clampToGround when both given"),
        rule("kml.link-value-not-positive", [9], 1, "refreshInterval, viewRefreshTime, viewBoundScale > 0"),
        rule("kml.latlonbox-incomplete", [11], 1, "LatLonBox has north, south, east, west"),
        rule("kml.latlonbox-extent", [11], 1, "LatLonBox north > south, east > west"),
        rule("kml.extrude-clamped", [12], 1, "extrude only with an altitudeMode other than clampToGround"),
        rule("kml.tessellate-altitude", [13], 1, "tessellate only with clampToGround"),
        rule("kml.point-coordinates", [14], 1, "a Point has one tuple"),
        rule("kml.line-too-short", [15], 1, "a LineString has two or more tuples"),
        rule("kml.ring-too-short", [16], 1, "a LinearRing has four or more tuples"),
        rule("kml.ring-not-closed", [16], 1, "a LinearRing ends where it starts"),
        rule("geometry.hole-outside-shell", [17], 1, "each inner ring lies within the outer ring"),
        rule("kml.viewvolume-incomplete", [19], 1, "ViewVolume has the four fields of view and a non-negative near"),
        rule("kml.min-refresh-period", [20], 1, "minRefreshPeriod ≥ 0"),
        rule("kml.empty-object", [21], 1, "an object outside Update is not empty or has an id"),
        rule("kml.update-target-href", [22], 1, "Update targetHref is a URL (absolute, or relative to this document)"),
        rule("kml.update-target-id", [23], 1, "objects in Create/Delete/Change have targetId and no id"),
        rule("kml.phone-number-uri", [24], 1, "phoneNumber is a tel: URI"),
        rule("kml.schema-id-missing", [25], 1, "Schema has an id"),
        rule("kml.simple-field-type", [26], 1, "SimpleField type is one of the eight KML types (bare or xsd:-prefixed)"),
        rule("kml.schema-url-missing", [27], 1, "SchemaData schemaUrl names a Schema of the document by its id"),
        rule("kml.schema-url-wrong-kind", [27], 1, "SchemaData schemaUrl names a Schema, not another element"),
        rule("kml.simple-data-unknown-field", [27], 1, "SimpleData names a SimpleField of its Schema"),
        rule("kml.simple-data-type", [27], 1, "SimpleData values fit their SimpleField type"),
        rule("kml.data-name-duplicate", [28], 1, "Data names are unique in one ExtendedData"),
        rule("kml.atom-author", [30], 1, "atom:author uri is an IRI, email an addr-spec"),
        rule("kml.atom-link-rel", [31], 1, "atom:link rel is \"related\""),
        rule("kml.orientation-empty", [32], 1, "Orientation has heading, tilt or roll"),
        rule("kml.ground-overlay-altitude", [33], 1, "GroundOverlay with altitudeMode absolute has altitude"),
        rule("kml.model-incomplete", [34], 1, "Model has Link and Location"),
        rule("kml.photo-overlay-incomplete", [35], 1, "PhotoOverlay has Icon, ViewVolume, Point, Camera"),
        rule("kml.stylemap-pair", [36, 68], 1, "Pair has key and a style; StyleMap has one normal and one highlight Pair"),
        rule("kml.item-icon-href", [37], 1, "ItemIcon has href"),
        rule("kml.lookat-incomplete", [38], 1, "LookAt has longitude, latitude, range"),
        rule("kml.lookat-tilt", [38], 1, "LookAt tilt within 0…90"),
        rule("kml.lookat-altitude", [38], 1, "LookAt has altitude unless clampToGround"),
        rule("kml.lod-pixels", [39], 1, "Lod has minLodPixels below maxLodPixels (-1: infinite)"),
        rule("kml.link-href-missing", [40], 1, "Link and Icon have href"),
        rule("kml.region-incomplete", [41], 1, "Region has LatLonAltBox and Lod"),
        rule("kml.polystyle-empty", [42], 2, "PolyStyle has color, colorMode, fill or outline"),
        rule("kml.coordinates-altitude-missing", [43], 2, "tuples have altitudes when altitudeMode uses them"),
        rule("kml.scale-empty", [44], 2, "Scale has x, y or z"),
        rule("kml.empty-root", [45], 2, "kml holds a feature or NetworkLinkControl"),
        rule("kml.view-format-parameters", [46], 2, "viewFormat has a [parameter]"),
        rule("kml.http-query-parameters", [47], 2, "httpQuery has a [parameter]"),
        rule("kml.ring-in-polygon-members", [48], 2, "a LinearRing in a Polygon has no extrude, tessellate, altitudeMode"),
        rule("kml.data-incomplete", [49], 2, "Data has a name and a value"),
        rule("kml.resource-map-alias", [50], 2, "ResourceMap has Alias elements with unique sourceHref"),
        rule("kml.link-refresh-mode", [51], 2, "refreshInterval with onInterval, viewRefreshTime with onStop"),
        rule("kml.photo-overlay-pyramid", [52], 2, "PhotoOverlay $[x]/$[y]/$[level] href exactly when ImagePyramid"),
        rule("kml.ground-overlay-box", [53], 2, "GroundOverlay has LatLonBox (or gx:LatLonQuad)"),
        rule("kml.camera-incomplete", [54], 2, "Camera has longitude, latitude, altitude"),
        rule("kml.camera-altitude-mode", [54], 2, "Camera altitudeMode is not clampToGround"),
        rule("kml.location-incomplete", [55], 2, "Location has longitude, latitude (and altitude unless clamped)"),
        rule("kml.overlay-icon-missing", [56], 2, "overlays have Icon"),
        rule("kml.screen-overlay-xy", [57], 2, "ScreenOverlay has screenXY"),
        rule("kml.balloonstyle-empty", [58], 2, "BalloonStyle is not empty"),
        rule("kml.extended-data-empty", [59], 2, "ExtendedData is not empty"),
        rule("kml.folder-empty", [60], 2, "Folder is not empty"),
        rule("kml.iconstyle-empty", [61], 2, "IconStyle is not empty"),
        rule("kml.image-pyramid", [62], 2, "ImagePyramid has maxWidth, maxHeight; tileSize a power of 2"),
        rule("kml.labelstyle-empty", [63], 2, "LabelStyle has color, colorMode or scale"),
        rule("kml.liststyle-empty", [64], 2, "ListStyle has listItemType, bgColor or ItemIcon"),
        rule("kml.style-empty", [65], 2, "Style is not empty"),
        rule("kml.multigeometry-single", [66], 2, "MultiGeometry has two or more geometries"),
        rule("kml.placemark-no-geometry", [67], 2, "Placemark has a geometry"),
        rule("geometry.hole-crosses-shell", [69], 3, "rings of a Polygon do not cross"),
        rule("geometry.holes-cross", [69], 3, "inner rings do not cross"),
        rule("geometry.self-intersection", [70], 3, "a LinearRing is simple"),
        rule("kml.deprecated-balloon-color", [71], 3, "no BalloonStyle color (deprecated)"),
        rule("kml.deprecated-metadata", [72], 3, "no Metadata (deprecated)"),
        rule("kml.scale-partial", [73], 3, "Scale has x, y and z"),
        rule("kml.lod-fade-extents", [74], 3, "minFadeExtent + maxFadeExtent ≤ maxLodPixels − minLodPixels"),
        rule("kml.orientation-partial", [75], 3, "Orientation has heading, tilt and roll"),
        rule("kml.deprecated-snippet", [76], 3, "no Snippet (deprecated)"),
        rule("kml.deprecated-url", [77], 3, "no NetworkLink Url (deprecated)"),
    ]

    /// The ATS test names, by number, for the identifiers (`…/atc/level-1/ExtendedData-Data`).
    static let testNames: [Int: String] = [
        1: "level-1/RootElement", 2: "level-1/XmlSchemaConstraints", 3: "level-1/Geometry-Coordinates", 4: "level-1/TimeSpan",
        5: "level-1/TimeStamp", 6: "level-1/StyleReference", 7: "level-1/SharedStyle", 8: "level-1/Region-LatLonAltBox",
        9: "level-1/Link-Elements", 10: "level-1/LinkReferent", 11: "level-1/LatLonBox", 12: "level-1/Geometry-Extrude",
        13: "level-1/Geometry-Tessellate", 14: "level-1/Point", 15: "level-1/LineString", 16: "level-1/LinearRing-ControlPoints",
        17: "level-1/PolygonBoundary", 18: "level-1/Icon-href", 19: "level-1/ViewVolume-Minimal",
        20: "level-1/NetworkLinkControl-MinRefreshPeriod", 21: "level-1/EmptyObject", 22: "level-1/Update-targetHref",
        23: "level-1/UpdateTarget", 24: "level-1/PhoneNumber", 25: "level-1/Schema", 26: "level-1/Schema-SimpleField",
        27: "level-1/ExtendedData-SchemaData", 28: "level-1/ExtendedData-Data", 29: "level-1/Alias", 30: "level-1/atom-author",
        31: "level-1/atom-link", 32: "level-1/Orientation-Minimum", 33: "level-1/GroundOverlay", 34: "level-1/Model",
        35: "level-1/PhotoOverlay-Minimal", 36: "level-1/Pair", 37: "level-1/ItemIcon", 38: "level-1/LookAt", 39: "level-1/Lod",
        40: "level-1/Link", 41: "level-1/Region", 42: "level-2/PolyStyle", 43: "level-2/Coordinates-altitudeMode",
        44: "level-2/Scale-Minimal", 45: "level-2/Kml-Minimal", 46: "level-2/ViewFormat", 47: "level-2/HttpQuery",
        48: "level-2/LinearRingInPolygon", 49: "level-2/Data", 50: "level-2/ResourceMap-Alias", 51: "level-2/LinkRefresh",
        52: "level-2/PhotoOverlay", 53: "level-2/GroundOverlay-Minimal", 54: "level-2/Camera", 55: "level-2/Location",
        56: "level-2/Overlay", 57: "level-2/ScreenOverlay", 58: "level-2/BalloonStyle", 59: "level-2/ExtendedData",
        60: "level-2/Folder", 61: "level-2/IconStyle", 62: "level-2/ImagePyramid", 63: "level-2/LabelStyle",
        64: "level-2/ListStyle", 65: "level-2/Style", 66: "level-2/MultiGeometry", 67: "level-2/Placemark",
        68: "level-2/StyleMap", 69: "level-3/PolygonRings", 70: "level-3/SimpleLinearRing", 71: "level-3/BalloonStyle-color",
        72: "level-3/Metadata", 73: "level-3/Scale-Full", 74: "level-3/Lod-FadeExtents", 75: "level-3/Orientation-Full",
        76: "level-3/Snippet", 77: "level-3/NetworkLink/Url",
    ]

    /// The ATS identifier URI of a test name.
    static func identifier(_ name: String) -> String { "http://www.opengis.net/kml/2.2/atc/" + name }

    /// Rules by code.
    public static let byCode: [String: Rule] = Dictionary(rules.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The level a finding code runs at (1 for codes the catalog does not list).
    static func level(of code: String) -> Int { byCode[code]?.level ?? 1 }
}
