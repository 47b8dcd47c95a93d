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

    /// A closed counterclockwise ring around the circle: `CirclePolygon`'s ring (the Mercator
    /// circle the renderer and tiler draw), with `tolerance` meters taken at the center's latitude.
    static func ring(_ circle: Circle) -> [Coordinate] {
        let mapTolerance = tolerance * mapPointsPerMeter(atLatitude: circle.center.latitude)
        // The ring runs clockwise on the map; KML's outer boundaries run counterclockwise.
        return CirclePolygon.ring(circle, tolerance: mapTolerance).reversed().map(Coordinate.init)
    }
}
