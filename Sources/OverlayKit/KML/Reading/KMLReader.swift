import OverlayModel

/// Streams features out of KML (2.2, 2.1, 2.0, Google's `earth.google.com` namespaces, `gx:`
/// extensions, or no namespace at all), one `Placemark` (or overlay) at a time.
///
/// Parsing is libxml2's SAX2 push parser fed a chunk at a time (see `XMLStreamReader`), so
/// memory is bounded by the largest placemark, not the file.
///
/// Mapping to the model: `Point` → `PointAnnotation` (title = name, subtitle = description);
/// `LineString` and bare `LinearRing` → `Polyline`; `Polygon` → `Polygon` with
/// `interiorPolygons`; `MultiGeometry` of one kind → `MultiPolygon`, `MultiPolyline` or a
/// `.multiPoint` collection, of mixed kinds → a `.geometryCollection`; `gx:Track` →
/// `Polyline` and `gx:MultiTrack` → `MultiPolyline`, their `when` times kept in
/// `coordinateProperties.times`; a `Polygon` whose ExtendedData carries
/// `KMLConventions.circleCenterKey` and `circleRadiusKey` → `Circle`; `GroundOverlay` →
/// `Polygon` of its LatLonBox (rotated) or gx:LatLonQuad with the image in `icon`;
/// `NetworkLink`, `ScreenOverlay`, `PhotoOverlay` → features with their links (never
/// fetched; a warning says so — but in a KMZ, a `NetworkLink` naming one of its KML entries is
/// followed by that entry's features, see `KMZNetworkLinks`). Recovered as GDAL and libkml do:
/// tuples joined by commas only (split into triples), GML `MultiPolygon`/`MultiLineString`/
/// `MultiPoint`, and pre-2.2 `Schema parent="Placemark"` placemarks; each with a warning.
///
/// Properties: `name`, `description` (CDATA kept as text), `address`, `phoneNumber`,
/// `visibility` (bool), ExtendedData `Data` (strings) and `SchemaData` (typed by the
/// `Schema`'s SimpleField: int/uint/short/ushort → integer, float/double → number, bool →
/// boolean, string), `timestamp`, `timespan` {begin, end}, and the geometry's
/// `altitudeMode`, `extrude`, `tessellate`. The `id` attribute is `Feature.id`; enclosing
/// `Folder` names are `Feature.folderPath`.
///
/// Styles: the resolved `styleUrl` (Style or StyleMap normal) with an inline `Style` over it
/// is `Feature.style`; a StyleMap's highlight is `Feature.highlightStyle`. Shared styles may
/// appear anywhere in the document. Streaming choice: features whose `styleUrl` names a style
/// not seen yet are held back (with everything after them, so order is kept) until it is
/// defined or the document ends; files that define styles first — nearly all — stream with
/// nothing held. At most `maximumHeldFeatures` are held; beyond that the oldest is resolved
/// with what is known and a warning names the missing style.
///
/// Everything not kept is reported: each unknown or unused element once per name, with the
/// line of its first occurrence.
public struct KMLReader: FeatureReader {
    let core: KMLParserCore
    /// Files embedded in the KMZ this KML came from (images, models, other KML), by path.
    public var resources: KMZResources?
    /// KML entries of the same KMZ reached through `NetworkLink`s, read after their link.
    var networkLinks: KMZNetworkLinks?

    /// How many features may wait for a forward-referenced style.
    public static let maximumHeldFeatures = 10_000

    /// Starts reading KML from the input (nothing is read until `next()`).
    public init(input: ByteInput) throws {
        core = try KMLParserCore(xml: XMLStreamReader(input: input), input: input)
    }

    /// Reads KML from `input`, naming it `name` in diagnostics (e.g. `a.kmz/doc.kml`).
    init(input: ByteInput, name: String) throws {
        core = try KMLParserCore(xml: XMLStreamReader(input: input, name: name), input: input)
    }

    public mutating func next() throws -> Feature? {
        guard networkLinks != nil else { return try core.nextFeature() }
        return try networkLinks!.next(after: core)
    }

    /// The outermost `Document`'s `name` and the collection members its `ExtendedData` carries
    /// (docs/kml.md "GeoJSON → KML → GeoJSON"): the GeoJSON FeatureCollection's members.
    var documentMembers: JSONObject {
        var members = JSONObject()
        if let name = core.documentName { members.append("name", .string(name)) }
        for member in core.documentMembers where members[member.key] == nil { members.append(member.key, member.value) }
        return members
    }

    /// Adds a warning found around the document (e.g. by the KMZ that holds it), reported
    /// with the reader's own.
    mutating func addWarning(_ warning: Diagnostic) {
        core.warnings.append(warning)
    }

    public mutating func takeWarnings() -> [Diagnostic] {
        var warnings = core.takeWarnings()
        if networkLinks != nil { warnings += networkLinks!.takeWarnings() }
        return warnings
    }
}

/// Names the reader and writer agree on for things KML has no element for.
public enum KMLConventions {
    /// ExtendedData `Data` holding a circle's center as `longitude,latitude[,altitude]`.
    public static let circleCenterKey = "overlaykit:circle-center"
    /// ExtendedData `Data` holding a circle's radius in meters.
    public static let circleRadiusKey = "overlaykit:circle-radius"
    /// ExtendedData `Data` holding a feature id that is not an XML name (so cannot be the
    /// `id` attribute), as JSON text: `12`, `"a b"`.
    public static let featureIDKey = "overlaykit:id"
    /// A `SimpleField`'s `displayName` marking values written as JSON text (null, arrays and
    /// objects, which KML types cannot hold).
    public static let jsonFieldDisplayName = "json"
}

/// A feature read but not yet handed out: its style may be defined later in the document.
private struct PendingFeature {
    var feature: Feature
    var styleUrl: String?
    var inlineStyle: Style?
    var inlineMap: KMLStyleMap?
    var line: Int
    /// SimpleData read as text because their Schema was not defined yet: typed on release.
    var lateSchemaValues: [LateSchemaValue] = []
}

/// A SimpleData (or SimpleArrayData) value whose `SchemaData` names a Schema not seen yet.
private struct LateSchemaValue {
    var schemaURL: String
    var schemaID: String
    var key: String
    /// The property (or coordinate array) name the value was read under (docs/kml.md "Property names").
    var propertyKey: String
    var line: Int
    var isArray: Bool
}

