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

    /// The most ids a run lists.
    static let sampleLimit = 16
}

extension TileSet {
    /// Calls `body` with every run of tiles, in the set's own order.
    /// - Throws: `tile.archive-*` for a damaged set, or what `body` throws.
    func forEachRun(_ body: (StoredTileRun) throws -> Void) throws {
        if let pmtiles = reader as? PMTilesReader {
            for entry in try pmtiles.tileEntries() {
                let tile = try pmtiles.storedTile(of: entry)
                guard let first = PMTiles.tile(entry.tileID) else {
                    throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(path): tile id \(entry.tileID) is beyond zoom 26")
                }
                var zoomCounts = [(zoom: Int, count: Int)]()
                var start = entry.tileID
                let end = entry.tileID + UInt64(entry.runLength)
                var zoom = first.z
                while start < end && zoom <= 26 {
                    let zoomEnd = PMTiles.firstID(ofZoom: zoom + 1)
                    let stop = min(end, zoomEnd)
                    if stop > start { zoomCounts.append((zoom, Int(stop - start))) }
                    start = max(start, stop)
                    zoom += 1
                }
                let samples = (0..<min(UInt64(entry.runLength), UInt64(StoredTileRun.sampleLimit))).compactMap { PMTiles.tile(entry.tileID + $0) }
                try body(StoredTileRun(zoomCounts: zoomCounts, sampleIDs: samples, tile: tile))
            }
            return
        }
        for id in try reader.tileIDs() {
            guard let tile = try reader.storedTile(id) else { continue }
            try body(StoredTileRun(zoomCounts: [(id.z, 1)], sampleIDs: [id], tile: tile))
        }
    }
}
