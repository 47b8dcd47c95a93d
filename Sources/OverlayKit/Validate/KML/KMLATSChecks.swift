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

    /// Google's gx: elements that OGC KML 2.3 adopted into its own namespace, by local name.
    static let adoptedIn23: [String: String] = [
        "Track": "gx:Track", "MultiTrack": "gx:MultiTrack", "LatLonQuad": "gx:LatLonQuad", "coord": "gx:coord",
        "angles": "gx:angles", "interpolate": "gx:interpolate", "SimpleArrayData": "gx:SimpleArrayData",
        "SimpleArrayField": "gx:SimpleArrayField", "Tour": "gx:Tour", "altitudeOffset": "gx:altitudeOffset",
        "balloonVisibility": "gx:balloonVisibility", "horizFov": "gx:horizFov", "ViewerOptions": "gx:ViewerOptions",
        "outerColor": "gx:outerColor", "outerWidth": "gx:outerWidth", "physicalWidth": "gx:physicalWidth",
        "labelVisibility": "gx:labelVisibility",
    ]

    /// Simple elements whose trimmed text is handed to the parent frame's `values`.
    static let valueElements: Set<String> = [
        "key", "styleUrl", "begin", "end", "north", "south", "east", "west", "rotation", "minAltitude", "maxAltitude",
        "altitudeMode", "gx:altitudeMode", "extrude", "tessellate", "refreshMode", "viewRefreshMode", "refreshInterval",
        "viewRefreshTime", "viewBoundScale", "viewFormat", "httpQuery", "href", "tilt", "altitude", "range", "latitude",
        "longitude", "heading", "roll", "minLodPixels", "maxLodPixels", "minFadeExtent", "maxFadeExtent", "near",
        "leftFov", "rightFov", "bottomFov", "topFov", "minRefreshPeriod", "tileSize", "maxWidth", "maxHeight",
        "gridOrigin", "phoneNumber", "sourceHref", "targetHref", "colorMode", "displayMode", "listItemType", "shape",
        "x", "y", "z", "visibility", "open", "fill", "outline", "refreshVisibility", "flyToView", "scale", "width",
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
        "tileSize": nil, "maxWidth": nil, "maxHeight": nil,
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
        "SimpleField",
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
    private mutating func ats(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: String, _ frame: KMLValidator.Frame) {
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
            // one too. Empty or not a URI reference is the error. A tour's gx:AnimatedUpdate
            // updates its own file, and Google's tours leave it empty.
            let inTour = stack.count >= 2 && stack[stack.count - 2].name == "gx:AnimatedUpdate"
            if !inTour && !KMLATSChecks.isURIReference(text) {
                ats(.error, .kmlUpdateTargetHref, "Update <targetHref> '\(text.prefix(60))' is not a URL of the file to update", frame)
            }
        default:
            break
        }
    }

    /// Tests decided when an element ends, on its attributes, its children's counts and the
    /// values of its simple children.
    mutating func checkOnClose(_ frame: KMLValidator.Frame, text: String) {
        let name = frame.name
        guard KMLATSChecks.checkedOnClose.contains(name) else { return }
        let values = frame.values
        let has = { (child: String) in frame.childCounts[child] != nil }
        let parentName = stack.last?.name

        // ATC 2: enumerated and numeric values the schema constrains.
        if let allowed = KMLATSChecks.enumerations[name] {
            var allowed = allowed
            if name == "altitudeMode" && isKML23 { allowed.formUnion(["clampToSeaFloor", "relativeToSeaFloor"]) }
            if text.isEmpty {
                ats(.warning, .kmlEmptyValue, "<\(frame.qualifiedName)> is empty; readers take the default", frame)
            } else if !allowed.contains(text) {
                ats(.error, .kmlEnumValue, "<\(frame.qualifiedName)> '\(text.prefix(40))' is not one of \(allowed.sorted().joined(separator: ", "))", frame)
            }
        }
        if let range = KMLATSChecks.numbers[name], !(name == "altitudeMode"), frame.childCounts.isEmpty,
           ["x", "y", "z"].contains(name) ? parentName == "Scale" : true {
            if text.isEmpty {
                ats(.warning, .kmlEmptyValue, "<\(frame.qualifiedName)> is empty; readers take the default", frame)
            } else if let value = KMLATSChecks.number(text) {
                if let range, !range.contains(value) {
                    ats(.error, .kmlValueRange, "<\(frame.qualifiedName)> \(text) is outside \(range.lowerBound)…\(range.upperBound)", frame)
                }
            } else {
                ats(.error, .kmlNumberSyntax, "<\(frame.qualifiedName)> '\(text.prefix(40))' is not a number", frame)
            }
        }

        switch name {
        case "kml":
            // ATC 45 (level 2): a feature or NetworkLinkControl under the root.
            if !frame.childCounts.keys.contains(where: { KMLATSChecks.features.contains($0) || $0 == "NetworkLinkControl" }) {
                ats(.warning, .kmlEmptyRoot, "<kml> holds no feature and no NetworkLinkControl", frame)
            }
        case "styleUrl":
            // ATC 6: a fragment naming the style; absolute URLs only http(s) or file.
            if !text.contains("#") {
                ats(.error, .kmlStyleUrlFragment, "styleUrl '\(text.prefix(60))' has no #fragment naming a style", frame)
            }
            if let scheme = KMLATSChecks.scheme(of: text), !["http", "https", "file"].contains(scheme) {
                ats(.error, .kmlStyleUrlScheme, "styleUrl '\(text.prefix(60))' uses the \(scheme): scheme; the ATS allows http and file", frame)
            }
        case "TimeSpan", "gx:TimeSpan":
            // ATC 4 (1): begin or end.
            if !has("begin") && !has("end") { ats(.error, .kmlTimespanEmpty, "<\(frame.qualifiedName)> has neither <begin> nor <end>", frame) }
        case "TimeStamp", "gx:TimeStamp":
            // ATC 5: a when.
            if !has("when") { ats(.error, .kmlTimestampWhenMissing, "<\(frame.qualifiedName)> has no <when>", frame) }
        case "LatLonAltBox":
            // ATC 8: a non-empty box; altitudes in order, and not clamped when both are given.
            checkBoxExtent(frame, code: .kmlLatlonaltboxExtent)
            if let low = values["minAltitude"].flatMap(KMLATSChecks.number), let high = values["maxAltitude"].flatMap(KMLATSChecks.number) {
                if low > high {
                    ats(.error, .kmlLatlonaltboxAltitude, "LatLonAltBox minAltitude \(low) is above maxAltitude \(high)", frame)
                }
                let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
                if mode == "clampToGround" || mode == "clampToSeaFloor" {
                    ats(.error, .kmlLatlonaltboxAltitude, "LatLonAltBox gives minAltitude and maxAltitude but its altitudeMode is \(mode), which ignores them", frame)
                }
            }
        case "LatLonBox":
            // ATC 11: all four sides, north > south, east > west.
            let missing = ["north", "south", "east", "west"].filter { !has($0) }
            if !missing.isEmpty {
                ats(.error, .kmlLatlonboxIncomplete, "LatLonBox lacks <\(missing.joined(separator: ">, <"))>", frame)
            } else {
                checkBoxExtent(frame, code: .kmlLatlonboxExtent)
            }
        case "Link", "Icon", "Url":
            checkLink(frame)
        case "Point", "LineString", "LinearRing", "Polygon":
            checkAltitudeUse(frame)
        case "ViewVolume":
            // ATC 19: all five fields, near not negative.
            let missing = ["leftFov", "rightFov", "bottomFov", "topFov", "near"].filter { !has($0) }
            if !missing.isEmpty {
                ats(.error, .kmlViewvolumeIncomplete, "ViewVolume lacks <\(missing.joined(separator: ">, <"))>", frame)
            } else if let near = values["near"].flatMap(KMLATSChecks.number), near < 0 {
                ats(.error, .kmlViewvolumeIncomplete, "ViewVolume near is negative (\(near))", frame)
            }
        case "NetworkLinkControl":
            // ATC 20.
            if let period = values["minRefreshPeriod"].flatMap(KMLATSChecks.number), period < 0 {
                ats(.error, .kmlMinRefreshPeriod, "minRefreshPeriod is negative (\(period))", frame)
            }
        case "Schema":
            // ATC 25.
            if (frame.attributes["id"] ?? "").isEmpty {
                ats(.error, .kmlSchemaIdMissing, "<Schema> has no id, so no schemaUrl can name it", frame)
            }
        case "SimpleField":
            // ATC 26 (2): one of the eight types, bare or as an XML Schema QName (xsd:int).
            if let type = frame.attributes["type"], !KMLSimpleFieldType.names.contains(KMLSimpleFieldType.normalized(type)) {
                ats(.error, .kmlSimpleFieldType, "SimpleField type '\(type.prefix(40))' is not one of string, int, uint, short, ushort, float, double, bool", frame)
            }
            checkUnitOfMeasure(frame)
        case "Data":
            // ATC 28: names unique in one ExtendedData; ATC 49 (level 2): a name and a value.
            if let dataName = frame.attributes["name"], parentName == "ExtendedData" {
                if stack[stack.count - 1].dataNames.contains(dataName) {
                    ats(.error, .kmlDataNameDuplicate, "Data name '\(dataName.prefix(60))' appears twice in this ExtendedData", frame)
                } else {
                    stack[stack.count - 1].dataNames.insert(dataName)
                }
            }
            if frame.attributes["name"] == nil || !has("value") {
                ats(.warning, .kmlDataIncomplete, "<Data> should have a name attribute and a <value>", frame)
            }
            checkUnitOfMeasure(frame)
        case "phoneNumber":
            // ATC 24.
            if !KMLATSChecks.isTelephoneURI(text) {
                ats(.error, .kmlPhoneNumberUri, "phoneNumber '\(text.prefix(40))' is not a tel: URI (RFC 3966), e.g. tel:+1-555-0100", frame)
            }
        case "Orientation":
            // ATC 32; ATC 75 (level 3): all three.
            let present = ["heading", "tilt", "roll"].filter(has)
            if present.isEmpty {
                ats(.error, .kmlOrientationEmpty, "Orientation has none of heading, tilt, roll", frame)
            } else if present.count < 3 {
                ats(.info, .kmlOrientationPartial, "Orientation gives \(present.joined(separator: ", ")) but not all of heading, tilt, roll", frame)
            }
        case "GroundOverlay":
            // ATC 33; ATC 53 and 56 (level 2).
            if values["altitudeMode"] == "absolute" && !has("altitude") {
                ats(.error, .kmlGroundOverlayAltitude, "GroundOverlay with altitudeMode absolute needs an <altitude>", frame)
            }
            if !has("LatLonBox") && !has("gx:LatLonQuad") {
                ats(.warning, .kmlGroundOverlayBox, "GroundOverlay has no <LatLonBox> (or gx:LatLonQuad) placing it", frame)
            }
            if !has("Icon") { ats(.warning, .kmlOverlayIconMissing, "<GroundOverlay> has no <Icon> image", frame) }
        case "ScreenOverlay":
            // ATC 56, 57 (level 2).
            if !has("Icon") { ats(.warning, .kmlOverlayIconMissing, "<ScreenOverlay> has no <Icon> image", frame) }
            if !has("screenXY") { ats(.warning, .kmlScreenOverlayXy, "ScreenOverlay has no <screenXY> placing it", frame) }
        case "PhotoOverlay":
            // ATC 35; ATC 52 (level 2): $[x], $[y], $[level] in the href exactly when there is an ImagePyramid.
            let missing = ["Icon", "ViewVolume", "Point", "Camera"].filter { !has($0) }
            if !missing.isEmpty {
                ats(.error, .kmlPhotoOverlayIncomplete, "PhotoOverlay lacks <\(missing.joined(separator: ">, <"))>", frame)
            }
            if let href = values["Icon/href"] {
                let tiled = ["$[x]", "$[y]", "$[level]"].allSatisfy { href.contains($0) }
                if tiled != has("ImagePyramid") {
                    ats(.warning, .kmlPhotoOverlayPyramid, tiled ? "PhotoOverlay href has $[x], $[y] and $[level] but no <ImagePyramid>"
                        : "PhotoOverlay has an <ImagePyramid> but its href lacks $[x], $[y] and $[level]", frame)
                }
            }
            if !has("Icon") { ats(.warning, .kmlOverlayIconMissing, "<PhotoOverlay> has no <Icon> image", frame) }
        case "Model":
            // ATC 34 (1); ATC 55 (2) (level 2): a Location altitude unless clamped.
            let missing = ["Link", "Location"].filter { !has($0) }
            if !missing.isEmpty { ats(.error, .kmlModelIncomplete, "Model lacks <\(missing.joined(separator: ">, <"))>", frame) }
            let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
            if has("Location") && values["Location/altitude"] == nil && mode != "clampToGround" && mode != "clampToSeaFloor" {
                ats(.warning, .kmlLocationIncomplete, "Model altitudeMode is \(mode) but its Location has no <altitude>", frame)
            }
        case "Location":
            // ATC 55 (1) (level 2).
            if !has("longitude") || !has("latitude") {
                ats(.warning, .kmlLocationIncomplete, "Location should give <longitude> and <latitude>", frame)
            }
            if has("altitude"), !stack.isEmpty { stack[stack.count - 1].values["Location/altitude"] = values["altitude"] }
        case "ItemIcon":
            // ATC 37.
            if !has("href") { ats(.error, .kmlItemIconHref, "ItemIcon has no <href>", frame) }
        case "LookAt":
            // ATC 38: position and range; tilt 0…90; an altitude unless clamped.
            let missing = ["longitude", "latitude", "range"].filter { !has($0) }
            if !missing.isEmpty { ats(.error, .kmlLookatIncomplete, "LookAt lacks <\(missing.joined(separator: ">, <"))>", frame) }
            if let tilt = values["tilt"].flatMap(KMLATSChecks.number), !(0...90).contains(tilt) {
                ats(.error, .kmlLookatTilt, "LookAt tilt \(tilt) is outside 0…90", frame)
            }
            let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
            if mode != "clampToGround" && mode != "clampToSeaFloor" && !has("altitude") {
                ats(.error, .kmlLookatAltitude, "LookAt altitudeMode is \(mode) but it has no <altitude>", frame)
            }
        case "Camera":
            // ATC 54 (level 2).
            let missing = ["longitude", "latitude", "altitude"].filter { !has($0) }
            if !missing.isEmpty { ats(.warning, .kmlCameraIncomplete, "Camera lacks <\(missing.joined(separator: ">, <"))>", frame) }
            if (values["altitudeMode"] ?? "clampToGround") == "clampToGround" && values["gx:altitudeMode"] == nil {
                ats(.warning, .kmlCameraAltitudeMode, "Camera altitudeMode is clampToGround (the default); a camera is placed above the ground", frame)
            }
        case "Lod":
            // ATC 39; ATC 74 (level 3).
            guard let low = values["minLodPixels"].flatMap(KMLATSChecks.number) else {
                if !has("minLodPixels") { ats(.error, .kmlLodPixels, "Lod has no <minLodPixels>", frame) }
                break
            }
            let high = values["maxLodPixels"].flatMap(KMLATSChecks.number) ?? -1
            if high != -1 && low >= high {
                ats(.error, .kmlLodPixels, "Lod minLodPixels \(low) is not below maxLodPixels \(high)", frame)
            } else if high != -1 {
                let fades = (values["minFadeExtent"].flatMap(KMLATSChecks.number) ?? 0) + (values["maxFadeExtent"].flatMap(KMLATSChecks.number) ?? 0)
                if fades > high - low {
                    ats(.info, .kmlLodFadeExtents, "Lod fade extents (\(fades)) exceed maxLodPixels − minLodPixels (\(high - low))", frame)
                }
            }
        case "Region":
            // ATC 41.
            let missing = ["LatLonAltBox", "Lod"].filter { !has($0) }
            if !missing.isEmpty { ats(.error, .kmlRegionIncomplete, "Region lacks <\(missing.joined(separator: ">, <"))>", frame) }
        case "ResourceMap":
            // ATC 50 (level 2).
            if !has("Alias") { ats(.warning, .kmlResourceMapAlias, "ResourceMap has no <Alias>", frame) }
        case "Alias":
            if let source = values["sourceHref"], parentName == "ResourceMap" {
                if stack[stack.count - 1].aliasSources.contains(source) {
                    ats(.warning, .kmlResourceMapAlias, "Alias sourceHref '\(source.prefix(60))' appears twice in this ResourceMap", frame)
                } else {
                    stack[stack.count - 1].aliasSources.insert(source)
                }
            }
        case "ImagePyramid":
            // ATC 62 (level 2).
            let missing = ["maxWidth", "maxHeight"].filter { !has($0) }
            if !missing.isEmpty { ats(.warning, .kmlImagePyramid, "ImagePyramid lacks <\(missing.joined(separator: ">, <"))>", frame) }
            if let size = values["tileSize"].flatMap(KMLATSChecks.number), !(size >= 1 && size <= 1_073_741_824 && size == size.rounded()
                && Int(size).nonzeroBitCount == 1) {
                ats(.warning, .kmlImagePyramid, "ImagePyramid tileSize \(values["tileSize"]!) is not a power of 2", frame)
            }
        case "MultiGeometry":
            // ATC 66 (level 2).
            let parts = frame.childCounts.filter { KMLATSChecks.geometries.contains($0.key) }.values.reduce(0, +)
            if parts < 2 { ats(.warning, .kmlMultigeometrySingle, "MultiGeometry holds \(parts) geometr\(parts == 1 ? "y" : "ies"); it should hold two or more", frame) }
        case "Placemark":
            // ATC 67 (level 2).
            if !frame.childCounts.keys.contains(where: KMLATSChecks.geometries.contains) {
                ats(.warning, .kmlPlacemarkNoGeometry, "Placemark has no geometry", frame)
            }
        default:
            break
        }

        // ATC 21: an object outside Update has content (any child node, as the ETS counts
        // them), or an id. An object missing a required child was reported as such. A
        // warning: an empty object draws nothing and loses nothing (OverlayKit's own writer
        // gives a feature without geometry or properties as `<Placemark/>`).
        let isEmpty = frame.childCounts.isEmpty && !frame.hasText
        if frame.childCounts.isEmpty && !frame.hasAnyText && (frame.attributes["id"] ?? "").isEmpty
            && KMLATSChecks.objects.contains(name) && KMLElementRules.required[name] == nil {
            ats(.warning, .kmlEmptyObject, "<\(frame.qualifiedName)> is empty and has no id", frame)
        } else if let rule = KMLATSChecks.nonEmpty[name] {
            // ATC 42, 44, 58–61, 63–65 (level 2): not empty (with an id it passed ATC 21).
            let filled = rule.anyOf.isEmpty ? !isEmpty : rule.anyOf.contains(where: has)
            if !filled {
                let what = rule.anyOf.isEmpty ? "is empty" : "has none of \(rule.anyOf.sorted().joined(separator: ", "))"
                ats(.warning, rule.code, "<\(frame.qualifiedName)> \(what)", frame)
            }
            if name == "Scale" && filled && !["x", "y", "z"].allSatisfy(has) {
                // ATC 73 (level 3).
                ats(.info, .kmlScalePartial, "Scale should give all of x, y, z", frame)
            }
        }
        if name == "Icon", parentName == "PhotoOverlay", let href = values["href"], !stack.isEmpty {
            stack[stack.count - 1].values["Icon/href"] = href
        }
    }

    /// North above south and east beyond west (ATC 8, ATC 11): a box with an area. Only
    /// sides that are numbers are compared (others were reported as such).
    private mutating func checkBoxExtent(_ frame: KMLValidator.Frame, code: Diagnostic.Code) {
        let side = { (name: String) in frame.values[name].flatMap(KMLATSChecks.number) }
        if let north = side("north"), let south = side("south"), north <= south {
            ats(.error, code, "\(frame.qualifiedName) north \(north) is not above south \(south)", frame)
        }
        if let east = side("east"), let west = side("west"), east <= west {
            ats(.error, code, "\(frame.qualifiedName) east \(east) is not beyond west \(west) (a box across 180° is not allowed by the ATS)", frame)
        }
    }

    /// `uom` on Data or SimpleField (ATC 2): KML 2.3 added it, so a KML 2.2 document may not
    /// carry it; in 2.3 it names a unit — a URI (`urn:ogc:def:uom:…`, `http://…`) or a UCUM
    /// code of `knownUnits` — and a word no unit system defines (`furlongs`) is a finding, as
    /// no reader can convert the values it qualifies.
    private mutating func checkUnitOfMeasure(_ frame: KMLValidator.Frame) {
        guard let unit = frame.attributes["uom"] else { return }
        if !isKML23 {
            ats(.error, .kmlDataUom, "<\(frame.qualifiedName)> uom is KML 2.3; a KML 2.2 document cannot carry it", frame)
        } else if KMLATSChecks.scheme(of: unit) == nil && !KMLATSChecks.knownUnits.contains(unit) {
            ats(.error, .kmlDataUom, "<\(frame.qualifiedName)> uom '\(unit.prefix(40))' is no known unit of measure: give a UCUM code (m, km/h, Cel…) or a URI naming the unit", frame)
        }
    }

    /// Link, Icon and Url: ATC 9 (positive intervals), ATC 40 (an href), ATC 46, 47, 51 (level 2).
    private mutating func checkLink(_ frame: KMLValidator.Frame) {
        let values = frame.values
        if frame.childCounts["href"] == nil && !frame.inUpdate {
            ats(.error, .kmlLinkHrefMissing, "<\(frame.qualifiedName)> has no <href>", frame)
        }
        for field in ["refreshInterval", "viewRefreshTime", "viewBoundScale"] {
            if let value = values[field].flatMap(KMLATSChecks.number), value <= 0 {
                ats(.error, .kmlLinkValueNotPositive, "<\(field)> must be positive, found \(values[field]!)", frame)
            }
        }
        if values["refreshInterval"] != nil, values["refreshMode"] != "onInterval" {
            ats(.warning, .kmlLinkRefreshMode, "refreshInterval is given but refreshMode is \(values["refreshMode"] ?? "onChange (the default)"), not onInterval", frame)
        }
        if values["viewRefreshTime"] != nil, values["viewRefreshMode"] != "onStop" {
            ats(.warning, .kmlLinkRefreshMode, "viewRefreshTime is given but viewRefreshMode is \(values["viewRefreshMode"] ?? "never (the default)"), not onStop", frame)
        }
        if let format = values["viewFormat"], !format.isEmpty, !format.contains("[") {
            ats(.warning, .kmlViewFormatParameters, "viewFormat '\(format.prefix(60))' holds no [parameter]", frame)
        }
        if let query = values["httpQuery"], !query.contains("[") {
            ats(.warning, .kmlHttpQueryParameters, "httpQuery '\(query.prefix(60))' holds no [parameter]", frame)
        }
    }

    /// Geometry: ATC 12 (extrude needs a height), ATC 13 (tessellate needs clampToGround),
    /// ATC 48 (level 2: a ring in a Polygon has none of extrude, tessellate, altitudeMode),
    /// ATC 43 (level 2: heights when the altitude mode uses them).
    private mutating func checkAltitudeUse(_ frame: KMLValidator.Frame) {
        let values = frame.values
        let inPolygon = frame.name == "LinearRing" && (stack.last?.name == "outerBoundaryIs" || stack.last?.name == "innerBoundaryIs")
        if inPolygon {
            let present = ["extrude", "tessellate", "altitudeMode"].filter { frame.childCounts[$0] != nil }
            if !present.isEmpty {
                ats(.warning, .kmlRingInPolygonMembers, "a LinearRing in a Polygon should not have <\(present.joined(separator: ">, <"))> (the Polygon's apply)", frame)
            }
            return
        }
        let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
        let clamped = mode == "clampToGround" || mode == "clampToSeaFloor"
        if KMLATSChecks.isTrue(values["extrude"]) && clamped {
            ats(.warning, .kmlExtrudeClamped, "<\(frame.qualifiedName)> is extruded but its altitudeMode is \(mode), so it has no height to extrude from", frame)
        }
        if KMLATSChecks.isTrue(values["tessellate"]) && mode != "clampToGround" && frame.name != "Point" {
            ats(.warning, .kmlTessellateAltitude, "<\(frame.qualifiedName)> is tessellated but its altitudeMode is \(mode); tessellation needs clampToGround", frame)
        }
        if values["altitudeMode"] != nil || values["gx:altitudeMode"] != nil, !clamped {
            let flat: Bool
            if frame.name == "Polygon" {
                flat = frame.rings.contains { $0.coordinates.contains { $0.altitude == nil } }
            } else {
                flat = frame.coordinates?.contains { $0.altitude == nil } ?? false
            }
            if flat {
                ats(.warning, .kmlCoordinatesAltitudeMissing, "<\(frame.qualifiedName)> altitudeMode is \(mode) but some positions have no altitude", frame)
            }
        }
    }
}
