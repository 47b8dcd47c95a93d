/// Encodes a tile whose features go to several layers: one `MVTEncoder` layer message per
/// layer that has features, in layer order. An MVT tile is a repeated `layers` field, so the
/// layer messages written one after another are the tile.
struct LayeredMVTEncoder: Sendable {
    private let encoders: [MVTEncoder]
    private let layers: TileLayers?

    /// One layer named `layer`, or the layers of `layers` when it has more than one (every
    /// feature then has its input position in `VectorTile.sources`).
    init(layer: String, layers: TileLayers?) {
        if let layers, !layers.isSingleLayer {
            encoders = layers.names.map(MVTEncoder.init(layerName:))
            self.layers = layers
        } else {
            encoders = [MVTEncoder(layerName: layers?.names.first ?? layer)]
            self.layers = nil
        }
    }

    /// The tile's bytes and what MVT could not hold.
    func encode(_ tile: VectorTile) -> ([UInt8], MVTEncoder.Losses) {
        guard let layers, tile.sources.count == tile.features.count else { return encoders[0].encode(tile) }
        var members = [[Int]](repeating: [], count: encoders.count)
        for (index, source) in tile.sources.enumerated() {
            let layer = layers.layer(of: source)
            members[layer < encoders.count ? layer : 0].append(index)
        }
        var bytes = [UInt8](), losses = MVTEncoder.Losses()
        for (layer, indices) in members.enumerated() where !indices.isEmpty {
            var part = tile
            part.keepFeatures(at: indices)
            let (encoded, partLosses) = encoders[layer].encode(part)
            bytes += encoded
            losses += partLosses
        }
        return (bytes, losses)
    }
}
