import OverlayModel

/// A tile's square grown by its buffer, in map points: the edges clipping cuts a tile's
/// features at, so a clipped ring's segment along one of them is the clip's, not the shape's.
struct BufferedTileSquare {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// Clip lines are computed in another order than these edges: a few ulps of the world.
    let tolerance = MapProjection.worldSize * 1e-12

    init(_ tile: TileID, options: TileOptions) {
        let scale = Double(sign: .plus, exponent: -tile.z, significand: 1) * MapProjection.worldSize
        let margin = Double(options.buffer) / Double(options.extent)
        minX = (Double(tile.x) - margin) * scale
        maxX = (Double(tile.x) + 1 + margin) * scale
        minY = (Double(tile.y) - margin) * scale
        maxY = (Double(tile.y) + 1 + margin) * scale
    }

    /// Whether `a` is `b` but for rounding.
    func near(_ a: Double, _ b: Double) -> Bool { (a - b).magnitude <= tolerance }

    /// Whether the segment from (x0, y0) to (x1, y1) runs along one of the square's edges.
    func alongEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
        (near(x0, minX) && near(x1, minX)) || (near(x0, maxX) && near(x1, maxX))
            || (near(y0, minY) && near(y1, minY)) || (near(y0, maxY) && near(y1, maxY))
    }
}
