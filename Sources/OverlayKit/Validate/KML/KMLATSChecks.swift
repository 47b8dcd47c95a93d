import OverlayModel

/// The assertions of the OGC KML 2.2 Abstract Test Suite (OGC 07-134r2, conformance levels
/// 1–3) that a single document can be judged on, run by `KMLValidator` as elements open and
/// close. Each finding's code is listed in `KMLRuleCatalog` with its ATS test (ATC number and
/// identifier URI); the comment before each check names it too.
///
/// Severity follows the ATS level: level 1 (absolute requirements) error, level 2
/// ("should") warning, level 3 (informative, deprecations) info — with the exceptions the
/// catalog states. Content inside `Update` is exempt, as the ATS says for most tests.
enum KMLATSChecks {
    static let kml23Namespace = "http://www.opengis.net/kml/2.3"

    /// Whether a root element opens a KML 2.3 document: OGC 12-007r2 keeps KML 2.2's namespace
    /// and says 2.3 with `version="2.3"` on `<kml>`; some writers use a 2.3 namespace instead.
    static func isKML23(namespace: String?, version: String?) -> Bool {
        namespace == kml23Namespace || (version == "2.3" && KMLElementRules.kmlNamespaces.contains(namespace ?? ""))
    }

    /// Google's gx: elements that OGC KML 2.3 adopted into its own namespace, by local name.
    static let adoptedIn23: [String: String] = [
        "Track": "gx:Track", "MultiTrack": "gx:MultiTrack", "LatLonQuad": "gx:LatLonQuad", "coord": "gx:coord",
        "angles": "gx:angles", "interpolate": "gx:interpolate", "SimpleArrayData": "gx:SimpleArrayData",
        "SimpleArrayField": "gx:SimpleArrayField", "Tour": "gx:Tour", "altitudeOffset": "gx:altitudeOffset",
        "balloonVisibility": "gx:balloonVisibility", "horizFov": "gx:horizFov", "ViewerOptions": "gx:ViewerOptions",
        "outerColor": "gx:outerColor", "outerWidth": "gx:outerWidth", "physicalWidth": "gx:physicalWidth",
        "labelVisibility": "gx:labelVisibility", "Playlist": "gx:Playlist", "FlyTo": "gx:FlyTo", "Wait": "gx:Wait",
        "TourControl": "gx:TourControl", "AnimatedUpdate": "gx:AnimatedUpdate", "SoundCue": "gx:SoundCue",
        "duration": "gx:duration", "flyToMode": "gx:flyToMode", "playMode": "gx:playMode", "delayedStart": "gx:delayedStart",
    ]

    /// The tour primitives a Playlist holds (KML 2.3's kml:AbstractTourPrimitiveGroup).
    static let tourPrimitives: Set<String> = ["gx:FlyTo", "gx:Wait", "gx:TourControl", "gx:AnimatedUpdate", "gx:SoundCue"]

    /// The parameters an httpQuery may carry (OGC 07-147r2 §13.1.3.7, ATC 47).
    static let httpQueryParameters = ["[clientVersion]", "[kmlVersion]", "[clientName]", "[language]"]

    /// Simple elements whose trimmed text is handed to the parent frame's `values`.
    static let valueElements: Set<String> = [
        "key", "styleUrl", "begin", "end", "north", "south", "east", "west", "rotation", "minAltitude", "maxAltitude",
        "altitudeMode", "gx:altitudeMode", "extrude", "tessellate", "refreshMode", "viewRefreshMode", "refreshInterval",
        "viewRefreshTime", "viewBoundScale", "viewFormat", "httpQuery", "href", "tilt", "altitude", "range", "latitude",
        "longitude", "heading", "roll", "minLodPixels", "maxLodPixels", "minFadeExtent", "maxFadeExtent", "near",
        "leftFov", "rightFov", "bottomFov", "topFov", "minRefreshPeriod", "tileSize", "maxWidth", "maxHeight",
        "gridOrigin", "phoneNumber", "sourceHref", "targetHref", "colorMode", "displayMode", "listItemType", "shape",
        "x", "y", "z", "visibility", "open", "fill", "outline", "refreshVisibility", "flyToView", "scale", "width",
        "gx:duration", "gx:flyToMode", "gx:playMode", "state",
    ]

