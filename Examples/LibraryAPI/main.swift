// Shows the library API: parse a file, look at its overlays and their map rects.
// Run: swift run overlaykit-example Examples/parks.geojson
import OverlayKit

let path = CommandLine.arguments.dropFirst().first ?? "Examples/parks.geojson"
do {
    let input = try ByteInput(path: path)
    var reader = try FeatureIO.reader(for: input)
    while let feature = try reader.next() {
        let name = feature.properties?["name"]?.stringValue ?? feature.id?.description ?? "unnamed"
        let rect = feature.boundingMapRect
        print("\(name): \(feature.shape?.kind.rawValue ?? "no geometry"), \(feature.shape?.vertexCount ?? 0) vertices")
        print("  boundingMapRect x=\(rect.minX) y=\(rect.minY) w=\(rect.width) h=\(rect.height)")
        if case .polygon(let polygon)? = feature.shape {
            print("  \(polygon.interiorPolygons.count) hole(s); exterior starts at map point \(polygon.points[0])")
        }
        if case .circle(let circle)? = feature.shape {
            print("  circle of \(circle.radius) m around \(circle.center.latitude), \(circle.center.longitude)")
        }
        for warning in reader.takeWarnings() { print("  \(warning)") }
    }
} catch {
    print("error: \(error)")
}
