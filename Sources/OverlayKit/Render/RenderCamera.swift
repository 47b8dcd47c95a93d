#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Where a snapshot looks, with the camera that MapKit's `MKMapCamera` and the Google Maps
/// SDK's `GMSCameraPosition` define: a center, a zoom (the world is 256·2^zoom screen points
/// wide), a bearing (MapKit's `heading`: degrees clockwise from north that point up on the
/// screen) and a pitch (MapKit's `pitch`, Google's `tilt`: degrees from straight down).
///
/// A pitched camera is MapLibre GL JS's perspective camera over the Web Mercator plane: a
/// vertical field of view of `fieldOfView` degrees and an eye `cameraToCenterDistance`
/// screen points from the center, so a pitched snapshot matches a browser map of the same
/// camera. MapKit's `centerCoordinateDistance` (meters from the eye to the center) is the
/// same distance in meters; `init(lookingAt:centerCoordinateDistance:heading:pitch:viewportHeight:)`
/// and `centerCoordinateDistance(viewportHeight:)` convert between it and the zoom.
public struct RenderCamera: Hashable, Sendable {
    /// The map point at the middle of the viewport (MapKit's `centerCoordinate`). Latitude is
    /// clamped to ±85°, longitude wrapped into [−180°, 180°).
    public private(set) var center: Coordinate
    /// Fractional zoom level.
    public var zoom: Double
    /// Degrees clockwise from north, normalized to [0, 360) (MapKit's `heading`).
    public private(set) var bearing: Double
    /// Degrees from straight down (0) toward the horizon, 0…`maximumPitch` (MapKit's `pitch`,
    /// Google's `tilt`).
    public private(set) var pitch: Double

    /// The greatest latitude a camera may center on.
    public static let maximumCenterLatitude = 85.0
    /// The zoom used when fitting a single point (or nothing): close enough to see a street.
    public static let maximumFitZoom = 17.0
    /// The greatest pitch: MapLibre GL JS's limit (`maxPitch` may be raised to 85). Beyond it
    /// the ground between the screen's bottom and the horizon is a sliver.
    public static let maximumPitch = 85.0
    /// The vertical field of view in degrees: MapLibre GL JS's default, 0.6435011087932844
    /// radians (atan(3/4)·2 ≈ 36.87°), so the eye is 1.5 viewport heights from the center.
    public static let fieldOfView = 0.6435011087932844 * 180 / Double.pi
    /// The largest angle (in degrees) an option may give: beyond 2^53 a double no longer holds
    /// every whole number, so the angle it reduces to need not be the one that was typed.
    public static let largestReducibleAngle = 9_007_199_254_740_992.0

    /// A camera over `center` at `zoom`, turned `bearing` degrees clockwise from north and
    /// tilted `pitch` degrees from straight down. Bearings are reduced exactly (`fmod`) into
    /// [0, 360); pitch is clamped to 0…`maximumPitch`, as MapKit clamps it; non-finite angles
    /// count as 0.
    public init(center: Coordinate, zoom: Double, bearing: Double = 0, pitch: Double = 0) {
        let latitude = max(-RenderCamera.maximumCenterLatitude, min(RenderCamera.maximumCenterLatitude, center.latitude))
        var longitude = center.longitude
        if longitude < -180 || longitude >= 180 {
            longitude -= 360 * ((longitude + 180) / 360).rounded(.down)
        }
        self.center = Coordinate(latitude: latitude, longitude: longitude)
        self.zoom = zoom
        self.bearing = RenderCamera.reducedBearing(bearing)
        self.pitch = pitch.isFinite ? max(0, min(RenderCamera.maximumPitch, pitch)) : 0
    }

    /// MapKit's `MKMapCamera(lookingAtCenter:fromDistance:pitch:heading:)`: the camera whose eye
    /// is `centerCoordinateDistance` meters from `center` along its line of sight, for a
    /// viewport `viewportHeight` screen points tall (the distance that shows a given zoom
    /// grows with the viewport, as in MapKit). See `zoom(centerCoordinateDistance:latitude:viewportHeight:)`.
    /// Like MapKit, which clamps the distance to what the map can show, the zoom is clamped to
    /// 0…24 (a distance of zero or less is the nearest, NaN the farthest).
    public init(lookingAt center: Coordinate, centerCoordinateDistance: Double, heading: Double = 0,
                pitch: Double = 0, viewportHeight: Double) {
        self.init(center: center, zoom: 0, bearing: heading, pitch: pitch)
        let distance = centerCoordinateDistance.isNaN ? .infinity : max(0, centerCoordinateDistance)
        let zoom = RenderCamera.zoom(centerCoordinateDistance: distance, latitude: self.center.latitude,
                                     viewportHeight: viewportHeight.isNaN ? 1 : max(1, viewportHeight))
        self.zoom = zoom.isNaN ? 0 : max(0, min(24, zoom))
    }

    /// The center as a map point.
    public var centerPoint: MapPoint { MapPoint(center) }