/// The reader's state: a class so the streaming reader and its tables are shared, not copied.
final class KMLParserCore {
    let xml: XMLStreamReader
    var warnings: [Diagnostic] = []
    private var styles = KMLStyleTable()
    /// Schema id (and name) → field name → (type, displayName).
    private var schemas: [String: [String: (type: String, displayName: String?)]] = [:]
    /// `Schema parent="Placemark"` element names (Google Earth 5.x, pre-2.2) and their fields.
    private var legacyPlacemarks = KMLLegacySchemaPlacemarks()
    private struct Container {
        var name: String
        var depth: Int
        var isFolder: Bool
        var folderName: String
        var childCounts: [String: Int] = [:]
    }
    private var containers: [Container] = []
    private var rootSeen = false
    private var finished = false
    private var queue: [PendingFeature] = []
    private var queueHead = 0
    private var reported: Set<String> = []
    private var textBuffer: [UInt8] = []
    /// Late-schema values of the feature being parsed (moved into its `PendingFeature`).
    private var lateSchemaValues: [LateSchemaValue] = []
    /// The outermost Document's `name`.
    private(set) var documentName: String?
    /// FeatureCollection members carried in the outermost Document's ExtendedData.
    var documentMembers = JSONObject()
    /// The next top-level MultiGeometry is a GeoJSON GeometryCollection (KMLGeoJSONFidelity).
    private var keepsGeometryCollection = false
    /// Property names that collided in this document, reported once at its end.
    private var propertyCollisions = KMLPropertyCollisions()

    /// The input, read once more from its start if a Schema comes too late (`KMLSchemaPrescan`).
    private let input: ByteInput
    /// True once the input has been scanned for Schemas (at most once).
    private var schemasPrescanned = false
    /// Schemas whose values are all read as text: defined too late on an input read only once.
    private var textOnlySchemas: Set<String> = []

    /// In a KMZ: the archive entry a `NetworkLink` href names, if any (read by `KMZNetworkLinks`,
    /// so the link gets no "not fetched" warning).
    var archiveEntry: ((String) -> String?)?

    /// The parser's warnings and the reader's, in that order, leaving none behind.
    func takeWarnings() -> [Diagnostic] {
        var taken = xml.takeParserWarnings()
        taken += warnings
        warnings.removeAll()
        return taken
    }

    init(xml: XMLStreamReader, input: ByteInput) {
        self.xml = xml
        self.input = input
        textBuffer.reserveCapacity(1 << 16)
    }

    // MARK: The document walk

    func nextFeature() throws -> Feature? {
        while true {
            if let feature = releaseReady() { return feature }
            if finished { return nil }
            guard try xml.read() else {
                finished = true
                if let collisions = propertyCollisions.diagnostic { warnings.append(collisions) }
                if !rootSeen {
                    throw Diagnostic(.error, code: "kml.empty", message: "input holds no KML element",
                                     location: xml.location(line: 1))
                }
                continue
            }
            switch xml.kind {
            case .element:
                try handleElement()
            case .endElement:
                if let top = containers.last, top.depth == xml.depth { containers.removeLast() }
            default:
                break
            }
        }
    }

    private func handleElement() throws {
        let name = xml.localName
        guard rootSeen else {
            rootSeen = true
            // A fragment whose root is a feature (no <kml>) is read as that one feature.
            if ["Placemark", "GroundOverlay", "NetworkLink", "ScreenOverlay", "PhotoOverlay"].contains(name) {
                queue.append(try parseFeature(kind: name, index: 1))
                return
            }
            guard ["kml", "Document", "Folder"].contains(name) else {
                throw Diagnostic(.error, code: "kml.not-kml", message: "the root element is <\(xml.qualifiedName)>, not <kml>",
                                 location: xml.location(line: xml.line, needle: "<" + xml.qualifiedName))
            }
            if !xml.isEmptyElement { containers.append(Container(name: name, depth: xml.depth, isFolder: name == "Folder", folderName: "")) }
            return
        }
        let index = nextIndex(of: name)
        switch name {
        case "Document", "Folder":
            if !xml.isEmptyElement {
                containers.append(Container(name: "\(name)[\(index)]", depth: xml.depth, isFolder: name == "Folder", folderName: ""))
            }
        case "name" where containers.last?.isFolder == true:
            containers[containers.count - 1].folderName = try xml.readText()
        case "name" where documentName == nil && containers.last?.name.hasPrefix("Document") == true
            && containers.filter({ $0.name.hasPrefix("Document") || $0.isFolder }).count == 1:
            documentName = try xml.readText()
        case "ExtendedData" where containers.last?.name.hasPrefix("Document") == true
            && containers.filter({ $0.name.hasPrefix("Document") || $0.isFolder }).count == 1:
            try parseDocumentExtendedData()
        case "Placemark", "GroundOverlay", "NetworkLink", "ScreenOverlay", "PhotoOverlay":
            let pending = try parseFeature(kind: name, index: index)
            queue.append(pending)
        case "Style":
            let line = xml.line
            let id = xml.attribute("id")
            let style = try styleParser().parseStyle()
            if let id { styles.define(style, id: id) } else { report("kml.unused-style", "a shared <Style> without id can never be used; skipped", line: line, once: "Style-without-id") }
        case "StyleMap":
            let line = xml.line
            let id = xml.attribute("id")
            let map = try styleParser().parseStyleMap()
            if let id { styles.define(map, id: id) } else { report("kml.unused-style", "a shared <StyleMap> without id can never be used; skipped", line: line, once: "StyleMap-without-id") }
        case "CascadingStyle":
            // Google Earth's newer shared style: <gx:CascadingStyle kml:id="…"><Style>…</Style>.
            let line = xml.line
            let id = xml.attribute("id") ?? xml.attribute("kml:id")
            var style: Style?
            try xml.forEachChild { child in
                if child == "Style" { style = try styleParser().parseStyle() } else { try skipReported(child, in: "gx:CascadingStyle") }
            }
            if let id, let style { styles.define(style, id: id) } else if id == nil {
                report("kml.unused-style", "a <gx:CascadingStyle> without id can never be used; skipped", line: line, once: "CascadingStyle-without-id")
            }
        case "Schema":
            try parseSchema()
        case _ where legacyPlacemarks.fields(ofElement: name) != nil:
            report("kml.legacy-markup", "<\(xml.qualifiedName)> is a placemark declared by <Schema parent=\"Placemark\">, "
                   + "pre-KML 2.2 markup (Google Earth 5.x); read as a Placemark with its fields typed by the Schema",
                   line: xml.line, once: "legacy-placemark", needle: "<" + xml.qualifiedName)
            queue.append(try parseFeature(kind: "Placemark", index: index, legacyFields: legacyPlacemarks.fields(ofElement: name)))
        default:
            let line = xml.line
            let qualified = xml.qualifiedName
            let known = ["name", "open", "visibility", "description", "Snippet", "snippet", "LookAt", "Camera", "Region",
                         "author", "link", "address", "phoneNumber", "AddressDetails", "ExtendedData", "TimeSpan",
                         "TimeStamp", "styleUrl", "NetworkLinkControl", "Tour", "balloonVisibility", "Update"]
            let what = known.contains(name) ? "is not an overlay and is not kept" : "is not a KML element this reader knows; skipped"
            report("kml.ignored-element", "<\(qualified)> in <\(containers.last.map { $0.name } ?? "kml")> \(what)",
                   line: line, once: "container:" + qualified, needle: "<" + qualified)
            try xml.skipElement()
        }
    }

