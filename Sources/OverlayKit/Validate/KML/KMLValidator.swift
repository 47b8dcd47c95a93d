import OverlayModel

/// Validates a KML document in one streaming pass over libxml2's reader: well-formedness
/// (libxml2's line and column), structure (unknown or misplaced elements, required children),
/// coordinate syntax and range, ring closure and length, StyleMap pairs, `styleUrl` targets,
/// `SimpleData` values against their `SimpleField` types, `gx:Track` when/coord counts,
/// `TimeSpan` order, and geometry validity of polygons and lines in map points.
///
/// Every finding carries the line, a column where one can be found, and the element path
/// (`/kml/Document/Folder[2]/Placemark[5]/Polygon`). References (`styleUrl`, `schemaUrl`) are
/// resolved as soon as their target is known, so targets may come anywhere in the document.
/// The OGC KML 2.2 Abstract Test Suite assertions (`KMLATSChecks`, catalogued in
/// `KMLRuleCatalog`) run on each element as it closes.
///
/// Memory is bounded by the open elements and what cross-references need, not the document:
/// style ids as 64-bit hashes (`KMLIDSet`), Schemas, references whose target has not been seen
/// yet (a few locations and a count per target), and at most `listLimit` listed findings per
/// code (the rest counted).
struct KMLValidator {
    let input: ByteInput
    var checksGeometry = true
    /// The highest OGC KML 2.2 ATS conformance level whose rules run (1–3).
    var atsLevel = 1
    /// Which version's constructs a document in KML's namespace may use.
    var kmlVersion = KMLVersion.automatic

    /// One open element.
    struct Frame {
        var name: String
        var qualifiedName: String
        var path: String
        var line: Int
        /// Content not checked (free-form or foreign elements).
        var opaque: Bool
        var childCounts: [String: Int] = [:]
        /// Captured text, for elements whose value is checked.
        var text: [UInt8]?
        var attributes: [String: String] = [:]
        /// Values of simple children (key, begin, end), trimmed.
        var values: [String: String] = [:]
        var coordinates: [Coordinate]?
        var coordinatesLine = 0
        var coordinatesPath = ""
        /// Rings of a Polygon (outer first), or the ring of a boundary element.
        var rings: [(coordinates: [Coordinate], line: Int, path: String)] = []
        var hasOuter = false
        /// Pairs of a StyleMap: key, and whether it names a style.
        var pairs: [(key: String?, hasStyle: Bool, line: Int, path: String)] = []
        var fields: [String: String] = [:]
        /// Whether the element holds non-blank text, or any text at all (for the ATS "not
        /// empty" rules: level 2 ignores white space, the ETS's ATC 21 counts every node).
        var hasText = false
        var hasAnyText = false
        /// True inside `Update` (the ATS exempts updates from most content rules).
        var inUpdate = false
        /// `name` attributes of the `Data` children seen so far (ATC 28), an ExtendedData's only.
        var dataNames: Set<String> = []
        /// `sourceHref` values of the `Alias` children seen so far (ATC 50), a ResourceMap's only.
        var aliasSources: Set<String> = []
        /// A feature's property names as the reader would build them (docs/kml.md "Property names").
        var propertyNames: KMLPropertyBuilder?
    }

    /// References to one target not seen yet: how many, and where the first few are.
    struct PendingReferences {
        var count = 0
        var locations: [SourceLocation] = []

        /// Whether the next reference's place is still kept.
        var keepsNext: Bool { locations.count < KMLValidator.pendingLocationLimit }

        /// Counts one more reference, keeping its place while there is room.
        mutating func add(_ location: @autoclosure () -> SourceLocation) {
            count += 1
            if keepsNext { locations.append(location()) }
        }
    }

    /// SimpleData values of one field whose Schema is not known yet: where the first few are,
    /// and for each checkable type the values that do not fit it (counted, first few kept).
    struct PendingField {
        var uses = PendingReferences()
        var misfits: [String: [(value: String, location: SourceLocation)]] = [:]
        var misfitCounts: [String: Int] = [:]

