import OverlayModel

/// Joins several vector tile sets into one, as tippecanoe's `tile-join` does: every z/x/y held
/// by any input becomes one tile whose same-named layers are merged (`VectorTileMerger`).
///
/// Streaming over runs of tiles (`TileRun`: a PMTiles directory entry, or one tile of a folder
/// or an MBTiles file): the inputs' runs are swept together in tile id order (`TileRunSweep`),
/// each stretch over which every input holds the same stored tile is merged once and written as
/// blocks (`TileArchiveWriter.writeBlock`), so a PMTiles output keeps it as one run. Memory holds
/// the inputs' runs (their directory entries, never a list of their tiles) and the last merged
/// tiles; an ocean of 358 million tiles to z14 is a few thousand runs.
public struct TileJoin: Sendable {
    /// One input as the join reads it: its tiles as runs and, for each run, the uncompressed MVT
    /// bytes every tile of it has.
    public struct Input: Sendable {
        /// A name for messages (the path).
        public var name: String
        /// Every tile the input holds, as runs in tile id order, not overlapping.
        public var runs: [TileRun]
        /// The uncompressed MVT bytes of a run's tiles, nil when absent.
        public var read: @Sendable (TileRun) throws -> [UInt8]?

        /// Creates an input of runs (put in tile id order, overlaps cut: `TileRun.normalized`).
        /// - Parameters:
        ///   - name: a name for messages (the path).
        ///   - runs: the input's tiles as runs; two runs with equal `content` hold the same bytes.
        ///   - read: the uncompressed MVT bytes of a run's tiles, nil when absent.
        public init(name: String, runs: [TileRun], read: @escaping @Sendable (TileRun) throws -> [UInt8]?) {
            self.name = name
            self.runs = TileRun.normalized(runs)
            self.read = read
        }

        /// Creates an input of single tiles, each read by its id.
        /// - Parameters:
        ///   - name: a name for messages (the path).
        ///   - tileIDs: every tile id the input holds.
        ///   - read: the uncompressed MVT bytes of a tile, nil when absent.
        public init(name: String, tileIDs: [TileID], read: @escaping @Sendable (TileID) throws -> [UInt8]?) {
            let runs = tileIDs.enumerated().map { TileRun(tile: $0.element, content: TileRun.Content(offset: UInt64($0.offset), length: 0)) }
            self.init(name: name, runs: runs) { run in try run.firstTile.flatMap(read) }
        }

        /// Whether the input holds no tile.
        public var isEmpty: Bool { runs.isEmpty }
    }

    /// What the join wrote and how each tile was made.
    public struct Counts: Hashable, Sendable {
        /// Tiles written, their bytes (in the output's encoding) and features, per zoom and in
        /// all, and the tiles the filters left empty.
        public var written = TileWriteCounts()
        /// Tiles held by more than one input, merged.
        public var mergedTiles = 0
        /// Tiles held by one input and copied byte for byte (no renaming or filtering asked).
        public var copiedTiles = 0
        /// Tiles held by one input and rewritten because layers or properties were filtered or
        /// renamed. Merged, copied and rewritten tiles add up to ``tiles``.
        public var rewrittenTiles = 0
        /// Distinct tiles of the inputs outside ``TileJoin/zooms``: not read.
        public var tilesOutsideZooms = 0

        /// No tiles yet.
        public init() {}

        /// Tiles written.
        public var tiles: Int { written.tiles }
        /// Tiles left without layers by the layer filters: not written.
        public var emptyTiles: Int { written.emptyTiles }
        /// Uncompressed bytes written.
        public var bytes: Int { written.bytes }
    }

    /// How layers and properties are merged, renamed and filtered.
    public var merger: VectorTileMerger
    /// Only tiles at these zooms are written (tile-join's `-z`/`-Z`); nil keeps every zoom.
    public var zooms: ClosedRange<Int>?
    /// The encoding tiles are written in: MVT as merged, or converted to MLT.
    public var encoding: TileEncoding

    /// Creates a join.
    public init(merger: VectorTileMerger = VectorTileMerger(), zooms: ClosedRange<Int>? = nil, encoding: TileEncoding = .mvt) {
        self.merger = merger
        self.zooms = zooms
        self.encoding = encoding
    }

