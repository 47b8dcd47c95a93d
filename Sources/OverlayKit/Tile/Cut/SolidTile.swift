import OverlayModel

/// Finds "solid" tiles (planetiler's fills): tiles where every feature is a polygon that covers
/// the whole tile and its buffer with one ring made only of the buffered square's corners.
///
/// Below such a tile, every tile of a zoom is the same: each child's buffered square lies
/// strictly inside its parent's (when the buffer is not 0), so clipping meets every corner from
/// the same side in all four children and gives each the same corner ring, in the same order,
/// with the same features and properties. `TilePyramid` then cuts one tile per zoom and stores
/// it for the whole block instead of cutting 4^d tiles; a world-covering polygon to z14 takes
/// seconds instead of hours.
enum SolidTile {
    /// True when every tile below `tile`, zoom by zoom, is identical (see above). O(vertices).
    static func isSolid(_ features: [ProjectedFeature], tile: TileID, options: TileOptions) -> Bool {
        guard options.buffer > 0, !features.isEmpty else { return false }
        let square = BufferedTileSquare(tile, options: options)
        for feature in features {
            guard feature.type == .polygon, feature.rings.count == 1, let ring = feature.rings.first,
                  ring.count == 4 || ring.count == 5 else { return false }
            var corners = Set<Int>()
            for vertex in 0..<ring.count {
                let x = feature.coordinates[3 * (ring.start + vertex)], y = feature.coordinates[3 * (ring.start + vertex) + 1]
                let column = square.near(x, square.minX) ? 0 : (square.near(x, square.maxX) ? 1 : -1)
                let row = square.near(y, square.minY) ? 0 : (square.near(y, square.maxY) ? 2 : -1)
                guard column >= 0, row >= 0 else { return false }
                corners.insert(column + row)
            }
            guard corners.count == 4 else { return false }
        }
        return true
    }
}
