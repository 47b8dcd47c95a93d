import Foundation

/// How a plan that parsed one input record in k (`SequenceSample`) grows each tile it cut to
/// what the whole input's tile takes: by the zoom's ``growth`` (k, or less where the sample's
/// points were thinned less than the run's).
///
/// A tile's bytes do not grow in proportion to its features: the layer's keys and shared values
/// are written once, repeated values join a table, and denser points take shorter deltas. So
/// each tile is measured with all its features, every other one and every fourth one, and per
/// zoom the bytes are fitted to `C + c·n^α` (the ratio of the two differences is `2^α`); a tile
/// then grows by its own last difference times `(g^α − 1) / (1 − 2^−α)`, with `g` the zoom's
/// growth (less where the feature limit stops it), and a tile grown past the byte limit is cut back
/// to a little under it, as the run's budget does. Tiles of one feature take their zoom's
/// bytes per feature; a zoom without tiles of 16 features or more takes every zoom's exponent.
struct SampledTileGrowth {
    /// A tile's bytes with all its features, every other one, and every fourth one.
    struct Bytes {
        var all: Double
        var half: Double
        var quarter: Double
    }

    /// One tile cut from the sample, standing for `weight` tiles of its zoom.
    struct Measured {
        var zoom: Int
        var weight: Double
        var features: Int
        var encoded: Bytes
        var stored: Bytes
    }

    /// How many times more features each zoom's tiles hold in the whole input (about one input
    /// record in k parsed: k; fewer where the sample was thinned less than the run).
    let growth: [Double]
    /// The budget's feature limit.
    let maxFeatures: Int?
    /// The budget's limit on a stored (compressed) tile; nil when the stored bytes are not the
    /// compressed ones (a directory's files).
    let maxStoredBytes: Int?

    /// How many times more features the whole input's tiles hold at `zoom`.
    func factor(zoom: Int) -> Double { growth.indices.contains(zoom) ? growth[zoom] : growth.last ?? 1 }

    /// The indices of every other feature, and of every fourth, of `count`.
    static func halfAndQuarter(of count: Int) -> (half: [Int], quarter: [Int]) {
        (Array(Swift.stride(from: 1, to: count, by: 2)), Array(Swift.stride(from: 3, to: count, by: 4)))
    }

    /// Encoded and stored bytes per zoom (0..<`zooms`) of `tiles`, grown and weighted.
    func totals(of tiles: [Measured], zooms: Int) -> [(encoded: Double, stored: Double)] {
        let pooledEncoded = fit(tiles, zoom: nil, \.encoded), pooledStored = fit(tiles, zoom: nil, \.stored)
        let encodedFit = (0..<zooms).map { fit(tiles, zoom: $0, \.encoded, pooled: pooledEncoded) }
        let storedFit = (0..<zooms).map { fit(tiles, zoom: $0, \.stored, pooled: pooledStored) }
        var totals = Array(repeating: (encoded: 0.0, stored: 0.0), count: zooms)
        for tile in tiles where tile.zoom < zooms {
            var encoded = grown(tile, tile.encoded, encodedFit[tile.zoom])
            var stored = grown(tile, tile.stored, storedFit[tile.zoom])
            if let limit = maxStoredBytes, stored > Double(limit) {
                let share = Double(limit) * 0.95 / stored
                encoded *= share
                stored *= share
            }
            totals[tile.zoom].encoded += tile.weight * encoded
            totals[tile.zoom].stored += tile.weight * stored
        }
        return totals
    }

    /// What the tiles of one feature at `zoom` among `tiles` take, as cut, on average by weight
    /// (nil: none).
    func singleFeatureBytes(of tiles: [Measured], zoom: Int) -> (encoded: Double, stored: Double)? {
        var weight = 0.0, encoded = 0.0, stored = 0.0
        for tile in tiles where tile.zoom == zoom && tile.features == 1 {
            weight += tile.weight
            encoded += tile.weight * tile.encoded.all
            stored += tile.weight * tile.stored.all
        }
        return weight > 0 ? (encoded / weight, stored / weight) : nil
    }

    /// A zoom's exponent and bytes per feature dropped from all to half.
    struct Fit {
        var exponent = 1.0
        var bytesPerFeature: Double?
    }

    /// The fit of one zoom's tiles (`zoom` nil: of every zoom's), its exponent from tiles of at
    /// least ``fitFeatures`` features, or else `pooled`'s.
    private func fit(_ tiles: [Measured], zoom: Int?, _ bytes: KeyPath<Measured, Bytes>, pooled: Fit? = nil) -> Fit {
        var first = 0.0, second = 0.0, dropped = 0.0, difference = 0.0
        for tile in tiles where (zoom == nil || tile.zoom == zoom) && tile.features >= 2 {
            let measured = tile[keyPath: bytes]
            difference += tile.weight * (measured.all - measured.half)
            dropped += tile.weight * Double(tile.features - tile.features / 2)
            guard tile.features >= Self.fitFeatures else { continue }
            first += tile.weight * (measured.all - measured.half)
            second += tile.weight * (measured.half - measured.quarter)
        }
        var result = Fit()
        if first > 0, second > 0 {
            result.exponent = min(1, max(0.25, log2(first / second)))
        } else if let pooled {
            result.exponent = pooled.exponent
        }
        if dropped > 0 { result.bytesPerFeature = max(0, difference / dropped) }
        return result
    }

    /// The fewest features a tile needs to show how its bytes bend: a smaller one's shared
    /// values are still filling their table, which bends more than at the whole input's density.
    static let fitFeatures = 16

    private func grown(_ tile: Measured, _ bytes: Bytes, _ fit: Fit) -> Double {
        guard tile.features > 0 else { return bytes.all }
        let growth = max(1, min(factor(zoom: tile.zoom), maxFeatures.map { Double($0) / Double(tile.features) } ?? .infinity))
        guard growth > 1 else { return bytes.all }
        let last: Double
        if tile.features >= 2 {
            last = max(0, bytes.all - bytes.half)
        } else if let perFeature = fit.bytesPerFeature {
            last = perFeature
        } else {
            // No zoom-mate to learn from: in proportion.
            return bytes.all * growth
        }
        let alpha = fit.exponent
        return bytes.all + last * (pow(growth, alpha) - 1) / (1 - pow(2, -alpha))
    }
}