    /// The encoding of the joined tiles: `requested`, else the one every input shares.
    /// - Throws: `tilejoin.format-mismatch` when inputs mix MVT and MLT and no encoding is
    ///   requested, or an input holds tiles of no vector encoding.
    public static func outputEncoding(_ inputs: [(name: String, format: String)], requested: TileEncoding?) throws -> TileEncoding {
        var encodings = [TileEncoding]()
        for input in inputs {
            guard let encoding = TileEncoding(metadataFormat: input.format.lowercased()), encoding != .geojson else {
                throw Diagnostic(.error, code: .tilejoinFormatMismatch,
                                 message: "\(input.name) holds \(input.format) tiles; tile-join joins vector tiles (MVT or MLT)")
            }
            encodings.append(encoding)
        }
        if let requested { return requested }
        guard let first = encodings.first, encodings.allSatisfy({ $0 == first }) else {
            let named = zip(inputs, encodings).map { "\($0.0.name) (\($0.1.rawValue))" }.joined(separator: ", ")
            throw Diagnostic(.error, code: .tilejoinFormatMismatch,
                             message: "the inputs mix MVT and MLT tiles: \(named); give --tile-format mvt or mlt to convert them")
        }
        return first
    }

    /// Warnings for inputs that hold no tiles.
    /// - Throws: `Diagnostic` `tilejoin.no-tiles` when no input holds any: there is nothing to
    ///   join, and an empty output would hide the mistake (a wrong or empty directory).
    public static func checkHoldTiles(_ inputs: [Input]) throws -> [Diagnostic] {
        let empty = inputs.filter(\.isEmpty)
        if empty.count == inputs.count {
            throw Diagnostic(.error, code: .tilejoinNoTiles,
                             message: "no tiles to join: \(empty.map(\.name).joined(separator: ", ")) hold\(empty.count == 1 ? "s" : "") no tiles")
        }
        return empty.map {
            Diagnostic(.warning, code: .tilejoinEmptyInput, message: "\($0.name) holds no tiles; the other inputs are joined")
        }
    }

    /// The joined set's metadata: the inputs' united with this join's filters
    /// (`TileMetadataMerger`), in ``encoding``, then corrected by what was written: zooms outside
    /// ``zooms`` leave the zoom range, the layers' and the center's, and the drop report; the
    /// report's per-zoom `tiles`, `bytes` and `features` (summed over inputs they would count a
    /// merged tile twice) are the written ones.
    public func metadata(merging inputs: [TileSetMetadata], counts: Counts) -> TileSetMetadata {
        var merged = TileMetadataMerger(options: merger.options).merge(inputs)
            ?? TileSetMetadata(name: "", bounds: nil, center: nil, minZoom: 0, maxZoom: 0, vectorLayers: [])
        merged.format = encoding.metadataFormat
        if let zooms {
            func clamped(_ zoom: Int) -> Int { min(max(zoom, zooms.lowerBound), zooms.upperBound) }
            merged.minZoom = clamped(merged.minZoom)
            merged.maxZoom = clamped(merged.maxZoom)
            if let zoom = merged.center?.zoom { merged.center?.zoom = clamped(zoom) }
            for index in merged.vectorLayers.indices {
                merged.vectorLayers[index].minZoom = clamped(merged.vectorLayers[index].minZoom)
                merged.vectorLayers[index].maxZoom = clamped(merged.vectorLayers[index].maxZoom)
            }
        }
        if var report = merged.dropReport {
            report.zooms = report.zooms.compactMap { entry in
                if let zooms, !zooms.contains(entry.zoom) { return nil }
                let written = counts.written.zooms.indices.contains(entry.zoom)
                    ? counts.written.zooms[entry.zoom] : TileZoomCounts(zoom: entry.zoom)
                var corrected = entry
                corrected.tiles = written.tiles
                corrected.bytes = written.bytes
                corrected.statistics.features = written.statistics.features
                return corrected
            }
            merged.dropReport = report
        }
        return merged
    }
}
