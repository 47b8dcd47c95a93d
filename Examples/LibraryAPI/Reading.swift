import OverlayKit

/// GettingStarted, "Read a file".
func readAFile() throws {
    let document = try FeatureIO.readAll(path: "Examples/places.kml")
    for warning in document.warnings { print(warning) }   // file:line:column: warning: code: …
    for feature in document.features {
        let name = feature.properties?["name"]?.stringValue ?? "unnamed"
        switch feature.shape {
        case .polygon(let polygon)?: print(name, polygon.interiorPolygons.count, "hole(s)", polygon.boundingMapRect)
        case .annotation(let point)?: print(point.title ?? name, point.coordinate.latitude, point.coordinate.longitude)
        default: print(name, feature.shape?.kind.rawValue ?? "no geometry")
        }
    }
    // GettingStarted, "Stream a large file".
    var reader = try FeatureIO.reader(for: ByteInput(path: "Examples/countries.geojsons"))
    while let feature = try reader.next() { print(feature.properties?["NAME"]?.stringValue ?? "?", terminator: "; ") }
    print()
}
