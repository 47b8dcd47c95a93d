#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Circle outlines as polygons in device pixels, for circles too large to hand the rasterizer
/// as arcs (they get clipped to the guard rect like any polygon).
enum CircleRing {
    /// Vertices (flat x,y, clockwise on screen) of a regular polygon whose edges stay within a
    /// quarter pixel of the circle: the angle step θ keeps the sagitta r·(1 − cos θ/2) ≤ ¼.
    /// O(√radius) vertices, at most 65,536.
    static func points(x: Double, y: Double, radius: Double) -> [Double] {
        points(x: x, y: y, radius: radius, detailRadius: radius)
    }

    /// The same ring with as many vertices as a circle of `detailRadius` pixels needs: for a
    /// pitched camera, which magnifies the circle's near side on screen.
    static func points(x: Double, y: Double, radius: Double, detailRadius: Double) -> [Double] {
        let step = detailRadius > 0.125 ? 2 * acos(1 - 0.25 / detailRadius) : Double.pi / 8
        let count = min(1 << 16, max(16, Int(saturating: (2 * Double.pi / step).rounded(.up))))
        var ring = [Double]()
        ring.reserveCapacity(2 * count)
        for index in 0..<count {
            let angle = 2 * Double.pi * Double(index) / Double(count)
            ring.append(x + radius * cos(angle))
            ring.append(y + radius * sin(angle))
        }
        return ring
    }
}
