import OverlayModel

/// Writes features as a KML 2.2 document (or a KMZ holding it), valid against the OGC KML 2.2
/// schema, with the same bytes for the same features.
///
/// Layout: `kml/Document` with the shared `Style`s (deduplicated: one per distinct style,
/// `s1`, `s2`, … in first-use order; a normal/highlight pair becomes a `StyleMap` `m1`, …),
/// then one `Schema` per distinct set of property names and types, then the placemarks,
/// inside `Folder`s that follow `Feature.folderPath`. The body is spooled to an unlinked
/// temporary file while the style table grows, so memory stays bounded.
///
/// Each placemark: `name`, `visibility`, `address`, `phoneNumber`, `description`,
/// `TimeStamp`/`TimeSpan` (from the `timestamp`/`timespan` properties when they hold KML
/// dates), `styleUrl`, then `ExtendedData` (`SchemaData` typed string/int/double/bool;
/// null, arrays and objects as JSON text in a field whose displayName is
/// `KMLConventions.jsonFieldDisplayName`), then the geometry. Shapes: annotation → Point,
/// polyline → LineString, polygon → Polygon (shapes KML cannot hold are repaired or left out
/// by ``ShapeRepair``, with a warning), multi overlays and collections →
/// MultiGeometry, circle → Polygon ring (within `KMLCircle.tolerance` of the circle) plus its
/// center and radius as ExtendedData `Data`. A feature id that is not an XML name goes to
/// ExtendedData `overlaykit:id` (JSON text) so it comes back; so does an id that repeats an
/// earlier feature's (warning `kml.duplicate-id`). The made-up ids avoid the features' ids
/// (`s_1`, … when a placemark is `s1`; `KMLGeneratedIDs`), so no `xs:ID` is written twice. Style fields KML cannot express
/// (dash, cap, join, marker symbol/size) are reported once.
public struct KMLWriter: FeatureWriter {
    private let output: ByteOutput
    private let options: WriterOptions
    private let kmz: Bool
    /// Files to put beside `doc.kml` when writing KMZ (e.g. the reader's resources).
    public var resources: KMZResources?
    private let body: TemporaryFile
    private var scratch = JSONBytes()
    private var openFolders: [String] = []
    private var styles = SharedDefinitions<Style>()
    /// StyleMaps as (normal, highlight) style ids.
    private var styleMaps = SharedDefinitions<[Int]>()
    private var schemas = SharedDefinitions<[SchemaField]>()
    private var warnings: [Diagnostic] = []
    private var reported: Set<String> = []
    private var finished = false
    /// `Document/name`: the options' name, else a collection's carried over.
    private var documentName: String?
    /// Collection members for the Document's ExtendedData.
    private var documentMembers = JSONObject()
    /// Feature ids written, so made-up ids and repeated ids stay unique.
    private var ids = KMLGeneratedIDs()

    private struct SchemaField: Hashable {
        var name: String
        var type: String
    }

    /// True when this writer writes KMZ (which holds files), false for bare KML.
    public var isKMZ: Bool { kmz }

    /// A writer of one KML document into `output`.
    /// - Parameters:
    ///   - output: where the document goes.
    ///   - options: coordinate precision and document name.
    ///   - kmz: write a KMZ (zip with `doc.kml` and `resources`) instead of bare KML.
    public init(output: ByteOutput, options: WriterOptions = WriterOptions(), kmz: Bool = false) throws {
        self.output = output
        self.options = options
        self.kmz = kmz
        documentName = options.name
        body = try TemporaryFile()
    }

    /// Keeps a collection's members (besides a name taken) for the Document's ExtendedData.
    mutating func takeDocumentMembers(_ members: JSONObject) {
        documentMembers = members
    }

    /// Takes `name` as the document's name unless it has one; true when taken.
    mutating func takeDocumentName(_ name: String) -> Bool {
        guard documentName == nil else { return false }
        documentName = name
        return true
    }

    public mutating func takeWarnings() -> [Diagnostic] {
        defer { warnings.removeAll() }
        return warnings
    }

    public mutating func write(_ feature: Feature) throws {
        scratch.bytes.removeAll(keepingCapacity: true)
        moveToFolders(feature.folderPath)
        appendPlacemark(feature)
        try flushScratch()
    }

