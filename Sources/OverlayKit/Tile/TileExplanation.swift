import OverlayModel

/// What one tile of a run holds and why the rest is not there (`overlaykit tile --explain
/// z/x/y`): every input feature that reaches the tile, with what happened to it at that zoom.
public struct TileExplanation: Sendable {
    /// What happened to one input feature in the tile.
    public enum Outcome: String, Hashable, Sendable, CaseIterable {
        /// Written as it is (clipped and simplified for the zoom).
        case kept
        /// Not drawn at this zoom: point thinning by rate.
        case thinned
        /// Outside its own `tippecanoe` minzoom…maxzoom.
        case outsideZoomRange = "outside-zoom-range"
        /// A `--where` naming `$zoom` does not hold at this zoom.
        case filteredAtZoom = "filtered-at-zoom"
        /// Too small to draw; its size went into a stand-in (square or short line) drawn here.
        case drawnAsStandIn = "drawn-as-stand-in"
        /// Too small to draw; its size was added up with others', no stand-in at its place.
        case tooSmall = "too-small"
        /// Fewer than 4 points (rings) or 2 (lines), or no area, even at full detail.
        case degenerate
        /// Merged into a cluster point.
        case clustered
        /// Dropped to bring the tile within its budget.
        case droppedForBudget = "dropped-for-budget"
        /// Merged into a neighbour to bring the tile within its budget.
        case coalescedForBudget = "coalesced-for-budget"
    }

    /// One input feature's part in the tile.
    public struct Entry: Sendable {
        /// Its position in the input (0-based; the line of a GeoJSON text sequence is this + 1).
        public var inputIndex: Int
        /// Its id and properties.
        public var attributes: TileAttributes
        /// What happened to it.
        public var outcome: Outcome
    }

    /// The tile explained.
    public var tile: TileID
    /// The run's max zoom (guessed, when asked).
    public var maxZoom: Int
    /// Every input feature that reaches the tile, in input order (a feature whose parts had
    /// different fates is listed once per fate).
    public var entries: [Entry]
    /// The tile's counts, as the metadata would hold them.
    public var statistics: TileStatistics
    /// Features written.
    public var writtenFeatures: Int
    /// The tile's encoded size as written.
    public var encodedBytes: Int
    /// The tile's gzip size, what the byte budget limits.
    public var compressedBytes: Int
    /// The budget the tile was held to.
    public var budget: TileBudget

    /// How many entries had each outcome.
    public var counts: [Outcome: Int] {
        var result = [Outcome: Int]()
        for entry in entries { result[entry.outcome, default: 0] += 1 }
        return result
    }
}

extension Tiler {
    /// Explains one tile of the run these settings describe, without writing anything: reads and
    /// projects the input, cuts only the tiles on the way down to `tile`, then builds it as the
    /// run would (thinning, tiny shapes, clustering, budget) and reports every feature's fate.
    /// - Throws: `Diagnostic` `tile.bad-option` when `tile` is not a tile of the run's zooms;
    ///   the reader's errors; `tile.too-large` as the run would.
    public func explain(_ tile: TileID, reading reader: inout some FeatureReader,
                        onWarning: (Diagnostic) -> Void = { _ in }) throws -> TileExplanation {
        try withSingleInput(&reader) { try explain(tile, reading: &$0, onWarning: onWarning) }
    }

    /// Explains one tile of a run over several inputs (see `run(reading:onWarning:onProgress:)` with inputs).
    /// - Throws: as the one-reader `explain(_:reading:onWarning:)`.
    public func explain(_ tile: TileID, reading inputs: inout [TileInput],
                        onWarning: (Diagnostic) -> Void = { _ in }) throws -> TileExplanation {
        try explain(tile, reading: &inputs, onWarning: onWarning, loadBytes: TilePyramid.loadBytes)
    }

