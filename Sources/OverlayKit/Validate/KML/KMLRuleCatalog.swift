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
        /// The finding code, e.g. `Diagnostic.Code.kmlDataNameDuplicate` (`kml.data-name-duplicate`).
        public var code: Diagnostic.Code
        /// The ATS test numbers ("ATC 28") this rule implements; empty for OverlayKit's own rules.
        public var tests: [Int]
        /// The ATS conformance level (1–3) at which the rule runs.
        public var level: Int
        /// What the rule checks, in one line.
        public var summary: String

        /// The ATS identifiers of the tests, e.g. `http://www.opengis.net/kml/2.2/atc/level-1/ExtendedData-Data`.
        public var identifiers: [String] { tests.compactMap { KMLRuleCatalog.testNames[$0] }.map { KMLRuleCatalog.identifier($0) } }
    }

    static func rule(_ code: Diagnostic.Code, _ tests: [Int], _ level: Int, _ summary: String) -> Rule {
        Rule(code: code, tests: tests, level: level, summary: summary)
    }

    /// The rules, in ATS order.
    public static let rules: [Rule] = [
        rule(.kmlRoot, [1], 1, "the root element is kml"),
        rule(.kmlNoRoot, [1], 1, "the document has a root element"),
        rule(.kmlNamespace, [1], 1, "the root is in a KML namespace"),
        rule(.kmlXmlSyntax, [2], 1, "well-formed XML"),
        rule(.kmlEntityReference, [2], 1, "no entity references (never expanded)"),
        rule(.kmlUnknownElement, [2], 1, "every element is a KML 2.2 (or gx) element"),
        rule(.kmlMisplacedElement, [2], 1, "every element is allowed in its parent"),
        rule(.kmlMissingChild, [2, 17, 36, 68], 1, "required children (Polygon outerBoundaryIs, coordinates, StyleMap Pair, Pair key)"),
        rule(.kmlMissingAttribute, [26, 27], 1, "SimpleField name and type, SimpleData name"),
        rule(.kmlBoundaryRings, [2], 1, "one LinearRing per boundary"),
        rule(.kmlEnumValue, [2], 1, "enumerated values (altitudeMode, refreshMode, viewRefreshMode, booleans…)"),
        rule(.kmlNumberSyntax, [2], 1, "numeric values are xsd:double"),
        rule(.kmlValueRange, [2], 1, "angles within their schema type (latitude ±90, longitude ±180…)"),
        rule(.kmlEmptyValue, [2], 1, "an empty numeric or enumerated value (readers take the default)"),
        rule(.kmlTimeSyntax, [2], 1, "when/begin/end are dateTime, date, gYearMonth or gYear"),
        rule(.kmlSchema, [2], 1, "`--schema`: the XSD"),
        rule(.kmlDataUom, [2], 1, "Data and SimpleField uom only in KML 2.3, naming a known unit (UCUM code or URI)"),
        rule(.kmlCoordinateSyntax, [3], 1, "coordinates are 2D/3D tuples of decimals"),
        rule(.kmlCoordinateExtra, [3], 1, "no more than 3 values in a tuple"),
        rule(.kmlCoordinateRange, [3], 1, "positions within WGS 84 ranges (Annex B)"),
        rule(.kmlTimespanEmpty, [4], 1, "TimeSpan has begin or end"),
        rule(.kmlTimespanOrder, [4], 1, "TimeSpan begin is before end"),
        rule(.kmlTimestampWhenMissing, [5], 1, "TimeStamp has when"),
        rule(.kmlStyleUrlMissing, [6], 1, "a styleUrl #fragment names a style in the document"),
        rule(.kmlStyleUrlFragment, [6], 1, "a styleUrl has a fragment"),
        rule(.kmlStyleUrlScheme, [6], 1, "an absolute styleUrl is http(s) or file"),
        rule(.kmlStyleUrlWrongKind, [6], 1, "a styleUrl #fragment names a Style or StyleMap, not another element"),
        rule(.kmlSharedStyleParent, [7], 1, "a style named by styleUrl is a child of Document"),
        rule(.kmlLatlonaltboxExtent, [8], 1, "LatLonAltBox north > south, east > west"),
        rule(.kmlLatlonaltboxAltitude, [8], 1, "LatLonAltBox minAltitude ≤ maxAltitude, not clampToGround when both given"),
        rule(.kmlLinkValueNotPositive, [9], 1, "refreshInterval, viewRefreshTime, viewBoundScale > 0"),
        rule(.kmlLatlonboxIncomplete, [11], 1, "LatLonBox has north, south, east, west"),
        rule(.kmlLatlonboxExtent, [11], 1, "LatLonBox north > south, east > west"),
        rule(.kmlExtrudeClamped, [12], 1, "extrude only with an altitudeMode other than clampToGround"),
        rule(.kmlTessellateAltitude, [13], 1, "tessellate only with clampToGround"),
        rule(.kmlPointCoordinates, [14], 1, "a Point has one tuple"),
        rule(.kmlLineTooShort, [15], 1, "a LineString has two or more tuples"),
        rule(.kmlRingTooShort, [16], 1, "a LinearRing has four or more tuples"),
        rule(.kmlRingNotClosed, [16], 1, "a LinearRing ends where it starts"),
        rule(.geometryHoleOutsideShell, [17], 1, "each inner ring lies within the outer ring"),
        rule(.kmlViewvolumeIncomplete, [19], 1, "ViewVolume has the four fields of view and a non-negative near"),
        rule(.kmlMinRefreshPeriod, [20], 1, "minRefreshPeriod ≥ 0"),
        rule(.kmlEmptyObject, [21], 1, "an object outside Update is not empty or has an id"),
        rule(.kmlUpdateTargetHref, [22], 1, "Update targetHref is a URL (absolute, or relative to this document)"),
        rule(.kmlUpdateTargetId, [23], 1, "objects in Create/Delete/Change have targetId and no id"),
        rule(.kmlPhoneNumberUri, [24], 1, "phoneNumber is a tel: URI"),
        rule(.kmlSchemaIdMissing, [25], 1, "Schema has an id"),
        rule(.kmlSimpleFieldType, [26], 1, "SimpleField type is one of the eight KML types (bare or xsd:-prefixed)"),
        rule(.kmlSchemaUrlMissing, [27], 1, "SchemaData schemaUrl names a Schema of the document by its id"),
        rule(.kmlSchemaUrlWrongKind, [27], 1, "SchemaData schemaUrl names a Schema, not another element"),
        rule(.kmlSimpleDataUnknownField, [27], 1, "SimpleData names a SimpleField of its Schema"),
        rule(.kmlSimpleDataType, [27], 1, "SimpleData values fit their SimpleField type"),
        rule(.kmlDataNameDuplicate, [28], 1, "Data names are unique in one ExtendedData"),
        rule(.kmlAtomAuthor, [30], 1, "atom:author uri is an IRI, email an addr-spec"),
        rule(.kmlAtomLinkRel, [31], 1, "atom:link rel is \"related\""),
        rule(.kmlOrientationEmpty, [32], 1, "Orientation has heading, tilt or roll"),
        rule(.kmlGroundOverlayAltitude, [33], 1, "GroundOverlay with altitudeMode absolute has altitude"),
        rule(.kmlModelIncomplete, [34], 1, "Model has Link and Location"),
        rule(.kmlPhotoOverlayIncomplete, [35], 1, "PhotoOverlay has Icon, ViewVolume, Point, Camera"),
        rule(.kmlStylemapPair, [36, 68], 1, "Pair has key and a style; StyleMap has one normal and one highlight Pair"),
        rule(.kmlItemIconHref, [37], 1, "ItemIcon has href"),
        rule(.kmlLookatIncomplete, [38], 1, "LookAt has longitude, latitude, range"),
        rule(.kmlLookatTilt, [38], 1, "LookAt tilt within 0…90"),
        rule(.kmlLookatAltitude, [38], 1, "LookAt has altitude unless clampToGround"),
        rule(.kmlLodPixels, [39], 1, "Lod has minLodPixels below maxLodPixels (-1: infinite)"),
        rule(.kmlLinkHrefMissing, [40], 1, "Link and Icon have href"),
        rule(.kmlRegionIncomplete, [41], 1, "Region has LatLonAltBox and Lod"),
        rule(.kmlPolystyleEmpty, [42], 2, "PolyStyle has color, colorMode, fill or outline"),
        rule(.kmlCoordinatesAltitudeMissing, [43], 2, "tuples have altitudes when altitudeMode uses them"),
        rule(.kmlScaleEmpty, [44], 2, "Scale has x, y or z"),
        rule(.kmlEmptyRoot, [45], 2, "kml holds a feature or NetworkLinkControl"),
        rule(.kmlViewFormatParameters, [46], 2, "viewFormat has a [parameter]"),
        rule(.kmlHttpQueryParameters, [47], 2, "httpQuery has a [parameter]"),
        rule(.kmlRingInPolygonMembers, [48], 2, "a LinearRing in a Polygon has no extrude, tessellate, altitudeMode"),
        rule(.kmlDataIncomplete, [49], 2, "Data has a name and a value"),
        rule(.kmlResourceMapAlias, [50], 2, "ResourceMap has Alias elements with unique sourceHref"),
        rule(.kmlLinkRefreshMode, [51], 2, "refreshInterval with onInterval, viewRefreshTime with onStop"),
        rule(.kmlPhotoOverlayPyramid, [52], 2, "PhotoOverlay $[x]/$[y]/$[level] href exactly when ImagePyramid"),
        rule(.kmlGroundOverlayBox, [53], 2, "GroundOverlay has LatLonBox (or gx:LatLonQuad)"),
        rule(.kmlCameraIncomplete, [54], 2, "Camera has longitude, latitude, altitude"),
        rule(.kmlCameraAltitudeMode, [54], 2, "Camera altitudeMode is not clampToGround"),
        rule(.kmlLocationIncomplete, [55], 2, "Location has longitude, latitude (and altitude unless clamped)"),
        rule(.kmlOverlayIconMissing, [56], 2, "overlays have Icon"),
        rule(.kmlScreenOverlayXy, [57], 2, "ScreenOverlay has screenXY"),
        rule(.kmlBalloonstyleEmpty, [58], 2, "BalloonStyle is not empty"),
        rule(.kmlExtendedDataEmpty, [59], 2, "ExtendedData is not empty"),
        rule(.kmlFolderEmpty, [60], 2, "Folder is not empty"),
        rule(.kmlIconstyleEmpty, [61], 2, "IconStyle is not empty"),
        rule(.kmlImagePyramid, [62], 2, "ImagePyramid has maxWidth, maxHeight; tileSize a power of 2"),
        rule(.kmlLabelstyleEmpty, [63], 2, "LabelStyle has color, colorMode or scale"),
        rule(.kmlListstyleEmpty, [64], 2, "ListStyle has listItemType, bgColor or ItemIcon"),
        rule(.kmlStyleEmpty, [65], 2, "Style is not empty"),
        rule(.kmlMultigeometrySingle, [66], 2, "MultiGeometry has two or more geometries"),
        rule(.kmlPlacemarkNoGeometry, [67], 2, "Placemark has a geometry"),
        rule(.geometryHoleCrossesShell, [69], 3, "rings of a Polygon do not cross"),
        rule(.geometryHolesCross, [69], 3, "inner rings do not cross"),
        rule(.geometrySelfIntersection, [70], 3, "a LinearRing is simple"),
        rule(.kmlDeprecatedBalloonColor, [71], 3, "no BalloonStyle color (deprecated)"),
        rule(.kmlDeprecatedMetadata, [72], 3, "no Metadata (deprecated)"),
        rule(.kmlScalePartial, [73], 3, "Scale has x, y and z"),
        rule(.kmlLodFadeExtents, [74], 3, "minFadeExtent + maxFadeExtent ≤ maxLodPixels − minLodPixels"),
        rule(.kmlOrientationPartial, [75], 3, "Orientation has heading, tilt and roll"),
        rule(.kmlDeprecatedSnippet, [76], 3, "no Snippet (deprecated)"),
        rule(.kmlDeprecatedUrl, [77], 3, "no NetworkLink Url (deprecated)"),
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