    private func nextIndex(of name: String) -> Int {
        guard !containers.isEmpty else { return 1 }
        let count = (containers[containers.count - 1].childCounts[name] ?? 0) + 1
        containers[containers.count - 1].childCounts[name] = count
        return count
    }

    private var currentPath: String {
        "/" + containers.map(\.name).joined(separator: "/")
    }

    private var folderPath: [String] {
        containers.filter(\.isFolder).map(\.folderName)
    }

    private func styleParser() -> KMLStyleParser {
        KMLStyleParser(xml: xml, dropped: { [unowned self] name, line in
            report("kml.ignored-element", "<\(name)> in a style is not kept", line: line, once: "style:" + name)
        }, invalid: { [unowned self] message, line in
            report("kml.invalid-value", message, line: line)
        })
    }

    // MARK: Diagnostics

    /// Adds a warning; with `once`, only the first warning under that key is kept.
    private func report(_ code: String, _ message: String, line: Int, once: String? = nil, needle: String? = nil,
                        kmlPath: String? = nil) {
        if let once {
            guard !reported.contains(once) else { return }
            reported.insert(once)
        }
        // Without a needle, the element the message names first ("<LineString> has one
        // position"): its column on the line, not column 1.
        warnings.append(Diagnostic(.warning, code: code, message: message + (once != nil ? " (reported once)" : ""),
                                   location: xml.location(line: line, needle: needle ?? Self.elementNeedle(in: message), kmlPath: kmlPath)))
    }

    /// `<Name` for the first `<Name>` a message mentions, nil when it mentions none.
    static func elementNeedle(in message: String) -> String? {
        guard let open = message.firstIndex(of: "<") else { return nil }
        let name = message[message.index(after: open)...].prefix { $0 != ">" && $0 != " " && $0 != "/" }
        return name.isEmpty ? nil : "<" + name
    }

    // MARK: Style resolution and the queue of held features

    private func releaseReady() -> Feature? {
        guard queueHead < queue.count else { return nil }
        let pending = queue[queueHead]
        let held = queue.count - queueHead
        if !finished && held <= KMLReader.maximumHeldFeatures {
            if let url = pending.styleUrl, !styles.isResolvable(url) { return nil }
            if let map = pending.inlineMap, !styles.isResolvable(map) { return nil }
            // A Schema defined after its placemarks: held, as late styles are, so types come out right.
            if pending.lateSchemaValues.contains(where: { schemas[$0.schemaID] == nil }) { return nil }
        } else if !finished {
            learnLateSchemas(for: pending)
        }
        queue[queueHead] = PendingFeature(feature: Feature(shape: nil), line: 0)
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead > 1024 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return resolveStyle(typeLateSchemaValues(pending))
    }

    /// Too many features wait for a Schema: learn every Schema of the input from a second read
    /// (once), or, when the input cannot be read twice, read the missing Schemas' values as
    /// text from here to the end, so that each column keeps one type.
    private func learnLateSchemas(for pending: PendingFeature) {
        let missing = pending.lateSchemaValues.filter { schemas[$0.schemaID] == nil && !textOnlySchemas.contains($0.schemaID) }
        guard !missing.isEmpty else { return }
        if !schemasPrescanned, let copy = input.independentCopy() {
            schemasPrescanned = true
            for schema in KMLSchemaPrescan.schemas(in: copy, name: xml.fileName) {
                if let id = schema.id, schemas[id] == nil { schemas[id] = schema.fields }
                if let name = schema.name, schemas[name] == nil { schemas[name] = schema.fields }
            }
            return
        }
        guard !schemasPrescanned else { return }
        for late in missing where !textOnlySchemas.contains(late.schemaID) {
            textOnlySchemas.insert(late.schemaID)
            report("kml.late-schema", "SchemaData names schema '\(late.schemaURL)', not defined before \(KMLReader.maximumHeldFeatures) "
                   + "placemarks using it, and \(xml.fileName ?? "standard input") cannot be read twice to find it; "
                   + "all its values are read as text so that each column has one type (read from a file to type them)",
                   line: late.line)
        }
    }

    /// Types the values read before their Schema, or reports the Schema missing.
    private func typeLateSchemaValues(_ pending: PendingFeature) -> PendingFeature {
        guard !pending.lateSchemaValues.isEmpty, var properties = pending.feature.properties else { return pending }
        var result = pending
        for late in pending.lateSchemaValues where !textOnlySchemas.contains(late.schemaID) {
            guard let fields = schemas[late.schemaID] else {
                report("kml.missing-schema", "SchemaData names schema '\(late.schemaURL)', which is not defined in this document; its values are read as text",
                       line: late.line, once: "schema:" + late.schemaURL)
                continue
            }
            let field = fields[late.key]
            if late.isArray {
                guard var coordinateProperties = properties["coordinateProperties"]?.objectValue,
                      case .array(let values)? = coordinateProperties[late.propertyKey] else { continue }
                coordinateProperties[late.propertyKey] = .array(values.map { value in
                    value.stringValue.map { typedValue($0, field: field, key: late.key, line: late.line) } ?? value
                })
                properties["coordinateProperties"] = .object(coordinateProperties)
            } else if let text = properties[late.propertyKey]?.stringValue {
                properties[late.propertyKey] = typedValue(text, field: field, key: late.key, line: late.line)
            }
        }
        result.feature.properties = properties
        result.lateSchemaValues = []
        return result
    }

