import Foundation
import OverlayKit
import OverlayModel

/// Rendering: a pitched camera said as MapKit says it (center and centerCoordinateDistance),
/// then drawing — a file into a PNG with `MapRenderer` (the whole `overlaykit render` as one
/// call), and features in memory with `MapSnapshot`.
func renderPitched() throws {
    var options = RenderOptions(width: 800, height: 500, pitch: 60, styleSheet: StyleSheet())
    options.camera = .lookingAt(Coordinate(latitude: 46.5, longitude: 9), centerCoordinateDistance: 900_000)
    let camera = RenderCamera(lookingAt: Coordinate(latitude: 46.5, longitude: 9), centerCoordinateDistance: 900_000,
                              heading: 20, pitch: 60, viewportHeight: 500)
    // camera.zoom ≈ 6.49: distance = 1.5 · 500 · 2^(20 − zoom) · metersPerMapPoint(atLatitude: 46.5)
    print("a camera 900 km from its center at pitch 60 is zoom \((camera.zoom * 100).rounded() / 100)")
    try options.validate()
}

/// Rendering, "Draw a file" and "Draw features in memory".
func drawAFile() throws {
    var source = FileRenderSource(path: "Examples/places.kml")          // GeoJSON, GeoJSONSeq, KML, KMZ; nil: standard input
    var options = RenderOptions(width: 800, height: 500, labelPriority: "name") // fitted to the data (the default camera)
    options.clusterDistance = 40                                         // points closer than 40 points: one cluster
    let output = try ByteOutput(path: "places.png", replaceExisting: true)
    let report = try MapRenderer(options: options, format: .png).render(&source, to: output) { print($0) }
    print("drew \(report.features.drawn) of \(report.features.read) features, \(report.annotations.labelsPlaced) labels")

    let features = try FeatureIO.readAll(path: "Examples/parks.geojson").features
    let snapshot = MapSnapshot(features: features, options: RenderOptions(width: 600, height: 400))
    try Data(snapshot.png()).write(to: URL(fileURLWithPath: "parks.png"))   // or snapshot.svg()
    print("parks.png: zoom \((snapshot.camera.zoom * 100).rounded() / 100), \(snapshot.report.features.drawn) features drawn")
}
