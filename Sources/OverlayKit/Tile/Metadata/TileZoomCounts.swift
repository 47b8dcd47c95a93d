import OverlayModel

/// What one zoom produced and dropped.
public struct TileZoomCounts: Hashable, Sendable, Codable {
    /// The zoom these counts are for.
    public var zoom: Int
    /// Tiles written.
    public var tiles = 0
    /// Tiles that features reached but where every part was dropped: not written.
    public var emptyTiles = 0
    /// Bytes written.
    public var bytes = 0
    /// Feature and ring counts summed over the zoom's tiles (a feature in 4 tiles counts 4).
    public var statistics = TileStatistics()

    /// Zero counts for `zoom`.
    public init(zoom: Int) { self.zoom = zoom }

    /// Zero counts for every zoom from 0 to `maxZoom`, indexed by zoom.
    static func zooms(through maxZoom: Int) -> [TileZoomCounts] { (0...maxZoom).map { TileZoomCounts(zoom: $0) } }

    static func += (a: inout TileZoomCounts, b: TileZoomCounts) {
        a.tiles = a.tiles.addingSaturating(b.tiles)
        a.emptyTiles = a.emptyTiles.addingSaturating(b.emptyTiles)
        a.bytes = a.bytes.addingSaturating(b.bytes)
        a.statistics += b.statistics
    }
}