    private func resolveStyle(_ pending: PendingFeature) -> Feature {
        var feature = pending.feature
        var resolved = KMLStyleTable.Resolved()
        if let url = pending.styleUrl { resolved = styles.resolve(url) }
        if let map = pending.inlineMap {
            let inline = styles.resolve(map)
            resolved.normal = inline.normal ?? resolved.normal
            resolved.highlight = inline.highlight ?? resolved.highlight
            resolved.missing += inline.missing
            resolved.external += inline.external
        }
        for id in resolved.missing {
            warnings.append(Diagnostic(.warning, code: "kml.missing-style",
                                       message: "styleUrl #\(id) names no Style or StyleMap in this document; the feature keeps only its inline style",
                                       location: feature.location))
        }
        for url in resolved.external {
            warnings.append(Diagnostic(.warning, code: "kml.external-style",
                                       message: "styleUrl \(url) points outside this document and is not fetched",
                                       location: feature.location))
        }
        var normal = resolved.normal
        var highlight = resolved.highlight
        if let inline = pending.inlineStyle {
            normal = (normal ?? Style()).overridden(by: inline)
            highlight = highlight.map { $0.overridden(by: inline) }
        }
        feature.style = normal.flatMap { $0.isEmpty ? nil : $0 }
        feature.highlightStyle = highlight.flatMap { $0.isEmpty ? nil : $0 }
        return feature
    }

    // MARK: Features

    private struct GeometryInfo {
        var altitudeMode: String?
        var extrude: Bool?
        var tessellate: Bool?
        var times: JSONValue?
    }