    /// `explain` whose disk store path reads the records at once when they take at most
    /// `loadBytes` (tests make it 0: every tile on the way is then cut while read).
    func explain(_ tile: TileID, reading inputs: inout [TileInput], onWarning: (Diagnostic) -> Void = { _ in },
                 loadBytes: Int) throws -> TileExplanation {
        try validate(inputs: inputs)
        // Read as the run reads (into the disk store when the run would use it).
        let diskFolder = try temporaryFolder(for: inputs)
        let source = try TileSource(reading: &inputs, options: options, readThreads: threads, diskFolder: diskFolder,
                                    onWarning: onWarning)
        let maxZoom = source.options.maxZoom
        let side = 1 << min(tile.z, 30)
        guard (0...maxZoom).contains(tile.z), (0..<side).contains(tile.x), (0..<side).contains(tile.y) else {
            throw Diagnostic(.error, code: .tileBadOption,
                message: "\(tile.z)/\(tile.x)/\(tile.y) is not a tile of this run (zooms 0…\(maxZoom), x and y 0…2^z − 1)")
        }
        var features: [ProjectedFeature]
        var id = TileID(z: 0, x: 0, y: 0)
        let attributesOf: (Int) -> TileAttributes
        let propertyTable: MVTPropertyTable?
        if let onDisk = try TilePyramid.featuresOnPath(to: tile, from: source, loadBytes: loadBytes) {
            (features, attributesOf, id) = onDisk
            propertyTable = nil
        } else {
            features = source.features
            let attributes = source.attributes
            attributesOf = { attributes[$0] }
            propertyTable = source.propertyTable
        }
        // Down the path: at each zoom keep only the child that holds the tile.
        while id.z < tile.z && !features.isEmpty {
            let bounds = TileBuilder.build(features, tile: id, options: source.options, attributesOf: attributesOf).1
            let shift = tile.z - id.z - 1
            let childX = (tile.x >> shift) & 1, childY = (tile.y >> shift) & 1
            features = TileSplit.split(features, tile: id, bounds: bounds, options: source.options)[childX * 2 + childY]
            id = TileSplit.children(of: id)[childX * 2 + childY]
        }
        var entries = [TileExplanation.Entry]()
        var built = TileBuilder.build(features, tile: tile, options: source.options, attributesOf: attributesOf,
                                      propertyTable: propertyTable) { input, change, kept in
            let outcome: TileExplanation.Outcome
            if change.thinnedFeatures > 0 {
                outcome = .thinned
            } else if change.outsideZoomRange > 0 {
                outcome = .outsideZoomRange
            } else if change.filteredAtZoom > 0 {
                outcome = .filteredAtZoom
            } else if change.tinyStandIns > 0 {
                outcome = .drawnAsStandIn
            } else if change.droppedForBudget > 0 {
                // A point the tile's stream cap skipped (`PointStreamCap`).
                outcome = .droppedForBudget
            } else if kept {
                outcome = .kept
            } else if change.droppedTinyRings + change.droppedTinyLines > 0 {
                outcome = .tooSmall
            } else {
                outcome = .degenerate
            }
            entries.append(.init(inputIndex: input, attributes: attributesOf(input), outcome: outcome))
        }.0
        let options = source.options
        if options.clusterDistance > 0 && tile.z <= options.clusterMaxZoom ?? maxZoom {
            let before = Set(built.sources)
            PointClustering.cluster(&built, distance: options.clusterDistance * Double(options.extent) / 256,
                                    rules: options.clusterAttributes)
            let clustered = Set(built.features.indices.filter { built.features[$0].properties?["clustered"] == .bool(true) }
                .map { built.sources[$0] })
            let gone = before.subtracting(built.sources)
            for index in entries.indices where entries[index].outcome == .kept
                && (gone.contains(entries[index].inputIndex) || clustered.contains(entries[index].inputIndex)) {
                entries[index].outcome = .clustered
            }
        }
        let encoder = LayeredMVTEncoder(names: source.layers.names.isEmpty ? [layer] : source.layers.names)
        let fitted = try options.budget.fit(&built) { encoder.encode($0).0 }
        // Kept when built but not written: dropped by the budget, or by the stream cap before it.
        let written = Set(built.sources)
        let outcome: TileExplanation.Outcome = built.statistics.coalescedForBudget > 0 ? .coalescedForBudget : .droppedForBudget
        for index in entries.indices where entries[index].outcome == .kept && !written.contains(entries[index].inputIndex) {
            entries[index].outcome = outcome
        }
        return TileExplanation(tile: tile, maxZoom: maxZoom, entries: entries, statistics: built.statistics,
                               writtenFeatures: built.features.count, encodedBytes: fitted.encoded.count,
                               compressedBytes: try fitted.compressed().count, budget: options.budget)
    }
}
