import OverlayModel

extension TileRun.ZoomSpan {
    /// The span's tiles as square blocks (`TileBlock`s), in tile id order: the Hilbert curve
    /// fills each aligned square in one go (the 4^d ids of a block below a tile d zooms up start
    /// at a multiple of 4^d counted from the zoom's first id), so a span is the largest aligned
    /// squares that fit, growing from its start and shrinking towards its end — at most
    /// 6 per zoom of depth. What an archive writer that stores a block once (PMTiles) needs to
    /// write a run as one entry. O(zoom²), whatever the span's length.
    public var blocks: [TileBlock] {
        var blocks = [TileBlock]()
        let zoomStart = PMTiles.firstID(ofZoom: zoom)
        var position = firstID - zoomStart
        let end = position + count
        while position < end {
            var depth = 0
            while depth < zoom {
                let size = UInt64(1) << (2 * UInt64(depth + 1))
                guard position % size == 0, end - position >= size else { break }
                depth += 1
            }
            guard let corner = PMTiles.tile(zoomStart + position) else { break }
            blocks.append(TileBlock(root: TileID(z: zoom - depth, x: corner.x >> depth, y: corner.y >> depth), zoom: zoom))
            position += UInt64(1) << (2 * UInt64(depth))
        }
        return blocks
    }
}
