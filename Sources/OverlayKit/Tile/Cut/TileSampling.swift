/// Which tiles a plan's walk of the pyramid visits (`Tiler.plan`): about a fixed number a zoom,
/// whatever the input, each standing for the tiles it was chosen among.
///
/// Every visited tile carries a ``Share``: how many tiles of its zoom it stands for (its
/// weight) and how many it may visit at each deeper zoom of its subtree (its budget). A tile's
/// non-empty children split its budget (by their size, at least equally); while a child's part is 1 or more it is
/// visited, else it is kept with that part as its probability (decided by a hash of its id, so
/// the walk is the same on any number of threads) and its weight grows by the inverse. The weighted sums of what the visited tiles hold are then
/// unbiased estimates of the whole pyramid's (Horvitz–Thompson; Knuth's estimate of a tree's
/// size, with many paths). A solid tile's block is exact: the run cuts one tile per zoom there
/// too.
struct TileSampling: Sendable {
    /// A visited tile's part of the walk.
    struct Share: Sendable {
        /// How many tiles of its zoom the tile stands for.
        var weight: Double
        /// How many tiles its subtree may visit at each deeper zoom.
        var budget: Double

        /// Every tile visited, each for itself.
        static let whole = Share(weight: 1, budget: .infinity)
    }

    /// The children of a tile with `share` that are visited, and their shares, from the
    /// non-empty `children` (in their order) and their sizes (features or record bytes): each
    /// child's part of the budget is the larger of an equal part and one following its size, so
    /// a dense child, which has more tiles below it, is more likely kept (sampling proportional
    /// to size: clustered data is then estimated from its clusters, not from the few tiles
    /// around them), and a budget that covers every child cuts every one.
    static func visited(_ children: [TileID], sizes: [Int], of share: Share) -> [Share?] {
        guard share.budget.isFinite, !children.isEmpty else { return children.map { _ in share } }
        let total = Double(max(1, sizes.reduce(0, +)))
        return zip(children, sizes).map { id, size in
            // At least an equal part: while the budget covers every child, every one is cut.
            let part = max(share.budget / Double(children.count), share.budget * Double(max(1, size)) / total)
            if part >= 1 { return Share(weight: share.weight, budget: part) }
            return unitHash(id) < part ? Share(weight: share.weight / part, budget: 1) : nil
        }
    }

    /// A number in [0, 1) from the tile's id alone (splitmix64).
    static func unitHash(_ id: TileID) -> Double {
        var value = UInt64(truncatingIfNeeded: id.z) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt64(truncatingIfNeeded: id.x) &* 0xBF58_476D_1CE4_E5B9
            ^ UInt64(truncatingIfNeeded: id.y) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 30
        value = value &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 27
        value = value &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }
}