    /// Values the KML 2.2 schema allows (ATC 2), by element.
    static let enumerations: [String: Set<String>] = {
        let boolean: Set<String> = ["0", "1", "true", "false"]
        return [
            "altitudeMode": ["clampToGround", "relativeToGround", "absolute"],
            "gx:altitudeMode": ["clampToGround", "relativeToGround", "absolute", "clampToSeaFloor", "relativeToSeaFloor"],
            "refreshMode": ["onChange", "onInterval", "onExpire"],
            "viewRefreshMode": ["never", "onStop", "onRequest", "onRegion"],
            "colorMode": ["normal", "random"],
            "displayMode": ["default", "hide"],
            "listItemType": ["check", "radioFolder", "checkOffOnly", "checkHideChildren"],
            "shape": ["rectangle", "cylinder", "sphere"],
            "gridOrigin": ["lowerLeft", "upperLeft"],
            "key": ["normal", "highlight"],
            "gx:flyToMode": ["bounce", "smooth"],
            "gx:playMode": ["pause"],
            "extrude": boolean, "tessellate": boolean, "visibility": boolean, "open": boolean, "fill": boolean,
            "outline": boolean, "refreshVisibility": boolean, "flyToView": boolean,
        ]
    }()

    /// Numeric elements (xsd:double) and, for angles, the range their schema type allows (ATC 2).
    static let numbers: [String: ClosedRange<Double>?] = [
        "north": -90...90, "south": -90...90, "latitude": -90...90,
        "east": -180...180, "west": -180...180, "longitude": -180...180, "rotation": -180...180,
        "heading": -360...360, "tilt": -180...180, "roll": -180...180,
        "leftFov": -180...180, "rightFov": -180...180, "bottomFov": -90...90, "topFov": -90...90,
        "minAltitude": nil, "maxAltitude": nil, "refreshInterval": nil, "viewRefreshTime": nil, "viewBoundScale": nil,
        "altitude": nil, "range": nil, "minLodPixels": nil, "maxLodPixels": nil, "minFadeExtent": nil, "maxFadeExtent": nil,
        "near": nil, "minRefreshPeriod": nil, "scale": nil, "width": nil, "x": nil, "y": nil, "z": nil,
        "tileSize": nil, "maxWidth": nil, "maxHeight": nil, "gx:duration": nil,
    ]

    /// The elements that substitute for kml:AbstractObjectGroup in ogckml22.xsd: the objects
    /// the "empty object" test (ATC 21) looks at, as the ETS does.
    static let objects: Set<String> = [
        "Alias", "BalloonStyle", "Camera", "Data", "Document", "Folder", "GroundOverlay", "Icon", "IconStyle",
        "ImagePyramid", "ItemIcon", "LabelStyle", "LatLonAltBox", "LatLonBox", "LineString", "LineStyle", "LinearRing",
        "Link", "ListStyle", "Location", "Lod", "LookAt", "Model", "MultiGeometry", "NetworkLink", "Orientation", "Pair",
        "PhotoOverlay", "Placemark", "Point", "PolyStyle", "Polygon", "Region", "ResourceMap", "Scale", "SchemaData",
        "ScreenOverlay", "Style", "StyleMap", "TimeSpan", "TimeStamp", "Url", "ViewVolume",
    ]

    /// "Not empty" tests of level 2 (ATC 42, 44, 58–61, 63–65): the children one of which
    /// must be present (empty: any child element or text).
    static let nonEmpty: [String: (code: Diagnostic.Code, anyOf: Set<String>)] = [
        "PolyStyle": (.kmlPolystyleEmpty, ["color", "colorMode", "fill", "outline"]),
        "Scale": (.kmlScaleEmpty, ["x", "y", "z"]),
        "BalloonStyle": (.kmlBalloonstyleEmpty, []),
        "ExtendedData": (.kmlExtendedDataEmpty, []),
        "Folder": (.kmlFolderEmpty, []),
        "IconStyle": (.kmlIconstyleEmpty, []),
        "LabelStyle": (.kmlLabelstyleEmpty, ["color", "colorMode", "scale"]),
        "ListStyle": (.kmlListstyleEmpty, ["listItemType", "bgColor", "ItemIcon"]),
        "Style": (.kmlStyleEmpty, []),
    ]

    static let features: Set<String> = KMLElementRules.features

    /// Elements some test looks at when they start, and when they end.
    static let checkedOnOpen: Set<String> = ["atom:link", "Metadata", "Snippet", "Url", "color"]
    static let checkedOnClose: Set<String> = Set(enumerations.keys).union(numbers.keys).union(objects).union(nonEmpty.keys).union([
        "kml", "styleUrl", "phoneNumber", "ExtendedData", "Folder", "gx:TimeSpan", "gx:TimeStamp", "NetworkLinkControl", "Schema",
        "SimpleField", "gx:Tour", "gx:Playlist", "gx:FlyTo", "gx:Wait", "gx:TourControl", "gx:AnimatedUpdate", "gx:LatLonQuad",
    ])
    static let geometries: Set<String> = KMLElementRules.geometries

    /// Elements inside content the validator otherwise skips whose text an ATS test needs.
    static func readsInsideOpaque(_ name: String, parent: String?) -> Bool {
        switch name {
        case "atom:email", "atom:uri": parent == "atom:author"
        case "targetHref": parent == "Update"
        default: false
        }
    }

