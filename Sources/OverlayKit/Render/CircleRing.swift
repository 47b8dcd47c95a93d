import OverlayModel

/// Circle outlines as polygons in device pixels, for circles too large to hand the rasterizer
/// as arcs (they get clipped to the guard rect like any polygon).
enum CircleRing {
    /// Vertices (flat x,y, clockwise on screen, not closed) of `CirclePolygon`'s ring within a
    /// quarter pixel of the circle, allowing up to 65,536 vertices (O(√radius)) where the shared
    /// maximum would stray more than a quarter pixel.
    static func points(x: Double, y: Double, radius: Double) -> [Double] {
        points(x: x, y: y, radius: radius, detailRadius: radius)
    }

    /// The same ring with as many vertices as a circle of `detailRadius` pixels needs: for a
    /// pitched camera, which magnifies the circle's near side on screen.
    static func points(x: Double, y: Double, radius: Double, detailRadius: Double) -> [Double] {
        // The vertex count follows radius / tolerance: a quarter pixel at detailRadius.
        var tolerance = detailRadius > 0 ? 0.25 * radius / detailRadius : 0.25
        if !(tolerance.isFinite && tolerance > 0) { tolerance = 0.25 }
        var ring = CirclePolygon.ring(centerX: x, centerY: y, radius: radius, tolerance: tolerance, maximumVertexCount: 1 << 16)
        ring.removeLast(2)
        return ring
    }
}
