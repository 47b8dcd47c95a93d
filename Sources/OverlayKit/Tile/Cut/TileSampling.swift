/// Which tiles a plan's walk of the pyramid visits (`Tiler.plan`): about a fixed number a zoom,
/// whatever the input, each standing for the tiles it was chosen among.
///
/// Every visited tile carries a ``Share``: how many tiles of its zoom it stands for (its
/// weight) and how many it may visit at each deeper zoom of its subtree (its budget). A tile's
/// non-empty children split its budget; while a child's part is 1 or more every child is
/// visited, else each child is kept with that part as its probability (decided by a hash of its
/// id, so the walk is the same on any number of threads and either feature store) and its
/// weight grows by the inverse. The weighted sums of what the visited tiles hold are then
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
    /// non-empty `children` (in their order).
    static func visited(_ children: [TileID], of share: Share) -> [Share?] {
        guard share.budget.isFinite, !children.isEmpty else { return children.map { _ in share } }
        let part = share.budget / Double(children.count)
        if part >= 1 { return children.map { _ in Share(weight: share.weight, budget: part) } }
        return children.map { id in
            unitHash(id) < part ? Share(weight: share.weight / part, budget: 1) : nil
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
