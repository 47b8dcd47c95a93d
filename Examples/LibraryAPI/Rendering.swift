import OverlayKit
import OverlayModel

/// Rendering: a pitched camera said as MapKit says it (center and centerCoordinateDistance),
/// and the Alps drawn from it into a PNG.
func renderPitched() throws {
    var options = RenderOptions(width: 800, height: 500, pitch: 60, styleSheet: StyleSheet())
    options.camera = .lookingAt(Coordinate(latitude: 46.5, longitude: 9), centerCoordinateDistance: 900_000)
    let camera = RenderCamera(lookingAt: Coordinate(latitude: 46.5, longitude: 9), centerCoordinateDistance: 900_000,
                              heading: 20, pitch: 60, viewportHeight: 500)
    // camera.zoom ≈ 7.57: distance = 1.5 · 500 · 2^(20 − zoom) · metersPerMapPoint(atLatitude: 46.5)
    print("a camera 900 km from its center at pitch 60 is zoom \((camera.zoom * 100).rounded() / 100)")
}
