/// Encodes a tile whose features go to several layers: one `MVTEncoder` layer message (or
/// `MLTEncoder` feature table) per layer that has features, in layer order. An MVT tile is a
/// repeated `layers` field and an MLT tile a sequence of feature tables, so the layers written
/// one after another are the tile.
struct LayeredMVTEncoder: Sendable {
    private let encoders: [@Sendable (VectorTile) -> ([UInt8], TileEncodingLosses)]

    /// The layers `names` (a feature's layer is its index in `VectorTile.layers`); one name
    /// puts every feature in that layer. MVT, or MLT when `encoding` is `.mlt` (its text FSST-
    /// compressed where smallest when `compressesStrings`).
    init(names: [String], encoding: TileEncoding = .mvt, compressesStrings: Bool = true) {
        encoders = names.map { name in
            if encoding == .mlt {
                let encoder = MLTEncoder(layerName: name, compressesStrings: compressesStrings)
                return { encoder.encode($0) }
            }
            let encoder = MVTEncoder(layerName: name)
            return { encoder.encode($0) }
        }
    }

    /// The tile's bytes and what MVT could not hold.
    func encode(_ tile: VectorTile) -> ([UInt8], TileEncodingLosses) {
        guard encoders.count > 1, tile.layers.count == tile.features.count else { return encoders[0](tile) }
        var members = [[Int]](repeating: [], count: encoders.count)
        for (index, layer) in tile.layers.enumerated() {
            // A feature without a layer of its own goes to the first.
            members[Int(layer) < encoders.count ? Int(layer) : 0].append(index)
        }
        var bytes = [UInt8](), losses = TileEncodingLosses()
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
