import OverlayKit

/// Pulls features one at a time (constant memory) and prints each one's kind and map rect.
func streamFeatures(path: String) throws {
    var reader = try FeatureIO.reader(for: ByteInput(path: path))
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
}
