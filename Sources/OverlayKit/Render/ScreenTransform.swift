#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Maps map points to device pixels for one camera and viewport: translate to the center,
/// scale by the zoom (and the display scale), turn by the bearing and, for a pitched camera,
/// project through MapLibre GL JS's perspective camera. O(1) per point.
///
/// Pitched, a map point first becomes a *ground* position (`ground(x:y:)`: device pixels at
/// the zoom, turned by the bearing, y toward the viewer), then `project(_:_:)` applies
/// MapLibre's matrix — perspective(fov) · translate(0, 0, −d) · rotateX(pitch) — which reduces
/// to x·d/w, y·cos(pitch)·d/w with depth w = d − y·sin(pitch) and d the camera-to-center
/// distance. Only ground positions whose depth lies in `nearDepth…farDepth` may be projected:
/// callers clip to that band first (`DepthClip`), so nothing behind the eye or past the
/// horizon reaches the screen.
struct ScreenTransform {
    /// Viewport size in device pixels.
    let pixelWidth: Double
    let pixelHeight: Double
    /// Device pixels per map point.
    let pixelsPerMapPoint: Double
    /// Device pixels per screen point (`--scale`).
    let scale: Double
    /// True when the camera is tilted: points go through `ground` and `project`.
    let isPitched: Bool
    /// MapLibre's `cameraToCenterDistance` in device pixels.
    let cameraToCenterDistance: Double
    /// The depth band a ground position must lie in to be drawn: MapLibre's near plane
    /// (height / 50) and the depth at which the ground meets the drawn horizon.
    let nearDepth: Double
    let farDepth: Double
    /// Device y of the drawn horizon (MapLibre's `getHorizon`); the sky is above it. Negative
    /// (off screen) for the flat camera and low pitches.
    let horizonY: Double
    private let centerX: Double
    private let centerY: Double
    private let cosine: Double
    private let sine: Double
    private let pitchSine: Double
    private let pitchCosine: Double

    init(camera: RenderCamera, pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.pixelWidth = Double(pixelWidth)
        self.pixelHeight = Double(pixelHeight)
        self.scale = scale
        pixelsPerMapPoint = scale / Zoom.mapPointsPerScreenPoint(atZoom: camera.zoom)
        let center = camera.centerPoint
        centerX = center.x
        centerY = center.y
        let radians = camera.bearing * Double.pi / 180
        cosine = cos(radians)
        sine = sin(radians)
        let pitch = camera.pitch * Double.pi / 180
        isPitched = camera.pitch > 0
        pitchSine = sin(pitch)
        pitchCosine = cos(pitch)
        let distance = RenderCamera.cameraToCenterDistance(viewportHeight: Double(pixelHeight))
        cameraToCenterDistance = distance
        nearDepth = Double(pixelHeight) / 50
        // MapLibre 5 draws the ground up to min(0.85·tan(90° − pitch), tan(89.25° − pitch))·d
        // above the center. A ground point at depth w lies d²·cot(pitch)/w below the true
        // horizon (d·cot(pitch) above the center), which gives the depth of that line.
        let horizonDistance = ScreenTransform.horizonDistance(pitch: camera.pitch, cameraToCenterDistance: distance)
        horizonY = Double(pixelHeight) / 2 - horizonDistance
        if isPitched {
            let trueHorizon = distance * pitchCosine / pitchSine
            farDepth = max(nearDepth * 2, distance * trueHorizon / (trueHorizon - horizonDistance))
        } else {
            farDepth = .infinity
        }
    }

    /// MapLibre GL JS 5's horizon: how far above the viewport's center (in the units of
    /// `cameraToCenterDistance`) the ground ends, d·min(0.85·tan(90° − pitch), tan(89.25° − pitch)).
    /// Infinite for a flat camera.
    static func horizonDistance(pitch degrees: Double, cameraToCenterDistance distance: Double) -> Double {
        guard degrees > 0 else { return .infinity }
        let toRadians = Double.pi / 180
        return distance * min(0.85 * tan((90 - degrees) * toRadians), tan((89.25 - degrees) * toRadians))
    }

    /// The device position of a map position (x may lie outside the world: a copy of it). A
    /// pitched camera projects it, so the position must lie inside the depth band.
    @inline(__always)
    func device(x: Double, y: Double) -> (x: Double, y: Double) {
        if isPitched {
            let position = ground(x: x, y: y)
            return project(position.x, position.y)
        }
        let dx = (x - centerX) * pixelsPerMapPoint, dy = (y - centerY) * pixelsPerMapPoint
        // The map turns counterclockwise by the bearing so that the bearing points up.
        return (dx * cosine + dy * sine + pixelWidth / 2, -dx * sine + dy * cosine + pixelHeight / 2)
    }

