/// The polygons of one layer of one tile drawn with their shared borders kept shared
/// (`TileOptions.sharedBorders`, tippecanoe's `--detect-shared-borders`): found from the tile's
/// own clipped features, so a tile depends on nothing but them — any feature store, any
/// partition of the work gives the same tile.
///
/// 1. The rings' edges that two rings have are found and cut into arcs (`SharedArcs`) in
///    unrounded tile units.
/// 2. The rings that share an edge, and every ring whose bounds come within `nearGap` of another
///    ring's (an island off a coast, a lake and its island), are simplified together, each arc
///    once, keeping the topology (`CoverageSimplifier`); rings alone keep the per-ring path.
/// 3. Their arcs are snap-rounded to the tile grid (`GridSnapRounding`), each once, and every ring
///    is rebuilt from its arcs: a border two polygons share has the same integer points on both
///    sides, and no ring crosses another.
///
/// At the max zoom nothing is simplified (every arc keeps its points) and the arcs are only
/// snap-rounded. Between tiles a border is simplified in each tile on its own (within the tolerance of the
/// input on both sides: at most 2 × 3/16 of a pixel apart at a tile edge).
enum SharedBorderTile {
    /// What becomes of one ring.
    enum RingOutcome: Equatable {
        /// Not near a shared border: the ordinary per-ring simplification.
        case perRing
        /// Drawn as the closed x, y pairs in tile units, wound for MVT, at these indices of
        /// `Outcomes.points`.
        case drawn(Range<Int>)
        /// No area left after simplification and rounding (its neighbours took its place).
        case collapsed
        /// An exterior sharing no border, smaller than the tiny-ring area: not drawn.
        case tiny
    }

    /// The outcomes of a layer's rings, flat: one buffer for every drawn ring's points, so that a
    /// tile allocates per layer, not per ring.
    struct Outcomes {
        /// Every drawn ring's points, one ring after another.
        fileprivate(set) var points: [Int32] = []
        /// Feature `f`'s rings are `rings[featureStarts[f]..<featureStarts[f + 1]]`.
        private(set) var featureStarts: [Int] = [0]
        private(set) var rings: [RingOutcome] = []

        /// Every ring of `features` on the per-ring path.
        init(_ features: [ProjectedFeature]) {
            featureStarts.reserveCapacity(features.count + 1)
            for index in features.indices { featureStarts.append(featureStarts[index] + features[index].rings.count) }
            rings = [RingOutcome](repeating: .perRing, count: featureStarts[features.count])
        }

        /// The outcome of ring `ring` of feature `feature`.
        func outcome(feature: Int, ring: Int) -> RingOutcome { rings[featureStarts[feature] + ring] }

        fileprivate mutating func set(feature: Int, ring: Int, _ outcome: RingOutcome) {
            rings[featureStarts[feature] + ring] = outcome
        }
    }

