import OverlayKit
import OverlayModel

/// The tile builder on parsed features, a few tiles per zoom, each encoded as MVT.
enum TileTarget {
    static func run(_ bytes: [UInt8]) {
        let features = FuzzTargets.features(bytes, limit: 50)
        guard !features.isEmpty else { return }
        var options = TileOptions()
        options.maxZoom = 6
        guard let source = try? TileSource(features: features, options: options) else { return }
        let index = TileIndex(source: source)
        let encoder = MVTEncoder(layerName: "fuzz")
        for z in [0, 1, 3, 6] {
            let middle = (1 << z) / 2
            for (x, y) in [(0, 0), (middle, middle), ((1 << z) - 1, (1 << z) - 1)] {
                if let tile = index.tile(z: z, x: x, y: y) { _ = encoder.encode(tile) }
            }
        }
    }
}

/// The renderer's camera fit and path builder, written as SVG (cairo is not fuzzed): the flat
/// fitted camera, then a pitched one (pitch and bearing from the input's last two bytes, so the
/// fuzzer explores them) fitted, and centered on a corner of the data at a zoom from the input's
/// length — geometry around, behind and far beyond the eye.
enum RenderTarget {
    static func run(_ bytes: [UInt8]) {
        let features = FuzzTargets.features(bytes, limit: 50)
        guard !features.isEmpty else { return }
        _ = MapSnapshot(features: features, options: RenderOptions(width: 96, height: 64)).svg()
        let pitch = Double(bytes[bytes.count - 1]) / 255 * RenderCamera.maximumPitch
        let bearing = Double(bytes.count > 1 ? bytes[bytes.count - 2] : 0) / 255 * 360
        var options = RenderOptions(width: 96, height: 64, bearing: bearing, pitch: pitch)
        _ = MapSnapshot(features: features, options: options).svg()
        var extent = FitExtent()
        for feature in features { if let shape = feature.shape { extent.add(shape) } }
        let rect = extent.mapRect
        guard !rect.isNull else { return }
        options.camera = .centered(Coordinate(MapPoint(x: rect.minX, y: rect.maxY)), zoom: Double(bytes.count % 25))
        _ = MapSnapshot(features: features, options: options).svg()
    }
}
