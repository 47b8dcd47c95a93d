#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Where a snapshot looks, with the Google Maps SDK's camera semantics: a center, a zoom (the
/// world is 256·2^zoom screen points wide) and a bearing (degrees clockwise from north that
/// point up on the screen).
public struct RenderCamera: Hashable, Sendable {
    /// The map point at the middle of the viewport. Latitude is clamped to ±85°, longitude
    /// wrapped into [−180°, 180°).
    public private(set) var center: Coordinate
    /// Fractional zoom level.
    public var zoom: Double
    /// Degrees clockwise from north, normalized to [0, 360).
    public private(set) var bearing: Double

    /// The greatest latitude a camera may center on.
    public static let maximumCenterLatitude = 85.0
    /// The zoom used when fitting a single point (or nothing): close enough to see a street.
    public static let maximumFitZoom = 17.0

    /// A camera over `center` at `zoom`, turned `bearing` degrees clockwise from north.
    public init(center: Coordinate, zoom: Double, bearing: Double = 0) {
        let latitude = max(-RenderCamera.maximumCenterLatitude, min(RenderCamera.maximumCenterLatitude, center.latitude))
        var longitude = center.longitude
        if longitude < -180 || longitude >= 180 {
            longitude -= 360 * ((longitude + 180) / 360).rounded(.down)
        }
        self.center = Coordinate(latitude: latitude, longitude: longitude)
        self.zoom = zoom
        var degrees = bearing.truncatingRemainder(dividingBy: 360)
        if degrees < 0 { degrees += 360 }
        self.bearing = degrees
    }

    /// The center as a map point.
    public var centerPoint: MapPoint { MapPoint(center) }

    /// The camera that shows all of `rect` (`showAnnotations`/`fitBounds`): centered on it, at
    /// the largest zoom where the rect — rotated by `bearing` — fits inside the viewport less
    /// `padding` points on every side, capped at `maximumFitZoom`. The rect may extend past the
    /// world's east edge (data across the antimeridian); a null rect gives the whole world.
    public static func fitting(_ rect: MapRect, width: Double, height: Double, padding: Double,
                               bearing: Double = 0) -> RenderCamera {
        let rect = rect.isNull ? MapRect.world : rect
        // The axis-aligned extent of the rect once the map turns by the bearing.
        let radians = bearing * Double.pi / 180
        let cosine = abs(cos(radians)), sine = abs(sin(radians))
        let turned = MapRect(x: 0, y: 0, width: rect.width * cosine + rect.height * sine,
                             height: rect.width * sine + rect.height * cosine)
        let zoom = Zoom.zoomToFit(turned, width: width, height: height, padding: padding,
                                  maximum: maximumFitZoom)
        let middle = Coordinate(MapPoint(x: rect.midX, y: rect.midY))
        return RenderCamera(center: middle, zoom: zoom, bearing: bearing)
    }
}
