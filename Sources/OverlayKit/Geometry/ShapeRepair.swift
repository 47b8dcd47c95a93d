import OverlayModel

/// The one rule for geometry that output formats cannot hold, shared by the readers (which
/// build shapes) and every writer (GeoJSON, GeoJSONSeq, KML, KMZ), so no output is invalid for
/// its format and nothing changes without a warning.
///
/// RFC 7946 §3.1.4–3.1.6 and OGC KML 2.2 (ATS tests 15–16) agree on what a shape needs:
/// - a linear ring is closed (its last position repeats its first) and has at least four
///   positions: an open ring of three or more positions is **closed** by repeating its first
///   position; a ring that is still shorter than four positions is **dropped** — a dropped
///   exterior drops its polygon, holes and all;
/// - a line has at least two positions: a one-position line **becomes a point** at that
///   position (in a multi-line, the multi-line becomes a collection), so the position is kept;
/// - a geometry left with nothing (every polygon dropped) is written as an empty geometry where
///   the format has one (GeoJSON `"coordinates":[]`, RFC 7946 §3.1) and without geometry where it
///   has none (KML).
///
/// Empty geometries read as such (`"coordinates":[]`) are left as they are. The readers apply
/// the rule while building shapes and warn at the exact ring or line; writers apply
/// ``repaired(_:allowsEmpty:)`` to whatever they are given (shapes built in code, transformed)
/// and warn at the feature, so valid shapes pass unchanged and silent.
public enum ShapeRepair {
    /// What the rule makes of one linear ring.
    public enum RingVerdict: Equatable, Sendable {
        /// Closed, with four or more positions: kept as it is.
        case valid
        /// Open, with three or more positions: kept with its first position repeated last.
        case close
        /// Fewer than four positions once closed: dropped. `positions` is the count as given.
        case drop(positions: Int)
    }

    /// The verdict on a ring of `coordinates`. O(1).
    public static func ringVerdict(_ coordinates: [Coordinate]) -> RingVerdict {
        let closed = isClosed(coordinates)
        let countOnceClosed = coordinates.count + (closed || coordinates.isEmpty ? 0 : 1)
        if countOnceClosed < 4 { return .drop(positions: coordinates.count) }
        return closed ? .valid : .close
    }

    /// True when the ring's last position is its first (longitude, latitude and altitude; the
    /// altitude counts because RFC 7946 asks for identical positions).
    public static func isClosed(_ coordinates: [Coordinate]) -> Bool {
        guard coordinates.count > 1, let first = coordinates.first, let last = coordinates.last else { return false }
        return first.longitude == last.longitude && first.latitude == last.latitude && first.altitude == last.altitude
    }

    /// One change the rule made to a shape, for a writer's warning.
    public struct Repair: Hashable, Sendable {
        /// A stable code: `output.ring-closed`, `output.ring-dropped`, `output.line-to-point`
        /// or `output.geometry-dropped`.
        public var code: Diagnostic.Code
        /// What was wrong and what was written instead, naming the part (e.g. "polygon 2, ring 1").
        public var message: String
    }

    /// A feature's shape as a writer may write it: ``repaired(_:allowsEmpty:)`` with every
    /// empty geometry allowed (writers carry those their own way), and each change as a warning
    /// located at the feature. Shapes from the readers are already valid and pass unchanged.
    public static func writable(_ feature: Feature) -> (shape: Shape?, warnings: [Diagnostic]) {
        guard let shape = feature.shape else { return (nil, []) }
        let (repaired, repairs) = repaired(shape, allowsEmpty: true)
        var location = feature.location
        if location?.jsonPointer == "" { location?.jsonPointer = nil }  // the document itself: no "()"
        return (repaired, repairs.map { Diagnostic(.warning, code: $0.code, message: $0.message, location: location) })
    }

    /// `shape` as the rule allows it to be written, and what was changed.
    ///
    /// - Parameters:
    ///   - shape: the shape to write.
    ///   - allowsEmpty: the format has empty geometries (GeoJSON); when false (KML) a shape with
    ///     nothing left is returned as nil, with a repair saying so.
    /// - Returns: the shape to write (nil: write no geometry) and the repairs, in shape order;
    ///   a valid shape comes back unchanged with no repairs. O(n) in the vertices.
    public static func repaired(_ shape: Shape, allowsEmpty: Bool) -> (shape: Shape?, repairs: [Repair]) {
        var repairs: [Repair] = []
        let result = repair(shape, name: nil, repairs: &repairs)
        if let result, !allowsEmpty, isEmpty(result) {
            repairs.append(Repair(code: .outputGeometryDropped,
                                  message: "an empty \(kindName(result)) has no form in this format; written without geometry"))
            return (nil, repairs)
        }
        return (result, repairs)
    }

