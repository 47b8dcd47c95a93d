import OverlayModel

/// The reader's state: a class so the streaming reader and its tables are shared, not copied.
///
/// Its work is filed by concern: the document walk (`KMLParserCore+DocumentWalk.swift`),
/// features (`+Features`), geometry (`+Geometry`, `+Tracks`), ExtendedData and Schema
/// (`+ExtendedData`), and the queue of features held for late styles and Schemas
/// (`+HeldFeatures`).
final class KMLParserCore {
    let xml: XMLStreamReader
    var warnings: [Diagnostic] = []
    var styles = KMLStyleTable()
    /// Schema id (and name) → field name → (type, displayName).
    var schemas: [String: [String: (type: String, displayName: String?)]] = [:] { didSet { schemaVersion &+= 1 } }
    /// `Schema parent="Placemark"` element names (Google Earth 5.x, pre-2.2) and their fields.
    var legacyPlacemarks = KMLLegacySchemaPlacemarks()
    struct Container {
        var name: String
        var depth: Int
        var isFolder: Bool
        var folderName: String
        var childCounts: [String: Int] = [:]
    }
    var containers: [Container] = []
    var rootSeen = false
    var finished = false
    var queue: [PendingFeature] = []
    var queueHead = 0
    var reported: Set<String> = []
    var textBuffer: [UInt8] = []
    /// Late-schema values of the feature being parsed (moved into its `PendingFeature`).
    var lateSchemaValues: [LateSchemaValue] = []
    /// The outermost Document's `name`.
    var documentName: String?
    /// FeatureCollection members carried in the outermost Document's ExtendedData.
    var documentMembers = JSONObject()
    /// The GeoJSON types of the feature's MultiGeometry elements in document order, from
    /// `KMLConventions.geometryTypeKey` (KMLGeoJSONFidelity); each MultiGeometry takes the next.
    var multiGeometryTypes: ArraySlice<Substring> = []
    /// Property names that collided in this document, reported once at its end.
    var propertyCollisions = KMLPropertyCollisions()
    /// How many properties the last feature had: the next one's builder reserves room for as
    /// many (placemarks of one file tend to share their ExtendedData), so its name set is not
    /// rehashed as it grows.
    var lastPropertyCount = 0

    /// The input, read once more from its start if a Schema comes too late (`KMLSchemaPrescan`).
    let input: ByteInput
    /// True once the input has been scanned for Schemas (at most once).
    var schemasPrescanned = false
    /// Schemas whose values are all read as text: defined too late on an input read only once.
    var textOnlySchemas: Set<String> = [] { didSet { schemaVersion &+= 1 } }
    /// Counts the changes to `schemas` and `textOnlySchemas` (`schemaFieldCache` is valid for one).
    var schemaVersion = 0
    /// The fields of the last SchemaData's Schema in the order its values came. Touched for
    /// every SimpleData, never across a call that touches it again: the runtime's exclusivity
    /// checks (two per value) are left out, as in `XMLStreamReader`.
    @exclusivity(unchecked) var schemaFieldCache = KMLSchemaFieldCache()
    /// A SimpleData value's bytes (reused; unchecked for the same reason).
    @exclusivity(unchecked) var valueBuffer: [UInt8] = []
    /// The positions of one `coordinates` element as they are parsed (reused).
    var coordinateScratch: [Coordinate] = []

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

    // MARK: Diagnostics

    /// Adds a warning; with `once`, only the first warning under that key is kept.
    func report(_ code: Diagnostic.Code, _ message: String, line: Int, once: String? = nil, needle: String? = nil,
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

    func skipReported(_ name: String, in parent: String) throws {
        report(.kmlIgnoredElement, "<\(name)> in <\(parent)> is not kept", line: xml.line, once: parent + "/" + name,
               needle: "<" + name)
        try xml.skipElement()
    }

    func readNumber(_ what: String) throws -> Double? {
        let line = xml.line
        let text = try xml.readText().kmlTrimmed
        if let value = Double(text), value.isFinite { return value }
        report(.kmlInvalidValue, "<\(what)> '\(text)' is not a number", line: line)
        return nil
    }
}
