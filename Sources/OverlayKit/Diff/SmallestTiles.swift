import OverlayModel

/// The `limit` smallest tiles, in `TileID`'s order (zoom, x, y), of blocks of tiles offered one
/// after another (`diff` lists the first changed tiles of runs that may hold millions): a block's
/// tiles are visited in that order and the visit stops where they can no longer be among the
/// smallest, so a block costs at most one look per column once the list is full.
struct SmallestTiles {
    /// How many are kept.
    let limit: Int
    /// The smallest tiles offered so far, ascending.
    private(set) var tiles: [TileID] = []

    /// Keeps up to `limit` tiles.
    init(limit: Int) { self.limit = max(0, limit) }

    /// Offers every tile of `block`.
    /// - Parameter block: tiles none of which was offered before.
    mutating func offer(_ block: TileBlock) {
        guard limit > 0 else { return }
        let shift = block.zoom - block.root.z
        let x0 = block.root.x << shift, y0 = block.root.y << shift, width = 1 << shift
        for x in x0..<(x0 + width) {
            for y in y0..<(y0 + width) {
                let id = TileID(z: block.zoom, x: x, y: y)
                if tiles.count == limit {
                    // Every later tile of this column is larger; a column starting larger ends the block.
                    guard let last = tiles.last, id < last else {
                        if y == y0 { return }
                        break
                    }
                    tiles.removeLast()
                }
                var low = 0, high = tiles.count
                while low < high {
                    let middle = (low + high) / 2
                    if tiles[middle] < id { low = middle + 1 } else { high = middle }
                }
                tiles.insert(id, at: low)
            }
        }
    }
}
