import OverlayModel

// Geometry: shapes as `Point`, `LineString`, `Polygon` and `MultiGeometry`, with the fields
// (`extrude`, `tessellate`, `altitudeMode`) taken from the properties.
extension KMLWriter {
    struct GeometryFields {
        var extrude: Bool?
        var tessellate: Bool?
        var altitudeMode: String?
    }

    private static let altitudeModes: Set<String> = ["clampToGround", "relativeToGround", "absolute"]

    func takeGeometryFields(_ properties: inout JSONObject, hasGeometry: Bool) -> GeometryFields {
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

    mutating func appendGeometry(_ shape: Shape, fields: GeometryFields) {
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
            // A long ring streams into the body instead of growing the buffer to its whole text.
            if scratch.bytes.count >= JSONBytes.spillThreshold { scratch.spillIfLong() }
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
}
