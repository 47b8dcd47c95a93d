#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Area and length of a shape in square metres and metres, for the change a modification
/// makes: polygons by their area on a local equirectangular plane around each polygon (holes
/// subtracted; a circle πr²), lines by their great-circle length.
struct GeometryMeasures: Hashable {
    /// Area of the polygons and circles, m².
    var area = 0.0
    /// Length of the lines, m.
    var length = 0.0

    /// The measures of `shape` (zero for none).
    init(_ shape: Shape?) {
        if let shape { add(shape) }
    }

    private mutating func add(_ shape: Shape) {
        switch shape {
        case .annotation: break
        case .circle(let circle): area += Double.pi * circle.radius * circle.radius
        case .polyline(let line): length += Self.length(line.coordinates)
        case .multiPolyline(let multi): for line in multi.polylines { length += Self.length(line.coordinates) }
        case .polygon(let polygon): area += Self.area(polygon)
        case .multiPolygon(let multi): for polygon in multi.polygons { area += Self.area(polygon) }
        case .collection(let collection): for member in collection.members { add(member) }
        }
    }

    private static func length(_ coordinates: [Coordinate]) -> Double {
        var total = 0.0
        for index in coordinates.indices.dropFirst() { total += metersBetween(coordinates[index - 1], coordinates[index]) }
        return total
    }

    private static func area(_ polygon: Polygon) -> Double {
        let plane = LocalPlane(around: polygon.coordinates)
        let exterior = abs(plane.twiceArea(polygon.coordinates)) / 2
        let holes = polygon.interiorPolygons.reduce(0.0) { $0 + abs(plane.twiceArea($1.coordinates)) / 2 }
        return max(0, exterior - holes)
    }
}

/// An equirectangular plane in metres around a latitude, longitudes unwrapped around a
/// reference so a shape across the antimeridian stays in one piece. Good to well under 1 % for
/// shapes a few hundred kilometres across, which is what a reviewed change is.
struct LocalPlane {
    /// Metres per degree of latitude on the model's sphere.
    static let metresPerDegree = 6_378_137.0 * Double.pi / 180
    private let referenceLongitude: Double
    private let metresPerDegreeLongitude: Double

    /// A plane around the middle of `coordinates` (the equator for none).
    init(around coordinates: [Coordinate]) {
        let latitudes = coordinates.map(\.latitude)
        let middle = latitudes.isEmpty ? 0 : (latitudes.min()! + latitudes.max()!) / 2
        self.init(latitude: middle, longitude: coordinates.first?.longitude ?? 0)
    }

    /// A plane around a latitude, unwrapping longitudes around `longitude`.
    init(latitude: Double, longitude: Double) {
        referenceLongitude = longitude
        metresPerDegreeLongitude = Self.metresPerDegree * cos(min(89.9, abs(latitude)) * Double.pi / 180)
    }

    /// A coordinate's place on the plane, metres east and north of the reference.
    func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        var delta = coordinate.longitude - referenceLongitude
        delta -= 360 * (delta / 360).rounded()
        return (delta * metresPerDegreeLongitude, coordinate.latitude * Self.metresPerDegree)
    }

    /// Twice a ring's signed area on the plane, m².
    func twiceArea(_ ring: [Coordinate]) -> Double {
        let points = ring.map(project)
        return ringTwiceSignedArea(count: points.count) { points[$0] }
    }
}