    public mutating func finish() throws {
        guard !finished else { return }
        finished = true
        scratch.bytes.removeAll(keepingCapacity: true)
        moveToFolders([])
        scratch.append("</Document>\n</kml>\n")
        try flushScratch()

        var head = JSONBytes()
        head.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Document>\n")
        if let name = documentName {
            head.append("<name>")
            KMLWriter.appendEscaped(name, into: &head)
            head.append("</name>\n")
        }
        let s = ids.prefix(for: .style, count: styles.values.count)
        let m = ids.prefix(for: .styleMap, count: styleMaps.values.count)
        let p = ids.prefix(for: .schema, count: schemas.values.count)
        for (index, style) in styles.values.enumerated() { appendStyle(style, id: s + String(index + 1), into: &head) }
        // Schema order: Document's ExtendedData after its StyleSelectors, before its Schemas.
        let documentData = KMLGeoJSONFidelity.documentData(documentMembers)
        for (index, pair) in styleMaps.values.enumerated() {
            head.appendRaw("<StyleMap id=\"\(m)\(index + 1)\"><Pair><key>normal</key><styleUrl>#\(s)\(pair[0])</styleUrl></Pair>")
            head.appendRaw("<Pair><key>highlight</key><styleUrl>#\(s)\(pair[1])</styleUrl></Pair></StyleMap>\n")
        }
        appendDocumentData(documentData, into: &head)
        for (index, fields) in schemas.values.enumerated() {
            head.appendRaw("<Schema name=\"properties\(index + 1)\" id=\"\(p)\(index + 1)\">")
            for field in fields {
                head.append("<SimpleField type=\"")
                head.appendRaw(field.type == "json" ? "string" : field.type)
                head.append("\" name=\"")
                KMLWriter.appendEscaped(field.name, into: &head, attribute: true)
                head.appendRaw(field.type == "json" ? "\"><displayName>\(KMLConventions.jsonFieldDisplayName)</displayName></SimpleField>" : "\"/>")
            }
            head.append("</Schema>\n")
        }

        // The placemarks name the made-up ids by placeholder bytes (KMLGeneratedIDs).
        let prefixes = [[], Array(s.utf8), Array(m.utf8), Array(p.utf8)]
        if kmz {
            let kml = try TemporaryFile()
            try head.bytes.withUnsafeBytes { try kml.write($0) }
            try body.forEachChunk { try KMLGeneratedIDs.copy($0, prefixes: prefixes) { try kml.write($0) } }
            try KMZ.write(kml: kml, resources: resources, to: output)
        } else {
            try head.bytes.withUnsafeBytes { try output.write($0) }
            try body.forEachChunk { try KMLGeneratedIDs.copy($0, prefixes: prefixes) { try output.write($0) } }
        }
        try output.flush()
    }

    private mutating func flushScratch() throws {
        try scratch.bytes.withUnsafeBytes { try body.write($0) }
        scratch.bytes.removeAll(keepingCapacity: true)
    }

    private mutating func report(_ key: String, _ message: String) {
        guard !reported.contains(key) else { return }
        reported.insert(key)
        warnings.append(Diagnostic(.warning, code: "kml.not-written", message: message + " (reported once)"))
    }

    // MARK: Folders

    private mutating func moveToFolders(_ path: [String]) {
        var common = 0
        while common < openFolders.count && common < path.count && openFolders[common] == path[common] { common += 1 }
        while openFolders.count > common {
            scratch.append("</Folder>\n")
            openFolders.removeLast()
        }
        for name in path[common...] {
            scratch.append("<Folder><name>")
            appendText(name)
            scratch.append("</name>\n")
            openFolders.append(name)
        }
    }

    // MARK: Placemarks

    private static let elementKeys: Set<String> = ["name", "description", "visibility", "address", "phoneNumber"]

    /// The feature's shape as the format allows it (``ShapeRepair/writable(_:)``), warning
    /// at the feature for each change.
    private mutating func writableShape(_ feature: Feature) -> Shape? {
        let (shape, repairs) = ShapeRepair.writable(feature)
        warnings += repairs
        return shape
    }

