#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Circles for formats without circles: a regular polygon whose edges stay within a tolerance of
/// the true circle (DESIGN.md's convention).
public enum CirclePolygon {
    /// The number of edges so that the sagitta r·(1 − cos(π/n)) is at most `tolerance`;
    /// between 8 and 4096.
    public static func segmentCount(radius: Double, tolerance: Double) -> Int {
        guard radius > 0, tolerance > 0, tolerance < radius else { return 8 }
        let count = (Double.pi / acos(1 - tolerance / radius)).rounded(.up)
        return Int(saturating: min(4096, max(8, count)))
    }

    /// The circle as a closed ring of map points (first point repeated last).
    public static func ring(_ circle: Circle, tolerance: Double) -> [MapPoint] {
        let center = circle.centerPoint
        let radius = circle.mapRadius
        let segments = segmentCount(radius: radius, tolerance: tolerance)
        return (0...segments).map { index in
            let angle = 2 * Double.pi * Double(index % segments) / Double(segments)
            return MapPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
    }
}
