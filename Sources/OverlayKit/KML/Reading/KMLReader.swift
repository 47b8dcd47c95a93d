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

    /// The bytes of the KML read so far and its size when a file (a KMZ's: its document's, inflated).
    public var readPosition: ReadPosition? {
        ReadPosition(bytesRead: core.input.bytesRead, totalBytes: core.input.expectedSize)
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