    /// True when the shape holds no position at all (GeoJSON's empty geometries).
    public static func isEmpty(_ shape: Shape) -> Bool {
        switch shape {
        case .annotation, .circle: false
        case .polyline(let polyline): polyline.pointCount == 0
        case .polygon(let polygon): polygon.pointCount == 0 && polygon.interiorPolygons.isEmpty
        case .multiPolyline(let multi): multi.polylines.allSatisfy { $0.pointCount == 0 }
        case .multiPolygon(let multi): multi.polygons.allSatisfy { isEmpty(.polygon($0)) }
        case .collection(let collection): collection.members.allSatisfy(isEmpty)
        }
    }

    private static func kindName(_ shape: Shape) -> String {
        switch shape {
        case .annotation: "point"
        case .circle: "circle"
        case .polyline: "line"
        case .polygon: "polygon"
        case .multiPolyline: "multi-line"
        case .multiPolygon: "multi-polygon"
        case .collection: "collection"
        }
    }

    /// Repairs one shape; nil when nothing of it may be written. `name` prefixes messages
    /// ("member 3's") for shapes inside others.
    private static func repair(_ shape: Shape, name: String?, repairs: inout [Repair]) -> Shape? {
        let prefix = name.map { "\($0): " } ?? ""
        switch shape {
        case .annotation, .circle:
            return shape
        case .polyline(let polyline):
            guard polyline.pointCount == 1 else { return shape }
            repairs.append(Repair(code: .outputLineToPoint,
                                  message: "\(prefix)a line needs two or more positions, found 1; written as a point"))
            return .annotation(PointAnnotation(coordinate: polyline.coordinates[0]))
        case .polygon(let polygon):
            if isEmpty(shape) { return shape }
            guard let kept = repair(polygon, name: prefix + "polygon", repairs: &repairs) else { return .polygon(Polygon(coordinates: [])) }
            return .polygon(kept)
        case .multiPolyline(let multi):
            guard multi.polylines.contains(where: { $0.pointCount == 1 }) else { return shape }
            var members: [Shape] = []
            for (index, polyline) in multi.polylines.enumerated() {
                members.append(repair(.polyline(polyline), name: "\(prefix)line \(index + 1)", repairs: &repairs) ?? .polyline(polyline))
            }
            return .collection(ShapeCollection(members: members, origin: .geometryCollection))
        case .multiPolygon(let multi):
            var polygons: [Polygon] = []
            for (index, polygon) in multi.polygons.enumerated() {
                if isEmpty(.polygon(polygon)) { polygons.append(polygon); continue }
                if let kept = repair(polygon, name: "\(prefix)polygon \(index + 1)", repairs: &repairs) { polygons.append(kept) }
            }
            return .multiPolygon(MultiPolygon(polygons))
        case .collection(let collection):
            var members: [Shape] = []
            for (index, member) in collection.members.enumerated() {
                if let kept = repair(member, name: "\(prefix)member \(index + 1)", repairs: &repairs) { members.append(kept) }
            }
            return .collection(ShapeCollection(members: members, origin: collection.origin))
        }
    }

    /// A polygon with every ring closed and short holes dropped; nil when its exterior is dropped.
    private static func repair(_ polygon: Polygon, name: String, repairs: inout [Repair]) -> Polygon? {
        guard let exterior = repair(ring: polygon.coordinates, name: "\(name), exterior ring", dropsWhat: "the \(name) is dropped",
                                    repairs: &repairs) else { return nil }
        var holes: [Polygon] = []
        for (index, hole) in polygon.interiorPolygons.enumerated() {
            if let ring = repair(ring: hole.coordinates, name: "\(name), hole \(index + 1)", dropsWhat: "the hole is dropped",
                                 repairs: &repairs) {
                holes.append(ring == hole.coordinates ? hole : Polygon(coordinates: ring))
            }
        }
        if exterior == polygon.coordinates && holes.count == polygon.interiorPolygons.count { return polygon }
        return Polygon(vertices: exterior == polygon.coordinates ? polygon.vertices : VertexBuffer(coordinates: exterior),
                       interiorPolygons: holes)
    }

    private static func repair(ring: [Coordinate], name: String, dropsWhat: String, repairs: inout [Repair]) -> [Coordinate]? {
        switch ringVerdict(ring) {
        case .valid:
            return ring
        case .close:
            repairs.append(Repair(code: .outputRingClosed,
                                  message: "\(name) does not end where it starts; written closed by repeating its first position"))
            return ring + [ring[0]]
        case .drop(let positions):
            repairs.append(Repair(code: .outputRingDropped,
                                  message: "\(name) has \(positions) position\(positions == 1 ? "" : "s"), a ring needs four (the last repeating the first); \(dropsWhat)"))
            return nil
        }
    }
}
