/// Clips ground-plane paths of a pitched camera to its depth band before they are projected:
/// depth is linear in ground y, so the near plane (nothing behind or beside the eye) and the far
/// plane (nothing past the drawn horizon) are the lines y = `maxY` and y = `minY`. Projection
/// keeps straight lines straight for positive depth, so clipping here, in 3D, and projecting
/// the vertices afterwards draws exactly the visible part with no NaN and no wrap-around.
/// Rings use Sutherland–Hodgman (the added edges run along the planes: at the horizon line or
/// below the screen); lines are split where they leave the band. O(n).
struct DepthClip {
    let minY: Double
    let maxY: Double

    /// The closed ring (flat x,y pairs, not repeating its first point) inside the band.
    func clipRing(_ ring: [Double]) -> [Double] {
        let far = HalfPlaneClip.clipRing(ring, axis: 1, bound: minY, keepAbove: true)
        return HalfPlaneClip.clipRing(far, axis: 1, bound: maxY, keepAbove: false)
    }

    /// The open line (flat x,y pairs) clipped to the band: the runs inside, in order. A line of
    /// one position is kept when the position is inside.
    func clipLine(_ line: [Double]) -> [[Double]] {
        let count = line.count / 2
        guard count > 1 else { return count == 1 && line[1] >= minY && line[1] <= maxY ? [line] : [] }
        var runs = [[Double]](), run = [Double]()
        for index in 1..<count {
            let x0 = line[2 * index - 2], y0 = line[2 * index - 1], x1 = line[2 * index], y1 = line[2 * index + 1]
            // The parameter range of the segment inside minY…maxY.
            var t0 = 0.0, t1 = 1.0
            let dy = y1 - y0
            if dy == 0 {
                if y0 < minY || y0 > maxY { t0 = 1; t1 = 0 }
            } else {
                let enterMin = (minY - y0) / dy, enterMax = (maxY - y0) / dy
                t0 = max(t0, min(enterMin, enterMax))
                t1 = min(t1, max(enterMin, enterMax))
            }
            guard t0 <= t1 else {
                if run.count >= 4 { runs.append(run) }
                run.removeAll()
                continue
            }
            if run.isEmpty || t0 > 0 {
                if run.count >= 4 { runs.append(run) }
                run = [x0 + t0 * (x1 - x0), t0 == 0 ? y0 : y0 + t0 * dy]
            }
            run.append(x0 + t1 * (x1 - x0))
            run.append(t1 == 1 ? y1 : y0 + t1 * dy)
            if t1 < 1 {
                runs.append(run)
                run.removeAll()
            }
        }
        if run.count >= 4 { runs.append(run) }
        return runs
    }
}
