import Foundation
import OverlayKit

/// README, "Using the library": clip and simplify every feature, write the result.
func clipSimplifyAndWrite() throws {
    let document = try FeatureIO.readAll(path: "Examples/countries.geojson")  // GeoJSON, GeoJSONSeq, KML, KMZ
    document.warnings.forEach { print($0) }                                  // file:line:col: warning: code: …
    var transform = GeometryTransform(clip: RectClip(rect: MapRect(west: -10, south: 35, east: 30, north: 60)),
                                      simplifier: ShapeSimplifier(screenPoints: 1, zoom: 8))
    let europe = document.features.compactMap { transform.apply($0) }         // nil: nothing left inside
    if let note = transform.summary { print(note) }                            // what clipping and simplifying removed
    try FeatureIO.data(europe, as: .geojson).write(to: URL(fileURLWithPath: "europe.geojson"))
    print("read \(document.features.count) features, wrote \(europe.count) to europe.geojson")
}

/// ClippingAndSimplifying: one shape at a time.
func clipAndSimplifyOneShape() throws {
    let document = try FeatureIO.readAll(path: "Examples/countries.geojson")
    let clip = RectClip(rect: MapRect(west: -10, south: 35, east: 30, north: 60))
    let simplifier = ShapeSimplifier(screenPoints: 1, zoom: 6)
    for feature in document.features {
        if let shape = feature.shape, let clipped = clip.clip(shape), let simple = simplifier.simplify(clipped) {
            print(feature.properties?["NAME"]?.stringValue ?? "?", simple.kind.rawValue, shape.vertexCount, "→", simple.vertexCount, "vertices")
        }
    }
}

/// GettingStarted and Writing, "Write features".
func writeKML() throws {
    let document = try FeatureIO.readAll(path: "Examples/parks.geojson")
    let kml = try FeatureIO.string(document.features, as: .kml)
    print("KML of \(document.features.count) features: \(kml.utf8.count) bytes")
}
