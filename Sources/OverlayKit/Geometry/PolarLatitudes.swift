import OverlayModel

/// Finds latitudes beyond ±90°: they name no place, and the map projection puts them at the
/// world's top or bottom edge (`MapProjection.y(latitude:)`). Commands that project (`tile`,
/// `info`, `render`, `filter` with a geometry test) warn with the feature's location instead
/// of drawing such data silently somewhere else; `validate` reports them too.
public enum PolarLatitudes {
    /// The first latitude of `shape` beyond ±90° (or not a number), or nil. O(vertices), stops at the first.
    public static func first(in shape: Shape) -> Double? {
        func beyond(_ latitude: Double) -> Bool { !(latitude.magnitude <= 90) }
        func first(in coordinates: [Coordinate]) -> Double? { coordinates.first { beyond($0.latitude) }?.latitude }
        switch shape {
        case .annotation(let annotation): return beyond(annotation.coordinate.latitude) ? annotation.coordinate.latitude : nil
        case .circle(let circle): return beyond(circle.center.latitude) ? circle.center.latitude : nil
        case .polyline(let polyline): return first(in: polyline.coordinates)
        case .polygon(let polygon):
            for ring in polygon.rings { if let latitude = first(in: ring.coordinates) { return latitude } }
            return nil
        case .multiPolyline(let multi):
            for polyline in multi.polylines { if let latitude = first(in: polyline.coordinates) { return latitude } }
            return nil
        case .multiPolygon(let multi):
            for polygon in multi.polygons { if let latitude = Self.first(in: .polygon(polygon)) { return latitude } }
            return nil
        case .collection(let collection):
            for member in collection.members { if let latitude = Self.first(in: member) { return latitude } }
            return nil
        }
    }

    /// A warning `geometry.latitude-beyond-pole` at the feature's location when its geometry
    /// has a latitude beyond ±90°, else nil.
    public static func warning(for feature: Feature) -> Diagnostic? {
        guard let shape = feature.shape, let latitude = first(in: shape) else { return nil }
        var location = feature.location
        if let pointer = location?.jsonPointer { location?.jsonPointer = pointer + "/geometry" }
        return Diagnostic(.warning, code: .geometryLatitudeBeyondPole,
                          message: "latitude \(latitude) is beyond ±90°; it is placed at the world's "
                              + (latitude > 0 ? "top" : "bottom") + " edge (±85.0511°)",
                          location: location)
    }
}
