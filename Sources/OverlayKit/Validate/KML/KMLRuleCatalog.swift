/// Every KML validation rule by its finding code, with the OGC KML 2.2 Abstract Test Suite
/// test it implements (OGC 07-134r2: "ATC n", identified by
/// `http://www.opengis.net/kml/2.2/atc/level-L/Name`), the KML 2.3 Abstract Test Suite test
/// that asserts the same (OGC 14-068r2: "ATC-nnn", identified by
/// `http://www.opengis.net/spec/KML/2.3/conf/level-L/atc-nnn`), and its conformance level.
/// Rules the 2.2 ATS has no test for (geometry validity beyond ATC 17/69/70, tracks, tours)
/// have no ATC, and name only their KML 2.3 test where 2.3 has one.
///
/// The level decides when a rule runs (`ValidationOptions.atsLevel`, default 1, as minimal
/// conformance) and the usual severity: level 1 error, level 2 warning, level 3 info.
/// `docs/validate.md` lists the same table, and the SARIF report gives each rule its ATS test.
public enum KMLRuleCatalog {
    /// One rule.
    public struct Rule: Sendable, Hashable {
        /// The finding code, e.g. `Diagnostic.Code.kmlDataNameDuplicate` (`kml.data-name-duplicate`).
        public var code: Diagnostic.Code
        /// The ATS test numbers ("ATC 28") this rule implements; empty for OverlayKit's own rules.
        public var tests: [Int]
        /// The ATS conformance level (1–3) at which the rule runs.
        public var level: Int
        /// What the rule checks, in one line.
        public var summary: String
        /// The KML 2.3 ATS tests (OGC 14-068r2, "ATC-126") asserting what this rule checks.
        public var kml23Tests: [Int]

        /// The ATS identifiers of the tests, e.g. `http://www.opengis.net/kml/2.2/atc/level-1/ExtendedData-Data`.
        public var identifiers: [String] { tests.compactMap { KMLRuleCatalog.testNames[$0] }.map { KMLRuleCatalog.identifier($0) } }

        /// The KML 2.3 ATS identifiers, e.g. `http://www.opengis.net/spec/KML/2.3/conf/level-1/atc-126`.
        public var kml23Identifiers: [String] { kml23Tests.map(KMLRuleCatalog.kml23Identifier) }
    }

    static func rule(_ code: Diagnostic.Code, _ tests: [Int], _ level: Int, _ summary: String, kml23: [Int]) -> Rule {
        Rule(code: code, tests: tests, level: level, summary: summary, kml23Tests: kml23)
    }

