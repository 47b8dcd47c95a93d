/// Clips device-space paths to a guard rectangle a margin larger than the viewport, so that
/// deep zooms never hand the rasterizer coordinates beyond its fixed-point range (cairo keeps
/// 24.8 bits). Polygons use Sutherland–Hodgman, which is exact for fills inside the rect (the
/// extra edges it adds run along the guard, outside the viewport); lines use Liang–Barsky per
/// segment and split where they leave the rect.
struct GuardClip {
    let minX: Double, minY: Double, maxX: Double, maxY: Double

    /// True when every point of the bounds lies inside: nothing to clip.
    func contains(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        minX >= self.minX && maxX <= self.maxX && minY >= self.minY && maxY <= self.maxY
    }

    /// True when the bounds miss the rect entirely.
    func misses(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        maxX < self.minX || minX > self.maxX || maxY < self.minY || minY > self.maxY
    }

    /// The closed ring (flat x,y pairs, not repeating its first point) clipped to the rect.
    /// O(n) per edge of the rect.
    func clipRing(_ ring: [Double]) -> [Double] {
        var current = ring
        // Each pass keeps the side of one edge: (axis, bound, keep greater-or-equal).
        for (axis, bound, keepAbove) in [(0, minX, true), (0, maxX, false), (1, minY, true), (1, maxY, false)] {
            current = HalfPlaneClip.clipRing(current, axis: axis, bound: bound, keepAbove: keepAbove)
            if current.isEmpty { return [] }
        }
        return current
    }

    /// The open line (flat x,y pairs) clipped to the rect: the runs that lie inside, in order.
    func clipLine(_ line: [Double]) -> [[Double]] {
        var runs = [[Double]](), run = [Double]()
        let count = line.count / 2
        guard count > 1 else { return count == 1 && contains(minX: line[0], minY: line[1], maxX: line[0], maxY: line[1]) ? [line] : [] }
        for index in 1..<count {
            let x0 = line[2 * index - 2], y0 = line[2 * index - 1], x1 = line[2 * index], y1 = line[2 * index + 1]
            guard let (t0, t1) = segmentRange(x0, y0, x1, y1) else {
                if run.count >= 4 { runs.append(run) }
                run.removeAll()
                continue
            }
            let startX = x0 + t0 * (x1 - x0), startY = y0 + t0 * (y1 - y0)
            if run.isEmpty || t0 > 0 {
                if run.count >= 4 { runs.append(run) }
                run = [startX, startY]
            }
            run.append(x0 + t1 * (x1 - x0))
            run.append(y0 + t1 * (y1 - y0))
            if t1 < 1 {
                runs.append(run)
                run.removeAll()
            }
        }
        if run.count >= 4 { runs.append(run) }
        return runs
    }

    /// Liang–Barsky: the parameter range of the segment inside the rect, or nil.
    private func segmentRange(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = x1 - x0, dy = y1 - y0
        for (p, q) in [(-dx, x0 - minX), (dx, maxX - x0), (-dy, y0 - minY), (dy, maxY - y0)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return nil } else if r > t0 { t0 = r } }
                else { if r < t0 { return nil } else if r < t1 { t1 = r } }
            }
        }
        return (t0, t1)
    }
}
