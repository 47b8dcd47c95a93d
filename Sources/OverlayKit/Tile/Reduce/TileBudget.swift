import OverlayModel

/// What a tile may hold, and what gives way when it holds more (tippecanoe's `-M`, `-O` and its
/// `--*-as-needed` strategies). Every tile written fits, or the run stops with an error that
/// names the tile: never a silently incomplete tile set.
public struct TileBudget: Hashable, Sendable {
    /// How a tile over budget is reduced.
    public enum Strategy: String, Hashable, Sendable, CaseIterable {
        /// Drop the features closest to their neighbour along the spatial order, so sparse areas
        /// keep theirs (tippecanoe's `--drop-densest-as-needed`). The default.
        case dropDensest = "drop-densest"
        /// Drop an even share of the features along the spatial order (`--drop-fraction-as-needed`).
        case dropFraction = "drop-fraction"
        /// Drop the smallest lines and polygons first, then points (`--drop-smallest-as-needed`).
        case dropSmallest = "drop-smallest"
        /// As drop-densest, but merge each such feature's geometry into its kept neighbour of
        /// the same type (`--coalesce-densest-as-needed`); falls back to dropping when merging
        /// no longer shrinks the tile.
        case coalesceDensest = "coalesce-densest"
        /// As drop-smallest, merging instead of dropping (`--coalesce-smallest-as-needed`).
        case coalesceSmallest = "coalesce-smallest"
    }

    /// The most bytes a tile may take gzip-compressed, as it is stored and served; nil: no limit.
    public var maxBytes: Int? = 500 * 1024
    /// The most features a tile may hold; nil: no limit.
    public var maxFeatures: Int? = 200_000
    /// What gives way.
    public var strategy = Strategy.dropDensest

    /// tippecanoe's limits (500 KiB, 200,000 features) with drop-densest.
    public init() {}

    /// No limits: every tile is written as cut.
    public static var unlimited: TileBudget {
        var budget = TileBudget()
        budget.maxBytes = nil
        budget.maxFeatures = nil
        return budget
    }

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