    /// Reads one feature element; `legacyFields` are the typed child elements of a
    /// `Schema parent="Placemark"` placemark (see `KMLLegacySchemaPlacemarks`).
    private func parseFeature(kind: String, index: Int, legacyFields: [String: KMLLegacySchemaPlacemarks.Field]? = nil) throws -> PendingFeature {
        let line = xml.line
        let qualified = xml.qualifiedName
        let path = currentPath + "/\(legacyFields == nil ? kind : xml.localName)[\(index)]"
        var feature = Feature(shape: nil, folderPath: folderPath,
                              location: xml.location(line: line, needle: "<" + qualified, kmlPath: path))
        if let id = xml.attribute("id") { feature.id = .string(id) }
        var pending = PendingFeature(feature: feature, line: line)
        lateSchemaValues = []
        var properties = KMLPropertyBuilder()
        var shape: Shape?
        var info = GeometryInfo()
        var iconHref: String?
        var box: (north: Double, south: Double, east: Double, west: Double, rotation: Double)?
        var quad: [Coordinate]?
        var link: JSONObject?
        var region: (box: [Double]?, lod: [JSONValue]?)?
        var regionLine = line

        try xml.forEachChild { name in
            switch name {
            case "name", "description", "address", "phoneNumber":
                // An empty element says nothing (and togeojson leaves it out too). Markup in a
                // description is kept as the XML written, as GDAL does.
                let text = name == "description" ? try xml.readInnerXML() : try xml.readText()
                if !text.isEmpty { properties[name] = .string(text) }
            case "visibility":
                let valueLine = xml.line
                let text = try xml.readText()
                if let flag = KMLStyleParser.bool(text) { properties["visibility"] = .bool(flag) } else {
                    report("kml.invalid-value", "visibility '\(text.kmlTrimmed)' is not 0 or 1; kept as text", line: valueLine)
                    properties["visibility"] = .string(text)
                }
            case "styleUrl":
                pending.styleUrl = try xml.readText().kmlTrimmed
            case "Style":
                pending.inlineStyle = try styleParser().parseStyle()
            case "StyleMap":
                pending.inlineMap = try styleParser().parseStyleMap()
            case "ExtendedData":
                try parseExtendedData(into: &properties)
            case "TimeStamp":
                try xml.forEachChild { part in
                    if part == "when" { properties["timestamp"] = .string(try xml.readText().kmlTrimmed) } else { try skipReported(part, in: "TimeStamp") }
                }
            case "TimeSpan":
                var span = JSONObject()
                try xml.forEachChild { part in
                    if part == "begin" || part == "end" { span[part] = .string(try xml.readText().kmlTrimmed) } else { try skipReported(part, in: "TimeSpan") }
                }
                properties["timespan"] = .object(span)
            case "Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Track", "MultiTrack", "Model",
                 "MultiPolygon", "MultiLineString", "MultiPoint":
                if shape != nil {
                    report("kml.extra-geometry", "<\(kind)> has more than one geometry; only the first is kept", line: xml.line)
                    try xml.skipElement()
                } else {
                    keepsGeometryCollection = properties[KMLConventions.geometryTypeKey] == .string("GeometryCollection")
                    shape = try parseGeometry(name, info: &info)
                    keepsGeometryCollection = false
                }
            case "Icon":
                try xml.forEachChild { part in
                    if part == "href" { iconHref = try xml.readText().kmlTrimmed } else { try skipReported(part, in: "Icon") }
                }
            case "LatLonBox":
                var values: [String: Double] = [:]
                try xml.forEachChild { part in values[part] = try readNumber(part) }
                if let north = values["north"], let south = values["south"], let east = values["east"], let west = values["west"] {
                    box = (north, south, east, west, values["rotation"] ?? 0)
                } else {
                    report("kml.invalid-value", "LatLonBox needs north, south, east and west", line: xml.line)
                }
            case "LatLonQuad":
                quad = try parseCoordinates(of: "LatLonQuad")
            case "Link", "Url":
                var object = JSONObject()
                try xml.forEachChild { part in object[part] = .string(try xml.readText().kmlTrimmed) }
                link = object
            case "Region":
                regionLine = xml.line
                region = try parseRegion()
            case "altitude", "drawOrder":
                properties[name] = .number(try readNumber(name) ?? 0)
            case "altitudeMode":
                properties["altitudeMode"] = .string(try xml.readText().kmlTrimmed)
            case _ where legacyFields?[name] != nil:
                let valueLine = xml.line
                _ = properties.appendData(name, typedValue(try xml.readText(), field: legacyFields?[name], key: name, line: valueLine))
            default:
                try skipReported(xml.qualifiedName, in: kind)
            }
        }

        if let mode = info.altitudeMode { properties["altitudeMode"] = .string(mode) }
        if let extrude = info.extrude { properties["extrude"] = .bool(extrude) }
        if let tessellate = info.tessellate { properties["tessellate"] = .bool(tessellate) }
        if let times = info.times { properties.setTimes(times) }

        switch kind {
        case "GroundOverlay":
            properties["@geometry-type"] = .string("groundoverlay")
            if let iconHref { properties["icon"] = .string(iconHref) }
            if let box {
                shape = .polygon(Polygon(coordinates: KMLGroundOverlay.ring(north: box.north, south: box.south, east: box.east,
                                                                            west: box.west, rotation: box.rotation)))
                feature.foreignMembers["bbox"] = .array([box.west, box.south, box.east, box.north].map { .number($0) })
            } else if let quad, quad.count == 4 {
                shape = .polygon(Polygon(coordinates: quad + [quad[0]]))
            } else {
                report("kml.invalid-value", "GroundOverlay has neither a LatLonBox nor a 4-corner gx:LatLonQuad; read without geometry", line: line)
            }
        case "NetworkLink", "ScreenOverlay", "PhotoOverlay":
            // Geometry (docs/kml.md): a PhotoOverlay's Point, else the Region's box, where the
            // link or photo is active; a ScreenOverlay is drawn on the screen, not the map, so it
            // has none and its Region's box is the property `region` [west, south, east, north].
            properties["@geometry-type"] = .string(kind.lowercased())
            if let iconHref { properties["icon"] = .string(iconHref) }
            if let link {
                if let href = link["href"] { properties["href"] = href }
                for member in link where member.key != "href" { properties[member.key] = member.value }
            }
            if let region {
                if let lod = region.lod { properties["lod"] = .array(lod) }
                if kind == "ScreenOverlay", let b = region.box {
                    properties["region"] = .array([b[3], b[1], b[2], b[0]].map { .number($0) })
                } else if shape == nil, let b = region.box {
                    shape = .polygon(Polygon(coordinates: [
                        Coordinate(latitude: b[0], longitude: b[3]), Coordinate(latitude: b[0], longitude: b[2]),
                        Coordinate(latitude: b[1], longitude: b[2]), Coordinate(latitude: b[1], longitude: b[3]),
                        Coordinate(latitude: b[0], longitude: b[3]),
                    ]))
                    feature.foreignMembers["bbox"] = .array([b[3], b[1], b[2], b[0]].map { .number($0) })
                }
            }
            let target = (link?["href"] ?? iconHref.map { .string($0) })?.stringValue ?? "no link"
            // A link to an entry of the same KMZ is read, not fetched (KMZNetworkLinks).
            if kind == "NetworkLink", archiveEntry?(target) != nil { break }
            warnings.append(Diagnostic(.warning, code: "kml.not-fetched",
                                       message: "<\(kind)> kept as a feature; its link (\(target)) is not fetched",
                                       location: feature.location))
        default:
            if region != nil {
                report("kml.ignored-element", "<Region> in <\(kind)> is not kept", line: regionLine, once: kind + "/Region", needle: "<Region")
            }
        }
        // Overlay parts read above but meaningless on this kind of feature: said, not dropped silently.
        if kind == "Placemark" {
            for (present, element) in [(iconHref != nil, "Icon"), (box != nil, "LatLonBox"), (quad != nil, "gx:LatLonQuad"), (link != nil, "Link")]
            where present {
                report("kml.ignored-element", "<\(element == "Link" ? "Link>/<Url" : element)> in <Placemark> is not kept", line: line, once: "Placemark/" + element)
            }
        }

        if let text = properties[KMLConventions.featureIDKey]?.stringValue {
            let scanner = JSONScanner(input: ByteInput(string: text))
            switch try? scanner.readValue() {
            case .string(let id)?: feature.id = .string(id)
            case .integer(let id)?: feature.id = .integer(id)
            case .number(let id)?: feature.id = .number(id)
            default: feature.id = .string(text)
            }
            properties[KMLConventions.featureIDKey] = nil
        }
        // What KML cannot say about a GeoJSON feature, from the writer's overlaykit: Data.
        let hadNullProperties = KMLGeoJSONFidelity.hadNullProperties(properties)
        KMLGeoJSONFidelity.restore(&feature, shape: &shape, properties: &properties)
        // A polygon carrying a circle's center and radius is that circle.
        if case .polygon? = shape, let circle = KMLCircle.circle(from: properties.object) {
            shape = .circle(circle)
            properties[KMLConventions.circleCenterKey] = nil
            properties[KMLConventions.circleRadiusKey] = nil
        }
        if let current = shape {
            shape = decorate(current, properties: properties.object)
        }
        feature.shape = shape
        feature.properties = hadNullProperties && properties.isEmpty ? nil : properties.object
        for move in properties.moves {
            for index in lateSchemaValues.indices where lateSchemaValues[index].propertyKey == move.from {
                lateSchemaValues[index].propertyKey = move.to
            }
        }
        propertyCollisions.add(properties.collisions, unnamed: properties.unnamedCount, at: feature.location)
        pending.feature = feature
        pending.lateSchemaValues = lateSchemaValues
        lateSchemaValues = []
        return pending
    }

    /// Points take the feature's name and description as title and subtitle.
    private func decorate(_ shape: Shape, properties: JSONObject) -> Shape {
        switch shape {
        case .annotation(var annotation):
            annotation.title = properties["name"]?.stringValue
            annotation.subtitle = properties["description"]?.stringValue
            return .annotation(annotation)
        case .collection(var collection):
            collection.members = collection.members.map { decorate($0, properties: properties) }
            return .collection(collection)
        default:
            return shape
        }
    }

    private func skipReported(_ name: String, in parent: String) throws {
        report("kml.ignored-element", "<\(name)> in <\(parent)> is not kept", line: xml.line, once: parent + "/" + name,
               needle: "<" + name)
        try xml.skipElement()
    }

    private func readNumber(_ what: String) throws -> Double? {
        let line = xml.line
        let text = try xml.readText().kmlTrimmed
        if let value = Double(text), value.isFinite { return value }
        report("kml.invalid-value", "<\(what)> '\(text)' is not a number", line: line)
        return nil
    }

