import OverlayModel

extension TilePyramid {
    /// The features clipped to a tile on the way down to `tile` in `source`'s disk store, their
    /// attributes, and that tile (`Tiler.explain`); nil when the features are in memory. Each
    /// tile whose records take more than `loadBytes` is cut while they are read (as the run
    /// cuts it) and only the child that holds `tile` is followed, until the records fit or
    /// `tile` is reached; they are then read. Memory holds one tile's records at most.
    /// - Throws: `io.*` when the temporary files cannot be written or read back.
    static func featuresOnPath(to tile: TileID, from source: TileSource, loadBytes: Int) throws
            -> ([ProjectedFeature], (Int) -> TileAttributes, TileID)? {
        guard case .records(var runs, let folder, let usage) = source.store.zoomZero else { return nil }
        let options = source.options
        var id = TileID(z: 0, x: 0, y: 0)
        // Nothing is emitted: only the children's records are wanted.
        let walk = Walk(options: options, minZoom: options.maxZoom + 1, lastZoom: options.maxZoom, parallelism: 1,
                        emit: { _ in 0 }, emitBlock: nil)
        while id.z < tile.z && runs.reduce(0, { $0 + $1.size }) > loadBytes {
            var children = try ChildRecords(folder: folder, usage: usage)
            var counts = TileZoomCounts.zooms(through: options.maxZoom)
            try RecordTileCut(walk: walk).cut(id, runs: runs, children: &children, counts: &counts)
            try children.finish()
            guard let childRuns = children.runs else { break }
            let shift = tile.z - id.z - 1
            let child = ((tile.x >> shift) & 1) * 2 + ((tile.y >> shift) & 1)
            runs = [childRuns[child]]
            id = TileSplit.children(of: id)[child]
        }
        let (features, attributes) = try RecordRun.load(runs)
        return (features, attributes, id)
    }
}
