import OverlayModel

/// One long line coalesced to quarter-pixel cells and simplified for the render zoom in its own
/// map points, giving exactly the vertices `SubpixelCoalescing` then `ShapeSimplifier`
/// (Douglas–Peucker) give, without their copies: those keep map points and source coordinates
/// (48 bytes a vertex) at each step and a `[x, y, importance]` buffer besides, so a
/// 2-million-vertex GPS track held about 130 bytes a vertex while it was drawn (issue 51 item 7).
/// Here the line's map points are the working buffer (compacted in place to the kept ones: no
/// copy when the caller owns them alone) and Douglas–Peucker adds one flag byte a vertex.
///
/// Douglas–Peucker is `DouglasPeucker.computeImportance` with `monotone` and `keptAbove` at the
/// threshold, which keeps exactly the pivots whose squared distance exceeds it: the same
/// pivots, ties broken the same way (by buffer offsets, three Doubles a vertex, as geojson-vt).
/// Time as the simplifier's; memory one byte a vertex besides the points.
struct LongLineSimplification {
    /// The quarter-pixel tolerance (and coalescing cell) in map points.
    let tolerance: Double

    /// Lines with at least this many vertices take this path (shorter ones go through the
    /// shape simplifier; both give the same vertices).
    static let minimumVertices = 1 << 16

    /// Whether a line of `count` vertices is drawn through this path: long enough, with a usable tolerance.
    func applies(toLineOf count: Int) -> Bool {
        count >= LongLineSimplification.minimumVertices && tolerance > 0 && tolerance.isFinite
    }

    /// Leaves in `points` (a line of more than four vertices) the vertices the simplifier keeps,
    /// in order; false when the line is shorter than the tolerance (the simplifier drops it).
    func simplify(_ points: inout [MapPoint]) -> Bool {
        coalesce(&points)
        let count = points.count
        var length = 0.0
        for index in 1..<count {
            let a = points[index - 1], b = points[index]
            length += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        guard length >= tolerance else { return false }
        let kept = LongLineSimplification.douglasPeucker(points, threshold: tolerance * tolerance)
        var written = 0
        for index in 0..<count where kept[index] {
            points[written] = points[index]
            written += 1
        }
        points.removeLast(count - written)
        return true
    }

    /// `SubpixelCoalescing` of an open line, in place: each vertex whose cell differs from the
    /// last kept one's, and the last vertex. O(n).
    private func coalesce(_ points: inout [MapPoint]) {
        let count = points.count
        var written = 0
        var lastX = Double.nan, lastY = Double.nan
        for index in 0..<(count - 1) {
            let point = points[index]
            let cellX = (point.x / tolerance).rounded(.down), cellY = (point.y / tolerance).rounded(.down)
            if cellX == lastX && cellY == lastY { continue }
            lastX = cellX
            lastY = cellY
            points[written] = point
            written += 1
        }
        points[written] = points[count - 1]
        points.removeLast(count - 1 - written)
    }

    /// Which of `points` Douglas–Peucker keeps at `threshold` (a squared distance): the ends
    /// and every pivot farther than it, exactly as `DouglasPeucker.computeImportance` ranks them
    /// (its pivots, its tie-break by buffer offsets of three Doubles a vertex). O(n) memory: one
    /// flag a point and a stack of at most one span per kept point.
    static func douglasPeucker(_ points: [MapPoint], threshold: Double) -> [Bool] {
        let count = points.count
        var kept = [Bool](repeating: false, count: count)
        guard count > 0 else { return kept }
        kept[0] = true
        kept[count - 1] = true
        guard count > 2 else { return kept }
        points.withUnsafeBufferPointer { points in
            var stack = [(first: 0, last: count - 1)]
            while let (first, last) = stack.popLast() {
                var maxSquaredDistance = 0.0
                // Offsets in the simplifier's [x, y, importance] buffer decide ties.
                let mid = 3 * first + ((3 * last - 3 * first) >> 1)
                var minPositionToMid = 3 * last - 3 * first
                var index = -1
                let a = points[first], b = points[last]
                for vertex in (first + 1)..<last {
                    let d = DouglasPeucker.squaredSegmentDistance(points[vertex].x, points[vertex].y, a.x, a.y, b.x, b.y)
                    if d > maxSquaredDistance {
                        index = vertex
                        maxSquaredDistance = d
                    } else if d == maxSquaredDistance {
                        let positionToMid = abs(3 * vertex - mid)
                        if positionToMid < minPositionToMid {
                            index = vertex
                            minPositionToMid = positionToMid
                        }
                    }
                }
                // Every span on the stack lies under a kept pivot (or is the whole line), so
                // its pivot's importance is its distance: kept when over the threshold, and
                // nothing below a pivot at or under it can pass.
                guard maxSquaredDistance > 0, maxSquaredDistance > threshold else { continue }
                kept[index] = true
                if index - first > 1 { stack.append((first, index)) }
                if last - index > 1 { stack.append((index, last)) }
            }
        }
        return kept
    }
}