    private func parseRegion() throws -> (box: [Double]?, lod: [JSONValue]?) {
        var box: [Double]?
        var lod: [JSONValue]?
        try xml.forEachChild { part in
            switch part {
            case "LatLonAltBox":
                var values: [String: Double] = [:]
                try xml.forEachChild { field in
                    // altitudeMode (and gx:altitudeMode) is a word, not a number; the region's altitudes are not kept.
                    if field == "altitudeMode" { try xml.skipElement() } else { values[field] = try readNumber(field) }
                }
                if let n = values["north"], let s = values["south"], let e = values["east"], let w = values["west"] { box = [n, s, e, w] }
            case "Lod":
                var values: [String: Double] = [:]
                try xml.forEachChild { field in values[field] = try readNumber(field) }
                lod = ["minLodPixels", "maxLodPixels", "minFadeExtent", "maxFadeExtent"].map { key in
                    values[key].map { .number($0) } ?? .null
                }
            default:
                try skipReported(part, in: "Region")
            }
        }
        return (box, lod)
    }

    // MARK: ExtendedData and Schema

    private func parseSchema() throws {
        let schema = try KMLSchemaPrescan.readSchema(xml) { child in try skipReported(child, in: "Schema") }
        // A Schema whose values were already read as text stays text (one type per column).
        if let id = schema.id, !textOnlySchemas.contains(id) { schemas[id] = schema.fields }
        if let name = schema.name, schemas[name] == nil, !textOnlySchemas.contains(name) { schemas[name] = schema.fields }
        legacyPlacemarks.define(name: schema.name, parent: schema.parent, fields: schema.fields)
    }

    private func parseExtendedData(into properties: inout KMLPropertyBuilder) throws {
        try xml.forEachChild { child in
            switch child {
            case "Data":
                let key = xml.attribute("name")
                var value: String?
                try xml.forEachChild { part in
                    if part == "value" { value = try xml.readText() } else { try xml.skipElement() }
                }
                properties.appendData(key, .string(value ?? ""))
            case "SchemaData":
                let url = xml.attribute("schemaUrl") ?? ""
                let schemaID = url.hasPrefix("#") ? String(url.dropFirst()) : url
                let textOnly = textOnlySchemas.contains(schemaID)
                let fields = textOnly ? nil : schemas[schemaID]
                // "#id" not seen yet: typed when the feature is released (the Schema may come later).
                let late = fields == nil && url.hasPrefix("#") && !textOnly
                if fields == nil && !late && !textOnly {
                    report("kml.missing-schema", "SchemaData names schema '\(url)', which is not in this document; its values are read as text",
                           line: xml.line, once: "schema:" + url)
                }
                try xml.forEachChild { part in
                    switch part {
                    case "SimpleData":
                        let line = xml.line
                        let name = xml.attribute("name")
                        let key = name ?? ""
                        let text = try xml.readText()
                        let propertyKey = properties.appendData(name, typedValue(text, field: fields?[key], key: key, line: line))
                        if late {
                            lateSchemaValues.append(LateSchemaValue(schemaURL: url, schemaID: schemaID, key: key, propertyKey: propertyKey,
                                                                    line: line, isArray: false))
                        }
                    case "SimpleArrayData":
                        // Per-vertex values of a gx:Track, beside its times.
                        let name = xml.attribute("name")
                        let key = name ?? ""
                        let line = xml.line
                        var values: [JSONValue] = []
                        try xml.forEachChild { item in
                            let line = xml.line
                            if item == "value" { values.append(typedValue(try xml.readText(), field: fields?[key], key: key, line: line)) } else { try xml.skipElement() }
                        }
                        let propertyKey = properties.appendCoordinateArray(name, values)
                        if late {
                            lateSchemaValues.append(LateSchemaValue(schemaURL: url, schemaID: schemaID, key: key, propertyKey: propertyKey,
                                                                    line: line, isArray: true))
                        }
                    default:
                        try skipReported(part, in: "SchemaData")
                    }
                }
            default:
                // Arbitrary XML from another namespace: keep its text under its qualified name.
                let key = xml.qualifiedName
                properties.appendData(key, .string(try xml.readText()))
            }
        }
    }

