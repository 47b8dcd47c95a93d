#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances on the sphere behind spherical Mercator.
///
/// The Earth is taken as a sphere of radius 6,378,137 m (the WGS 84 semi-major axis that
/// spherical Mercator uses), so the world's 2^28 map points span the equator's circumference.
public enum EarthModel {
    /// Sphere radius in meters.
    public static let radius: Double = 6_378_137
    /// Equator length in meters.
    public static let circumference: Double = 2 * Double.pi * radius
}

/// Great-circle distance in meters between two map points (`MKMetersBetweenMapPoints`),
/// computed with the haversine formula on `EarthModel.radius`.
public func metersBetween(_ a: MapPoint, _ b: MapPoint) -> Double {
    metersBetween(Coordinate(a), Coordinate(b))
}

/// Great-circle distance in meters between two coordinates (haversine on `EarthModel.radius`).
public func metersBetween(_ a: Coordinate, _ b: Coordinate) -> Double {
    let toRadians = Double.pi / 180
    let dLat = (b.latitude - a.latitude) * toRadians
    let dLon = (b.longitude - a.longitude) * toRadians
    let h = sin(dLat / 2) * sin(dLat / 2)
        + cos(a.latitude * toRadians) * cos(b.latitude * toRadians) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * EarthModel.radius * asin(min(1, h.squareRoot()))
}

/// Map points per meter at a latitude (`MKMapPointsPerMeterAtLatitude`): Mercator stretches
/// distances by 1 / cos(latitude).
public func mapPointsPerMeter(atLatitude latitude: Double) -> Double {
    let clamped = max(-MapProjection.maximumLatitude, min(MapProjection.maximumLatitude, latitude))
    return MapProjection.worldSize / (EarthModel.circumference * cos(clamped * Double.pi / 180))
}

/// Meters per map point at a latitude (`MKMetersPerMapPointAtLatitude`).
public func metersPerMapPoint(atLatitude latitude: Double) -> Double {
    1 / mapPointsPerMeter(atLatitude: latitude)
}
