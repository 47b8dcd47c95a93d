#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Fits a map rect into the padded viewport of a pitched camera (`fitBounds` with pitch). Under
/// perspective the rect's footprint is a trapezoid whose size does not scale linearly with the
/// zoom and which is not centered when the camera centers on the rect, so for each candidate
/// zoom the center slides over the ground — along the line of sight until the footprint's top
/// and bottom margins are equal, then across it until the side margins are — and the zoom is
/// the largest at which the centered footprint lies inside the padding with every corner
/// in front of the eye and before the horizon. Bisection throughout: a fixed number of steps
/// (about 6,000 corner projections), whatever the rect.
enum PitchedFit {
    /// Steps per bisection: 2^-60 of the starting interval is far below a pixel.
    private static let steps = 60

    static func camera(showing rect: MapRect, flat: RenderCamera, pitch: Double, width: Double, height: Double,
                       padding: Double) -> RenderCamera {
        let viewportWidth = max(1, Int(saturating: width.rounded())), viewportHeight = max(1, Int(saturating: height.rounded()))
        // As `Zoom.zoomToFit`: padding that leaves less than a point keeps a one-point window.
        let usableWidth = max(1, Double(viewportWidth) - 2 * padding), usableHeight = max(1, Double(viewportHeight) - 2 * padding)
        let window = (minX: (Double(viewportWidth) - usableWidth) / 2, maxX: (Double(viewportWidth) + usableWidth) / 2,
                      minY: (Double(viewportHeight) - usableHeight) / 2, maxY: (Double(viewportHeight) + usableHeight) / 2)
        let middle = MapPoint(x: rect.midX, y: rect.midY)

        /// The camera at `zoom` with the footprint centered, and whether it fits the window.
        func centered(atZoom zoom: Double) -> (camera: RenderCamera, fits: Bool) {
            let camera = RenderCamera(center: flat.center, zoom: zoom, bearing: flat.bearing, pitch: pitch)
            let transform = ScreenTransform(camera: camera, pixelWidth: viewportWidth, pixelHeight: viewportHeight, scale: 1)
            let center = camera.centerPoint
            let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)].map {
                transform.ground(x: center.x + $0.0 - middle.x, y: center.y + $0.1 - middle.y)
            }
            let band = transform.groundBand
            // Sliding the center by s along the line of sight moves every corner's ground y by −s;
            // inside lowest…highest every corner stays in the depth band.
            let lowest = corners.map(\.y).max()! - band.maxY, highest = corners.map(\.y).min()! - band.minY
            guard lowest <= highest else { return (camera, false) }
            func verticalImbalance(_ slide: Double) -> Double {
                let ys = corners.map { transform.project(0, $0.y - slide).y }
                return ys.min()! + ys.max()! - Double(viewportHeight)
            }
            let slide = bisect(lowest, highest) { verticalImbalance($0) > 0 }
            // Then across it by t: every corner's ground x moves by −t at its own depth.
            func horizontalImbalance(_ across: Double) -> Double {
                let xs = corners.map { transform.project($0.x - across, $0.y - slide).x }
                return xs.min()! + xs.max()! - Double(viewportWidth)
            }
            let across = bisect(corners.map(\.x).min()!, corners.map(\.x).max()!) { horizontalImbalance($0) > 0 }
            let projected = corners.map { transform.project($0.x - across, $0.y - slide) }
            let fits = projected.allSatisfy {
                $0.x >= window.minX && $0.x <= window.maxX && $0.y >= window.minY && $0.y <= window.maxY
            }
            // The slide (ground pixels, turned by the bearing) back in map points.
            let radians = camera.bearing * Double.pi / 180
            let dx = (across * cos(radians) - slide * sin(radians)) / transform.pixelsPerMapPoint
            let dy = (across * sin(radians) + slide * cos(radians)) / transform.pixelsPerMapPoint
            let moved = RenderCamera(center: Coordinate(MapPoint(x: center.x + dx, y: center.y + dy)), zoom: zoom,
                                     bearing: camera.bearing, pitch: pitch)
            return (moved, fits)
        }

        let highestZoom = RenderCamera.maximumFitZoom
        if rect.width == 0 && rect.height == 0 { return centered(atZoom: highestZoom).camera }
        let top = centered(atZoom: highestZoom)
        if top.fits { return top.camera }
        // Perspective shrinks the far side and enlarges the near one by at most a few times:
        // eight zooms (256×) below the flat fit always fit.
        let lowestZoom = min(flat.zoom, highestZoom) - 8
        let zoom = bisect(lowestZoom, highestZoom) { centered(atZoom: $0).fits }
        return centered(atZoom: zoom).camera
    }

    /// The last value in `low…high` where `isBelow` still holds, for a predicate true up to
    /// some point and false after it; `low` when it never holds.
    private static func bisect(_ low: Double, _ high: Double, isBelow: (Double) -> Bool) -> Double {
        var low = low, high = high
        for _ in 0..<steps {
            let middle = (low + high) / 2
            if isBelow(middle) { low = middle } else { high = middle }
        }
        return low
    }
}