        /// One more value, against every checkable type; its place (`location`, found only
        /// when kept) is kept for the first few uses and misfits.
        mutating func add(_ value: String, at location: () -> SourceLocation) {
            var place: SourceLocation?
            func found() -> SourceLocation {
                if let place { return place }
                place = location()
                return place!
            }
            uses.add(found())
            for type in KMLValidator.typesMissed(by: value) {
                misfitCounts[type, default: 0] += 1
                if misfits[type, default: []].count < KMLValidator.pendingLocationLimit {
                    misfits[type, default: []].append((String(value.prefix(40)), found()))
                }
            }
        }
    }

    /// How many locations a pending reference keeps, and findings listed per code.
    static let pendingLocationLimit = 20
    static let listLimit = 1000

    /// Elements whose text is read.
    static let textElements: Set<String> = KMLATSChecks.valueElements.union([
        "coordinates", "when", "gx:coord", "SimpleData", "gx:value", "atom:email", "atom:uri",
    ])

    func validate() throws -> [Diagnostic] {
        var walk = Walk(xml: try XMLStreamReader(input: input), checksGeometry: checksGeometry)
        walk.atsLevel = atsLevel
        walk.kmlVersion = kmlVersion
        do {
            try walk.run()
        } catch var diagnostic as Diagnostic where !diagnostic.isIOError {
            if diagnostic.code == .kmlXmlSyntax { diagnostic.message = "not well-formed XML: " + diagnostic.message }
            walk.findings.append(diagnostic)
            walk.reportUnlisted()
            return walk.findings
        }
        walk.resolveReferences()
        walk.reportUnlisted()
        return walk.findings
    }

    /// The state of one pass.
    struct Walk {
        let xml: XMLStreamReader
        let checksGeometry: Bool
        var atsLevel = 1
        var kmlVersion = KMLVersion.automatic
        var findings: [Diagnostic] = []
        /// Findings per code, listed or not (only `listLimit` of each are kept).
        var codeCounts: [Diagnostic.Code: Int] = [:]
        var stack: [Frame] = []
        /// Ids of Style/StyleMap children of Document (shared styles, ATC 7) and of styles
        /// elsewhere (inline in a Folder, a Placemark or a Pair).
        var sharedStyleIDs = KMLIDSet()
        var otherStyleIDs = KMLIDSet()
        /// The element name of each id (the first element to carry it), as 64-bit hashes:
        /// a reference that names no style or Schema is told apart from one that names an
        /// element of another kind (a Document, a Placemark). About 24 bytes an id.
        var elementKinds: [UInt64: String] = [:]
        /// `#id` styleUrls whose target is not a shared style seen so far.
        var pendingStyleReferences: [String: PendingReferences] = [:]
        var schemas: [String: [String: String]] = [:]
        /// SimpleData by schemaUrl and field, for Schemas not seen yet.
        var pendingSchemaUses: [String: PendingReferences] = [:]
        var pendingFields: [String: [String: PendingField]] = [:]
        /// The document is OGC KML 2.3 (`<kml version="2.3">`, or the 2.3 namespace some writers use).
        var isKML23 = false
        /// KML 2.3's constructs are accepted: a 2.3 document, or (unless held to 2.2) any
        /// document in KML's namespace, as 2.3 kept that namespace.
        var accepts23 = false
        var sawRoot = false
        /// How often each kind of repetitive warning was seen (only the first few are listed).
        var repeats: [String: (count: Int, first: SourceLocation?)] = [:]
        /// Property names that collide as the reader would read them, reported once at the end.
        var propertyCollisions = KMLPropertyCollisions()
        static let repeatLimit = 5

        /// Counts one more occurrence; true while it should still be listed.
        mutating func counted(_ key: String) -> Bool {
            var entry = repeats[key] ?? (0, nil)
            entry.count += 1
            repeats[key] = entry
            return entry.count <= Self.repeatLimit
        }

        init(xml: XMLStreamReader, checksGeometry: Bool) {
            self.xml = xml
            self.checksGeometry = checksGeometry
        }

        mutating func report(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: String, line: Int,
                             path: String, needle: String? = nil) {
            guard listing(code) else { return }
            findings.append(Diagnostic(severity, code: code, message: message,
                                       location: xml.location(line: line, needle: needle, kmlPath: path)))
        }

        /// Adds a finding, unless `listLimit` findings of its code are already listed.
        mutating func add(_ diagnostic: Diagnostic) {
            guard listing(diagnostic.code) else { return }
            findings.append(diagnostic)
        }