    /// The rules, in ATS order.
    public static let rules: [Rule] = [
        rule(.kmlRoot, [1], 1, "the root element is kml", kml23: [101]),
        rule(.kmlNoRoot, [1], 1, "the document has a root element", kml23: [101]),
        rule(.kmlNamespace, [1], 1, "the root is in a KML namespace", kml23: [101]),
        rule(.kmlXmlSyntax, [2], 1, "well-formed XML", kml23: [102]),
        rule(.kmlEntityReference, [2], 1, "no entity references (never expanded)", kml23: [102]),
        rule(.kmlUnknownElement, [2], 1, "every element is a KML 2.2 (or gx) element", kml23: [102]),
        rule(.kmlMisplacedElement, [2], 1, "every element is allowed in its parent", kml23: [102]),
        rule(.kmlMissingChild, [2, 17, 36], 1, "required children (Polygon outerBoundaryIs, coordinates, Pair key)", kml23: [102, 117, 135]),
        rule(.kmlMissingAttribute, [26, 27], 1, "SimpleField name and type, SimpleData name", kml23: [126, 127]),
        rule(.kmlBoundaryRings, [2], 1, "one LinearRing per boundary", kml23: [102]),
        rule(.kmlEnumValue, [2], 1, "enumerated values (altitudeMode, refreshMode, viewRefreshMode, booleans…)", kml23: [102]),
        rule(.kmlNumberSyntax, [2], 1, "numeric values are xsd:double", kml23: [102]),
        rule(.kmlValueRange, [2], 1, "angles within their schema type (latitude ±90, longitude ±180…)", kml23: [102]),
        rule(.kmlEmptyValue, [2], 1, "an empty numeric or enumerated value (readers take the default)", kml23: [102]),
        rule(.kmlTimeSyntax, [2], 1, "when/begin/end are dateTime, date, gYearMonth or gYear", kml23: [102, 105]),
        rule(.kmlSchema, [2], 1, "`--schema`: the XSD", kml23: [102]),
        rule(.kmlDataUom, [2], 1, "Data and SimpleField uom only in KML 2.3, naming a known unit (UCUM code or URI)", kml23: [233]),
        rule(.kmlCoordinateSyntax, [3], 1, "coordinates are 2D/3D tuples of decimals", kml23: [103]),
        rule(.kmlCoordinateExtra, [3], 1, "no more than 3 values in a tuple", kml23: [103]),
        rule(.kmlCoordinateRange, [3], 1, "positions within WGS 84 ranges (Annex B)", kml23: [103]),
        rule(.kmlTimespanEmpty, [4], 1, "TimeSpan has begin or end", kml23: [104]),
        rule(.kmlTimespanOrder, [4], 1, "TimeSpan begin is before end", kml23: [104]),
        rule(.kmlTimestampWhenMissing, [5], 1, "TimeStamp has when", kml23: [105]),
        rule(.kmlStyleUrlMissing, [6], 1, "a styleUrl #fragment names a style in the document", kml23: [106]),
        rule(.kmlStyleUrlFragment, [6], 1, "a styleUrl has a fragment", kml23: [106]),
        rule(.kmlStyleUrlScheme, [6], 1, "an absolute styleUrl is http(s) or file", kml23: [106]),
        rule(.kmlStyleUrlWrongKind, [6], 1, "a styleUrl #fragment names a Style or StyleMap, not another element", kml23: [106]),
        rule(.kmlSharedStyleParent, [7], 1, "a style named by styleUrl is a child of Document", kml23: [107]),
        rule(.kmlLatlonaltboxExtent, [8], 1, "LatLonAltBox north > south, east > west", kml23: [108]),
        rule(.kmlLatlonaltboxAltitude, [8], 1, "LatLonAltBox minAltitude ≤ maxAltitude, not clampToGround when both given", kml23: [108]),
        rule(.kmlLinkValueNotPositive, [9], 1, "refreshInterval, viewRefreshTime, viewBoundScale > 0", kml23: [109]),
        rule(.kmlLatlonboxIncomplete, [11], 1, "LatLonBox has north, south, east, west", kml23: [111]),
        rule(.kmlLatlonboxExtent, [11], 1, "LatLonBox north > south, east > west", kml23: [111]),
        rule(.kmlExtrudeClamped, [12], 1, "extrude only with an altitudeMode other than clampToGround", kml23: [112]),
        rule(.kmlTessellateAltitude, [13], 1, "tessellate only with clampToGround", kml23: [113]),
        rule(.kmlPointCoordinates, [14], 1, "a Point has one tuple", kml23: [114]),
        rule(.kmlLineTooShort, [15], 1, "a LineString has two or more tuples", kml23: [115]),
        rule(.kmlRingTooShort, [16], 1, "a LinearRing has four or more tuples", kml23: [116]),
        rule(.kmlRingNotClosed, [16], 1, "a LinearRing ends where it starts", kml23: [116, 302]),
        rule(.geometryHoleOutsideShell, [17], 1, "each inner ring lies within the outer ring", kml23: [117]),
        rule(.kmlViewvolumeIncomplete, [19], 1, "ViewVolume has the four fields of view and a non-negative near", kml23: [119]),
        rule(.kmlMinRefreshPeriod, [20], 1, "minRefreshPeriod ≥ 0", kml23: [120]),
        rule(.kmlEmptyObject, [21], 1, "an object outside Update is not empty or has an id", kml23: [121]),
        rule(.kmlUpdateTargetHref, [22], 1, "Update targetHref is a URL (absolute, or relative to this document)", kml23: [122]),
        rule(.kmlUpdateTargetId, [23], 1, "objects in Create/Delete/Change have targetId and no id", kml23: [123]),
        rule(.kmlPhoneNumberUri, [24], 1, "phoneNumber is a tel: URI", kml23: [124]),
        rule(.kmlSchemaIdMissing, [25], 1, "Schema has an id", kml23: [125]),
        rule(.kmlSimpleFieldType, [26], 1, "SimpleField type is one of the eight KML types (bare or xsd:-prefixed)", kml23: [126]),
        rule(.kmlSchemaUrlMissing, [27], 1, "SchemaData schemaUrl names a Schema of the document by its id", kml23: [127]),
        rule(.kmlSchemaUrlWrongKind, [27], 1, "SchemaData schemaUrl names a Schema, not another element", kml23: [127]),
        rule(.kmlSimpleDataUnknownField, [27], 1, "SimpleData names a SimpleField of its Schema", kml23: [127]),
        rule(.kmlSimpleDataType, [27], 1, "SimpleData values fit their SimpleField type", kml23: [127]),
        rule(.kmlDataNameDuplicate, [28], 1, "Data names are unique in one ExtendedData", kml23: [128, 208]),
        rule(.kmlAtomAuthor, [30], 1, "atom:author uri is an IRI, email an addr-spec", kml23: [130]),
        rule(.kmlAtomLinkRel, [31], 1, "atom:link rel is \"related\"", kml23: [232]),
        rule(.kmlOrientationEmpty, [32], 1, "Orientation has heading, tilt or roll", kml23: [131]),
        rule(.kmlGroundOverlayAltitude, [33], 1, "GroundOverlay with altitudeMode absolute has altitude", kml23: [132]),
        rule(.kmlModelIncomplete, [34], 1, "Model has Link and Location", kml23: [133]),
        rule(.kmlPhotoOverlayIncomplete, [35], 1, "PhotoOverlay has Icon, ViewVolume, Point, Camera", kml23: [134]),
        rule(.kmlStylemapPair, [36], 1, "a Pair has a styleUrl, Style or StyleMap", kml23: [135]),
        rule(.kmlItemIconState, [], 1, "an ItemIcon state of error or fetching0–2 styles a NetworkLink", kml23: [136]),
        rule(.kmlItemIconHref, [37], 1, "ItemIcon has href", kml23: [136]),
        rule(.kmlLookatIncomplete, [38], 1, "LookAt has longitude, latitude, range", kml23: [137]),
        rule(.kmlLookatTilt, [38], 1, "LookAt tilt within 0…90", kml23: [137]),
        rule(.kmlLookatAltitude, [38], 1, "LookAt has altitude unless clampToGround", kml23: [137]),
        rule(.kmlLodPixels, [39], 1, "Lod has minLodPixels below maxLodPixels (-1: infinite)", kml23: [138]),
        rule(.kmlLinkHrefMissing, [40], 1, "Link and Icon have href", kml23: [139]),
        rule(.kmlRegionIncomplete, [41], 1, "Region has LatLonAltBox and Lod", kml23: [140]),
        rule(.kmlPolystyleEmpty, [42], 2, "PolyStyle has color, colorMode, fill or outline", kml23: [201]),
        rule(.kmlCoordinatesAltitudeMissing, [43], 2, "tuples have altitudes when altitudeMode uses them", kml23: [202]),
        rule(.kmlScaleEmpty, [44], 2, "Scale has x, y or z", kml23: [203]),
        rule(.kmlEmptyRoot, [45], 2, "kml holds a feature or NetworkLinkControl", kml23: [204]),
        rule(.kmlViewFormatParameters, [46], 2, "viewFormat has a [parameter]", kml23: [205]),
        rule(.kmlHttpQueryParameters, [47], 2, "httpQuery has a [parameter]", kml23: [206]),
        rule(.kmlRingInPolygonMembers, [48], 2, "a LinearRing in a Polygon has no extrude, tessellate, altitudeMode", kml23: [207]),
        rule(.kmlDataIncomplete, [49], 2, "Data has a name and a value", kml23: [208]),
        rule(.kmlResourceMapAlias, [50], 2, "ResourceMap has Alias elements with unique sourceHref", kml23: [209]),
        rule(.kmlLinkRefreshMode, [51], 2, "refreshInterval with onInterval, viewRefreshTime with onStop", kml23: [210]),
        rule(.kmlPhotoOverlayPyramid, [52], 2, "PhotoOverlay $[x]/$[y]/$[level] href exactly when ImagePyramid", kml23: [211]),
        rule(.kmlGroundOverlayBox, [53], 2, "GroundOverlay has LatLonBox (or gx:LatLonQuad)", kml23: [212]),
        rule(.kmlCameraIncomplete, [54], 2, "Camera has longitude, latitude, altitude", kml23: [213]),
        rule(.kmlCameraAltitudeMode, [54], 2, "Camera altitudeMode is not clampToGround", kml23: [213]),
        rule(.kmlLocationIncomplete, [55], 2, "Location has longitude, latitude (and altitude unless clamped)", kml23: [150]),
        rule(.kmlOverlayIconMissing, [56], 2, "overlays have Icon", kml23: [215]),
        rule(.kmlScreenOverlayXy, [57], 2, "ScreenOverlay has screenXY", kml23: [216]),
        rule(.kmlBalloonstyleEmpty, [58], 2, "BalloonStyle is not empty", kml23: [217]),
        rule(.kmlExtendedDataEmpty, [59], 2, "ExtendedData is not empty", kml23: [218]),
        rule(.kmlFolderEmpty, [60], 2, "Folder is not empty", kml23: [219]),
        rule(.kmlIconstyleEmpty, [61], 2, "IconStyle is not empty", kml23: [220]),
        rule(.kmlImagePyramid, [62], 2, "ImagePyramid has maxWidth, maxHeight; tileSize a power of 2", kml23: [221]),
        rule(.kmlLabelstyleEmpty, [63], 2, "LabelStyle has color, colorMode or scale", kml23: [222]),
        rule(.kmlListstyleEmpty, [64], 2, "ListStyle has listItemType, bgColor or ItemIcon", kml23: [223]),
        rule(.kmlStyleEmpty, [65], 2, "Style is not empty", kml23: [224]),
        rule(.kmlMultigeometrySingle, [66], 2, "MultiGeometry has two or more geometries", kml23: [225]),
        rule(.kmlPlacemarkNoGeometry, [67], 2, "Placemark has a geometry", kml23: [226]),
        rule(.kmlStylemapKeys, [68], 2, "StyleMap has two Pairs, one normal and one highlight", kml23: [227]),
        rule(.geometryHoleCrossesShell, [69], 3, "rings of a Polygon do not cross", kml23: [301]),
        rule(.geometryHolesCross, [69], 3, "inner rings do not cross", kml23: [301]),
        rule(.geometrySelfIntersection, [70], 3, "a LinearRing is simple", kml23: [302]),
        rule(.kmlDeprecatedBalloonColor, [71], 3, "no BalloonStyle color (deprecated)", kml23: [303]),
        rule(.kmlDeprecatedMetadata, [72], 3, "no Metadata (deprecated)", kml23: [304]),
        rule(.kmlScalePartial, [73], 3, "Scale has x, y and z", kml23: [305]),
        rule(.kmlLodFadeExtents, [74], 3, "minFadeExtent + maxFadeExtent ≤ maxLodPixels − minLodPixels", kml23: [306]),
        rule(.kmlOrientationPartial, [75], 3, "Orientation has heading, tilt and roll", kml23: [307]),
        rule(.kmlDeprecatedSnippet, [76], 3, "no Snippet (deprecated)", kml23: [308]),
        rule(.kmlDeprecatedUrl, [77], 3, "no NetworkLink Url (deprecated)", kml23: [309]),
        rule(.kmlTrackCountMismatch, [], 1, "a Track has as many coord as when", kml23: [147]),
        rule(.kmlTourPlaylist, [], 1, "a Tour has a Playlist holding one or more tour primitives", kml23: [141]),
        rule(.kmlFlytoView, [], 1, "a FlyTo holds a Camera or LookAt", kml23: [142]),
        rule(.kmlTourControlPlayMode, [], 1, "a TourControl has playMode", kml23: [143]),
        rule(.kmlAnimatedUpdateTarget, [], 1, "an AnimatedUpdate's targetHref is empty or an absolute URI", kml23: [145]),
        rule(.kmlLatlonquad, [], 1, "a LatLonQuad has four positions, counterclockwise, convex", kml23: [149]),
        rule(.kmlFlytoMode, [], 2, "a FlyTo has flyToMode", kml23: [228]),
        rule(.kmlTourDuration, [], 2, "FlyTo duration ≥ 0; Wait and AnimatedUpdate duration > 0", kml23: [228, 229, 230]),
        rule(.kmlPolygonOrientation, [], 3, "a Polygon's outer boundary runs counterclockwise", kml23: [301]),
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

    /// The KML 2.3 ATS identifier of a test: its level is the hundreds digit (ATC-1nn level 1,
    /// ATC-2nn level 2, ATC-3nn level 3), as OGC 14-068r2 numbers them.
    static func kml23Identifier(_ test: Int) -> String { "http://www.opengis.net/spec/KML/2.3/conf/level-\(test / 100)/atc-\(test)" }

    /// The geometry rules GeoJSON validation reports under the same codes: SARIF gives them no
    /// ATS metadata, since their rule entry serves both formats.
    static let sharedWithGeoJSON: Set<Diagnostic.Code> = [
        .geometryHoleOutsideShell, .geometryHoleCrossesShell, .geometryHolesCross, .geometrySelfIntersection,
    ]

    /// Rules by code.
    public static let byCode: [Diagnostic.Code: Rule] = Dictionary(rules.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The level a finding code runs at (1 for codes the catalog does not list).
    static func level(of code: Diagnostic.Code) -> Int { byCode[code]?.level ?? 1 }
}
