/// A geographic position as files store it: WGS 84 latitude and longitude in degrees,
/// with an optional altitude in meters (the third number of a GeoJSON position or KML tuple).
///
/// The counterpart of Core Location's `CLLocationCoordinate2D`.
public struct Coordinate: Hashable, Sendable {
    /// Degrees north of the equator, −90…90 for valid coordinates.
    public var latitude: Double
    /// Degrees east of the prime meridian, −180…180 for valid coordinates.
    public var longitude: Double
    /// The altitude, or `Coordinate.noAltitude`'s bits for none. An optional `Double` would pad
    /// a coordinate to 32 bytes; this keeps it at 24, and arrays of coordinates are the bulk of
    /// every parsed feature.
    @usableFromInline
    var altitudeOrNone: Double

    /// The stored value that means "no altitude": a NaN with a payload no arithmetic produces
    /// (operations give the default quiet NaN or keep an operand's payload, and this one is
    /// never an operand), compared by its bits. An altitude of exactly these bits read from a
    /// binary format (WKB) would read as none.
    @inlinable
    static var noAltitudeBits: UInt64 { 0x7FF8_0A17_0000_0000 }

    /// Meters above the reference surface, when the source gave one.
    @inlinable
    public var altitude: Double? {
        get { altitudeOrNone.bitPattern == Coordinate.noAltitudeBits ? nil : altitudeOrNone }
        set { altitudeOrNone = newValue ?? Double(bitPattern: Coordinate.noAltitudeBits) }
    }

    /// A coordinate in degrees (WGS 84), with an optional altitude in meters.
    @inlinable
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeOrNone = altitude ?? Double(bitPattern: Coordinate.noAltitudeBits)
    }

    /// Equal latitude, longitude and altitude (none equals none), as with an optional altitude.
    @inlinable
    public static func == (lhs: Coordinate, rhs: Coordinate) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude && lhs.altitude == rhs.altitude
    }

    /// Hashes what `==` compares.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(altitude)
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
