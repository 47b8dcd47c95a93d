#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the spherical Mercator plane used by MapKit (`MKMapPoint`): the world is
/// 2^28 × 2^28 map points, the origin is the top-left corner (180° W, 85.05° N) and the
/// prime meridian runs down the middle.
public struct MapPoint: Hashable, Sendable, Codable {
    /// Map x: 0 at 180° W, growing eastward to `MapProjection.worldSize`.
    public var x: Double
    /// Map y: 0 at the north edge (about 85.05° N), growing southward.
    public var y: Double

    /// A point at map coordinates `x`, `y`.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Projects a coordinate (`MKMapPoint(_:)`).
    ///
    /// Longitudes outside ±180° wrap into [−180°, 180°); exactly ±180° stay where they are so a
    /// ring that touches the antimeridian keeps its shape. Latitudes beyond ±85.0511287798°
    /// clamp to the top or bottom edge of the world. The expression and its evaluation order
    /// match geojson-vt's projection, so normalized values agree bit for bit.
    @inlinable
    public init(_ coordinate: Coordinate) {
        x = MapProjection.x(longitude: coordinate.longitude)
        y = MapProjection.y(latitude: coordinate.latitude)
    }

    /// The coordinate at this map point (`MKMapPoint.coordinate`).
    @inlinable
    public var coordinate: Coordinate { Coordinate(self) }
}

extension Coordinate {
    /// The coordinate of a map point: the inverse of `MapPoint(_:)` within 1e-9° inside the
    /// Mercator latitude limit. Points left or right of the world wrap around it.
    @inlinable
    public init(_ point: MapPoint) {
        self.init(
            latitude: MapProjection.latitude(y: point.y),
            longitude: MapProjection.longitude(x: point.x)
        )
    }
}

/// The spherical Mercator formulas behind `MapPoint` and `Coordinate`, as scalar functions for
/// loops over flat buffers.
public enum MapProjection {
    /// Map points across the world (2^28).
    public static let worldSize: Double = 268_435_456
    /// The latitude whose Mercator y is the world's top edge: atan(sinh(π)) in degrees.
    public static let maximumLatitude: Double = 85.0511287798066

    /// The map x of a longitude in degrees.
    @inlinable
    public static func x(longitude: Double) -> Double {
        (wrappedLongitude(longitude) / 360 + 0.5) * worldSize
    }

    /// A longitude written beyond ±180° moved by whole turns into −180 … 180 (180° itself and
    /// everything within ±180° as given, so −180 and 180 stay apart): the one rule for
    /// far-out longitudes that `MapPoint`, `info`'s extent and the tiler's paths share.
    /// Computed with `fmod`, which is exact: `l − 360·⌊l/360⌋` loses every digit of 1e308.
    @inlinable
    public static func wrappedLongitude(_ longitude: Double) -> Double {
        guard longitude < -180 || longitude > 180 else { return longitude }
        var reduced = fmod(longitude, 360)
        if reduced >= 180 { reduced -= 360 } else if reduced < -180 { reduced += 360 }
        return reduced
    }

    /// The map y of a latitude in degrees (clamped to the world's edges).
    @inlinable
    public static func y(latitude: Double) -> Double {
        // At and beyond the poles (and for NaN) the formula below is meaningless: sin folds 100°
        // back to 80°, and 1e308 · π overflows to a NaN y. Those are the world's edges.
        guard latitude < 90 else { return 0 }
        guard latitude > -90 else { return worldSize }
        let sine = sin(latitude * Double.pi / 180)
        let y = (0.5 - 0.25 * log((1 + sine) / (1 - sine)) / Double.pi) * worldSize
        // Beyond the Mercator limit (or ±90°, where log gives ±inf): clamp to the world edge.
        return y < 0 ? 0 : (y > worldSize ? worldSize : y)
    }

    /// The longitude in degrees of a map x.
    @inlinable
    public static func longitude(x: Double) -> Double {
        var longitude = x / worldSize * 360 - 180
        if longitude < -180 || longitude > 180 {
            longitude -= 360 * ((longitude + 180) / 360).rounded(.down)
        }
        return longitude
    }

    /// The latitude in degrees of a map y.
    @inlinable
    public static func latitude(y: Double) -> Double {
        let clamped = y < 0 ? 0 : (y > worldSize ? worldSize : y)
        return atan(sinh(Double.pi * (1 - 2 * clamped / worldSize))) * 180 / Double.pi
    }
}
