import OverlayModel

/// Consecutive tiles that share one stored tile, addressed as PMTiles addresses them: by tile id
/// (zoom 0's tile is 0, then zoom 1's four tiles, …, each zoom's tiles along its Hilbert curve),
/// so one run may stand for millions of tiles (an ocean to zoom 14) and cost what one tile
/// costs. A PMTiles directory entry is a run; an archive that stores every tile apart (a folder,
/// MBTiles) has a run of one per tile.
///
/// Runs are never expanded tile by tile: their tiles are counted per zoom by arithmetic
/// (``zoomSpans``) and written as square blocks (``ZoomSpan/blocks``).
public struct TileRun: Hashable, Sendable {
    /// Where the run's bytes lie in its archive, as the archive tells them apart: two runs of one
    /// archive with equal contents hold the same bytes. PMTiles: the tile's offset in the data
    /// section and its length; an archive that stores each tile apart numbers its tiles
    /// (`offset` the tile's number, `length` 0).
    public struct Content: Hashable, Sendable {
        /// The offset (PMTiles: from the data section's start), or the tile's number.
        public var offset: UInt64
        /// The stored length in bytes (0 when `offset` is a number).
        public var length: UInt32

        /// Content at `offset` of `length` bytes.
        public init(offset: UInt64, length: UInt32) {
            self.offset = offset
            self.length = length
        }
    }

    /// The first tile's id (PMTiles' tile id, `PMTiles.tileID`).
    public var firstID: UInt64
    /// Tiles in the run, at least 1.
    public var count: UInt64
    /// Which stored tile every tile of the run has.
    public var content: Content

    /// A run of `count` tiles from tile id `firstID`, each holding `content`.
    public init(firstID: UInt64, count: UInt64, content: Content) {
        self.firstID = firstID
        self.count = count
        self.content = content
    }

    /// A run of one tile.
    public init(tile: TileID, content: Content) {
        self.init(firstID: PMTiles.tileID(tile), count: 1, content: content)
    }

    /// The id after the run's last tile.
    public var endID: UInt64 { firstID + count }

    /// The run's first tile (nil beyond zoom 26, which no reader asks for).
    public var firstTile: TileID? { PMTiles.tile(firstID) }

    /// The deepest zoom tile ids are read at: ids from `PMTiles.firstID(ofZoom: 27)` on are damage.
    public static let deepestZoom = 26

    /// The id after the last tile of zoom 26.
    public static let endOfIDs = PMTiles.firstID(ofZoom: deepestZoom + 1)
}
