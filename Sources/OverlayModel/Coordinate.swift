/// A geographic position as files store it: WGS 84 latitude and longitude in degrees,
/// with an optional altitude in meters (the third number of a GeoJSON position or KML tuple).
///
/// The counterpart of Core Location's `CLLocationCoordinate2D`.
public struct Coordinate: Hashable, Sendable {
    /// Degrees north of the equator, −90…90 for valid coordinates.
    public var latitude: Double
    /// Degrees east of the prime meridian, −180…180 for valid coordinates.
    public var longitude: Double
    /// Meters above the reference surface, when the source gave one.
    public var altitude: Double?

    /// A coordinate in degrees (WGS 84), with an optional altitude in meters.
    @inlinable
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// True when latitude is within ±90° and longitude within ±180°, both finite
    /// (`CLLocationCoordinate2DIsValid`).
    @inlinable
    public var isValid: Bool {
        latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
    }
}

/// A latitude/longitude extent in degrees (`MKCoordinateSpan`).
public struct CoordinateSpan: Hashable, Sendable {
    /// North–south extent in degrees.
    public var latitudeDelta: Double
    /// East–west extent in degrees.
    public var longitudeDelta: Double

    /// A span of the given extents.
    public init(latitudeDelta: Double, longitudeDelta: Double) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}

/// A center coordinate and a span around it (`MKCoordinateRegion`).
public struct CoordinateRegion: Hashable, Sendable {
    /// The center of the region.
    public var center: Coordinate
    /// How far the region reaches around its center.
    public var span: CoordinateSpan

    /// A region around `center`.
    public init(center: Coordinate, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// The region covering a map rect (`MKCoordinateRegionForMapRect`): the center is the
    /// rect's midpoint; the latitude span runs from its top edge to its bottom edge and the
    /// longitude span is its width in degrees.
    public init(_ rect: MapRect) {
        let topLeft = Coordinate(rect.origin)
        let bottomRight = Coordinate(MapPoint(x: rect.maxX, y: rect.maxY))
        center = Coordinate(MapPoint(x: rect.midX, y: rect.midY))
        span = CoordinateSpan(
            latitudeDelta: topLeft.latitude - bottomRight.latitude,
            longitudeDelta: rect.size.width / MapSize.world.width * 360
        )
    }
}