    private mutating func appendPlacemark(_ feature: Feature) {
        let shape = writableShape(feature)
        var properties = feature.properties ?? JSONObject()
        var data = JSONObject()  // untyped Data: the conventions
        scratch.append("<Placemark")
        switch feature.id {
        case .string(let id)? where KMLWriter.isXMLName(id) && ids.claim(id):
            scratch.append(" id=\"")
            appendText(id, attribute: true)
            scratch.append("\"")
        case .string(let id)? where KMLWriter.isXMLName(id):
            // A KML id is unique in its document: a repeated one goes where non-XML-name ids
            // go, so it still reads back as the feature's id.
            data[KMLConventions.featureIDKey] = .string(JSONValue.string(id).kmlJSONText)
            if reported.insert("repeated-id").inserted {
                warnings.append(Diagnostic(.warning, code: "kml.duplicate-id",
                                           message: "feature id '\(id)' repeats an earlier feature's; KML ids are unique, so this and later repeated ids are written as ExtendedData \(KMLConventions.featureIDKey) instead of the id attribute, and read back alike (reported once)"))
            }
        case .string(let id)?: data[KMLConventions.featureIDKey] = .string(JSONValue.string(id).kmlJSONText)
        case .integer(let id)?: data[KMLConventions.featureIDKey] = .string(String(id))
        case .number(let id)?: data[KMLConventions.featureIDKey] = .string(JSONValue.number(id).kmlJSONText)
        case nil: break
        }
        scratch.append(">")
        if case .circle(let circle)? = feature.shape {
            data[KMLConventions.circleCenterKey] = .string(KMLCircle.centerText(circle))
            data[KMLConventions.circleRadiusKey] = .string("\(circle.radius)")
        }
        // What KML has no element for (null properties, a one-kind GeometryCollection, an empty
        // geometry, foreign members) goes to overlaykit: Data, so it reads back (KMLGeoJSONFidelity).
        for member in KMLGeoJSONFidelity.data(for: feature) { data[member.key] = member.value }
        let writesGeometry = shape.map { !KMLGeoJSONFidelity.isEmpty($0) } ?? false
        // One ExtendedData never names two values alike (docs/kml.md "Property names"): a
        // repeated property name, or one the writer's own Data use, is written renamed.
        for rename in properties.renameDuplicateKeys(besides: data.keys) where reported.insert("rename:" + rename.original).inserted {
            warnings.append(Diagnostic(.warning, code: "output.duplicate-name-renamed",
                                       message: "property \"\(rename.original)\" appears more than once in one feature (or is a name the writer uses itself); a later one is written as \"\(rename.renamed)\" (reported once per name)"))
        }

        // Feature fields in the schema's order.
        for key in ["name", "visibility", "address", "phoneNumber", "description"] {
            switch (key, properties[key]) {
            case ("visibility", .bool(let flag)?):
                scratch.append(flag ? "<visibility>1</visibility>" : "<visibility>0</visibility>")
                properties[key] = nil
            case (_, .string(let text)?) where key != "visibility":
                scratch.appendRaw("<\(key)>")
                appendText(text)
                scratch.appendRaw("</\(key)>")
                properties[key] = nil
            default: break
            }
        }
        if case .string(let when)? = properties["timestamp"], KMLWriter.isKMLDate(when) {
            scratch.append("<TimeStamp><when>")
            scratch.appendRaw(when)
            scratch.append("</when></TimeStamp>")
            properties["timestamp"] = nil
        } else if case .object(let span)? = properties["timespan"],
                  span.members.allSatisfy({ ($0.key == "begin" || $0.key == "end") && ($0.value.stringValue.map(KMLWriter.isKMLDate) ?? false) }) {
            scratch.append("<TimeSpan>")
            for key in ["begin", "end"] {
                if let value = span[key]?.stringValue { scratch.appendRaw("<\(key)>\(value)</\(key)>") }
            }
            scratch.append("</TimeSpan>")
            properties["timespan"] = nil
        }
        appendStyleURL(feature)

        // Geometry fields come off the properties before ExtendedData is written.
        let geometryFields = takeGeometryFields(&properties, hasGeometry: writesGeometry)
        appendExtendedData(data: data, properties: properties)
        if let shape, writesGeometry { appendGeometry(shape, fields: geometryFields) }
        scratch.append("</Placemark>\n")
    }

    private mutating func appendStyleURL(_ feature: Feature) {
        guard let style = feature.style, !style.isEmpty else {
            if feature.highlightStyle != nil {
                report("highlight-without-normal", "a highlight style without a normal style is not written")
            }
            return
        }
        let normal = styleID(style)
        if let highlight = feature.highlightStyle, !highlight.isEmpty {
            let id = styleMaps.id(for: [normal, styleID(highlight)]).id
            scratch.appendRaw("<styleUrl>#\u{2}\(id)</styleUrl>")
        } else {
            scratch.appendRaw("<styleUrl>#\u{1}\(normal)</styleUrl>")
        }
    }

