import OverlayModel

/// Every tile of one zoom below a tile of a lower zoom: `4^(zoom − root.z)` tiles, a square
/// `2^(zoom − root.z)` tiles wide.
public struct TileBlock: Hashable, Sendable {
    /// The tile the block lies under (or is, when `zoom == root.z`).
    public var root: TileID
    /// The zoom of the block's tiles (≥ `root.z`).
    public var zoom: Int

    /// The tiles at `zoom` below `root`.
    public init(root: TileID, zoom: Int) {
        precondition(zoom >= root.z, "a block lies at or below its root")
        self.root = root
        self.zoom = zoom
    }

    /// Tiles across the block: 2^(zoom − root.z).
    public var width: Int { 1 << (zoom - root.z) }
    /// Tiles in the block, saturating beyond `Int.max`.
    public var tileCount: Int { width.multipliedSaturating(by: width) }

    /// Every tile of the block, row by row (for writers that store tiles one by one).
    public func forEachTile(_ body: (TileID) throws -> Void) rethrows {
        let x0 = root.x << (zoom - root.z), y0 = root.y << (zoom - root.z)
        for x in x0..<(x0 + width) {
            for y in y0..<(y0 + width) { try body(TileID(z: zoom, x: x, y: y)) }
        }
    }
}