    /// xsd:double's lexical form (no hex, no "inf"/"nan" spellings Swift's parser takes).
    static func number(_ text: String) -> Double? {
        if text == "INF" { return .infinity }
        if text == "-INF" { return -.infinity }
        guard !text.isEmpty, text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }) else { return nil }
        return Double(text)
    }

    static func isTrue(_ text: String?) -> Bool { text == "1" || text == "true" }

    /// Positions as (longitude, latitude) points, each longitude moved by whole turns to lie
    /// within 180° of the one before, so a shape across the antimeridian stays in one piece.
    static func unwrappedLongitudes(_ coordinates: [Coordinate]) -> [(x: Double, y: Double)] {
        var points: [(x: Double, y: Double)] = []
        points.reserveCapacity(coordinates.count)
        for coordinate in coordinates {
            var x = coordinate.longitude
            if let previous = points.last?.x, x.isFinite, previous.isFinite {
                x -= 360 * ((x - previous) / 360).rounded()
            }
            points.append((x, coordinate.latitude))
        }
        return points
    }

    /// A URI with a scheme (`http:`, `file:`…), as RFC 3986 §3.1 spells one.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// RFC 3966 `tel:` URI: a global number (`+` and digits with visual separators) or a local
    /// number with a `phone-context`; parameters after `;`.
    static func isTelephoneURI(_ text: String) -> Bool {
        guard text.lowercased().hasPrefix("tel:") else { return false }
        let rest = text.dropFirst(4)
        let number = rest.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let digits = number.filter(\.isHexDigit)
        guard !digits.isEmpty, number.allSatisfy({ $0.isHexDigit || "-.()*#+".contains($0) }) else { return false }
        return number.hasPrefix("+") || rest.lowercased().contains(";phone-context=")
    }

    /// RFC 2822 addr-spec, loosely: one `@`, a local part and a dotted-or-bracketed domain,
    /// no spaces.
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
    }

    /// An RFC 3986 URI reference, absolute or relative: not empty, no white space, no
    /// characters a URI never holds unescaped (`<`, `>`, `"`, `{`, `}`, `|`, `\`, `^`, `` ` ``).
    static func isURIReference(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0.properties.isWhitespace || "<>\"{}|\\^`".unicodeScalars.contains($0) }
    }

    /// Units of measure a `uom` attribute may name without a URI: UCUM codes (case sensitive)
    /// of the quantities map data carries — length, area, volume, time, mass, temperature,
    /// angle, speed, pressure, ratios.
    static let knownUnits: Set<String> = [
        "m", "km", "cm", "mm", "um", "nm", "[in_i]", "[ft_i]", "[yd_i]", "[mi_i]", "[nmi_i]", "[ft_us]", "[mi_us]",
        "m2", "km2", "ha", "ar", "[acr_us]", "[sft_i]", "m3", "L", "l", "mL", "[gal_us]",
        "s", "ms", "min", "h", "d", "wk", "mo", "a",
        "g", "kg", "mg", "t", "[lb_av]", "[oz_av]",
        "K", "Cel", "[degF]",
        "deg", "rad", "'", "''",
        "m/s", "km/h", "[mi_i]/h", "[kn_i]", "m/s2",
        "Pa", "hPa", "kPa", "bar", "mbar", "mm[Hg]", "[psi]",
        "%", "[ppm]", "[ppb]", "1", "dB", "Hz", "W", "kW", "J", "V", "A", "N", "lx",
    ]
}

