#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a circle becomes a ring, for every consumer that cannot draw circles: the tiler,
/// the rectangle clip, the renderer's polygons for circles beyond the rasterizer's range, and
/// the KML writer (DESIGN.md's convention: a ring whose deviation from the true circle is below
/// the active tolerance).
///
/// The circle is the model's circle, round on the Mercator plane (`MKCircle`): center
/// `Circle.centerPoint`, radius `Circle.mapRadius`. The vertex rule: the fewest edges `n` whose
/// sagitta r·(1 − cos(π/n)) — the farthest any edge strays inside the circle — is at most the
/// tolerance, then clamped to `minimumVertexCount`…`maximumVertexCount` (a caller that needs
/// finer rings at huge radii, such as the renderer, passes a larger maximum). Radius and
/// tolerance are in one unit: map points, or device pixels for a circle already scaled to the
/// screen (the rule depends only on their ratio).
public enum CirclePolygon {
    /// Fewest vertices of any ring: a circle smaller than its tolerance is still an octagon.
    public static let minimumVertexCount = 8
    /// Most vertices of a ring unless the caller asks for more; beyond this the sagitta may exceed
    /// the tolerance (it is radius × 2.9e-7 at 4096).
    public static let maximumVertexCount = 4096

    /// The number of edges (= distinct vertices) so that the sagitta r·(1 − cos(π/n)) is at most
    /// `tolerance`, between `minimumVertexCount` and `maximum` (at least the minimum). A radius
    /// that is not positive, or not above the tolerance, gets the minimum.
    public static func segmentCount(radius: Double, tolerance: Double, maximum: Int = maximumVertexCount) -> Int {
        let upper = max(minimumVertexCount, maximum)
        guard radius > 0, tolerance > 0, tolerance < radius else { return minimumVertexCount }
        let count = (Double.pi / acos(1 - tolerance / radius)).rounded(.up)
        return Int(saturating: min(Double(upper), max(Double(minimumVertexCount), count)))
    }

    /// The circle of `radius` around (`centerX`, `centerY`) as a closed ring of flat x, y pairs
    /// (first point repeated last, bit for bit), starting at angle 0 (+x) with the angle rising,
    /// which is clockwise on the map and on screen (y grows downward). `segmentCount` vertices.
    public static func ring(centerX: Double, centerY: Double, radius: Double, tolerance: Double,
                            maximumVertexCount maximum: Int = maximumVertexCount) -> [Double] {
        let segments = segmentCount(radius: radius, tolerance: tolerance, maximum: maximum)
        var pairs = [Double]()
        pairs.reserveCapacity((segments + 1) * 2)
        for index in 0...segments {
            let angle = 2 * Double.pi * Double(index % segments) / Double(segments)
            pairs.append(centerX + radius * cos(angle))
            pairs.append(centerY + radius * sin(angle))
        }
        return pairs
    }

    /// The circle as a closed ring of map points (first point repeated last), within `tolerance`
    /// map points of it: `ring(centerX:centerY:radius:tolerance:maximumVertexCount:)` around
    /// `circle.centerPoint` with `circle.mapRadius`.
    public static func ring(_ circle: Circle, tolerance: Double) -> [MapPoint] {
        let center = circle.centerPoint
        let pairs = ring(centerX: center.x, centerY: center.y, radius: circle.mapRadius, tolerance: tolerance)
        return stride(from: 0, to: pairs.count - 1, by: 2).map { MapPoint(x: pairs[$0], y: pairs[$0 + 1]) }
    }
}
