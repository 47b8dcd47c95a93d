import OverlayModel

// Geometry: `Point`, `LineString`, `LinearRing`, `Polygon`, `MultiGeometry` and GML's multi
// geometries, their coordinates (through `KMLCoordinates`) and fields. Tracks are in `+Tracks`.
extension KMLParserCore {
    /// A geometry's fields that become feature properties, and a track's times.
    struct GeometryInfo {
        var altitudeMode: String?
        var extrude: Bool?
        var tessellate: Bool?
        var times: JSONValue?
    }

    /// Reads one geometry element into a shape (nil, with a warning, when it holds none) and its
    /// `altitudeMode`, `extrude`, `tessellate` (and a track's times) into `info`.
    func parseGeometry(_ name: String, info: inout GeometryInfo) throws -> Shape? {
        let line = xml.line
        switch name {
        case "Point":
            let coordinates = try parseCoordinates(of: name, info: &info)
            guard let first = coordinates.first else {
                report(.kmlEmptyGeometry, "<Point> has no coordinates; read without geometry", line: line)
                return nil
            }
            if coordinates.count > 1 {
                report(.kmlExtraCoordinates, "<Point> has \(coordinates.count) coordinate tuples; the first is kept", line: line)
            }
            return .annotation(PointAnnotation(coordinate: first))
        case "LineString", "LinearRing":
            let coordinates = try parseCoordinates(of: name, info: &info)
            guard !coordinates.isEmpty else {
                report(.kmlEmptyGeometry, "<\(name)> has no coordinates; read without geometry", line: line)
                return nil
            }
            guard coordinates.count > 1 else {
                // RFC 7946 §3.1.4: a LineString needs two positions; the one given is kept as a point.
                report(.kmlShortLine, "<\(name)> has one position; read as a Point", line: line)
                return .annotation(PointAnnotation(coordinate: coordinates[0]))
            }
            return .polyline(Polyline(coordinates: coordinates))
        case "Polygon":
            return try parsePolygon(line: line, info: &info)
        case "MultiGeometry":
            return try parseMultiGeometry(line: line, info: &info)
        case "MultiPolygon", "MultiLineString", "MultiPoint":
            return try parseGMLMulti(name, line: line, info: &info)
        case "Track":
            return try parseTrackGeometry(line: line, info: &info)
        case "MultiTrack":
            return try parseMultiTrack(line: line, info: &info)
        default:
            report(.kmlIgnoredElement, "<\(xml.qualifiedName)> (a 3D model) is not an overlay and is not kept", line: line, once: "geometry:" + name)
            try xml.skipElement()
            return nil
        }
    }

    /// `Polygon`: its outer ring and holes, each closed and at least 4 positions long.
    private func parsePolygon(line: Int, info: inout GeometryInfo) throws -> Shape? {
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
                        report(.kmlShortRing, "a LinearRing needs at least 4 positions, has \(ring.count); ring dropped", line: ringLine,
                               needle: "<LinearRing")
                        return
                    }
                    if part == "outerBoundaryIs" {
                        if outer == nil { outer = ring } else {
                            report(.kmlExtraGeometry, "<Polygon> has a second outerBoundaryIs; it is dropped", line: ringLine)
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
            report(.kmlEmptyGeometry, "<Polygon> has no outer ring; read without geometry", line: line)
            return nil
        }
        return .polygon(Polygon(coordinates: outer, interiorPolygons: holes))
    }

