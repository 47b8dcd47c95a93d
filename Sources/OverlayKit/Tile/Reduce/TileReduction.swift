import OverlayModel

/// One step of a ``TileBudget`` strategy: keeps `target` of a tile's features, chosen by
/// density (gap to the previous feature along the spatial order), evenly, or by size, and drops
/// or merges the rest. Ties are broken by position in the tile, so the result depends only on
/// the tile.
enum TileReduction {
    static func reduce(_ tile: inout VectorTile, to target: Int, by strategy: TileBudget.Strategy, coalescing: Bool) {
        let count = tile.features.count
        guard target < count else { return }
        let order = spatialOrder(tile)
        var keep = [Bool](repeating: false, count: count)
        switch strategy {
        case .dropFraction:
            // Every n-th feature along the curve.
            for rank in 0..<target { keep[order[rank * count / target]] = true }
        case .dropDensest, .coalesceDensest:
            var gaps = [(gap: Double, index: Int)]()
            gaps.reserveCapacity(count)
            for (rank, index) in order.enumerated() {
                let gap = rank == 0 ? Double.infinity : squaredDistance(tile.features[index], tile.features[order[rank - 1]])
                gaps.append((gap, index))
            }
            gaps.sort { $0.gap != $1.gap ? $0.gap > $1.gap : $0.index < $1.index }
            for entry in gaps.prefix(target) { keep[entry.index] = true }
        case .dropSmallest, .coalesceSmallest:
            var sizes = tile.features.indices.map { (size: size(tile.features[$0]), index: $0) }
            sizes.sort { $0.size != $1.size ? $0.size > $1.size : $0.index < $1.index }
            for entry in sizes.prefix(target) { keep[entry.index] = true }
        }
        if coalescing { mergeDropped(&tile, keep: keep, order: order) }
        let dropped = count - target
        if coalescing { tile.statistics.coalescedForBudget += dropped } else { tile.statistics.droppedForBudget += dropped }
        tile.keepFeatures(at: (0..<count).filter { keep[$0] })
    }

    /// Appends each dropped feature's geometry to the nearest kept feature of its type before it
    /// along the curve (or after it, when none is before); kept when there is none at all.
    private static func mergeDropped(_ tile: inout VectorTile, keep: [Bool], order: [Int]) {
        var lastKept = [TileGeometryType: Int]()
        var orphans = [Int]()
        for index in order {
            let type = tile.features[index].type
            if keep[index] {
                lastKept[type] = index
                continue
            }
            if let into = lastKept[type] { merge(index, into: into, in: &tile) } else { orphans.append(index) }
        }
        var firstKept = [TileGeometryType: Int]()
        for index in order where keep[index] && firstKept[tile.features[index].type] == nil {
            firstKept[tile.features[index].type] = index
        }
        for index in orphans {
            if let into = firstKept[tile.features[index].type] { merge(index, into: into, in: &tile) }
        }
    }

    private static func merge(_ index: Int, into target: Int, in tile: inout VectorTile) {
        let part = tile.features[index]
        tile.features[target].xy += part.xy
        if part.type == .point {
            // Points are one run of all of them.
            tile.features[target].ringLengths[0] += part.ringLengths.reduce(0, +)
        } else {
            tile.features[target].ringLengths += part.ringLengths
        }
    }

    /// Feature indices along the Z-order curve of their first vertex.
    private static func spatialOrder(_ tile: VectorTile) -> [Int] {
        let keyed = tile.features.indices.map { index -> (UInt64, Int) in
            let xy = tile.features[index].xy
            guard xy.count >= 2 else { return (0, index) }
            let shift = Double(1 << 20)
            return (SpatialOrder.key(x: Double(xy[0]) + shift, y: Double(xy[1]) + shift), index)
        }
        return keyed.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
    }

    private static func squaredDistance(_ a: TileFeature, _ b: TileFeature) -> Double {
        guard a.xy.count >= 2, b.xy.count >= 2 else { return 0 }
        let dx = Double(a.xy[0]) - Double(b.xy[0]), dy = Double(a.xy[1]) - Double(b.xy[1])
        return dx * dx + dy * dy
    }

    /// Area (polygons, tile units²) or length (lines); points 0.
    private static func size(_ feature: TileFeature) -> Double {
        var total = 0.0, start = 0
        for length in feature.ringLengths {
            defer { start += length }
            guard length > 1 else { continue }
            var sum = 0.0
            for offset in 0..<(length - 1) {
                let i = 2 * (start + offset), j = i + 2
                let x1 = Double(feature.xy[i]), y1 = Double(feature.xy[i + 1])
                let x2 = Double(feature.xy[j]), y2 = Double(feature.xy[j + 1])
                switch feature.type {
                case .polygon: sum += x1 * y2 - x2 * y1
                case .line: sum += ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot()
                case .point: break
                }
            }
            total += feature.type == .polygon ? sum / 2 : sum
        }
        return abs(total)
    }
}