    private mutating func styleID(_ style: Style) -> Int {
        let (id, isNew) = styles.id(for: style)
        guard isNew else { return id }
        if style.lineDash != nil || style.lineCap != nil || style.lineJoin != nil {
            report("line-dash", "line dash, cap and join have no KML element and are not written")
        }
        if style.icon?.symbol != nil || style.icon?.size != nil {
            report("marker-symbol", "marker symbol and size have no KML element; they stay only in properties, if the source had them there")
        }
        return id
    }

    private func appendStyle(_ style: Style, id: String, into out: inout JSONBytes) {
        out.appendRaw("<Style id=\"\(id)\">")
        if let icon = style.icon, icon.href != nil || icon.scale != nil || icon.heading != nil || icon.color != nil || icon.hotSpot != nil {
            out.append("<IconStyle>")
            if let color = icon.color { out.appendRaw("<color>\(color.kmlString)</color>") }
            if let scale = icon.scale { out.append("<scale>"); out.appendNumber(scale); out.append("</scale>") }
            if let heading = icon.heading { out.append("<heading>"); out.appendNumber(heading); out.append("</heading>") }
            if let href = icon.href {
                out.append("<Icon><href>")
                KMLWriter.appendEscaped(href, into: &out)
                out.append("</href></Icon>")
            }
            if let hotSpot = icon.hotSpot, KMLWriter.units.contains(hotSpot.xUnits), KMLWriter.units.contains(hotSpot.yUnits) {
                out.append("<hotSpot x=\"")
                out.appendNumber(hotSpot.x)
                out.append("\" y=\"")
                out.appendNumber(hotSpot.y)
                out.appendRaw("\" xunits=\"\(hotSpot.xUnits)\" yunits=\"\(hotSpot.yUnits)\"/>")
            }
            out.append("</IconStyle>")
        }
        if let label = style.label, label.color != nil || label.scale != nil {
            out.append("<LabelStyle>")
            if let color = label.color { out.appendRaw("<color>\(color.kmlString)</color>") }
            if let scale = label.scale { out.append("<scale>"); out.appendNumber(scale); out.append("</scale>") }
            out.append("</LabelStyle>")
        }
        if style.strokeColor != nil || style.strokeWidth != nil {
            out.append("<LineStyle>")
            if let color = style.strokeColor { out.appendRaw("<color>\(color.kmlString)</color>") }
            if let width = style.strokeWidth { out.append("<width>"); out.appendNumber(width); out.append("</width>") }
            out.append("</LineStyle>")
        }
        if style.fillColor != nil || style.fill != nil || style.outline != nil {
            out.append("<PolyStyle>")
            if let color = style.fillColor { out.appendRaw("<color>\(color.kmlString)</color>") }
            if let fill = style.fill { out.append(fill ? "<fill>1</fill>" : "<fill>0</fill>") }
            if let outline = style.outline { out.append(outline ? "<outline>1</outline>" : "<outline>0</outline>") }
            out.append("</PolyStyle>")
        }
        out.append("</Style>\n")
    }

    private static let units: Set<String> = ["fraction", "pixels", "insetPixels"]

    /// The Document's ExtendedData `Data` (collection members), if any.
    private mutating func appendDocumentData(_ data: JSONObject, into out: inout JSONBytes) {
        guard !data.isEmpty else { return }
        out.append("<ExtendedData>")
        for member in data {
            out.append("<Data name=\"")
            if KMLWriter.appendEscaped(member.key, into: &out, attribute: true) { report("control-characters", "control characters cannot appear in XML 1.0; written as U+FFFD") }
            out.append("\"><value>")
            if KMLWriter.appendEscaped(member.value.stringValue ?? "", into: &out) { report("control-characters", "control characters cannot appear in XML 1.0; written as U+FFFD") }
            out.append("</value></Data>")
        }
        out.append("</ExtendedData>\n")
    }

    // MARK: ExtendedData

