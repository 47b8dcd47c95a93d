/// Douglas-Peucker simplification as per-vertex importance (geojson-vt's scheme): one pass at
/// the finest tolerance records, for every vertex, the squared distance at which the algorithm
/// would have chosen it; any coarser tolerance is then a threshold filter (`importance > tol²`)
/// that gives exactly the vertices Douglas-Peucker keeps at that tolerance.
package enum DouglasPeucker {
    /// Writes importance into slot 2 of the triples `first...last` (vertex indices) of a flat
    /// `[x, y, importance]` buffer. Vertices that never beat `squaredTolerance` keep whatever
    /// the slot held (callers start from 0); the end vertices are not touched.
    ///
    /// Ties pick the pivot nearest the middle, which bounds the depth on degenerate input.
    /// O(n log n) typical, O(n²) worst case; iterative, so long lines cannot overflow the stack.
    ///
    /// - Parameter monotone: false stores each pivot's own distance, as geojson-vt does (tiles
    ///   use this to match it exactly); a coarser threshold then can keep a pivot whose parent
    ///   it drops, and the result may stray beyond that tolerance. true caps each pivot at its
    ///   parent's importance, so a threshold gives exactly Douglas-Peucker at that tolerance and
    ///   every dropped vertex stays within it.
    /// - Parameter keptAbove: with `monotone`, a span whose pivot scores at most this is not
    ///   split further: every vertex inside it scores no more than the pivot, so a threshold at
    ///   or above this keeps the same vertices, and the bottom levels of the recursion (most of
    ///   the work on dense input) are skipped. Pivots are chosen exactly as without it. 0 (the
    ///   default) splits to the end.
    package static func computeImportance(_ coordinates: inout [Double], first: Int, last: Int,
                                         squaredTolerance: Double, monotone: Bool = false, keptAbove: Double = 0) {
        guard last - first > 1 else { return }
        coordinates.withUnsafeMutableBufferPointer { buffer in
            var stack: [(Int, Int, Double)] = [(first * 3, last * 3, .infinity)]
            while let (first, last, cap) = stack.popLast() {
                var maxSquaredDistance = squaredTolerance
                // Buffer offsets, not vertex numbers: matches geojson-vt's tie-break exactly.
                let mid = first + ((last - first) >> 1)
                var minPositionToMid = last - first
                var index = -1
                let ax = buffer[first], ay = buffer[first + 1]
                let bx = buffer[last], by = buffer[last + 1]
                var i = first + 3
                while i < last {
                    let d = squaredSegmentDistance(buffer[i], buffer[i + 1], ax, ay, bx, by)
                    if d > maxSquaredDistance {
                        index = i
                        maxSquaredDistance = d
                    } else if d == maxSquaredDistance {
                        // Prefer a pivot near the middle so degenerate input recurses shallowly.
                        let positionToMid = abs(i - mid)
                        if positionToMid < minPositionToMid {
                            index = i
                            minPositionToMid = positionToMid
                        }
                    }
                    i += 3
                }
                if maxSquaredDistance > squaredTolerance {
                    let importance = monotone ? min(maxSquaredDistance, cap) : maxSquaredDistance
                    buffer[index + 2] = importance
                    // Monotone: nothing below a pivot at or under `keptAbove` can pass it.
                    if monotone && importance <= keptAbove { continue }
                    if index - first > 3 { stack.append((first, index, importance)) }
                    if last - index > 3 { stack.append((index, last, importance)) }
                }
            }
        }
    }

    /// The squared distance from point p to the segment a–b.
    @inlinable
    package static func squaredSegmentDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double,
                                              _ bx: Double, _ by: Double) -> Double {
        var x = ax, y = ay
        var dx = bx - x, dy = by - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = bx
                y = by
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        dx = px - x
        dy = py - y
        return dx * dx + dy * dy
    }
}