    private func typedValue(_ text: String, field: (type: String, displayName: String?)?, key: String, line: Int) -> JSONValue {
        guard let field else { return .string(text) }
        var trimmed = text.kmlTrimmed
        switch field.type {
        case "int", "uint", "short", "ushort":
            if !trimmed.isEmpty, let value = trimmed.withUTF8({ JSONNumberParser.parseInteger($0.baseAddress!, count: $0.count) }) { return .integer(value) }
            if let value = Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) { return .integer(value) }
        case "float", "double":
            // An integer literal beyond 32 bits is an integer that needed a wider type than
            // xsd:int (the writer uses double up to 2^53): read back as the integer it was.
            if trimmed.utf8.count > 9, let value = Int64(trimmed), !(Int64(Int32.min)...Int64(Int32.max) ~= value),
               abs(value) <= 1 << 53 {
                return .integer(value)
            }
            if !trimmed.isEmpty, let value = trimmed.withUTF8({ KMLCoordinates.number($0.baseAddress!, count: $0.count) }) { return .number(value) }
        case "bool":
            if let value = KMLStyleParser.bool(trimmed) { return .bool(value) }
        case "string":
            if field.displayName == KMLConventions.jsonFieldDisplayName {
                let scanner = JSONScanner(input: ByteInput(string: text))
                if let value = try? scanner.readValue(), (try? scanner.peekSignificant()) == nil { return value }
            }
            return .string(text)
        default:
            return .string(text)
        }
        report("kml.invalid-value", "SimpleData \(key) '\(trimmed)' is not a valid \(field.type); kept as text", line: line)
        return .string(text)
    }

    // MARK: Geometry

    private func parseGeometry(_ name: String, info: inout GeometryInfo) throws -> Shape? {
        let line = xml.line
        switch name {
        case "Point":
            let coordinates = try parseCoordinates(of: name, info: &info)
            guard let first = coordinates.first else {
                report("kml.empty-geometry", "<Point> has no coordinates; read without geometry", line: line)
                return nil
            }
            if coordinates.count > 1 {
                report("kml.extra-coordinates", "<Point> has \(coordinates.count) coordinate tuples; the first is kept", line: line)
            }
            return .annotation(PointAnnotation(coordinate: first))
        case "LineString", "LinearRing":
            let coordinates = try parseCoordinates(of: name, info: &info)
            guard !coordinates.isEmpty else {
                report("kml.empty-geometry", "<\(name)> has no coordinates; read without geometry", line: line)
                return nil
            }
            guard coordinates.count > 1 else {
                // RFC 7946 §3.1.4: a LineString needs two positions; the one given is kept as a point.
                report("kml.short-line", "<\(name)> has one position; read as a Point", line: line)
                return .annotation(PointAnnotation(coordinate: coordinates[0]))
            }
            return .polyline(Polyline(coordinates: coordinates))
        case "Polygon":
            var outer: [Coordinate]?
            var holes: [Polygon] = []
            try xml.forEachChild { part in
                switch part {
                case "outerBoundaryIs", "innerBoundaryIs":
                    try xml.forEachChild { ringName in
                        guard ringName == "LinearRing" else { try skipReported(ringName, in: part); return }
                        let ringLine = xml.line
                        let ring = try closedRing(parseCoordinates(of: "LinearRing", info: &info), line: ringLine)
                        guard ring.count >= 4 else {
                            report("kml.short-ring", "a LinearRing needs at least 4 positions, has \(ring.count); ring dropped", line: ringLine,
                                   needle: "<LinearRing")
                            return
                        }
                        if part == "outerBoundaryIs" {
                            if outer == nil { outer = ring } else {
                                report("kml.extra-geometry", "<Polygon> has a second outerBoundaryIs; it is dropped", line: ringLine)
                            }
                        } else {
                            holes.append(Polygon(coordinates: ring))
                        }
                    }
                case "extrude", "tessellate", "altitudeMode":
                    try readGeometryField(part, info: &info)
                default:
                    try skipReported(xml.qualifiedName, in: "Polygon")
                }
            }
            guard let outer else {
                report("kml.empty-geometry", "<Polygon> has no outer ring; read without geometry", line: line)
                return nil
            }
            return .polygon(Polygon(coordinates: outer, interiorPolygons: holes))
        case "MultiGeometry":
            // Only the feature's own MultiGeometry can be a GeometryCollection; nested ones combine.
            let keepsCollection = keepsGeometryCollection
            keepsGeometryCollection = false
            var members: [Shape] = []
            try xml.forEachChild { part in
                switch part {
                case "Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Track", "MultiTrack", "Model",
                     "MultiPolygon", "MultiLineString", "MultiPoint":
                    if let shape = try parseGeometry(part, info: &info) { members.append(shape) }
                default:
                    try skipReported(xml.qualifiedName, in: "MultiGeometry")
                }
            }
            guard let combined = keepsCollection ? KMLGeoJSONFidelity.collection(of: members) : KMLReaderShapes.combine(members) else {
                report("kml.empty-geometry", "<MultiGeometry> has no geometry; read without geometry", line: line)
                return nil
            }
            return combined
        case "MultiPolygon", "MultiLineString", "MultiPoint":
            // GML's multi geometries, not KML's (GDAL reads them): the matching multi overlay.
            report("kml.gml-geometry", "<\(name)> is GML, not KML (KML writes <MultiGeometry>); read as a \(name)",
                   line: line, once: "gml:" + name, needle: "<" + xml.qualifiedName)
            var members: [Shape] = []
            try xml.forEachChild { part in
                switch part {
                case "Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "MultiPolygon", "MultiLineString", "MultiPoint":
                    if let shape = try parseGeometry(part, info: &info) { members.append(shape) }
                case "pointMember", "lineStringMember", "polygonMember", "pointMembers", "lineStringMembers", "polygonMembers":
                    // GML wraps each member (`<polygonMember><Polygon>…`): read what the wrapper holds.
                    try xml.forEachChild { member in
                        switch member {
                        case "Point", "LineString", "LinearRing", "Polygon":
                            if let shape = try parseGeometry(member, info: &info) { members.append(shape) }
                        default:
                            try skipReported(xml.qualifiedName, in: part)
                        }
                    }
                case "extrude", "tessellate", "altitudeMode":
                    try readGeometryField(part, info: &info)
                default:
                    try skipReported(xml.qualifiedName, in: name)
                }
            }
            guard let combined = KMLReaderShapes.combine(members) else {
                report("kml.empty-geometry", "<\(name)> has no geometry; read without geometry", line: line)
                return nil
            }
            return combined
        case "Track":
            let (coordinates, times) = try parseTrack(info: &info)
            guard !coordinates.isEmpty else {
                report("kml.empty-geometry", "<gx:Track> has no gx:coord; read without geometry", line: line)
                return nil
            }
            if !times.isEmpty { info.times = .array(times.map { .string($0) }) }
            guard coordinates.count > 1 else {
                report("kml.short-line", "<gx:Track> has one position; read as a Point", line: line)
                return .annotation(PointAnnotation(coordinate: coordinates[0]))
            }
            return .polyline(Polyline(coordinates: coordinates))
        case "MultiTrack":
            var lines: [Polyline] = []
            var allTimes: [JSONValue] = []
            try xml.forEachChild { part in
                switch part {
                case "Track":
                    let trackLine = xml.line
                    let (coordinates, times) = try parseTrack(info: &info)
                    if coordinates.count == 1 {
                        report("kml.short-line", "<gx:Track> in a gx:MultiTrack has one position, which is no line; track dropped", line: trackLine)
                    } else if !coordinates.isEmpty {
                        lines.append(Polyline(coordinates: coordinates))
                        allTimes.append(.array(times.map { .string($0) }))
                    }
                case "altitudeMode", "interpolate":
                    try readGeometryField(part, info: &info)
                default:
                    try skipReported(xml.qualifiedName, in: "gx:MultiTrack")
                }
            }
            guard !lines.isEmpty else {
                report("kml.empty-geometry", "<gx:MultiTrack> has no track; read without geometry", line: line)
                return nil
            }
            // One track is a polyline, as gx:Track is; several make a multi polyline.
            if lines.count == 1 {
                if case .array(let times)? = allTimes.first, !times.isEmpty { info.times = .array(times) }
                return .polyline(lines[0])
            }
            if allTimes.contains(where: { $0 != .array([]) }) { info.times = .array(allTimes) }
            return .multiPolyline(MultiPolyline(lines))
        default:
            report("kml.ignored-element", "<\(xml.qualifiedName)> (a 3D model) is not an overlay and is not kept", line: line, once: "geometry:" + name)
            try xml.skipElement()
            return nil
        }
    }

    private func readGeometryField(_ name: String, info: inout GeometryInfo) throws {
        let line = xml.line
        let text = try xml.readText().kmlTrimmed
        switch name {
        case "altitudeMode": info.altitudeMode = info.altitudeMode ?? text
        case "interpolate": break
        default:
            guard let flag = KMLStyleParser.bool(text) else {
                report("kml.invalid-value", "<\(name)> '\(text)' is not 0 or 1", line: line)
                return
            }
            if name == "extrude" { info.extrude = info.extrude ?? flag } else { info.tessellate = info.tessellate ?? flag }
        }
    }

    /// The ring closed (first position repeated last), with a warning when the file left it open.
    private func closedRing(_ ring: [Coordinate], line: Int) -> [Coordinate] {
        guard let first = ring.first, let last = ring.last, ring.count > 1 else { return ring }
        if first.latitude == last.latitude && first.longitude == last.longitude { return ring }
        report("kml.ring-not-closed", "LinearRing does not end where it starts; closed by repeating its first position", line: line,
               needle: "<LinearRing")
        return ring + [first]
    }

    private func parseCoordinates(of parent: String) throws -> [Coordinate] {
        var info = GeometryInfo()
        return try parseCoordinates(of: parent, info: &info)
    }

    /// Reads the children of a geometry element: its `coordinates` through the tokenizer (each
    /// problem reported at its line and column) and the geometry fields into `info`.
    private func parseCoordinates(of parent: String, info: inout GeometryInfo) throws -> [Coordinate] {
        var coordinates: [Coordinate] = []
        try xml.forEachChild { part in
            switch part {
            case "coordinates":
                let line = xml.line
                textBuffer.removeAll(keepingCapacity: true)
                try xml.readTextBytes(into: &textBuffer)
                var problems: [KMLCoordinates.Problem] = []
                textBuffer.withUnsafeBufferPointer { KMLCoordinates.parse($0, into: &coordinates, problems: &problems) }
                for problem in problems.prefix(100) {
                    warnings.append(Diagnostic(.warning, code: problem.dropped ? "kml.bad-coordinate" : problem.split ? "kml.joined-tuples" : "kml.extra-coordinates",
                                               message: "\(problem.message) ('\(problem.text)')" + (problem.dropped ? "; tuple skipped, the others keep their values" : ""),
                                               location: xml.location(ofTextOffset: problem.offset, in: textBuffer, elementLine: line,
                                                                          elementName: "coordinates")))
                }
                if problems.count > 100 {
                    report("kml.bad-coordinate", "\(problems.count - 100) more coordinate problems in this element not listed", line: line)
                }
            case "extrude", "tessellate", "altitudeMode":
                try readGeometryField(part, info: &info)
            default:
                try skipReported(xml.qualifiedName, in: parent)
            }
        }
        return coordinates
    }

    /// `gx:Track`: `when` times and `gx:coord` positions ("lon lat alt"), pairwise.
    private func parseTrack(info: inout GeometryInfo) throws -> ([Coordinate], [String]) {
        var coordinates: [Coordinate] = []
        var times: [String] = []
        try xml.forEachChild { part in
            switch part {
            case "when":
                times.append(try xml.readText().kmlTrimmed)
            case "coord":
                let line = xml.line
                textBuffer.removeAll(keepingCapacity: true)
                try xml.readTextBytes(into: &textBuffer)
                let values = textBuffer.withUnsafeBufferPointer { KMLCoordinates.parseSpaceSeparated($0) }
                if let values, values.count == 2 || values.count == 3 {
                    coordinates.append(Coordinate(latitude: values[1], longitude: values[0], altitude: values.count == 3 ? values[2] : nil))
                } else {
                    report("kml.bad-coordinate", "gx:coord '\(String(decoding: textBuffer.prefix(60), as: UTF8.self))' is not 'longitude latitude [altitude]'; position skipped",
                           line: line)
                    coordinates.append(Coordinate(latitude: .nan, longitude: .nan))
                }
            case "altitudeMode", "extrude", "tessellate":
                try readGeometryField(part, info: &info)
            case "ExtendedData":
                var properties = KMLPropertyBuilder()
                try parseExtendedData(into: &properties)
                // Per-vertex arrays are not carried per track here; they are reported.
                if !properties.isEmpty {
                    report("kml.ignored-element", "ExtendedData inside a gx:Track is not kept", line: xml.line, once: "track-extended-data")
                }
            default:
                try skipReported(xml.qualifiedName, in: "gx:Track")
            }
        }
        // Keep times paired with positions: a skipped gx:coord drops its time too.
        if times.count == coordinates.count {
            var keptCoordinates: [Coordinate] = []
            var keptTimes: [String] = []
            for (coordinate, time) in zip(coordinates, times) where !coordinate.latitude.isNaN {
                keptCoordinates.append(coordinate)
                keptTimes.append(time)
            }
            return (keptCoordinates, keptTimes)
        }
        if !times.isEmpty {
            report("kml.track-mismatch", "gx:Track has \(times.count) <when> and \(coordinates.count) <gx:coord>; times kept as given", line: xml.line)
        }
        return (coordinates.filter { !$0.latitude.isNaN }, times)
    }
}

