#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A circle on the Earth (`--near lat,lon,meters`), decided the way Core Location's
/// `CLCircularRegion` decides `contains`: by great-circle distance on the sphere of
/// `EarthModel.radius`, not by degrees or map points.
///
/// A shape meets the region when its nearest point is at most `radius` meters from the center.
/// Edges of lines and rings are taken as great-circle arcs between their vertices; a polygon
/// also meets it when the center lies inside (tested on the map plane).
public struct CircularRegion: Hashable, Sendable {
    /// The center of the region.
    public var center: Coordinate
    /// Meters.
    public var radius: Double

    /// - Throws: `Diagnostic` `filter.invalid-region` for an invalid center or a negative or
    ///   non-finite radius.
    public init(center: Coordinate, radius: Double) throws {
        guard center.isValid, center.latitude.isFinite, center.longitude.isFinite else {
            throw Diagnostic(.error, code: .filterInvalidRegion,
                             message: "center \(center.latitude),\(center.longitude) is not a valid latitude,longitude")
        }
        guard radius.isFinite, radius >= 0 else {
            throw Diagnostic(.error, code: .filterInvalidRegion, message: "radius must be 0 or more meters, not \(radius)")
        }
        self.center = center
        self.radius = radius
    }

    /// Parses `lat,lon,meters`.
    public init(parsing text: String) throws {
        let numbers = try FilterArgument.numbers(text, count: 3, what: "--near", form: "latitude,longitude,meters")
        do {
            try self.init(center: Coordinate(latitude: numbers[0], longitude: numbers[1]), radius: numbers[2])
        } catch var diagnostic as Diagnostic {
            if let hint = CoordinateOrder.pointHint(latitude: numbers[0], longitude: numbers[1]) { diagnostic.message += " (\(hint))" }
            throw diagnostic
        }
    }

    /// True when the coordinate is at most `radius` meters away (`CLCircularRegion.contains`).
    public func contains(_ coordinate: Coordinate) -> Bool {
        metersBetween(center, coordinate) <= radius
    }

    /// The latitude/longitude box around the region, for a cheap reject before exact distances.
    public var boundingBox: GeographicBox {
        let angle = radius / EarthModel.radius
        let degrees = angle * 180 / Double.pi
        let south = center.latitude - degrees, north = center.latitude + degrees
        let ratio = sin(angle) / cos(center.latitude * Double.pi / 180)
        if north >= 90 || south <= -90 || angle >= Double.pi / 2 || ratio >= 1 {
            // A pole or a hemisphere is inside: every longitude is.
            return GeographicBox(validWest: -180, south: max(-90, south), east: 180, north: min(90, north))
        }
        let spread = asin(ratio) * 180 / Double.pi
        var west = center.longitude - spread, east = center.longitude + spread
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        return GeographicBox(validWest: west, south: south, east: east, north: north)
    }

    /// True when some point of the shape is at most `radius` meters from the center.
    public func intersects(_ shape: Shape) -> Bool {
        let bounds = shape.boundingMapRect
        guard boundingBox.worldRects.contains(where: { $0.intersects(bounds) }) else { return false }
        return distance(to: shape) <= radius
    }

    /// Meters from the center to the nearest point of the shape (0 inside a polygon).
    public func distance(to shape: Shape) -> Double {
        switch shape {
        case .annotation(let annotation):
            return metersBetween(center, annotation.coordinate)
        case .circle(let circle):
            return max(0, metersBetween(center, circle.center) - circle.radius)
        case .polyline(let polyline):
            return pathDistance(polyline.coordinates)
        case .polygon(let polygon):
            return polygonDistance(polygon)
        case .multiPolyline(let multi):
            return multi.polylines.map { pathDistance($0.coordinates) }.min() ?? .infinity
        case .multiPolygon(let multi):
            return multi.polygons.map(polygonDistance).min() ?? .infinity
        case .collection(let collection):
            return collection.members.map { distance(to: $0) }.min() ?? .infinity
        }
    }

    private func polygonDistance(_ polygon: Polygon) -> Double {
        if PointInPolygon.contains(polygon, MapPoint(center)) { return 0 }
        return polygon.rings.map { pathDistance($0.coordinates) }.min() ?? .infinity
    }

    private func pathDistance(_ coordinates: [Coordinate]) -> Double {
        guard let first = coordinates.first else { return .infinity }
        let p = UnitVector(center)
        var nearest = metersBetween(center, first)
        var previous = UnitVector(first)
        for index in coordinates.indices.dropFirst() {
            let current = UnitVector(coordinates[index])
            nearest = min(nearest, metersBetween(center, coordinates[index]))
            if let across = p.distanceToArc(previous, current) { nearest = min(nearest, across) }
            previous = current
        }
        return nearest
    }
}

/// A point on the unit sphere, for distances to great-circle arcs.
private struct UnitVector {
    var x: Double, y: Double, z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ coordinate: Coordinate) {
        let lat = coordinate.latitude * Double.pi / 180, lon = coordinate.longitude * Double.pi / 180
        self.init(x: cos(lat) * cos(lon), y: cos(lat) * sin(lon), z: sin(lat))
    }

    func cross(_ o: UnitVector) -> UnitVector {
        UnitVector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
    }

    func dot(_ o: UnitVector) -> Double { x * o.x + y * o.y + z * o.z }

    /// Meters from this point to the arc a→b when its foot on the arc's great circle lies
    /// between a and b; nil otherwise (then an end is nearest).
    func distanceToArc(_ a: UnitVector, _ b: UnitVector) -> Double? {
        let normal = a.cross(b)
        let length = normal.dot(normal).squareRoot()
        guard length > 1e-15 else { return nil }
        let n = UnitVector(x: normal.x / length, y: normal.y / length, z: normal.z / length)
        let offPlane = dot(n)
        let foot = UnitVector(x: x - offPlane * n.x, y: y - offPlane * n.y, z: z - offPlane * n.z)
        guard a.cross(foot).dot(n) >= 0, foot.cross(b).dot(n) >= 0 else { return nil }
        return asin(min(1, abs(offPlane))) * EarthModel.radius
    }
}
