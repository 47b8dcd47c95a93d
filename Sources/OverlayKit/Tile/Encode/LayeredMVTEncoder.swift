/// Encodes a tile whose features go to several layers: one `MVTEncoder` layer message (or
/// `MLTEncoder` feature table) per layer that has features, in layer order. An MVT tile is a
/// repeated `layers` field and an MLT tile a sequence of feature tables, so the layers written
/// one after another are the tile.
struct LayeredMVTEncoder: Sendable {
    private let encoders: [@Sendable (VectorTile) -> ([UInt8], MVTEncoder.Losses)]
    private let layers: TileLayers?

    /// One layer named `layer`, or the layers of `layers` when it has more than one (every
    /// feature then has its input position in `VectorTile.sources`); MVT, or MLT when
    /// `encoding` is `.mlt`.
    init(layer: String, layers: TileLayers?, encoding: TileEncoding = .mvt) {
        let names = layers.flatMap { $0.isSingleLayer ? nil : $0.names } ?? [layers?.names.first ?? layer]
        self.layers = names.count > 1 ? layers : nil
        encoders = names.map { name in
            if encoding == .mlt {
                let encoder = MLTEncoder(layerName: name)
                return { encoder.encode($0) }
            }
            let encoder = MVTEncoder(layerName: name)
            return { encoder.encode($0) }
        }
    }

    /// The tile's bytes and what MVT could not hold.
    func encode(_ tile: VectorTile) -> ([UInt8], MVTEncoder.Losses) {
        guard let layers, tile.sources.count == tile.features.count else { return encoders[0](tile) }
        var members = [[Int]](repeating: [], count: encoders.count)
        for (index, source) in tile.sources.enumerated() {
            let layer = layers.layer(of: source)
            members[layer < encoders.count ? layer : 0].append(index)
        }
        var bytes = [UInt8](), losses = MVTEncoder.Losses()
        for (layer, indices) in members.enumerated() where !indices.isEmpty {
            var part = tile
            part.keepFeatures(at: indices)
            let (encoded, partLosses) = encoders[layer](part)
            bytes += encoded
            losses += partLosses
        }
        return (bytes, losses)
    }
}
