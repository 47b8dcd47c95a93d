import OverlayModel

/// Writes features as an RFC 7946 FeatureCollection, or as a GeoJSON text sequence (one
/// feature per line; with `recordSeparator`, RFC 8142's RS before each).
///
/// Exterior rings are written counterclockwise and holes clockwise (RFC 7946 §3.1.6);
/// coordinates use at most `options.precision` decimals; members come in a fixed order, so the
/// same features give the same bytes. A circle is written as a Point with a `radius` property
/// (meters); a style not already expressed by the properties is added as simplestyle
/// properties. `Feature.folderPath` is written as the foreign member `"folders"` (an array of
/// folder names, outermost first).
public struct GeoJSONWriter: FeatureWriter {
    private let output: ByteOutput
    private let options: WriterOptions
    private let sequence: Bool
    /// Write RS (0x1E) before each record of a sequence (RFC 8142) instead of bare lines.
    public var recordSeparator = false
    /// Members for the FeatureCollection besides `type` and `features` (e.g. the reader's
    /// `collectionMembers`); written after the features.
    public var collectionMembers = JSONObject()
    private var scratch = JSONBytes()
    private var count = 0
    private var finished = false
    private var warnings: [Diagnostic] = []
    private var reportedRenames: Set<String> = []

    /// A writer of a FeatureCollection, or of GeoJSONSeq records when `sequence` is true.
    public init(output: ByteOutput, options: WriterOptions = WriterOptions(), sequence: Bool = false) {
        self.output = output
        self.options = options
        self.sequence = sequence
        scratch.spill = { [output] in try output.write($0) }
    }

    public mutating func takeWarnings() -> [Diagnostic] {
        defer { warnings.removeAll() }
        return warnings
    }

    /// Writes one feature: a GeoJSONSeq record, or the next member of the collection.
    public mutating func write(_ feature: Feature) throws {
        startRecord()
        appendFeature(feature)
        if let error = scratch.takeSpillError() { throw error }
        reportRenamedKeys()
        if sequence { scratch.append(UInt8(ascii: "\n")) }
        count += 1
        try scratch.bytes.withUnsafeBytes { try output.write($0) }
    }

    /// Writes one feature that is already GeoJSON (e.g. its source bytes, copied through): a
    /// Feature object without line breaks, framed like `write(_:)` frames its own.
    public mutating func writeEncoded(_ featureJSON: UnsafeRawBufferPointer) throws {
        startRecord()
        try scratch.bytes.withUnsafeBytes { try output.write($0) }
        try output.write(featureJSON)
        if sequence { try withUnsafeBytes(of: UInt8(ascii: "\n")) { try output.write($0) } }
        count += 1
    }

    /// Clears the scratch buffer and opens the next record: its record separator (RFC 8142),
    /// or the collection's head before the first feature and a comma before the others.
    private mutating func startRecord() {
        scratch.bytes.removeAll(keepingCapacity: true)
        if sequence {
            if recordSeparator { scratch.append(0x1E) }
        } else {
            scratch.append(count == 0 ? "{\"type\":\"FeatureCollection\",\"features\":[\n" : ",\n")
        }
    }

    /// Closes the collection (with its members, if any) and flushes.
    public mutating func finish() throws {
        guard !finished else { return }
        finished = true
        if !sequence {
            scratch.bytes.removeAll(keepingCapacity: true)
            scratch.append(count == 0 ? "{\"type\":\"FeatureCollection\",\"features\":[" : "\n]")
            if count == 0 { scratch.append("]") }
            scratch.appendMembers(collectionMembers, leadingComma: true, reserved: ["type", "features"])
            reportRenamedKeys()
            scratch.append("}\n")
            try scratch.bytes.withUnsafeBytes { try output.write($0) }
        }
        try output.flush()
    }

    /// One feature as compact JSON (no trailing newline), for callers that frame it themselves.
    public static func encode(_ feature: Feature, options: WriterOptions = WriterOptions()) -> [UInt8] {
        var writer = GeoJSONWriter(output: ByteOutput(), options: options, sequence: true)
        writer.scratch.spill = nil  // every byte is returned, none goes to the output
        writer.appendFeature(feature)
        return writer.scratch.bytes
    }

    private mutating func appendFeature(_ feature: Feature) {
        scratch.append("{\"type\":\"Feature\"")
        switch feature.id {
        case nil: break
        case .string(let text)?:
            scratch.append(",\"id\":")
            scratch.appendString(text)
        case .integer(let value)?:
            scratch.append(",\"id\":")
            scratch.appendInteger(value)
        case .number(let value)?:
            scratch.append(",\"id\":")
            scratch.appendNumber(value)
        }
        scratch.append(",\"properties\":")
        var properties = feature.properties
        if case .circle(let circle)? = feature.shape, properties?["radius"]?.doubleValue != circle.radius {
            if properties == nil { properties = JSONObject() }
            properties!["radius"] = .number(circle.radius)
        }
        properties = SimpleStyle.properties(properties, carrying: feature.style)
        if let properties { scratch.appendObject(properties) } else { scratch.append("null") }
        scratch.append(",\"geometry\":")
        if let shape = writableShape(feature) {
            appendGeometry(shape, members: feature.geometryMembers)
        } else {
            scratch.append("null")
        }
        var foreignMembers = feature.foreignMembers
        if !feature.folderPath.isEmpty {
            // The KML folder path (docs/kml.md "Folders"); it replaces a foreign member of that name.
            foreignMembers[GeoJSONConventions.foldersMember] = nil
            scratch.append(",")
            scratch.appendString(GeoJSONConventions.foldersMember)
            scratch.append(":")
            scratch.appendValue(.array(feature.folderPath.map { .string($0) }))
        }
        var written = ["type", "properties", "geometry"]
        if feature.id != nil { written.append("id") }
        if !feature.folderPath.isEmpty { written.append(GeoJSONConventions.foldersMember) }
        scratch.appendMembers(foreignMembers, leadingComma: true, reserved: written)
        scratch.append("}")
    }