/// Combining MultiGeometry members.
enum KMLReaderShapes {
    /// One kind → the matching multi overlay; mixed kinds → a geometry collection. Nested
    /// multi overlays of the same kind merge into their parent; nothing is dropped.
    static func combine(_ members: [Shape]) -> Shape? {
        guard !members.isEmpty else { return nil }
        var polygons: [Polygon] = []
        var polylines: [Polyline] = []
        var points: [Shape] = []
        var other = false
        for member in members {
            switch member {
            case .polygon(let polygon): polygons.append(polygon)
            case .multiPolygon(let multi): polygons += multi.polygons
            case .polyline(let polyline): polylines.append(polyline)
            case .multiPolyline(let multi): polylines += multi.polylines
            case .annotation: points.append(member)
            case .collection(let collection) where collection.origin == .multiPoint: points += collection.members
            default: other = true
            }
        }
        let kinds = [!polygons.isEmpty, !polylines.isEmpty, !points.isEmpty].filter { $0 }.count
        if !other && kinds == 1 {
            if !polygons.isEmpty { return .multiPolygon(MultiPolygon(polygons)) }
            if !polylines.isEmpty { return .multiPolyline(MultiPolyline(polylines)) }
            return .collection(ShapeCollection(members: points, origin: .multiPoint))
        }
        return .collection(ShapeCollection(members: members, origin: .geometryCollection))
    }
}
