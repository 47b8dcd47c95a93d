import OverlayModel

/// Circle outlines as polygons in device pixels, for circles too large to hand the rasterizer
/// as arcs (they get clipped to the guard rect like any polygon).
enum CircleRing {
    /// Vertices (flat x,y, clockwise on screen, not closed) of `CirclePolygon`'s ring within a
    /// quarter pixel of the circle, allowing up to 65,536 vertices (O(√radius)) where the shared
    /// maximum would stray more than a quarter pixel.
    static func points(x: Double, y: Double, radius: Double) -> [Double] {
        var ring = CirclePolygon.ring(centerX: x, centerY: y, radius: radius, tolerance: 0.25, maximumVertexCount: 1 << 16)
        ring.removeLast(2)
        return ring
    }
}