    private mutating func appendExtendedData(data: JSONObject, properties: JSONObject) {
        guard !data.isEmpty || !properties.isEmpty else { return }
        scratch.append("<ExtendedData>")
        for member in data {
            scratch.append("<Data name=\"")
            appendText(member.key, attribute: true)
            scratch.append("\"><value>")
            appendText(member.value.stringValue ?? "")
            scratch.append("</value></Data>")
        }
        if !properties.isEmpty {
            let fields = properties.members.map { SchemaField(name: $0.key, type: KMLWriter.fieldType($0.value)) }
            let id = schemas.id(for: fields).id
            scratch.appendRaw("<SchemaData schemaUrl=\"#\u{3}\(id)\">")
            for member in properties {
                scratch.append("<SimpleData name=\"")
                appendText(member.key, attribute: true)
                scratch.append("\">")
                switch member.value {
                case .string(let text): appendText(text)
                case .integer(let value): scratch.appendInteger(value)
                case .number(let value): scratch.appendNumber(value)
                case .bool(let flag): scratch.append(flag ? "true" : "false")
                default: appendText(member.value.kmlJSONText)
                }
                scratch.append("</SimpleData>")
            }
            scratch.append("</SchemaData>")
        }
        scratch.append("</ExtendedData>")
    }

    private static func fieldType(_ value: JSONValue) -> String {
        switch value {
        case .string: "string"
        // The narrowest KML type that holds the value exactly: xsd:int and xsd:unsignedInt
        // are 32 bits (GDAL read 1234567890123 typed int back as 2147483647), a double holds
        // every integer up to 2^53; beyond, JSON text in a string field keeps every digit.
        case .integer(let value) where Int64(Int32.min)...Int64(Int32.max) ~= value: "int"
        case .integer(let value) where 0...Int64(UInt32.max) ~= value: "uint"
        case .integer(let value) where -(Int64(1) << 53)...(Int64(1) << 53) ~= value: "double"
        case .integer: "json"
        case .number: "double"
        case .bool: "bool"
        default: "json"
        }
    }

    // MARK: Geometry

    private struct GeometryFields {
        var extrude: Bool?
        var tessellate: Bool?
        var altitudeMode: String?
    }

    private static let altitudeModes: Set<String> = ["clampToGround", "relativeToGround", "absolute"]

    private func takeGeometryFields(_ properties: inout JSONObject, hasGeometry: Bool) -> GeometryFields {
        var fields = GeometryFields()
        guard hasGeometry else { return fields }
        if case .bool(let flag)? = properties["extrude"] { fields.extrude = flag; properties["extrude"] = nil }
        if case .bool(let flag)? = properties["tessellate"] { fields.tessellate = flag; properties["tessellate"] = nil }
        if case .string(let mode)? = properties["altitudeMode"], KMLWriter.altitudeModes.contains(mode) {
            fields.altitudeMode = mode
            properties["altitudeMode"] = nil
        }
        return fields
    }

    private mutating func appendFields(_ fields: GeometryFields, lineLike: Bool) {
        if let extrude = fields.extrude { scratch.append(extrude ? "<extrude>1</extrude>" : "<extrude>0</extrude>") }
        if lineLike, let tessellate = fields.tessellate {
            scratch.append(tessellate ? "<tessellate>1</tessellate>" : "<tessellate>0</tessellate>")
        }
        if let mode = fields.altitudeMode { scratch.appendRaw("<altitudeMode>\(mode)</altitudeMode>") }
    }

    private mutating func appendGeometry(_ shape: Shape, fields: GeometryFields) {
        switch shape {
        case .annotation(let annotation):
            scratch.append("<Point>")
            appendFields(fields, lineLike: false)
            scratch.append("<coordinates>")
            appendTuple(annotation.coordinate)
            scratch.append("</coordinates></Point>")
        case .circle(let circle):
            appendPolygon(Polygon(coordinates: KMLCircle.ring(circle)), fields: fields)
        case .polyline(let polyline):
            scratch.append("<LineString>")
            appendFields(fields, lineLike: true)
            appendCoordinates(polyline.coordinates)
            scratch.append("</LineString>")
        case .polygon(let polygon):
            appendPolygon(polygon, fields: fields)
        case .multiPolyline(let multi):
            scratch.append("<MultiGeometry>")
            for polyline in multi.polylines { appendGeometry(.polyline(polyline), fields: fields) }
            scratch.append("</MultiGeometry>")
        case .multiPolygon(let multi):
            scratch.append("<MultiGeometry>")
            for polygon in multi.polygons { appendPolygon(polygon, fields: fields) }
            scratch.append("</MultiGeometry>")
        case .collection(let collection):
            scratch.append("<MultiGeometry>")
            for member in collection.members { appendGeometry(member, fields: fields) }
            scratch.append("</MultiGeometry>")
        }
    }