extension KMLValidator.Walk {
    /// Reports a finding of an ATS rule when the rule's level is within `atsLevel`.
    mutating func ats(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: String, _ frame: KMLValidator.Frame) {
        guard KMLRuleCatalog.level(of: code) <= atsLevel else { return }
        report(severity, code, message, line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
    }

    /// Tests decided when an element starts: update targets and deprecated elements.
    mutating func checkOnOpen(_ frame: KMLValidator.Frame, parent: String?, grandparent: String?) {
        let name = frame.name
        // ATC 23: the objects an Update creates, deletes or changes name their target by
        // targetId and carry no id of their own.
        if let parent, parent == "Create" || parent == "Delete" || parent == "Change", grandparent == "Update" {
            if (frame.attributes["targetId"] ?? "").isEmpty {
                ats(.error, .kmlUpdateTargetId, "<\(frame.qualifiedName)> inside <\(parent)> needs a targetId naming the object to update", frame)
            }
            if frame.attributes["id"] != nil {
                ats(.error, .kmlUpdateTargetId, "<\(frame.qualifiedName)> inside <\(parent)> must not have an id (it names its target with targetId)", frame)
            }
        }
        guard let parent, !frame.inUpdate, KMLATSChecks.checkedOnOpen.contains(name) else { return }
        // ATC 31: atom:link relates the feature to another resource.
        if name == "atom:link", frame.attributes["rel"] != "related" {
            ats(.info, .kmlAtomLinkRel, "<atom:link> has rel=\"\(frame.attributes["rel"] ?? "")\"; KML 2.2 §9.1.3.5 wants rel=\"related\"", frame)
        }
        // ATC 71, 72, 76, 77: deprecated elements.
        if KMLATSChecks.features.contains(parent) && name == "Metadata" {
            ats(.info, .kmlDeprecatedMetadata, "<Metadata> is deprecated; use <ExtendedData>", frame)
        }
        if KMLATSChecks.features.contains(parent) && frame.qualifiedName.hasSuffix("Snippet") && name == "Snippet" {
            ats(.info, .kmlDeprecatedSnippet, "<Snippet> is deprecated; use <snippet>", frame)
        }
        if parent == "NetworkLink" && name == "Url" {
            ats(.info, .kmlDeprecatedUrl, "<Url> in a NetworkLink is deprecated; use <Link>", frame)
        }
        if parent == "BalloonStyle" && name == "color" {
            ats(.info, .kmlDeprecatedBalloonColor, "<color> in a BalloonStyle is deprecated; use <bgColor>", frame)
        }
    }

    /// Text read inside content the validator otherwise skips (atom:author, Update).
    mutating func checkInsideOpaque(_ frame: KMLValidator.Frame, text: String) {
        switch frame.name {
        case "atom:email":
            // ATC 30 (2): an RFC 2822 addr-spec.
            if !KMLATSChecks.isEmailAddress(text) {
                ats(.error, .kmlAtomAuthor, "<atom:email> '\(text.prefix(60))' is not an e-mail address", frame)
            }
        case "atom:uri":
            // ATC 30 (1): an IRI reference (no spaces, no angle brackets).
            if text.isEmpty || text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }) {
                ats(.error, .kmlAtomAuthor, "<atom:uri> '\(text.prefix(60))' is not an IRI reference", frame)
            }
        case "targetHref":
            // ATC 22 (1): a URL of the file a NetworkLink loaded — an anyURI, so a relative
            // reference (resolved against this document, as the NetworkLink's href was) is
            // one too. Empty or not a URI reference is the error. A tour's AnimatedUpdate has
            // its own rule (KML 2.3 ATC-145): empty for this document, else an absolute URI.
            let inTour = stack.count >= 2 && stack[stack.count - 2].name == "gx:AnimatedUpdate"
            if inTour {
                checkAnimatedUpdateTarget(frame, text: text)
            } else if !KMLATSChecks.isURIReference(text) {
                ats(.error, .kmlUpdateTargetHref, "Update <targetHref> '\(text.prefix(60))' is not a URL of the file to update", frame)
            }
        default:
            break
        }
    }

    /// Tests decided when an element ends, on its attributes, its children's counts and the
    /// values of its simple children: one function per rule family (`Rules/`).
    mutating func checkOnClose(_ frame: KMLValidator.Frame, text: String) {
        let name = frame.name
        guard KMLATSChecks.checkedOnClose.contains(name) else { return }
        checkValueRules(frame, text: text)
        switch name {
        case "kml", "phoneNumber": checkFeatureRules(frame, text: text)
        case "styleUrl", "ItemIcon": checkStyleRules(frame, text: text)
        case "TimeSpan", "gx:TimeSpan", "TimeStamp", "gx:TimeStamp": checkTimeRules(frame)
        case "LatLonAltBox", "LatLonBox", "gx:LatLonQuad", "Lod", "Region": checkExtentRules(frame)
        case "Link", "Icon", "Url", "NetworkLinkControl": checkLinkRules(frame)
        case "Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Placemark": checkGeometryRules(frame)
        case "ViewVolume", "LookAt", "Camera": checkViewRules(frame)
        case "GroundOverlay", "ScreenOverlay", "PhotoOverlay", "ImagePyramid": checkOverlayRules(frame)
        case "Orientation", "Model", "Location", "ResourceMap", "Alias": checkModelRules(frame)
        case "Schema", "SimpleField", "Data": checkDataRules(frame)
        case "gx:Tour", "gx:Playlist", "gx:FlyTo", "gx:TourControl", "gx:Wait", "gx:AnimatedUpdate": checkTourRules(frame)
        default: break
        }
        checkContentRules(frame)
        // A PhotoOverlay's ImagePyramid test (ATC 52) needs its Icon's href.
        if name == "Icon", stack.last?.name == "PhotoOverlay", let href = frame.values["href"] {
            stack[stack.count - 1].values["Icon/href"] = href
        }
    }
}
