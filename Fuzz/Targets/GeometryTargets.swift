import OverlayKit

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

/// The renderer's camera fit and path builder, written as SVG (cairo is not fuzzed).
enum RenderTarget {
    static func run(_ bytes: [UInt8]) {
        let features = FuzzTargets.features(bytes, limit: 50)
        guard !features.isEmpty else { return }
        _ = MapSnapshot(features: features, options: RenderOptions(width: 96, height: 64)).svg()
    }
}