    /// A map position on the ground plane of a pitched camera: device pixels from the center,
    /// turned by the bearing (the flat camera's screen offset).
    @inline(__always)
    func ground(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = (x - centerX) * pixelsPerMapPoint, dy = (y - centerY) * pixelsPerMapPoint
        return (dx * cosine + dy * sine, -dx * sine + dy * cosine)
    }

    /// The depth (distance along the line of sight, MapLibre's clip w) of a ground position.
    @inline(__always)
    func depth(groundY: Double) -> Double { cameraToCenterDistance - groundY * pitchSine }

    /// The ground y range whose depth lies in `nearDepth…farDepth`.
    var groundBand: (minY: Double, maxY: Double) {
        guard isPitched else { return (-.infinity, .infinity) }
        return ((cameraToCenterDistance - farDepth) / pitchSine, (cameraToCenterDistance - nearDepth) / pitchSine)
    }

    /// The device position of a ground position inside the depth band.
    @inline(__always)
    func project(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let perspective = cameraToCenterDistance / depth(groundY: y)
        return (x * perspective + pixelWidth / 2, y * pitchCosine * perspective + pixelHeight / 2)
    }

    /// The ground position under a device position (the inverse of `project`), for device y
    /// below the true horizon.
    func unproject(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let offset = y - pixelHeight / 2
        let groundY = offset * cameraToCenterDistance / (pitchCosine * cameraToCenterDistance + offset * pitchSine)
        return ((x - pixelWidth / 2) * depth(groundY: groundY) / cameraToCenterDistance, groundY)
    }

    /// How many device pixels one ground pixel may become on screen at depth `depth` or
    /// farther: d/w across, cos(pitch)·(d/w)² along the line of sight. 1 for the flat camera.
    func magnification(atDepth depth: Double) -> Double {
        guard isPitched else { return 1 }
        let ratio = cameraToCenterDistance / max(depth, nearDepth)
        return max(1, ratio, pitchCosine * ratio * ratio)
    }

    /// The greatest magnification on screen: at the viewport's bottom edge.
    var viewportMagnification: Double {
        guard isPitched else { return 1 }
        return magnification(atDepth: depth(groundY: unproject(0, pixelHeight).y))
    }

    /// The axis-aligned map rect the viewport sees (larger than the viewport when turned or
    /// pitched); it may extend past the world's edges, where copies of the world are drawn.
    var visibleMapRect: MapRect {
        if isPitched {
            // The ground under the viewport's corners, the top ones at the drawn horizon when
            // it is on screen; turned back by the bearing into map points.
            let top = max(0, horizonY)
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for (x, y) in [(0, top), (pixelWidth, top), (0, pixelHeight), (pixelWidth, pixelHeight)] {
                let position = unproject(x, y)
                let dx = (position.x * cosine - position.y * sine) / pixelsPerMapPoint
                let dy = (position.x * sine + position.y * cosine) / pixelsPerMapPoint
                minX = min(minX, centerX + dx)
                maxX = max(maxX, centerX + dx)
                minY = min(minY, centerY + dy)
                maxY = max(maxY, centerY + dy)
            }
            return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
        let halfWidth = pixelWidth / 2 / pixelsPerMapPoint, halfHeight = pixelHeight / 2 / pixelsPerMapPoint
        let extentX = halfWidth * abs(cosine) + halfHeight * abs(sine)
        let extentY = halfWidth * abs(sine) + halfHeight * abs(cosine)
        return MapRect(x: centerX - extentX, y: centerY - extentY, width: 2 * extentX, height: 2 * extentY)
    }

    /// The whole-world shifts (multiples of the world width) at which a thing spanning
    /// `minX…maxX` in map x is visible: longitude wraps, so the world repeats left and right.
    func worldCopies(minX: Double, maxX: Double) -> [Double] {
        let visible = visibleMapRect, world = MapProjection.worldSize
        let first = ((visible.minX - maxX) / world).rounded(.up)
        let last = ((visible.maxX - minX) / world).rounded(.down)
        guard first <= last else { return [] }
        // A run that winds around the world many times would need as many copies; past a few
        // hundred every visible point is covered many times over.
        let capped = min(last, first + 255)
        return stride(from: first, through: capped, by: 1).map { $0 * world }
    }
}