        /// Counts a finding of `code`; true while findings of that code are still listed.
        mutating func listing(_ code: Diagnostic.Code) -> Bool {
            let count = codeCounts[code, default: 0] + 1
            codeCounts[code] = count
            return count <= KMLValidator.listLimit
        }

        /// One note per code whose findings were not all listed.
        mutating func reportUnlisted() {
            for (code, count) in codeCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where count > KMLValidator.listLimit {
                findings.append(Diagnostic(.info, code: .kmlFindingsNotListed,
                                           message: "\(count - KMLValidator.listLimit) more \(code) findings are not listed (the first \(KMLValidator.listLimit) are)",
                                           location: SourceLocation(file: xml.fileName, line: 1, column: 1)))
            }
        }

        mutating func run() throws {
            while try xml.read() {
                switch xml.kind {
                case .element:
                    open()
                    if xml.isEmptyElement { close() }
                case .endElement:
                    close()
                case .text:
                    guard !stack.isEmpty else { break }
                    if stack[stack.count - 1].text != nil {
                        xml.withValueBytes { stack[stack.count - 1].text!.append(contentsOf: $0) }
                    }
                    stack[stack.count - 1].hasAnyText = true
                    // Only the "not empty" tests need to know whether the text is blank.
                    if !stack[stack.count - 1].hasText && KMLATSChecks.nonEmpty[stack[stack.count - 1].name] != nil {
                        stack[stack.count - 1].hasText = xml.withValueBytes { bytes in
                            bytes.contains { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
                        }
                    }
                default:
                    break
                }
            }
            for warning in xml.takeParserWarnings() { add(warning) }
            if let collisions = propertyCollisions.diagnostic { add(collisions) }
            for (key, entry) in repeats.sorted(by: { $0.key < $1.key }) where entry.count > Self.repeatLimit {
                let what = key.split(separator: " ")
                let element = what.count > 1 ? "<\(what[1])>" : key
                findings.append(Diagnostic(.info, code: what.first == "unknown" ? .kmlUnknownElement : .kmlMisplacedElement,
                                           message: "\(entry.count - Self.repeatLimit) more \(element) elements like the ones above are not listed",
                                           location: SourceLocation(file: xml.fileName, line: 1, column: 1)))
            }
            if !sawRoot {
                findings.append(Diagnostic(.error, code: .kmlNoRoot, message: "the document has no root element",
                                           location: SourceLocation(file: xml.fileName, line: 1, column: 1)))
            }
        }

        private mutating func open() {
            let qualified = xml.qualifiedName
            let namespace = xml.namespaceURI
            var known = KMLElementRules.name(local: xml.localName, namespace: namespace)
            if stack.isEmpty {
                isKML23 = kmlVersion == .v2_3 || (kmlVersion == .automatic && KMLATSChecks.isKML23(namespace: namespace, version: xml.attribute("version")))
                accepts23 = isKML23 || kmlVersion == .automatic
            }
            // KML 2.3 took Google's gx: elements into KML's namespace; the tables know them as gx:.
            if accepts23, known == xml.localName, let adopted = KMLATSChecks.adoptedIn23[xml.localName] {
                known = adopted
            }
            let name = known ?? qualified
            var index = 1
            if !stack.isEmpty {
                index = stack[stack.count - 1].childCounts[name, default: 0] + 1
                stack[stack.count - 1].childCounts[name] = index
            }
            let path = (stack.last?.path ?? "") + "/" + qualified + (index > 1 ? "[\(index)]" : "")
            let line = xml.line
            var opaque = known == nil || KMLElementRules.opaque.contains(name)
            if let parent = stack.last {
                if parent.opaque {
                    opaque = true
                } else if known != nil {
                    if !KMLElementRules.known.contains(name) {
                        if counted("unknown " + qualified) {
                            report(.warning, .kmlUnknownElement, "<\(qualified)> is not a KML 2.2 element; it is ignored",
                                   line: line, path: path, needle: "<" + qualified)
                        }
                        opaque = true
                    } else if let allowed = KMLElementRules.children[parent.name], !allowed.contains(name) {
                        if counted("misplaced \(qualified) \(parent.qualifiedName)") {
                            // ATC 2 (level 1): the schema rejects it, and what it says has no effect
                            // there (a ListStyle on a NetworkLink styles nothing).
                            report(.error, .kmlMisplacedElement, "<\(qualified)> does not belong inside <\(parent.qualifiedName)>",
                                   line: line, path: path, needle: "<" + qualified)
                        }
                        opaque = true
                    }
                }
            } else {
                sawRoot = true
                if name != "kml" {
                    report(.error, .kmlRoot, "the root element is <\(qualified)>, not <kml>", line: line, path: path,
                           needle: "<" + qualified)
                } else if known == nil {
                    report(.warning, .kmlNamespace, "<kml> is in namespace \(xml.namespaceURI ?? ""), which is not KML's; read as KML 2.2",
                           line: line, path: path, needle: "<" + qualified)
                }
            }
            var frame = Frame(name: name, qualifiedName: qualified, path: path, line: line, opaque: opaque && name != "kml")
            if Walk.featureElements.contains(name) { frame.propertyNames = KMLPropertyBuilder() }
            frame.inUpdate = name == "Update" || (stack.last?.inUpdate ?? false)
            if KMLValidator.textElements.contains(name) && (!frame.opaque || KMLATSChecks.readsInsideOpaque(name, parent: stack.last?.name)) {
                frame.text = []
            }
            for attribute in ["id", "name", "type", "schemaUrl", "uom"] {
                if let value = xml.attribute(attribute) { frame.attributes[attribute] = value }
            }
            // Only where an ATS test reads them (Update targets, atom:link).
            if let parent = stack.last?.name, parent == "Create" || parent == "Delete" || parent == "Change",
               let value = xml.attribute("targetId") {
                frame.attributes["targetId"] = value
            }
            if name == "atom:link", let value = xml.attribute("rel") { frame.attributes["rel"] = value }
            let parentName = stack.last?.name
            if let id = frame.attributes["id"] { noteElementKind(id, name) }
            if name == "gx:CascadingStyle", let id = xml.attribute("kml:id") ?? frame.attributes["id"] { defineStyle(id, shared: true) }
            if (name == "Style" || name == "StyleMap"), let id = frame.attributes["id"] {
                defineStyle(id, shared: parentName == "Document")
            }
            checkOnOpen(frame, parent: parentName, grandparent: stack.count > 1 ? stack[stack.count - 2].name : nil)
            stack.append(frame)
        }

        private mutating func close() {
            guard var frame = stack.popLast() else { return }
            defer { frame.text = nil }
            noteProperty(of: frame)
            guard !frame.opaque else {
                if frame.text != nil { checkInsideOpaque(frame, text: String(decoding: frame.text!, as: UTF8.self).kmlValidatorTrimmed) }
                return
            }
            for required in KMLElementRules.required[frame.name] ?? [] where frame.childCounts[required] == nil {
                report(.error, .kmlMissingChild, "<\(frame.qualifiedName)> needs a <\(required)>", line: frame.line,
                       path: frame.path, needle: "<" + frame.qualifiedName)
            }
            let text = frame.text.map { String(decoding: $0, as: UTF8.self).kmlValidatorTrimmed } ?? ""
            if KMLATSChecks.valueElements.contains(frame.name) { setParentValue(frame.name, text) }
            checkOnClose(frame, text: text)
            switch frame.name {
            case "coordinates":
                closeCoordinates(frame)
            case "when":
                if KMLTime(text) == nil {
                    report(.warning, .kmlTimeSyntax, "'\(text.prefix(40))' is not a KML time (YYYY, YYYY-MM, YYYY-MM-DD or an xsd:dateTime)",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
            case "styleUrl":
                if text.hasPrefix("#") { referenceStyle(String(text.dropFirst()), frame) }
            case "gx:coord":
                closeTrackCoordinate(frame, text: text)
            case "LinearRing":
                closeRing(frame)
            case "outerBoundaryIs", "innerBoundaryIs":
                if (frame.childCounts["LinearRing"] ?? 0) > 1 {
                    report(.error, .kmlBoundaryRings, "<\(frame.qualifiedName)> holds one LinearRing, found \(frame.childCounts["LinearRing"]!)",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
                if let ring = frame.rings.first, !stack.isEmpty, stack[stack.count - 1].name == "Polygon" {
                    if frame.name == "outerBoundaryIs" {
                        stack[stack.count - 1].rings.insert(ring, at: 0)
                        stack[stack.count - 1].hasOuter = true
                    } else {
                        stack[stack.count - 1].rings.append(ring)
                    }
                }
            case "Polygon":
                if checksGeometry && frame.hasOuter { checkPolygon(frame) }
            case "LineString":
                if let coordinates = frame.coordinates {
                    if coordinates.count < 2 {
                        report(.error, .kmlLineTooShort, "a LineString needs two or more positions, found \(coordinates.count)",
                               line: frame.coordinatesLine, path: frame.coordinatesPath, needle: "<coordinates")
                    } else if checksGeometry {
                        for finding in GeometryValidity.checkLine(coordinates) {
                            reportGeometry(finding, line: frame.coordinatesLine, path: frame.coordinatesPath)
                        }
                    }
                }
            case "Point":
                if let coordinates = frame.coordinates, coordinates.count != 1 {
                    report(.error, .kmlPointCoordinates, "a Point has exactly one position, found \(coordinates.count)",
                           line: frame.coordinatesLine, path: frame.coordinatesPath, needle: "<coordinates")
                }
            case "Pair":
                if !stack.isEmpty {
                    let hasStyle = frame.childCounts["Style"] != nil || frame.childCounts["StyleMap"] != nil
                        || !(frame.values["styleUrl"] ?? "").isEmpty
                    stack[stack.count - 1].pairs.append((frame.values["key"], hasStyle, frame.line, frame.path))
                }
            case "StyleMap":
                checkStyleMap(frame)
            case "TimeSpan", "gx:TimeSpan":
                closeTimeSpan(frame)
            case "gx:Track":
                let whens = frame.childCounts["when"] ?? 0, coords = frame.childCounts["gx:coord"] ?? 0
                if whens != coords {
                    report(.error, .kmlTrackCountMismatch,
                           "gx:Track has \(whens) <when> and \(coords) <gx:coord>; they pair up one to one",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
            case "SimpleField":
                if !stack.isEmpty, let name = frame.attributes["name"] {
                    stack[stack.count - 1].fields[name] = KMLSimpleFieldType.normalized(frame.attributes["type"] ?? "string")
                }
                if frame.attributes["name"] == nil || frame.attributes["type"] == nil {
                    report(.error, .kmlMissingAttribute, "<SimpleField> needs name and type attributes",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
            case "Schema":
                if let id = frame.attributes["id"] { schemas[id] = frame.fields }
                if let name = frame.attributes["name"], schemas[name] == nil { schemas["name:" + name] = frame.fields }
            case "SimpleData":
                useSimpleData(schemaURL: stack.last.flatMap { $0.attributes["schemaUrl"] }, frame, value: text)
            default:
                break
            }
        }

        private mutating func setParentValue(_ name: String, _ value: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].values[name] = value
        }

        private mutating func closeCoordinates(_ frame: Frame) {
            var coordinates: [Coordinate] = []
            var problems: [KMLCoordinates.Problem] = []
            let bytes = frame.text ?? []
            bytes.withUnsafeBufferPointer { KMLCoordinates.parse($0, into: &coordinates, problems: &problems) }
            for problem in problems.prefix(100) {
                add(Diagnostic(problem.dropped ? .error : .warning,
                                           code: problem.dropped ? .kmlCoordinateSyntax : .kmlCoordinateExtra,
                                           message: "\(problem.message) ('\(problem.text)')",
                                           location: xml.location(ofTextOffset: problem.offset, in: bytes, elementLine: frame.line,
                                                                         elementName: frame.qualifiedName, kmlPath: frame.path)))
            }
            if problems.count > 100 {
                report(.error, .kmlCoordinateSyntax, "\(problems.count - 100) more malformed tuples in this element",
                       line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
            }
            var outOfRange = 0
            for coordinate in coordinates where !coordinate.isValid {
                outOfRange += 1
                if outOfRange == 1 {
                    let latitudeBad = !(coordinate.latitude >= -90 && coordinate.latitude <= 90)
                    report(latitudeBad ? .error : .warning, .kmlCoordinateRange,
                           latitudeBad ? "latitude \(coordinate.latitude) is outside -90…90 (is the tuple latitude,longitude? KML is longitude,latitude)"
                                       : "longitude \(coordinate.longitude) is outside -180…180",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
            }
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].coordinates = coordinates
            stack[stack.count - 1].coordinatesLine = frame.line
            stack[stack.count - 1].coordinatesPath = frame.path
        }

        private mutating func closeTrackCoordinate(_ frame: Frame, text: String) {
            // An empty coord is a missing position, estimated by the reader (KML 2.3 ATC-146).
            guard !text.isEmpty else { return }
            let values = Array(text.utf8).withUnsafeBufferPointer { KMLCoordinates.parseSpaceSeparated($0) }
            guard let values, values.count == 2 || values.count == 3 else {
                report(.error, .kmlCoordinateSyntax, "gx:coord '\(text.prefix(60))' is not 'longitude latitude [altitude]'",
                       line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                return
            }
            if !(values[1] >= -90 && values[1] <= 90) {
                report(.error, .kmlCoordinateRange, "latitude \(values[1]) is outside -90…90", line: frame.line, path: frame.path,
                       needle: "<" + frame.qualifiedName)
            } else if !(values[0] >= -180 && values[0] <= 180) {
                report(.warning, .kmlCoordinateRange, "longitude \(values[0]) is outside -180…180", line: frame.line,
                       path: frame.path, needle: "<" + frame.qualifiedName)
            }
        }

        private mutating func closeRing(_ frame: Frame) {
            guard let coordinates = frame.coordinates else { return }
            if coordinates.count < 4 {
                report(.error, .kmlRingTooShort, "a LinearRing needs four or more positions (the last repeating the first), found \(coordinates.count)",
                       line: frame.coordinatesLine, path: frame.coordinatesPath, needle: "<coordinates")
            } else if let first = coordinates.first, let last = coordinates.last,
                      first.latitude != last.latitude || first.longitude != last.longitude {
                report(.warning, .kmlRingNotClosed, "a LinearRing must end where it starts; readers close it by repeating the first position",
                       line: frame.coordinatesLine, path: frame.coordinatesPath, needle: "<coordinates")
            }
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].rings.append((coordinates, frame.coordinatesLine, frame.coordinatesPath))
        }

        private mutating func checkPolygon(_ frame: Frame) {
            let rings = frame.rings
            guard rings.allSatisfy({ $0.coordinates.count >= 3 }) else { return }
            for finding in GeometryValidity.checkPolygons([rings.map(\.coordinates)]) {
                let ring = rings[min(finding.ring, rings.count - 1)]
                let vertex = finding.vertex.map { " (position \($0 + 1) of the ring)" } ?? ""
                add(Diagnostic(finding.severity, code: finding.code, message: finding.message + vertex,
                                           location: xml.location(line: ring.line, needle: "<coordinates", kmlPath: ring.path)))
            }
        }

        private mutating func reportGeometry(_ finding: GeometryValidity.Finding, line: Int, path: String) {
            let vertex = finding.vertex.map { " (position \($0 + 1))" } ?? ""
            add(Diagnostic(finding.severity, code: finding.code, message: finding.message + vertex,
                                       location: xml.location(line: line, needle: "<coordinates", kmlPath: path)))
        }

        private mutating func closeTimeSpan(_ frame: Frame) {
            var times: [String: KMLTime] = [:]
            for part in ["begin", "end"] {
                guard let text = frame.values[part] else { continue }
                if let time = KMLTime(text) {
                    times[part] = time
                } else {
                    report(.warning, .kmlTimeSyntax, "<\(part)> '\(text.prefix(40))' is not a KML time (YYYY, YYYY-MM, YYYY-MM-DD or an xsd:dateTime)",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
            }
            if let begin = times["begin"], let end = times["end"], begin.start >= end.end {
                report(.error, .kmlTimespanOrder, "TimeSpan begins (\(frame.values["begin"]!)) after it ends (\(frame.values["end"]!))",
                       line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
            }
        }

        mutating func noteElementKind(_ id: String, _ name: String) {
            let hash = KMLIDSet.hash(id)
            if elementKinds[hash] == nil { elementKinds[hash] = name }
        }

        /// The kind of element carrying `id`, if any.
        func elementKind(_ id: String) -> String? { elementKinds[KMLIDSet.hash(id)] }

        /// A Style or StyleMap with an id: references to it waiting for it are settled when it
        /// is a shared style (a child of Document, ATC 7).
        mutating func defineStyle(_ id: String, shared: Bool) {
            if shared {
                sharedStyleIDs.insert(id)
                pendingStyleReferences[id] = nil
            } else {
                otherStyleIDs.insert(id)
            }
        }

        /// A `#id` styleUrl: settled at once when its shared style was seen, else kept (a count
        /// and the first locations) until the style comes or the document ends.
        mutating func referenceStyle(_ target: String, _ frame: Frame) {
            guard !sharedStyleIDs.contains(target) else { return }
            // Mutated in place (the `default:` subscript), so nothing is copied per reference.
            let xml = xml
            pendingStyleReferences[target, default: PendingReferences()]
                .add(xml.location(line: frame.line, needle: "<" + frame.qualifiedName, kmlPath: frame.path))
        }

        /// A SimpleData: checked at once when its Schema was seen; else summarized per field
        /// (which checkable types its values miss) until the end.
        mutating func useSimpleData(schemaURL: String?, _ frame: Frame, value: String) {
            guard let field = frame.attributes["name"] else {
                report(.error, .kmlMissingAttribute, "<SimpleData> needs a name attribute", line: frame.line, path: frame.path,
                       needle: "<" + frame.qualifiedName)
                return
            }
            guard let schemaURL, schemaURL.hasPrefix("#") else { return }  // another file's schema: not fetched
            let id = String(schemaURL.dropFirst())
            // By id only (ATC 27): a Schema whose name matches is another element's name, not its id.
            if let fields = schemas[id] {
                guard let type = fields[field] else {
                    report(.warning, .kmlSimpleDataUnknownField, "SimpleData '\(field)' has no SimpleField in schema \(schemaURL)",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                    return
                }
                if !KMLValidator.value(value, fits: type) {
                    report(.error, .kmlSimpleDataType, "SimpleData '\(field)' value '\(value.prefix(40))' is not a valid \(type)",
                           line: frame.line, path: frame.path, needle: "<" + frame.qualifiedName)
                }
                return
            }
            let xml = xml
            let location = { xml.location(line: frame.line, needle: "<" + frame.qualifiedName, kmlPath: frame.path) }
            pendingSchemaUses[schemaURL, default: PendingReferences()].add(location())
            pendingFields[schemaURL, default: [:]][field, default: PendingField()].add(value, at: location)
        }

        /// Reports kept locations, and one more finding for those only counted.
        private mutating func reportPending(_ pending: PendingReferences, _ severity: Diagnostic.Severity, _ code: Diagnostic.Code,
                                            _ message: String, more: String) {
            for location in pending.locations {
                add(Diagnostic(severity, code: code, message: message, location: location))
            }
            if pending.count > pending.locations.count, let last = pending.locations.last {
                add(Diagnostic(severity, code: code, message: "\(pending.count - pending.locations.count) more \(more) (not listed)",
                               location: last))
            }
        }

        /// Settles what waited for the end of the document: style and schema references and the
        /// SimpleData values of Schemas defined late.
        mutating func resolveReferences() {
            for (target, pending) in pendingStyleReferences.sorted(by: { $0.key < $1.key }) {
                if otherStyleIDs.contains(target) {
                    // Readers resolve it, but the ATS wants shared styles under Document.
                    if let first = pending.locations.first {
                        add(Diagnostic(.warning, code: .kmlSharedStyleParent,
                                       message: "styleUrl #\(target) names a style that is not a child of <Document> (\(pending.count) reference\(pending.count == 1 ? "" : "s")); shared styles belong in Document",
                                       location: first))
                    }
                } else if let kind = elementKind(target) {
                    // ATC 6: the reference must reach a Style or StyleMap, not any element with that id.
                    reportPending(pending, .error, .kmlStyleUrlWrongKind, "styleUrl #\(target) names a <\(kind)>, not a Style or StyleMap",
                                  more: "styleUrl references to #\(target)")
                } else {
                    // Valid for OGC's suites (a fragment need not resolve), but nothing draws it:
                    // a warning, as for a style that is not a child of Document.
                    reportPending(pending, .warning, .kmlStyleUrlMissing, "styleUrl #\(target) names no Style or StyleMap in this document; readers draw the default style",
                                  more: "styleUrl references to #\(target)")
                }
            }
            for (schemaURL, uses) in pendingSchemaUses.sorted(by: { $0.key < $1.key }) {
                let id = String(schemaURL.dropFirst())
                guard let fields = schemas[id] else {
                    if let kind = elementKind(id) {
                        reportPending(uses, .error, .kmlSchemaUrlWrongKind, "schemaUrl \(schemaURL) names a <\(kind)>, not a Schema",
                                      more: "SimpleData elements use \(schemaURL)")
                    } else if schemas["name:" + id] != nil {
                        reportPending(uses, .error, .kmlSchemaUrlMissing,
                                      "schemaUrl \(schemaURL) names no Schema id in this document; a Schema is named '\(id)', but schemaUrl refers to a Schema by its id",
                                      more: "SimpleData elements use \(schemaURL)")
                    } else {
                        reportPending(uses, .error, .kmlSchemaUrlMissing, "schemaUrl \(schemaURL) names no Schema in this document",
                                      more: "SimpleData elements use \(schemaURL)")
                    }
                    continue
                }
                for (field, pending) in (pendingFields[schemaURL] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    guard let type = fields[field] else {
                        reportPending(pending.uses, .warning, .kmlSimpleDataUnknownField,
                                      "SimpleData '\(field)' has no SimpleField in schema \(schemaURL)",
                                      more: "SimpleData '\(field)' elements of \(schemaURL)")
                        continue
                    }
                    let misfits = pending.misfits[type] ?? []
                    for misfit in misfits {
                        add(Diagnostic(.error, code: .kmlSimpleDataType,
                                       message: "SimpleData '\(field)' value '\(misfit.value)' is not a valid \(type)", location: misfit.location))
                    }
                    let count = pending.misfitCounts[type] ?? 0
                    if count > misfits.count, let last = misfits.last {
                        add(Diagnostic(.error, code: .kmlSimpleDataType,
                                       message: "\(count - misfits.count) more SimpleData '\(field)' values are not a valid \(type) (not listed)",
                                       location: last.location))
                    }
                }
            }
        }
    }

    /// The checked types a value does not fit, from one parse of the value (the same verdicts
    /// as `value(_:fits:)` for each type, which the tests compare).
    static func typesMissed(by value: String) -> [String] {
        if value.isEmpty { return [] }
        if let number = Int64(value.hasPrefix("+") ? String(value.dropFirst()) : value) {
            var missed: [String] = []
            if !(number >= Int64(Int32.min) && number <= Int64(Int32.max)) { missed.append("int") }
            if !(number >= Int64(Int16.min) && number <= Int64(Int16.max)) { missed.append("short") }
            if !(number >= 0 && number <= Int64(UInt32.max)) { missed.append("uint") }
            if !(number >= 0 && number <= Int64(UInt16.max)) { missed.append("ushort") }
            if !KMLValidator.value(value, fits: "double") { missed += ["float", "double"] }
            if value != "0" && value != "1" { missed.append("bool") }
            return missed
        }
        var missed = ["int", "short", "uint", "ushort"]
        if !KMLValidator.value(value, fits: "double") { missed += ["float", "double"] }
        if !KMLValidator.value(value, fits: "bool") { missed.append("bool") }
        return missed
    }

    /// Whether a SimpleData value fits its SimpleField type (KML 2.2 §9.8.2).
    static func value(_ value: String, fits type: String) -> Bool {
        switch type {
        case "int", "short", "uint", "ushort":
            guard let number = Int64(value.hasPrefix("+") ? String(value.dropFirst()) : value) else { return value.isEmpty }
            switch type {
            case "int": return number >= Int64(Int32.min) && number <= Int64(Int32.max)
            case "short": return number >= Int64(Int16.min) && number <= Int64(Int16.max)
            case "uint": return number >= 0 && number <= Int64(UInt32.max)
            default: return number >= 0 && number <= Int64(UInt16.max)
            }
        case "float", "double":
            if value.isEmpty || ["INF", "-INF", "NaN"].contains(value) { return true }
            // xsd:double's lexical form: no hex, no "inf"/"nan" spellings Double(String) takes.
            return value.utf8.allSatisfy { "0123456789+-.eE".utf8.contains($0) } && Double(value) != nil
        case "bool":
            return ["0", "1", "true", "false", ""].contains(value)
        default:
            return true
        }
    }
}

private extension String {
    var kmlValidatorTrimmed: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
