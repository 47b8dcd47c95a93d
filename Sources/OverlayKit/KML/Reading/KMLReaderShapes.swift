import OverlayModel

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
