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
    let options: WriterOptions
    private let kmz: Bool
    /// Files to put beside `doc.kml` when writing KMZ (e.g. the reader's resources).
    public var resources: KMZResources?
    private let body: TemporaryFile
    var scratch = JSONBytes()
    private var openFolders: [String] = []
    private var styles = SharedDefinitions<Style>()
    /// StyleMaps as (normal, highlight) style ids.
    private var styleMaps = SharedDefinitions<[Int]>()
    var schemas = SharedDefinitions<[SchemaField]>()
    private var warnings: [Diagnostic] = []
    private var reported: Set<String> = []
    private var finished = false
    /// `Document/name`: the options' name, else a collection's carried over.
    private var documentName: String?
    /// Collection members for the Document's ExtendedData.
    private var documentMembers = JSONObject()
    /// Feature ids written, so made-up ids and repeated ids stay unique.
    private var ids = KMLGeneratedIDs()

    struct SchemaField: Hashable {
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
        let body = try TemporaryFile()
        self.body = body
        scratch.spill = { try body.write($0) }
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
        if let error = scratch.takeSpillError() { throw error }
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

    mutating func report(_ key: String, _ message: String) {
        guard !reported.contains(key) else { return }
        reported.insert(key)
        warnings.append(Diagnostic(.warning, code: .kmlNotWritten, message: message + " (reported once)"))
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

    /// The feature's shape as the format allows it (``ShapeRepair/writable(_:)``), warning
    /// at the feature for each change.
    mutating func writableShape(_ feature: Feature) -> Shape? {
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
                warnings.append(Diagnostic(.warning, code: .kmlDuplicateId,
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
            warnings.append(Diagnostic(.warning, code: .outputDuplicateNameRenamed,
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
}
