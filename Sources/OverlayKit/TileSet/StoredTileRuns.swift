import OverlayModel

/// Tiles that share one stored tile: a PMTiles run-length entry (a solid block of ocean can
/// be millions of tiles), or any other set's single tile. Walking runs lets inspection decode
/// each stored tile once, whatever the number of tiles it stands for.
struct StoredTileRun {
    /// The tiles per zoom (a run may cross from one zoom to the next).
    var zoomCounts: [(zoom: Int, count: Int)]
    /// The first tiles of the run, at most ``sampleLimit``.
    var sampleIDs: [TileID]
    /// The bytes every tile of the run has.
    var tile: StoredTile
    /// Where the bytes are stored: runs of one set with equal contents hold the same bytes.
    var content: TileRun.Content

    /// The most ids a run lists.
    static let sampleLimit = 16
}

extension TileSet {
    /// Calls `body` with every run of tiles (`TileArchiveReader.tileRuns()`), in the set's own
    /// order, its tiles counted per zoom by arithmetic (`TileRun.zoomSpans`), never listed.
    /// - Parameters:
    ///   - listed: called with the number of runs once they are listed, before the first is read.
    ///   - body: called with each run.
    /// - Throws: `tile.archive-*` for a damaged set, or what `body` throws.
    func forEachRun(listed: (Int) -> Void = { _ in }, _ body: (StoredTileRun) throws -> Void) throws {
        let runs = try reader.tileRuns()
        listed(runs.count)
        for run in runs {
            guard let tile = try reader.storedTile(of: run) else { continue }
            let zoomCounts = run.zoomSpans.map { (zoom: $0.zoom, count: Int($0.count)) }
            let samples = (0..<min(run.count, UInt64(StoredTileRun.sampleLimit))).compactMap { PMTiles.tile(run.firstID + $0) }
            try body(StoredTileRun(zoomCounts: zoomCounts, sampleIDs: samples, tile: tile, content: run.content))
        }
    }
}
