#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Circles in KML, which has none: a `Polygon` approximating the circle, whose ExtendedData
/// carries the exact center and radius (`KMLConventions`), so readers that know the
/// convention get the circle back and others still draw the ring.
enum KMLCircle {
    /// Largest distance in meters between the written ring and the true circle.
    static let tolerance = 0.05

    /// The circle described by the properties, if they carry a valid center and radius.
    static func circle(from properties: JSONObject) -> Circle? {
        guard let centerText = properties[KMLConventions.circleCenterKey]?.stringValue,
              let radiusValue = properties[KMLConventions.circleRadiusKey] else { return nil }
        let radius = radiusValue.doubleValue ?? radiusValue.stringValue.flatMap { Double($0.kmlTrimmed) }
        let parts = centerText.split(separator: ",").map { Double(String($0).kmlTrimmed) }
        guard let radius, radius > 0, radius.isFinite, parts.count == 2 || parts.count == 3,
              let longitude = parts[0], let latitude = parts[1] else { return nil }
        let altitude = parts.count == 3 ? parts[2] : nil
        if parts.count == 3 && altitude == nil { return nil }
        return Circle(center: Coordinate(latitude: latitude, longitude: longitude, altitude: altitude), radius: radius)
    }

    /// `longitude,latitude[,altitude]` with every digit (shortest round-trip form).
    static func centerText(_ circle: Circle) -> String {
        var text = "\(circle.center.longitude),\(circle.center.latitude)"
        if let altitude = circle.center.altitude { text += ",\(altitude)" }
        return text
    }

    /// A closed counterclockwise ring of points on the great-circle distance `radius` from the
    /// center, with enough vertices that each chord strays at most `tolerance` meters from the
    /// circle (sagitta r·(1 − cos(π/n))), between 16 and 8192 vertices.
    static func ring(_ circle: Circle) -> [Coordinate] {
        let radius = circle.radius
        var count = 16
        if radius > tolerance {
            let step = acos(1 - tolerance / radius)
            count = Int(saturating: (Double.pi / step).rounded(.up))
        }
        count = max(16, min(8192, count))
        // Beyond half the Earth's circumference a circle covers the whole sphere.
        let angular = min(radius / EarthModel.radius, Double.pi)
        let latitude = circle.center.latitude * Double.pi / 180
        let longitude = circle.center.longitude * Double.pi / 180
        var ring: [Coordinate] = []
        ring.reserveCapacity(count + 1)
        for index in 0..<count {
            // Bearing from north, clockwise; walking it backwards gives a counterclockwise ring.
            let bearing = -2 * Double.pi * Double(index) / Double(count)
            let pointLatitude = asin(sin(latitude) * cos(angular) + cos(latitude) * sin(angular) * cos(bearing))
            let pointLongitude = longitude + atan2(sin(bearing) * sin(angular) * cos(latitude),
                                                   cos(angular) - sin(latitude) * sin(pointLatitude))
            var degrees = pointLongitude * 180 / Double.pi
            if degrees > 180 { degrees -= 360 } else if degrees < -180 { degrees += 360 }
            ring.append(Coordinate(latitude: pointLatitude * 180 / Double.pi, longitude: degrees))
        }
        ring.append(ring[0])
        return ring
    }
}