    /// MapKit's name for `bearing`.
    public var heading: Double { bearing }

    /// The eye's distance from the center in screen points for a viewport `viewportHeight`
    /// points tall: MapLibre's `cameraToCenterDistance`, 0.5 / tan(fov / 2) · height. It does
    /// not depend on the zoom or the pitch (the eye orbits the center).
    public static func cameraToCenterDistance(viewportHeight: Double) -> Double {
        0.5 / tan(fieldOfView * Double.pi / 360) * viewportHeight
    }

    /// MapKit's `centerCoordinateDistance` in meters for this camera and a viewport
    /// `viewportHeight` points tall: `cameraToCenterDistance` screen points × 2^(20 − zoom) map
    /// points per screen point × `metersPerMapPoint(atLatitude:)` of the center.
    public func centerCoordinateDistance(viewportHeight: Double) -> Double {
        RenderCamera.cameraToCenterDistance(viewportHeight: viewportHeight) * Zoom.mapPointsPerScreenPoint(atZoom: zoom)
            * metersPerMapPoint(atLatitude: center.latitude)
    }

    /// The zoom at which the eye is `centerCoordinateDistance` meters from a center at
    /// `latitude`, for a viewport `viewportHeight` points tall: the inverse of
    /// `centerCoordinateDistance(viewportHeight:)`, 20 − log2(meters / (distance in points ×
    /// meters per map point)).
    public static func zoom(centerCoordinateDistance: Double, latitude: Double, viewportHeight: Double) -> Double {
        let metersPerScreenPointAtZoom20 = cameraToCenterDistance(viewportHeight: viewportHeight)
            * metersPerMapPoint(atLatitude: latitude)
        return 20 - log2(centerCoordinateDistance / metersPerScreenPointAtZoom20)
    }

    /// The pitches a camera may have, 0…`maximumPitch`.
    public static let pitchRange = 0...maximumPitch

    /// True when an angle option can be reduced to the angle that was typed: finite and within
    /// ±`largestReducibleAngle`. Options outside are usage errors.
    public static func isReducible(_ degrees: Double) -> Bool {
        degrees.isFinite && abs(degrees) <= largestReducibleAngle
    }

    /// The `centerCoordinateDistance` values, in meters, that give zooms 24 (nearest) to 0
    /// (farthest) over `latitude` in a viewport `viewportHeight` points tall.
    public static func centerCoordinateDistanceRange(latitude: Double, viewportHeight: Double) -> ClosedRange<Double> {
        let latitude = max(-maximumCenterLatitude, min(maximumCenterLatitude, latitude))
        let near = RenderCamera(center: Coordinate(latitude: latitude, longitude: 0), zoom: 24)
        let far = RenderCamera(center: Coordinate(latitude: latitude, longitude: 0), zoom: 0)
        return near.centerCoordinateDistance(viewportHeight: viewportHeight)...far.centerCoordinateDistance(viewportHeight: viewportHeight)
    }

    /// A bearing reduced exactly into [0, 360): `fmod` is exact for doubles, so 1e300 reduces
    /// to what that double really is modulo 360; non-finite values give 0.
    public static func reducedBearing(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        var reduced = degrees.truncatingRemainder(dividingBy: 360)
        if reduced < 0 { reduced += 360 }
        // −1e-20 + 360 rounds to 360, which is 0 again.
        return reduced >= 360 ? 0 : reduced
    }

    /// The camera that shows all of `rect` (`showAnnotations`/`fitBounds`) at the largest zoom
    /// where the rect — turned by `bearing` and seen at `pitch` — fits inside the viewport less
    /// `padding` points on every side, capped at `maximumFitZoom`. Flat cameras center on the
    /// rect; pitched ones move the center along the line of sight so that the rect's
    /// perspective footprint sits in the middle (see `PitchedFit`). The rect may extend past
    /// the world's east edge (data across the antimeridian); a null rect gives the whole world.
    public static func fitting(_ rect: MapRect, width: Double, height: Double, padding: Double,
                               bearing: Double = 0, pitch: Double = 0) -> RenderCamera {
        let rect = rect.isNull ? MapRect.world : rect
        let bearing = reducedBearing(bearing)
        // The axis-aligned extent of the rect once the map turns by the bearing.
        let radians = bearing * Double.pi / 180
        let cosine = abs(cos(radians)), sine = abs(sin(radians))
        let turned = MapRect(x: 0, y: 0, width: rect.width * cosine + rect.height * sine,
                             height: rect.width * sine + rect.height * cosine)
        let zoom = Zoom.zoomToFit(turned, width: width, height: height, padding: padding,
                                  maximum: maximumFitZoom)
        let middle = Coordinate(MapPoint(x: rect.midX, y: rect.midY))
        let flat = RenderCamera(center: middle, zoom: zoom, bearing: bearing)
        guard pitch.isFinite, pitch > 0 else { return flat }
        return PitchedFit.camera(showing: rect, flat: flat, pitch: pitch, width: width, height: height, padding: padding)
    }
}
