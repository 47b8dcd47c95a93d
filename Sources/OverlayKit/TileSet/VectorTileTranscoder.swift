import OverlayModel

/// Rewrites one tile from one vector encoding into the other (MVT ⇄ MLT), layer by layer, with
/// the same features: `tile-join` joins MLT tile sets through it and converts between encodings.
public enum VectorTileTranscoder {
    /// The tile's bytes in `target` (unchanged when `source == target`); the losses are those
    /// of `target` (an MLT column mixing kinds as text, say).
    /// - Throws: `mvt.bad-tile` or `mlt.bad-tile` when `bytes` are not a tile of `source`
    ///   (GeoJSON tiles are read as MVT).
    public static func transcode(_ bytes: [UInt8], from source: TileEncoding, to target: TileEncoding) throws -> [UInt8] {
        guard source != target else { return bytes }
        var output = [UInt8]()
        let decoder = try TileDecoders.require(source == .mlt ? .mlt : .mvt, source: "a \(source.rawValue) tile")
        for layer in try decoder.decodeLayers(bytes) {
            let tile = VectorTile(id: TileID(z: 0, x: 0, y: 0), extent: layer.extent, features: layer.features,
                                  statistics: TileStatistics(), sourcePointCount: 0, pointCount: 0)
            switch target {
            case .mlt: output += MLTEncoder(layerName: layer.name).encode(tile).0
            case .mvt, .geojson: output += MVTEncoder(layerName: layer.name).encode(tile).0
            }
        }
        return output
    }
}
