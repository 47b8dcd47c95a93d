import OverlayModel

/// A tile cut into its four children (geojson-vt's split), the one step between zooms.
enum TileSplit {
    /// Clips a tile's features into its four children with the buffer (geojson-vt's split):
    /// x first, then y, each with `AxisClip`. Returns top-left, bottom-left, top-right,
    /// bottom-right; empty where nothing reaches a child, and for a child outside
    /// `TileOptions.clipBox` (`ChildPlacement.inBox`).
    static func split(_ features: [ProjectedFeature], tile: TileID, bounds: FeatureBounds,
                      options: TileOptions) -> [[ProjectedFeature]] {
        let lines = ChildPlacement(tile: tile, options: options)
        let left = lines.inBox(0) || lines.inBox(1)
            ? AxisClip.clip(features, lines.left.0, lines.left.1, axis: 0, minAll: bounds.minX, maxAll: bounds.maxX) : nil
        let right = lines.inBox(2) || lines.inBox(3)
            ? AxisClip.clip(features, lines.right.0, lines.right.1, axis: 0, minAll: bounds.minX, maxAll: bounds.maxX) : nil
        func vertical(_ part: [ProjectedFeature]?, _ first: Int) -> ([ProjectedFeature], [ProjectedFeature]) {
            guard let part else { return ([], []) }
            return (lines.inBox(first) ? AxisClip.clip(part, lines.top.0, lines.top.1, axis: 1, minAll: bounds.minY, maxAll: bounds.maxY) ?? [] : [],
                    lines.inBox(first + 1) ? AxisClip.clip(part, lines.bottom.0, lines.bottom.1, axis: 1, minAll: bounds.minY, maxAll: bounds.maxY) ?? [] : [])
        }
        let (topLeft, bottomLeft) = vertical(left, 0)
        let (topRight, bottomRight) = vertical(right, 2)
        return [topLeft, bottomLeft, topRight, bottomRight]
    }

    /// The children of a tile in `split`'s order.
    static func children(of tile: TileID) -> [TileID] {
        [TileID(z: tile.z + 1, x: 2 * tile.x, y: 2 * tile.y), TileID(z: tile.z + 1, x: 2 * tile.x, y: 2 * tile.y + 1),
         TileID(z: tile.z + 1, x: 2 * tile.x + 1, y: 2 * tile.y), TileID(z: tile.z + 1, x: 2 * tile.x + 1, y: 2 * tile.y + 1)]
    }
}
