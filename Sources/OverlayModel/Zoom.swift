#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Zoom levels as the Google Maps SDK defines them: at zoom z the world is 256·2^z screen
/// points wide, so one screen point covers 2^(20−z) map points.
public enum Zoom {
    /// The world's width in screen points at a zoom.
    @inlinable
    public static func worldWidth(atZoom zoom: Double) -> Double { 256 * pow(2, zoom) }

    /// Map points per screen point at a zoom: 2^(20−z).
    @inlinable
    public static func mapPointsPerScreenPoint(atZoom zoom: Double) -> Double { pow(2, 20 - zoom) }

    /// The largest zoom (fractional) at which `rect` fits in a viewport of `width` × `height`
    /// screen points after `padding` on every side; capped at `maximum`. Returns `maximum` for
    /// an empty rect (a single point fits at any zoom).
    public static func zoomToFit(_ rect: MapRect, width: Double, height: Double,
                                 padding: Double = 0, maximum: Double = 22) -> Double {
        let usableWidth = max(1, width - 2 * padding), usableHeight = max(1, height - 2 * padding)
        if rect.isNull || (rect.width == 0 && rect.height == 0) { return maximum }
        // Screen points per map point needed: usable / extent; zoom = log2(that · 2^20).
        let scale = min(rect.width > 0 ? usableWidth / rect.width : .infinity,
                        rect.height > 0 ? usableHeight / rect.height : .infinity)
        return min(maximum, log2(scale) + 20)
    }
}

/// An XYZ (slippy map) tile: 256-point tiles, `x` from the antimeridian eastward, `y` from the
/// top of the world down.
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Zoom level.
    public var z: Int
    /// Column, 0 at the west edge.
    public var x: Int
    /// Row, 0 at the north edge.
    public var y: Int

    /// The tile at zoom `z`, column `x`, row `y`.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// The tile at zoom `z` that contains a map point; points on the world's east or bottom
    /// edge belong to the last tile.
    public init(containing point: MapPoint, zoom z: Int) {
        let tiles = 1 << z
        let size = MapProjection.worldSize / Double(tiles)
        let x = Int(saturating: (point.x / size).rounded(.down)), y = Int(saturating: (point.y / size).rounded(.down))
        self.init(z: z, x: min(max(x, 0), tiles - 1), y: min(max(y, 0), tiles - 1))
    }

    /// The map rect the tile covers.
    public var mapRect: MapRect {
        let size = MapProjection.worldSize / Double(1 << z)
        return MapRect(x: Double(x) * size, y: Double(y) * size, width: size, height: size)
    }

    public var description: String { "\(z)/\(x)/\(y)" }

    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }
}
