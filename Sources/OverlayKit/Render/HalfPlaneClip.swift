/// One Sutherland–Hodgman pass: the part of a closed ring on one side of an axis-parallel line.
/// The edges it adds run along the line. `GuardClip` runs four passes (the guard rectangle) and
/// `DepthClip` two (a pitched camera's near and far planes). O(n).
enum HalfPlaneClip {
    /// The closed ring (flat x,y pairs, not repeating its first point) where the coordinate on
    /// `axis` (0 = x, 1 = y) is ≥ `bound` (`keepAbove`) or ≤ `bound`; empty when nothing is left.
    static func clipRing(_ ring: [Double], axis: Int, bound: Double, keepAbove: Bool) -> [Double] {
        let count = ring.count / 2
        guard count > 0 else { return [] }
        @inline(__always)
        func inside(_ x: Double, _ y: Double) -> Bool {
            let value = axis == 0 ? x : y
            return keepAbove ? value >= bound : value <= bound
        }
        var output = [Double]()
        output.reserveCapacity(ring.count + 4)
        var previousX = ring[2 * count - 2], previousY = ring[2 * count - 1]
        var previousInside = inside(previousX, previousY)
        for index in 0..<count {
            let x = ring[2 * index], y = ring[2 * index + 1]
            let isInside = inside(x, y)
            if isInside != previousInside {
                let t = ((axis == 0 ? bound - previousX : bound - previousY)
                    / (axis == 0 ? x - previousX : y - previousY))
                output.append(axis == 0 ? bound : previousX + t * (x - previousX))
                output.append(axis == 1 ? bound : previousY + t * (y - previousY))
            }
            if isInside {
                output.append(x)
                output.append(y)
            }
            previousX = x
            previousY = y
            previousInside = isInside
        }
        return output
    }
}
