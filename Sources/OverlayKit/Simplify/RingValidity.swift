/// Checks that a simplified ring is still a ring: enough points and no edges that cross.
package enum RingValidity {
    /// True when two non-adjacent edges of the ring cross at a point inside both (a proper
    /// crossing). Touching at a vertex and collinear overlap (which Sutherland-Hodgman clipping
    /// leaves along tile edges) do not count.
    ///
    /// `xy` holds x, y pairs of a closed ring. Sort-and-sweep over edge x-extents:
    /// O(n log n + k) for k pairs of edges whose x-extents overlap.
    package static func hasProperSelfIntersection(_ xy: [Double]) -> Bool {
        let count = xy.count / 2
        guard count >= 4 else { return false }
        let edgeCount = count - 1
        if edgeCount <= 12 {
            for i in 0..<edgeCount {
                for j in stride(from: i + 2, to: edgeCount, by: 1) where !(i == 0 && j == edgeCount - 1) {
                    if crosses(xy, i, j) { return true }
                }
            }
            return false
        }
        var minX = [Double](repeating: 0, count: edgeCount), maxX = minX
        for edge in 0..<edgeCount {
            let a = xy[2 * edge], b = xy[2 * edge + 2]
            minX[edge] = Swift.min(a, b)
            maxX[edge] = Swift.max(a, b)
        }
        let order = edgesByMinX(minX)
        for position in 0..<edgeCount {
            let i = order[position]
            var next = position + 1
            while next < edgeCount, minX[order[next]] <= maxX[i] {
                let j = order[next]
                next += 1
                let gap = abs(i - j)
                if gap <= 1 || gap == edgeCount - 1 { continue }      // adjacent edges share a vertex
                if crosses(xy, i, j) { return true }
            }
        }
        return false
    }

    /// The edges' indices ordered by their least x, ties by index. A tile's long rings have
    /// whole coordinates over a span of a few thousand units: they are counted into one bucket
    /// per unit (linear; the comparison sort was about two fifths of this check, and the check
    /// a fifth of cutting the first zooms of long coastlines). Other rings sort by comparison.
    package static func edgesByMinX(_ minX: [Double]) -> [Int] {
        let low = minX.min() ?? 0, high = minX.max() ?? 0
        let span = high - low
        // (A bucket array much longer than the ring would cost more than it saves.)
        guard span < Double(8 * minX.count), minX.allSatisfy({ $0 == $0.rounded(.down) }) else {
            return minX.indices.sorted { minX[$0] < minX[$1] || (minX[$0] == minX[$1] && $0 < $1) }
        }
        // Counting sort: starts[b] is where bucket b's edges begin; edges go in index order,
        // so ties keep it.
        var starts = [Int](repeating: 0, count: Int(span) + 2)
        for x in minX { starts[Int(x - low) + 1] += 1 }
        for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
        var order = [Int](repeating: 0, count: minX.count)
        for (edge, x) in minX.enumerated() {
            let bucket = Int(x - low)
            order[starts[bucket]] = edge
            starts[bucket] += 1
        }
        return order
    }

    /// Whether edges i and j (from vertex i to i + 1) cross properly.
    @inline(__always)
    private static func crosses(_ xy: [Double], _ i: Int, _ j: Int) -> Bool {
        let ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * i + 2], by = xy[2 * i + 3]
        let cx = xy[2 * j], cy = xy[2 * j + 1], dx = xy[2 * j + 2], dy = xy[2 * j + 3]
        if Swift.max(cy, dy) < Swift.min(ay, by) || Swift.min(cy, dy) > Swift.max(ay, by) { return false }
        let o1 = orientation(ax, ay, bx, by, cx, cy), o2 = orientation(ax, ay, bx, by, dx, dy)
        guard (o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0) else { return false }
        let o3 = orientation(cx, cy, dx, dy, ax, ay), o4 = orientation(cx, cy, dx, dy, bx, by)
        return (o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)
    }

    @inline(__always)
    private static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                    _ cx: Double, _ cy: Double) -> Double {
        (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    }

    /// Twice the signed area of a ring of x, y pairs: negative when the ring runs clockwise
    /// with y pointing down (screen, tile and map-point space); see `ringTwiceSignedArea`.
    package static func doubleArea(_ xy: [Double]) -> Double {
        -ringTwiceSignedArea(count: xy.count / 2) { (xy[2 * $0], xy[2 * $0 + 1]) }
    }
}