    /// `MultiGeometry`: its members combined (`KMLReaderShapes.combine`), or kept as a GeoJSON
    /// GeometryCollection when the writer marked it so.
    private func parseMultiGeometry(line: Int, info: inout GeometryInfo) throws -> Shape? {
        // Without the writer's types every MultiGeometry combines; with them, each takes its own.
        let keepsCollection = multiGeometryTypes.popFirst() == "GeometryCollection"
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
            report(.kmlEmptyGeometry, "<MultiGeometry> has no geometry; read without geometry", line: line)
            return nil
        }
        return combined
    }

    /// GML's `MultiPolygon`, `MultiLineString`, `MultiPoint` (GDAL reads them): the matching
    /// multi overlay, with a warning that this is not KML.
    private func parseGMLMulti(_ name: String, line: Int, info: inout GeometryInfo) throws -> Shape? {
        report(.kmlGmlGeometry, "<\(name)> is GML, not KML (KML writes <MultiGeometry>); read as a \(name)",
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
            report(.kmlEmptyGeometry, "<\(name)> has no geometry; read without geometry", line: line)
            return nil
        }
        return combined
    }

    /// `altitudeMode`, `extrude` or `tessellate` of a geometry into `info` (the first given wins).
    func readGeometryField(_ name: String, info: inout GeometryInfo) throws {
        let line = xml.line
        let text = try xml.readText().kmlTrimmed
        switch name {
        case "altitudeMode": info.altitudeMode = info.altitudeMode ?? text
        case "interpolate": break
        default:
            guard let flag = KMLStyleParser.bool(text) else {
                report(.kmlInvalidValue, "<\(name)> '\(text)' is not 0 or 1", line: line)
                return
            }
            if name == "extrude" { info.extrude = info.extrude ?? flag } else { info.tessellate = info.tessellate ?? flag }
        }
    }

    /// The ring closed (first position repeated last), with a warning when the file left it open.
    private func closedRing(_ ring: [Coordinate], line: Int) -> [Coordinate] {
        guard let first = ring.first, let last = ring.last, ring.count > 1 else { return ring }
        if first.latitude == last.latitude && first.longitude == last.longitude { return ring }
        report(.kmlRingNotClosed, "LinearRing does not end where it starts; closed by repeating its first position", line: line,
               needle: "<LinearRing")
        return ring + [first]
    }

    /// The coordinates of a geometry element whose fields are not kept (`gx:LatLonQuad`).
    func parseCoordinates(of parent: String) throws -> [Coordinate] {
        var info = GeometryInfo()
        return try parseCoordinates(of: parent, info: &info)
    }

    /// Reads the children of a geometry element: its `coordinates` through the tokenizer (each
    /// problem reported at its line and column) and the geometry fields into `info`.
    func parseCoordinates(of parent: String, info: inout GeometryInfo) throws -> [Coordinate] {
        var coordinates: [Coordinate] = []
        try xml.forEachChild { part in
            switch part {
            case "coordinates":
                let line = xml.line
                textBuffer.removeAll(keepingCapacity: true)
                try xml.readTextBytes(into: &textBuffer)
                var problems: [KMLCoordinates.Problem] = []
                // Into a reused buffer, then one copy of the exact size: a ring of thousands of
                // positions grew its array a dozen times (issue 50: 19.6 M instructions of 785 M).
                coordinateScratch.removeAll(keepingCapacity: true)
                textBuffer.withUnsafeBufferPointer { KMLCoordinates.parse($0, into: &coordinateScratch, problems: &problems) }
                coordinates.append(contentsOf: coordinateScratch)
                for problem in problems.prefix(100) {
                    warnings.append(Diagnostic(.warning, code: problem.dropped ? .kmlBadCoordinate : problem.split ? .kmlJoinedTuples : .kmlExtraCoordinates,
                                               message: "\(problem.message) ('\(problem.text)')" + (problem.dropped ? "; tuple skipped, the others keep their values" : ""),
                                               location: xml.location(ofTextOffset: problem.offset, in: textBuffer, elementLine: line,
                                                                          elementName: "coordinates")))
                }
                if problems.count > 100 {
                    report(.kmlBadCoordinate, "\(problems.count - 100) more coordinate problems in this element not listed", line: line)
                }
            case "extrude", "tessellate", "altitudeMode":
                try readGeometryField(part, info: &info)
            default:
                try skipReported(xml.qualifiedName, in: parent)
            }
        }
        return coordinates
    }
}
