import OverlayModel

extension TileSource {
    /// About how many tiles the polygons' interiors cover over `zooms`: their exterior area
    /// (each input feature once, wrapped copies not counted again) in tiles of each zoom.
    /// Lines and points reach few tiles for their size; polygons can cover the world, which is
    /// 4^z tiles at zoom z. O(features).
    public func estimatedPolygonTiles(zooms: ClosedRange<Int>) -> Double {
        let area = polygonArea
        let world = MapProjection.worldSize
        // Σ area · 4^z / world², capped at the world at each zoom (overlaps are counted twice).
        return zooms.reduce(0) { total, zoom in
            let tiles = Double(sign: .plus, exponent: 2 * zoom, significand: 1)
            return total + min(area / (world * world), 1) * tiles
        }
    }
}
