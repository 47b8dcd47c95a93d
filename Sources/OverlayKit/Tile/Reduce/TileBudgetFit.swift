import OverlayModel

extension TileBudget {
    /// Reduction rounds before giving up; each keeps at most half of the features from round
    /// 8 on, so 200,000 features reach one well within this.
    static let maximumRounds = 40

    /// Encodes `tile`, reducing it with ``strategy`` until it fits; the tile's statistics count
    /// what was dropped or merged.
    /// - Throws: `Diagnostic` `tile.too-large` naming the tile and its sizes when even one
    ///   feature does not fit.
    func fit(_ tile: inout VectorTile, encode: (VectorTile) throws -> [UInt8]) throws -> [UInt8] {
        var encoded = try encode(tile)
        var coalescing = strategy == .coalesceDensest || strategy == .coalesceSmallest
        var previousSize = Int.max
        for round in 0..<Self.maximumRounds {
            let size = try compressedSize(encoded)
            let tooMany = maxFeatures.map { tile.features.count > $0 } ?? false
            let tooBig = maxBytes.map { size > $0 } ?? false
            guard tooMany || tooBig else { return encoded }
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
        let size = try compressedSize(encoded)
        throw Diagnostic(.error, code: .tileTooLarge,
            message: "tile \(tile.id.z)/\(tile.id.x)/\(tile.id.y) does not fit its budget even with \(tile.features.count) "
                + "feature(s): \(size) bytes compressed (limit \(maxBytes.map(String.init) ?? "none")), "
                + "\(tile.features.count) features (limit \(maxFeatures.map(String.init) ?? "none")); raise "
                + "--max-tile-bytes, lower --max-zoom or simplify the largest features, or pass --no-tile-size-limit")
    }

    /// The stored size: gzip is only run when the tile could be over the byte limit at all.
    private func compressedSize(_ encoded: [UInt8]) throws -> Int {
        guard let maxBytes, encoded.count > maxBytes else { return encoded.count }
        return try Gzip.compress(encoded).count
    }
}
