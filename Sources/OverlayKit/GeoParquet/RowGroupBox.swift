import OverlayModel

/// The box a GeoParquet file declares around one row group's geometries (GeoParquet 2.0
/// geospatial statistics, or the min and max of the 1.1 bbox covering columns), and the test
/// that lets a reader skip the row group for a query box.
struct RowGroupBox: Sendable, Equatable {
    /// Longitudes (x) and latitudes (y) in degrees, as the file states them.
    var xmin, ymin, xmax, ymax: Double

    /// False only when no geometry inside this box can meet `query` as
    /// ``GeographicBox/intersects(_:)`` decides it: both are compared in map points, where that
    /// test runs, with the box padded by a thousandth of a map point. A box the test cannot
    /// place exactly (not finite, wrapping with xmin > xmax, or beyond ±180°, where shapes
    /// wrap and take the short way) may always meet it. O(1).
    func mayMeet(_ query: GeographicBox) -> Bool {
        guard xmin.isFinite, ymin.isFinite, xmax.isFinite, ymax.isFinite,
              xmin <= xmax, ymin <= ymax, xmin >= -180, xmax <= 180 else { return true }
        // MapPoint clamps latitudes as shapes are clamped; y grows southward.
        let northWest = MapPoint(Coordinate(latitude: ymax, longitude: xmin))
        let southEast = MapPoint(Coordinate(latitude: ymin, longitude: xmax))
        let pad = 1e-3
        let rect = MapRect(x: northWest.x - pad, y: northWest.y - pad,
                           width: southEast.x - northWest.x + 2 * pad, height: southEast.y - northWest.y + 2 * pad)
        return query.worldRects.contains { $0.intersects(rect) }
    }
}
