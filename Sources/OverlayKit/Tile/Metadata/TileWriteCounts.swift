import OverlayModel

/// Tiles written to a tile set, in all and per zoom: the running count `TileArchiveSink` hands
/// its progress callback after every tile, and what `TileJoin` wrote (the per-zoom counts a
/// joined set's drop report takes).
///
/// Per zoom it keeps a `TileZoomCounts` (the drop report's entry): tiles written and left
/// empty, their encoded bytes (before archive compression) and the features they hold
/// (`statistics.features`); its other statistics stay 0 (a run counts them per zoom in
/// `Tiler.Report.zooms`). Counts saturate.
public struct TileWriteCounts: Hashable, Sendable {
    /// Tiles written.
    public private(set) var tiles = 0
    /// Their encoded bytes, before archive compression.
    public private(set) var bytes = 0
    /// The deepest zoom a tile was written at; nil before the first.
    public private(set) var deepestZoom: Int?
    /// Per zoom, index = zoom, 0…``maximumZoom``.
    public private(set) var zooms = (0...TileWriteCounts.maximumZoom).map { TileZoomCounts(zoom: $0) }

    /// The deepest zoom counted per zoom (tiles deeper still count in ``tiles`` and ``bytes``).
    public static let maximumZoom = 30

    /// Nothing written yet.
    public init() {}

    /// The counts of a finished run, from its per-zoom counts (`Tiler.Report.zooms`): tiles,
    /// empty tiles, bytes and features.
    public init(_ zooms: [TileZoomCounts]) {
        for zoom in zooms {
            tiles = tiles.addingSaturating(zoom.tiles)
            bytes = bytes.addingSaturating(zoom.bytes)
            if zoom.tiles > 0 { deepestZoom = max(deepestZoom ?? zoom.zoom, zoom.zoom) }
            guard self.zooms.indices.contains(zoom.zoom) else { continue }
            var written = TileZoomCounts(zoom: zoom.zoom)
            written.tiles = zoom.tiles
            written.emptyTiles = zoom.emptyTiles
            written.bytes = zoom.bytes
            written.statistics.features = zoom.statistics.features
            self.zooms[zoom.zoom] += written
        }
    }

    /// Tiles left empty (not written), over all zooms.
    public var emptyTiles: Int { zooms.reduce(0) { $0.addingSaturating($1.emptyTiles) } }

    /// The zooms tiles were written at, lowest to deepest; nil when none was.
    public var zoomRange: ClosedRange<Int>? {
        guard let deepestZoom else { return nil }
        return (zooms.first { $0.tiles > 0 }?.zoom ?? deepestZoom)...deepestZoom
    }

    /// Counts `tiles` identical tiles of `bytesEach` encoded bytes and `features` features each,
    /// written at `zoom` (a block below a solid tile is many at once).
    public mutating func add(tiles count: Int = 1, bytesEach: Int, features: Int, atZoom zoom: Int) {
        guard count > 0 else { return }
        let size = bytesEach.multipliedSaturating(by: count)
        tiles = tiles.addingSaturating(count)
        bytes = bytes.addingSaturating(size)
        deepestZoom = max(deepestZoom ?? zoom, zoom)
        guard zooms.indices.contains(zoom) else { return }
        zooms[zoom].tiles = zooms[zoom].tiles.addingSaturating(count)
        zooms[zoom].bytes = zooms[zoom].bytes.addingSaturating(size)
        zooms[zoom].statistics.features = zooms[zoom].statistics.features.addingSaturating(features.multipliedSaturating(by: count))
    }

    /// Counts `count` tiles at `zoom` left empty, and so not written (a run of them at once).
    public mutating func addEmptyTile(atZoom zoom: Int, tiles count: Int = 1) {
        guard zooms.indices.contains(zoom) else { return }
        zooms[zoom].emptyTiles = zooms[zoom].emptyTiles.addingSaturating(count)
    }
}
