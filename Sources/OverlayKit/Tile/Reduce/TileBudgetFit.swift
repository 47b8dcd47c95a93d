import OverlayModel

/// A tile's bytes within its budget: the encoding, and its gzip when checking the size already
/// made it (so the archive does not compress the same bytes again).
struct FittedTile {
    /// The encoded tile (MVT, MLT or GeoJSON bytes).
    var encoded: [UInt8]
    /// `encoded` gzip-compressed as `Gzip.compress` does it, when known.
    var gzipped: [UInt8]?

    /// The stored bytes: `gzipped`, or `encoded` compressed now.
    func compressed() throws -> [UInt8] { try gzipped ?? Gzip.compress(encoded) }
}

extension TileBudget {
    /// Reduction rounds before giving up; each keeps at most half of the features from round
    /// 8 on, so 200,000 features reach one well within this.
    static let maximumRounds = 40

    /// Encodes `tile`, reducing it with ``strategy`` until it fits; the tile's statistics count
    /// what was dropped or merged.
    /// - Throws: `Diagnostic` `tile.too-large` naming the tile and its sizes when even one
    ///   feature does not fit.
    func fit(_ tile: inout VectorTile, encode: (VectorTile) throws -> [UInt8]) throws -> FittedTile {
        var coalescing = strategy == .coalesceDensest || strategy == .coalesceSmallest
        if !coalescing, let target = try probedTarget(tile, encode: encode) {
            TileReduction.reduce(&tile, to: target, by: strategy, coalescing: false)
        }
        var encoded = try encode(tile)
        var previousSize = Int.max
        for round in 0..<Self.maximumRounds {
            let gzipped = try compressedIfNeeded(encoded)
            let size = gzipped?.count ?? encoded.count
            let tooMany = maxFeatures.map { tile.features.count > $0 } ?? false
            let tooBig = maxBytes.map { size > $0 } ?? false
            guard tooMany || tooBig else { return FittedTile(encoded: encoded, gzipped: gzipped) }
            guard tile.features.count > 1 else { break }
            // Aim below the limit (bytes are not quite proportional to features), at most 90%
            // of the features early on and at most half later, so the rounds are bounded.
            var share = round < 8 ? 0.9 : 0.5
            if let maxBytes, tooBig { share = min(share, Double(maxBytes) / Double(size) * 0.95) }
            var target = Int((Double(tile.features.count) * share).rounded(.down))
            if let maxFeatures, tooMany { target = min(target, maxFeatures) }
            target = max(1, min(target, tile.features.count - 1))
            if coalescing && size >= previousSize - previousSize / 20 { coalescing = false }
            previousSize = size
            TileReduction.reduce(&tile, to: target, by: strategy, coalescing: coalescing)
            encoded = try encode(tile)
        }
        let size = try compressedIfNeeded(encoded)?.count ?? encoded.count
        throw Diagnostic(.error, code: .tileTooLarge,
            message: "tile \(tile.id.z)/\(tile.id.x)/\(tile.id.y) does not fit its budget even with \(tile.features.count) "
                + "feature(s): \(size) bytes compressed (limit \(maxBytes.map(String.init) ?? "none")), "
                + "\(tile.features.count) features (limit \(maxFeatures.map(String.init) ?? "none")); raise "
                + "--max-tile-bytes, lower --max-zoom or simplify the largest features, or pass --no-tile-size-limit")
    }

    /// Features from which a tile is first measured on an even share of them (``probeFeatures``)
    /// instead of encoded whole.
    static let probeThreshold = 1 << 16
    static let probeFeatures = 1 << 14

    /// For a tile of ``probeThreshold`` features or more over the byte limit: as many features
    /// as the limit leaves room for, estimated from every n-th feature encoded and compressed
    /// (bytes grow about in proportion to features); nil when the tile is smaller, has no byte
    /// limit or the estimate fits. The densest tiles (400,000 points) are then never encoded
    /// whole: the encoder's tables for all of them were most of a run's peak memory, and the
    /// rounds after this one measure exactly.
    private func probedTarget(_ tile: VectorTile, encode: (VectorTile) throws -> [UInt8]) throws -> Int? {
        let count = tile.features.count
        guard let maxBytes, count >= Self.probeThreshold else { return nil }
        var probe = tile
        probe.keepFeatures(at: Array(Swift.stride(from: 0, to: count, by: count / Self.probeFeatures)))
        let probeBytes = try Gzip.compress(try encode(probe)).count
        let estimate = Double(probeBytes) * Double(count) / Double(probe.features.count)
        guard estimate > Double(maxBytes) else { return nil }
        // Aimed at the limit itself: the next rounds only ever drop more.
        return max(1, min(count - 1, Int(Double(count) * Double(maxBytes) / estimate)))
    }

    /// The stored bytes when the tile could be over the byte limit at all (else gzip is not run
    /// and the encoded size bounds the stored one).
    private func compressedIfNeeded(_ encoded: [UInt8]) throws -> [UInt8]? {
        guard let maxBytes, encoded.count > maxBytes else { return nil }
        return try Gzip.compress(encoded)
    }
}