    private mutating func appendPolygon(_ polygon: Polygon, fields: GeometryFields) {
        scratch.append("<Polygon>")
        appendFields(fields, lineLike: true)
        scratch.append("<outerBoundaryIs><LinearRing>")
        appendCoordinates(polygon.coordinates)
        scratch.append("</LinearRing></outerBoundaryIs>")
        for hole in polygon.interiorPolygons {
            scratch.append("<innerBoundaryIs><LinearRing>")
            appendCoordinates(hole.coordinates)
            scratch.append("</LinearRing></innerBoundaryIs>")
        }
        scratch.append("</Polygon>")
    }

    /// Tuples separated by single spaces (rings arrive closed: ``writableShape(_:)``).
    private mutating func appendCoordinates(_ coordinates: [Coordinate]) {
        scratch.append("<coordinates>")
        for (index, coordinate) in coordinates.enumerated() {
            if index > 0 { scratch.append(UInt8(ascii: " ")) }
            appendTuple(coordinate)
        }
        scratch.append("</coordinates>")
    }

    @inline(__always)
    private mutating func appendTuple(_ coordinate: Coordinate) {
        scratch.appendCoordinate(coordinate.longitude, decimals: options.precision)
        scratch.append(UInt8(ascii: ","))
        scratch.appendCoordinate(coordinate.latitude, decimals: options.precision)
        if let altitude = coordinate.altitude {
            scratch.append(UInt8(ascii: ","))
            scratch.appendCoordinate(altitude, decimals: options.precision)
        }
    }

    // MARK: Text

    /// XML text (or attribute value) with `&`, `<`, `>` (and `"`) escaped; characters XML 1.0
    /// cannot hold (controls other than tab, newline, return) become U+FFFD, with a warning.
    private mutating func appendText(_ text: String, attribute: Bool = false) {
        if KMLWriter.appendEscaped(text, into: &scratch, attribute: attribute) {
            report("control-characters", "control characters cannot appear in XML 1.0; written as U+FFFD")
        }
    }

    /// Returns true when a character had to be replaced.
    @discardableResult
    static func appendEscaped(_ text: String, into out: inout JSONBytes, attribute: Bool = false) -> Bool {
        var replaced = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append("&amp;")
            case UInt8(ascii: "<"): out.append("&lt;")
            case UInt8(ascii: ">"): out.append("&gt;")
            case UInt8(ascii: "\"") where attribute: out.append("&quot;")
            case 0x09, 0x0A, 0x0D:
                if attribute { out.appendRaw("&#\(byte);") } else { out.append(byte) }
            case 0..<0x20:
                out.append("\u{FFFD}")
                replaced = true
            default: out.append(byte)
            }
        }
        return replaced
    }

    /// True for an XML NCName (what the schema's `id` attribute allows).
    static func isXMLName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// True for the forms KML's dateTimeType allows: YYYY, YYYY-MM, YYYY-MM-DD, or an
    /// xsd:dateTime (YYYY-MM-DDThh:mm:ss with optional fraction and zone).
    static func isKMLDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        func at(_ index: Int, _ char: Character) -> Bool { index < bytes.count && bytes[index] == char.asciiValue! }
        guard digits(0..<4) else { return false }
        if bytes.count == 4 { return true }
        guard at(4, "-"), digits(5..<7) else { return false }
        if bytes.count == 7 { return true }
        guard at(7, "-"), digits(8..<10) else { return false }
        if bytes.count == 10 { return true }
        guard at(10, "T"), digits(11..<13), at(13, ":"), digits(14..<16), at(16, ":"), digits(17..<19) else { return false }
        var index = 19
        if at(index, ".") {
            index += 1
            let start = index
            while digits(index..<index + 1) { index += 1 }
            guard index > start else { return false }
        }
        if index == bytes.count { return true }
        if at(index, "Z") { return index + 1 == bytes.count }
        guard at(index, "+") || at(index, "-"), digits(index + 1..<index + 3), at(index + 3, ":"), digits(index + 4..<index + 6) else { return false }
        return index + 6 == bytes.count
    }
}

extension JSONValue {
    /// Compact JSON text of the value.
    var kmlJSONText: String {
        var bytes = JSONBytes(capacity: 64)
        bytes.appendValue(self)
        return String(decoding: bytes.bytes, as: UTF8.self)
    }
}
