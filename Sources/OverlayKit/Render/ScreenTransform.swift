#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Maps map points to device pixels for one camera and viewport: translate to the center,
/// scale by the zoom (and the display scale), turn by the bearing. O(1) per point.
struct ScreenTransform {
    /// Viewport size in device pixels.
    let pixelWidth: Double
    let pixelHeight: Double
    /// Device pixels per map point.
    let pixelsPerMapPoint: Double
    /// Device pixels per screen point (`--scale`).
    let scale: Double
    private let centerX: Double
    private let centerY: Double
    private let cosine: Double
    private let sine: Double

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
    }

    /// The device position of a map position (x may lie outside the world: a copy of it).
    @inline(__always)
    func device(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = (x - centerX) * pixelsPerMapPoint, dy = (y - centerY) * pixelsPerMapPoint
        // The map turns counterclockwise by the bearing so that the bearing points up.
        return (dx * cosine + dy * sine + pixelWidth / 2, -dx * sine + dy * cosine + pixelHeight / 2)
    }

    /// The axis-aligned map rect the viewport sees (larger than the viewport when turned);
    /// it may extend past the world's edges, where copies of the world are drawn.
    var visibleMapRect: MapRect {
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