    /// The outcome of every ring of `features` (polygons of one layer, clipped to the tile), by
    /// feature and ring; nil when no two rings share an edge (then every ring takes the
    /// per-ring path).
    /// - Parameters:
    ///   - tolerance: the zoom's tolerance in tile units (0 at the max zoom).
    ///   - tinyRingArea: map points²; exteriors that share nothing and are smaller are not drawn.
    ///   - nearGap: tile units; a ring this close to another joins the shared path (the per-ring
    ///     path's rounding and stand-ins reach no farther).
    static func outcomes(_ features: [ProjectedFeature], units: TileUnits, tolerance: Double, tinyRingArea: Double,
                         nearGap: Double) -> Outcomes? {
        // Rings and vertices counted first, so that every per-ring and per-vertex buffer below
        // is allocated once at its size.
        var ringTotal = 0, vertexTotal = 0
        for feature in features {
            ringTotal += feature.rings.count
            for ring in feature.rings { vertexTotal += ring.count }
        }
        var ringStarts = [Int](), owners = [(feature: Int, ring: Int)](), boxes = [Double]()
        var ringIsOuter = [Bool](), ringSize = [Double]()
        ringStarts.reserveCapacity(ringTotal + 1)
        owners.reserveCapacity(ringTotal)
        boxes.reserveCapacity(4 * ringTotal)
        ringIsOuter.reserveCapacity(ringTotal)
        ringSize.reserveCapacity(ringTotal)
        ringStarts.append(0)
        // Every ring's points in tile units, written unchecked (room for every ring's count; the
        // rings lie within their features' coordinates, checked per ring).
        var xy = [Double](repeating: 0, count: 2 * vertexTotal)
        var written = 0
        xy.withUnsafeMutableBufferPointer { xy in
            for featureIndex in features.indices {
                features[featureIndex].coordinates.withUnsafeBufferPointer { coordinates in
                    for (ringIndex, ring) in features[featureIndex].rings.enumerated() {
                        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
                        var index = ring.start * 3
                        let end = (ring.start + ring.count) * 3
                        precondition(index >= 0 && index <= end && end <= coordinates.count, "a ring beyond its coordinates")
                        while index < end {
                            let x = units.x(coordinates[index]), y = units.y(coordinates[index + 1])
                            xy[written] = x
                            xy[written + 1] = y
                            written += 2
                            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                            index += 3
                        }
                        ringStarts.append(written / 2)
                        owners.append((featureIndex, ringIndex))
                        ringIsOuter.append(ring.isOuter)
                        ringSize.append(ring.size)
                        boxes.append(minX)
                        boxes.append(minY)
                        boxes.append(maxX)
                        boxes.append(maxY)
                    }
                }
            }
        }
        guard let all = SharedArcs.find(xy: xy, ringStarts: ringStarts) else { return nil }
        let ringCount = owners.count
        var shares = [Bool](repeating: false, count: ringCount)
        for ring in 0..<ringCount {
            shares[ring] = all.ringArcs[all.ringStarts[ring]..<all.ringStarts[ring + 1]].contains { all.arcUses[Int($0 >> 1)] > 1 }
        }
        let joins = near(boxes, shares: shares, gap: nearGap)
        let members = (0..<ringCount).filter { joins[$0] }
        let topology: SharedArcs
        if members.count == ringCount {
            topology = all
        } else {
            var memberXY = [Double](), memberStarts = [0]
            for ring in members {
                memberXY += xy[2 * ringStarts[ring]..<2 * ringStarts[ring + 1]]
                memberStarts.append(memberXY.count / 2)
            }
            // The rings that share are all members, so some edge is shared among them.
            guard let found = SharedArcs.find(xy: memberXY, ringStarts: memberStarts) else { return nil }
            topology = found
        }
        let kept = CoverageSimplifier.kept(topology, squaredTolerance: tolerance * tolerance)
        // Every arc's kept points, flat, and the hot pixels: one at each kept point, found by
        // point id (two points in one pixel give it twice, which the snap draws once).
        // Written unchecked into buffers of their largest sizes: a path point per arc position, a
        // pixel per point.
        let positions = topology.arcPoints.count, pointCount = topology.points.count / 2
        var paths = [Double](repeating: 0, count: 2 * positions), pathStarts = [Int](repeating: 0, count: topology.arcCount + 1)
        var pixelX = [Int32](repeating: 0, count: pointCount), pixelY = [Int32](repeating: 0, count: pointCount)
        var hot = [Bool](repeating: false, count: pointCount)
        var pathCount = 0, pixelCount = 0
        precondition(kept.count == positions && topology.arcStarts.count == topology.arcCount + 1
                     && topology.arcStarts[0] == 0 && topology.arcStarts[topology.arcCount] == positions,
                     "arcs beyond their points")
        paths.withUnsafeMutableBufferPointer { paths in
            pathStarts.withUnsafeMutableBufferPointer { pathStarts in
                pixelX.withUnsafeMutableBufferPointer { pixelX in
                    pixelY.withUnsafeMutableBufferPointer { pixelY in
                        hot.withUnsafeMutableBufferPointer { hot in
                            topology.arcPoints.withUnsafeBufferPointer { arcPoints in
                                topology.points.withUnsafeBufferPointer { points in
                                    kept.withUnsafeBufferPointer { kept in
                                        topology.arcStarts.withUnsafeBufferPointer { arcStarts in
                                            for arc in 0..<topology.arcCount {
                                                for position in arcStarts[arc]..<arcStarts[arc + 1] where kept[position] {
                                                    // Every arc point is a point id (SharedArcs made both).
                                                    let point = Int(arcPoints[position])
                                                    let x = points[2 * point], y = points[2 * point + 1]
                                                    paths[pathCount] = x
                                                    paths[pathCount + 1] = y
                                                    pathCount += 2
                                                    if !hot[point] {
                                                        hot[point] = true
                                                        pixelX[pixelCount] = TileUnits.round(x)
                                                        pixelY[pixelCount] = TileUnits.round(y)
                                                        pixelCount += 1
                                                    }
                                                }
                                                pathStarts[arc + 1] = pathCount
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        pixelX.removeSubrange(pixelCount...)
        pixelY.removeSubrange(pixelCount...)
        let snapping = GridSnapRounding(pixelX: pixelX, pixelY: pixelY)
        var snapped = [Int32](), snappedStarts = [Int](), crossed = [(Int32, Int32)]()
        snapped.reserveCapacity(paths.count)
        snappedStarts.reserveCapacity(topology.arcCount + 1)
        snappedStarts.append(0)
        for arc in 0..<topology.arcCount {
            snapping.snap(paths, from: pathStarts[arc], to: pathStarts[arc + 1], into: &snapped, crossed: &crossed)
            snappedStarts.append(snapped.count)
        }
        var outcomes = Outcomes(features)
        // Every member ring's points (2 × (count − 1) per arc and room for the closing point),
        // written unchecked and closed in place, one ring after another.
        var total = 0
        for member in members.indices {
            for entry in topology.ringArcs[topology.ringStarts[member]..<topology.ringStarts[member + 1]] {
                let arc = Int(entry >> 1)
                total += max(snappedStarts[arc + 1] - snappedStarts[arc] - 2, 0)
            }
            total += 2
        }
        var ringPoints = [Int32](repeating: 0, count: total)
        var cursor = 0
        ringPoints.withUnsafeMutableBufferPointer { out in
            snapped.withUnsafeBufferPointer { snapped in
                for (member, ring) in members.enumerated() {
                    let (featureIndex, ringIndex) = owners[ring]
                    if tolerance > 0 && ringIsOuter[ring] && !shares[ring] && ringSize[ring] < tinyRingArea {
                        outcomes.set(feature: featureIndex, ring: ringIndex, .tiny)
                        continue
                    }
                    let base = cursor
                    for entry in topology.ringArcs[topology.ringStarts[member]..<topology.ringStarts[member + 1]] {
                        let arc = Int(entry >> 1)
                        let first = snappedStarts[arc], count = (snappedStarts[arc + 1] - first) / 2
                        if entry & 1 == 0 {
                            var index = first
                            while index < first + 2 * (count - 1) {
                                out[cursor] = snapped[index]
                                cursor += 1
                                index += 1
                            }
                        } else {
                            var index = count - 1
                            while index > 0 {
                                out[cursor] = snapped[first + 2 * index]
                                out[cursor + 1] = snapped[first + 2 * index + 1]
                                cursor += 2
                                index -= 1
                            }
                        }
                    }
                    // `total` counted every point and the closing point: the ring fits.
                    if let end = closeRing(out, from: base, to: cursor, outer: ringIsOuter[ring]) {
                        outcomes.set(feature: featureIndex, ring: ringIndex, .drawn(base..<end))
                        cursor = end
                    } else {
                        outcomes.set(feature: featureIndex, ring: ringIndex, .collapsed)
                        cursor = base
                    }
                }
            }
        }
        ringPoints.removeSubrange(cursor...)
        outcomes.points = ringPoints
        return outcomes
    }

    /// Which rings take the shared path: those that share, and every ring whose bounds
    /// (`boxes`: minX, minY, maxX, maxY per ring) come within `gap` of another ring's; a ring
    /// alone, far from all others, cannot meet any after its own simplification and rounding.
    private static func near(_ boxes: [Double], shares: [Bool], gap: Double) -> [Bool] {
        var joins = shares
        let count = shares.count
        guard shares.contains(false) else { return joins }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for ring in 0..<count {
            minX = min(minX, boxes[4 * ring]); minY = min(minY, boxes[4 * ring + 1])
            maxX = max(maxX, boxes[4 * ring + 2]); maxY = max(maxY, boxes[4 * ring + 3])
        }
        let grid = UniformGrid(minX: minX, minY: minY, maxX: maxX, maxY: maxY, minimumCellSize: gap,
                               itemCount: count) { ring, grid, visit in
            for row in grid.row(boxes[4 * ring + 1])...grid.row(boxes[4 * ring + 3]) {
                for column in grid.column(boxes[4 * ring])...grid.column(boxes[4 * ring + 2]) { visit(row * grid.columns + column) }
            }
        }
        for ring in 0..<count where !shares[ring] {
            let low = (boxes[4 * ring] - gap, boxes[4 * ring + 1] - gap), high = (boxes[4 * ring + 2] + gap, boxes[4 * ring + 3] + gap)
            search: for row in grid.row(low.1)...grid.row(high.1) {
                for column in grid.column(low.0)...grid.column(high.0) {
                    for item in grid.items(in: row * grid.columns + column) where Int(item) != ring {
                        let other = Int(item)
                        if boxes[4 * other] <= high.0 && boxes[4 * other + 2] >= low.0
                            && boxes[4 * other + 1] <= high.1 && boxes[4 * other + 3] >= low.1 {
                            joins[ring] = true
                            break search
                        }
                    }
                }
            }
        }
        return joins
    }

    /// Appends to `out` the ring of snapped points (not closed) without repeated points and
    /// spikes, closed and wound clockwise (exterior) or counterclockwise (hole) with y down; false,
    /// and `out` as it was, when no area is left.
    static func appendClosedRing(_ points: [Int32], outer: Bool, to out: inout [Int32]) -> Bool {
        let base = out.count
        out += points
        out += [0, 0]
        let end = out.withUnsafeMutableBufferPointer { closeRing($0, from: base, to: base + points.count, outer: outer) }
        out.removeSubrange((end ?? base)...)
        return end != nil
    }

    /// `appendClosedRing` in place: the ring's points are `out[start..<end]` (x, y pairs), and
    /// `out` has room for two more; returns the end of the closed ring written from `start`, or
    /// nil when no area is left. Reads and writes only `out[start..<end + 2]`.
    private static func closeRing(_ out: UnsafeMutableBufferPointer<Int32>, from start: Int, to end: Int, outer: Bool) -> Int? {
        precondition(start >= 0 && start <= end && end + 2 <= out.count && (end - start) % 2 == 0, "a ring beyond its buffer")
        let base = start
        // The points kept so far are out[base..<written]; written never passes the point read.
        var written = base
        var index = base
        while index + 1 < end {
            let x = out[index], y = out[index + 1]
            index += 2
            if written - base >= 2 && out[written - 2] == x && out[written - 1] == y { continue }
            if written - base >= 4 && out[written - 4] == x && out[written - 3] == y {
                written -= 2  // a spike: a, b, a is a
                continue
            }
            out[written] = x
            out[written + 1] = y
            written += 2
        }
        // Where the end meets the start: repeats and spikes across the seam.
        while written - base >= 6 {
            if out[base] == out[written - 2] && out[base + 1] == out[written - 1] {
                written -= 2
            } else if out[base] == out[written - 4] && out[base + 1] == out[written - 3] {
                written -= 2
            } else if out[base + 2] == out[written - 2] && out[base + 3] == out[written - 1] {
                var move = base
                while move + 2 < written {
                    out[move] = out[move + 2]
                    move += 1
                }
                written -= 2
            } else {
                break
            }
        }
        guard written - base >= 6 else { return nil }
        var twiceArea: Int64 = 0
        let count = (written - base) / 2
        for index in 0..<count {
            let next = index + 1 == count ? 0 : index + 1
            twiceArea += Int64(out[base + 2 * index]) * Int64(out[base + 2 * next + 1])
                - Int64(out[base + 2 * next]) * Int64(out[base + 2 * index + 1])
        }
        guard twiceArea != 0 else { return nil }
        // MVT: exteriors have positive area by the surveyor's formula in tile coordinates (y down).
        if (twiceArea > 0) != outer {
            var low = 0, high = count - 1
            while low < high {
                out.swapAt(base + 2 * low, base + 2 * high)
                out.swapAt(base + 2 * low + 1, base + 2 * high + 1)
                low += 1
                high -= 1
            }
        }
        out[written] = out[base]
        out[written + 1] = out[base + 1]
        return written + 2
    }
}
