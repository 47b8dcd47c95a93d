/// Which tiles a plan's walk of the pyramid visits (`Tiler.plan`): about a fixed number a zoom,
/// whatever the input, each standing for the tiles it was chosen among.
///
/// Every visited tile carries a ``Share``: how many tiles of its zoom it stands for (its
/// weight) and how many it may visit at each deeper zoom of its subtree (its budget). A tile's
/// non-empty children split its budget (a quarter equally, the rest by their size); while a
/// child's part is 1 or more it is visited, else it is kept with that part as its probability
/// (decided by a hash of its id, so the walk is the same on any number of threads) and its
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
    /// non-empty `children` (in their order) and their sizes (``size(of:tile:options:)``, or
    /// record bytes; nil for a solid child, always visited): a child's part of the budget
    /// follows its size beyond an equal floor, so a child with more of the pyramid below it is
    /// more likely kept (sampling proportional to size: clustered points are estimated from
    /// their clusters, borders from the tiles they cross), and a budget that covers every
    /// child cuts every one.
    static func visited(_ children: [TileID], sizes: [Double?], of share: Share) -> [Share?] {
        guard share.budget.isFinite, !children.isEmpty else { return children.map { _ in share } }
        let sampled = sizes.compactMap { $0 }
        let total = sampled.reduce(0) { $0 + max(1, $1) }
        return zip(children, sizes).map { id, size in
            // A solid child's subtree is a block per zoom, exact and cheap: always visited.
            guard let size else { return Share(weight: share.weight, budget: share.budget) }
            // A quarter of the budget split equally, the rest by size: the parts add up to the
            // budget (so about that many tiles are cut a zoom) and a child of any size keeps a
            // fair chance; a budget of one a child or more cuts every one (adding at most one
            // a child).
            let mixed = share.budget * (Self.equalShare / Double(sampled.count) + (1 - Self.equalShare) * max(1, size) / total)
            let part = share.budget >= Double(sampled.count) ? max(1, mixed) : mixed
            if part >= 1 { return Share(weight: share.weight, budget: part) }
            return unitHash(id) < part ? Share(weight: share.weight / part, budget: 1) : nil
        }
    }

    /// How much of the pyramid below tile `id` its `features` make, as a sampled walk weighs
    /// a child: its vertices plus the max-zoom tiles its lines and polygon edges cross (their
    /// length in max-zoom tile widths; edges the clip drew along the tile's buffered border
    /// do not count) plus its points. Vertices are what a tile's bytes grow with near the
    /// data's own detail; past it (a 1:50m border at z14) a straight edge of two vertices still
    /// crosses thousands of tiles, each written, and the vertex count alone would sample them
    /// so rarely that the estimate came out half the run's (countries at z14).
    static func size(of features: [ProjectedFeature], tile id: TileID, options: TileOptions) -> Double {
        let square = BufferedTileSquare(id, options: options)
        let maxZoomTile = Double(sign: .plus, exponent: -options.maxZoom, significand: 1) * MapProjection.worldSize
        var size = 0.0
        for feature in features {
            let xy = feature.coordinates
            for ring in feature.rings {
                size += Double(ring.count)
                guard feature.type != .point, ring.count > 1 else { continue }
                var length = 0.0
                var index = ring.start * 3
                let end = (ring.start + ring.count - 1) * 3
                while index < end {
                    let x0 = xy[index], y0 = xy[index + 1], x1 = xy[index + 3], y1 = xy[index + 4]
                    index += 3
                    if feature.type == .polygon && square.alongEdge(x0, y0, x1, y1) { continue }
                    // Tiles a segment crosses: about its extent in x plus its extent in y.
                    length += (x1 - x0).magnitude + (y1 - y0).magnitude
                }
                size += length / maxZoomTile
            }
        }
        return size
    }

    /// The part of a tile's budget its children split equally; the rest follows their sizes.
    static let equalShare = 0.25

    /// A number in [0, 1) from the tile's id alone.
    static func unitHash(_ id: TileID) -> Double {
        SplitMix64.unit(UInt64(truncatingIfNeeded: id.z) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt64(truncatingIfNeeded: id.x) &* 0xBF58_476D_1CE4_E5B9
            ^ UInt64(truncatingIfNeeded: id.y) &* 0x94D0_49BB_1331_11EB)
    }
}
