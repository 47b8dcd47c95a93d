extension MapPoint: CustomStringConvertible {
    /// `MapPoint(x, y)` with the point's latitude and longitude, e.g.
    /// `MapPoint(134217728.0, 89140939.2; 51.5000, -0.1200)`: short enough for a log line.
    public var description: String {
        let coordinate = self.coordinate
        return "MapPoint(\(x), \(y); \(MapDescriptions.degrees(coordinate.latitude)), \(MapDescriptions.degrees(coordinate.longitude)))"
    }
}

extension MapRect: CustomStringConvertible {
    /// `MapRect(x, y, width × height)`, or `MapRect.null` for the empty rect.
    public var description: String {
        isNull ? "MapRect.null" : "MapRect(\(origin.x), \(origin.y), \(size.width) × \(size.height))"
    }
}

extension MapRect {
    /// The rect covering a box given in degrees (west, south, east, north), as MapKit users
    /// build one from a region: north-west corner to south-east corner. A box with
    /// `west > east` crosses the antimeridian and runs past the world's east edge (like
    /// MapKit's rects that span the 180th meridian).
    public init(west: Double, south: Double, east: Double, north: Double) {
        let left = MapProjection.x(longitude: west)
        var right = MapProjection.x(longitude: east)
        if west > east { right += MapProjection.worldSize }
        let top = MapProjection.y(latitude: north), bottom = MapProjection.y(latitude: south)
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// Number formatting for the descriptions above.
enum MapDescriptions {
    /// Degrees with four decimals (about 10 m), without Foundation.
    static func degrees(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let scaled = (abs(value) * 10_000).rounded()
        let whole = Int(scaled / 10_000), fraction = Int(scaled.truncatingRemainder(dividingBy: 10_000))
        let digits = String(fraction)
        return (value < 0 && scaled > 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