    /// Warns once per name about members written renamed because the name repeated in one
    /// object (a library caller's properties, or a foreign member named like a member the
    /// writer emits): every JSON reader would keep only one of them.
    private mutating func reportRenamedKeys() {
        guard !scratch.renamedKeys.isEmpty else { return }
        for rename in scratch.renamedKeys where reportedRenames.insert(rename.original).inserted {
            warnings.append(Diagnostic(.warning, code: .outputDuplicateNameRenamed,
                                       message: "member \"\(rename.original)\" appears more than once in one object; a later one is written as \"\(rename.renamed)\" (reported once per name)"))
        }
        scratch.renamedKeys.removeAll()
    }

    /// The feature's shape as the format allows it (``ShapeRepair/writable(_:)``), warning
    /// at the feature for each change.
    private mutating func writableShape(_ feature: Feature) -> Shape? {
        let (shape, repairs) = ShapeRepair.writable(feature)
        warnings += repairs
        return shape
    }

    private mutating func appendGeometry(_ shape: Shape, members: JSONObject = JSONObject()) {
        switch shape {
        case .annotation(let annotation):
            scratch.append("{\"type\":\"Point\",\"coordinates\":")
            appendPosition(annotation.coordinate)
        case .circle(let circle):
            scratch.append("{\"type\":\"Point\",\"coordinates\":")
            appendPosition(circle.center)
        case .polyline(let polyline):
            scratch.append("{\"type\":\"LineString\",\"coordinates\":")
            appendPositions(polyline.coordinates)
        case .polygon(let polygon):
            scratch.append("{\"type\":\"Polygon\",\"coordinates\":")
            appendRings(polygon)
        case .multiPolyline(let multi):
            scratch.append("{\"type\":\"MultiLineString\",\"coordinates\":[")
            for (index, polyline) in multi.polylines.enumerated() {
                if index > 0 { scratch.append(UInt8(ascii: ",")) }
                appendPositions(polyline.coordinates)
            }
            scratch.append(UInt8(ascii: "]"))
        case .multiPolygon(let multi):
            scratch.append("{\"type\":\"MultiPolygon\",\"coordinates\":[")
            for (index, polygon) in multi.polygons.enumerated() {
                if index > 0 { scratch.append(UInt8(ascii: ",")) }
                appendRings(polygon)
            }
            scratch.append(UInt8(ascii: "]"))
        case .collection(let collection):
            let allPoints = collection.members.allSatisfy {
                if case .annotation = $0 { return true } else { return false }
            }
            if collection.origin == .multiPoint && allPoints {
                scratch.append("{\"type\":\"MultiPoint\",\"coordinates\":[")
                for (index, member) in collection.members.enumerated() {
                    if index > 0 { scratch.append(UInt8(ascii: ",")) }
                    if case .annotation(let annotation) = member { appendPosition(annotation.coordinate) }
                }
                scratch.append(UInt8(ascii: "]"))
            } else {
                scratch.append("{\"type\":\"GeometryCollection\",\"geometries\":[")
                for (index, member) in collection.members.enumerated() {
                    if index > 0 { scratch.append(UInt8(ascii: ",")) }
                    appendGeometry(member)
                }
                scratch.append(UInt8(ascii: "]"))
            }
        }
        scratch.appendMembers(members, leadingComma: true, reserved: ["type", "coordinates", "geometries"])
        scratch.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    private mutating func appendPosition(_ coordinate: Coordinate) {
        scratch.appendPosition(coordinate, scale: JSONBytes.CoordinateScale(decimals: options.precision))
    }

    private mutating func appendPositions(_ coordinates: [Coordinate], reversed: Bool = false) {
        let scale = JSONBytes.CoordinateScale(decimals: options.precision)
        scratch.append(UInt8(ascii: "["))
        coordinates.withUnsafeBufferPointer { scratch.appendPositions($0, reversed: reversed, scale: scale) }
        scratch.append(UInt8(ascii: "]"))
    }

    /// Rings with RFC 7946 winding: exterior counterclockwise, holes clockwise. A polygon without
    /// rings (no exterior positions, no holes) is the empty `[]`, not a ring of none.
    private mutating func appendRings(_ polygon: Polygon) {
        scratch.append(UInt8(ascii: "["))
        if polygon.pointCount == 0 && polygon.interiorPolygons.isEmpty {
            scratch.append(UInt8(ascii: "]"))
            return
        }
        let exterior = polygon.coordinates
        appendPositions(exterior, reversed: RingWinding.signedArea(exterior) < 0)
        for hole in polygon.interiorPolygons {
            scratch.append(UInt8(ascii: ","))
            appendPositions(hole.coordinates, reversed: RingWinding.signedArea(hole.coordinates) > 0)
        }
        scratch.append(UInt8(ascii: "]"))
    }
}
