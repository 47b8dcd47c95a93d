#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// What a tile run will write, estimated before it does (`overlaykit tile --plan`): the zooms,
/// tiles and bytes per zoom, the output's size, memory and disk.
///
/// The plan reads the input as the run would (into the disk store when the run would use it,
/// so its memory stays as flat as the run's), then walks a sample of the pyramid
/// (`TileSampling`): at each zoom about ``Tiler/planSampleTiles`` tiles are cut as the run cuts
/// them (thinning, tiny shapes, clustering, solid tiles ending their subtree with blocks),
/// held to the budget, encoded and compressed as the output stores them, and each counts for
/// the tiles it was chosen among. Below that many tiles a zoom, every tile is cut and the
/// numbers are the run's. Tiles the archive stores once (identical tiles: the inside of
/// polygons) count once in ``Zoom/storedBytes``.
public struct TilePlan: Sendable {
    /// One zoom's estimate.
    public struct Zoom: Sendable {
        /// The zoom.
        public var zoom: Int
        /// Tiles that will be written.
        public var tiles: Int
        /// Encoded tile bytes before archive compression, every copy counted (what the run reports per zoom).
        public var bytes: Int
        /// Bytes the output will store for the zoom's tiles: gzip in PMTiles and MBTiles,
        /// identical tiles once; a directory's files as encoded.
        public var storedBytes: Int
        /// Tiles cut to estimate this zoom: a sample, or every tile (a block of identical tiles
        /// inside a polygon is cut once, as the run cuts it).
        public var tilesCut: Int
    }

    /// The max zoom the run will use (guessed, when asked).
    public var maxZoom: Int
    /// The base zoom of point thinning.
    public var baseZoom: Int
    /// Input features read.
    public var features: Int
    /// Per zoom from the run's min zoom.
    public var zooms: [Zoom]
    /// Whether every tile was cut (the numbers are then the run's).
    public var exact: Bool
    /// The peak resident memory the run should reach, in bytes (with the disk feature store, a
    /// base and bytes per feature measured at scale; else the projected input's, measured).
    public var peakMemoryBytes: Int
    /// The archive's size on disk: the stored bytes of every zoom and the archive's directory.
    public var outputBytes: Int
    /// The most disk the run uses beside the output while it is built: a PMTiles archive stages
    /// its tiles and then assembles the file (twice its size at the end); MBTiles and directories
    /// about their size; with the disk feature store (`Tiler.FeatureStore.disk`), also its
    /// temporary files, about 4 times the input.
    public var temporaryDiskBytes: Int
    /// Whether the run will keep its features in the disk store (the plan read them there too,
    /// unless it sampled the input).
    public var onDisk: Bool
    /// The plan read about one input record in this many (1: every one): a large GeoJSON text
    /// sequence or FeatureCollection is sampled (``Tiler/planSampleRecords``) and each tile's
    /// numbers grown to the whole input's.
    public var recordStride: Int

    /// All tiles.
    public var tiles: Int { zooms.reduce(0) { $0 + $1.tiles } }
    /// All encoded bytes.
    public var bytes: Int { zooms.reduce(0) { $0 + $1.bytes } }
}

extension Tiler {
    /// Estimates the run these settings describe without writing anything (see ``TilePlan``).
    /// - Throws: `Diagnostic` `tile.bad-option`; the reader's errors; `tile.too-large` when a
    ///   tile cut cannot fit its budget (the run would stop there too).
    public func plan(reading reader: inout some FeatureReader, onWarning: (Diagnostic) -> Void = { _ in }) throws -> TilePlan {
        try withSingleInput(&reader) { try plan(reading: &$0, onWarning: onWarning) }
    }

    /// Estimates a run over several inputs (see `run(reading:onWarning:onProgress:)` with inputs).
    /// - Throws: `Diagnostic` `tile.bad-option`; the readers' errors; `tile.too-large`.
    public func plan(reading inputs: inout [TileInput], onWarning: (Diagnostic) -> Void = { _ in }) throws -> TilePlan {
        try validate(inputs: inputs)
        // Sized before anything is read (the inputs' files are known unread).
        let store = featureStorePlan(for: inputs)
        if let (sample, steps) = try sequenceSample(of: inputs) {
            // A bad record among those sampled: the whole input is read, and the error reported where it is.
            if let plan = try? plan(inputs: inputs, store: store, sample: sample, thinningSteps: steps) { return plan }
        }
        return try plan(inputs: &inputs, store: store, onWarning: onWarning)
    }

    /// The records of a large GeoJSON text sequence or FeatureCollection a plan reads (about
    /// ``planSampleRecords`` of them), when the settings decide each tile from its own features
    /// only; nil to read every record (another format, several inputs, guessed zooms,
    /// clustering, shared borders).
    ///
    /// When points are thinned, the stride is a power of the rate, `rate^steps`: the sampled
    /// points are then thinned from a base zoom `steps` lower, so at every zoom down to there
    /// the sample keeps as many points as the run does (its tiles need no growing), and deeper
    /// ones grow by `rate^(steps − (base − z))`.
    func sequenceSample(of inputs: [TileInput]) throws -> (sample: SequenceSample, thinningSteps: Int)? {
        guard planSampleRecords > 0, inputs.count == 1, let file = inputs[0].reader.sliceableFile,
              let size = file.expectedSize, !options.guessesMaxZoom, !options.guessesBaseZoom,
              options.clusterDistance == 0, !options.sharedBorders else { return nil }
        guard let (layout, records) = try SequenceSample.estimatedRecords(in: file, size: size) else { return nil }
        let ratio = Double(records) / Double(planSampleRecords)
        guard ratio >= 2 else { return nil }
        let rate = options.pointDropRate
        let steps = rate > 1 ? min(options.resolvedBaseZoom, max(1, Int((log(ratio) / log(rate)).rounded()))) : 0
        let stride = steps > 0 ? pow(rate, Double(steps)) : ratio.rounded(.down)
        guard stride >= 2 else { return nil }
        let sample = try SequenceSample(file, size: size, layout: layout, stride: stride, maxZoom: options.maxZoom, threads: threads)
        return (sample, steps)
    }

    /// A plan from one input record in `sample.stride`: the sampled records are read into
    /// memory, every tile's bytes grown to what the whole input's tile should take
    /// (`PlanTally`), and every zoom's tiles scaled by how many more tiles all records reach
    /// than the sampled ones.
    private func plan(inputs: [TileInput], store: FeatureStorePlan, sample: SequenceSample, thinningSteps: Int) throws -> TilePlan {
        let before = Self.residentBytes()
        // Named, so its parts are read on as many threads as the file's would be.
        let name = inputs[0].reader.sliceableFile?.name ?? "sample"
        var sampled = [TileInput(layer: inputs[0].layer, reader: GeoJSONReader(input: ByteInput(bytes: sample.kept, name: name)))]
        // Points only: thinned from a lower base zoom, so the top zooms keep what the run's keep.
        let steps = sample.allPoints ? thinningSteps : 0
        var sampleOptions = options
        sampleOptions.baseZoom = options.resolvedBaseZoom - steps
        let source = try TileSource(reading: &sampled, options: sampleOptions, readThreads: threads, onWarning: { _ in })
        let scale = Double(sample.records) / Double(max(1, sample.keptRecords))
        let memory = before.addingSaturating(Int(saturating: (Double(Self.residentBytes() - before) * scale).rounded()))
        let growth = (0...options.maxZoom).map { zoom in
            steps == 0 ? sample.stride
                : pow(options.pointDropRate, Double(min(steps, max(0, zoom - sampleOptions.resolvedBaseZoom))))
        }
        return try plan(source, store: store, projectedMemory: memory, sample: (sample, growth))
    }

    /// A plan from every record of the inputs.
    private func plan(inputs: inout [TileInput], store: FeatureStorePlan, onWarning: (Diagnostic) -> Void) throws -> TilePlan {
        let diskFolder = try temporaryFolder(for: inputs)
        let source = try TileSource(reading: &inputs, options: options, readThreads: threads, diskFolder: diskFolder,
                                    onWarning: onWarning)
        return try plan(source, store: store, projectedMemory: Self.residentBytes(), sample: nil)
    }

    /// Walks a sample of `source`'s pyramid and sums it up; `store`: where the run keeps its
    /// features (sized before the inputs were read); `sample`: the records `source` was read
    /// from, and how much each zoom's tiles grow to the whole input's.
    private func plan(_ source: TileSource, store: FeatureStorePlan, projectedMemory: Int,
                      sample: (records: SequenceSample, growth: [Double])?) throws -> TilePlan {
        let options = source.options
        let zoomRange = min(options.minZoom, options.maxZoom)...options.maxZoom
        let tally = PlanTally(zooms: options.maxZoom + 1, encoder: planEncoder(layers: source.layers), budget: options.budget,
                              format: resolvedArchiveFormat, growth: sample?.growth)
        let visited = try TilePyramid.sample(source, minZoom: zoomRange.lowerBound, parallelism: threads,
                                             tilesPerZoom: planSampleTiles, emit: tally.add)
        var totals = tally.totals
        if let sample = sample?.records {
            // Tiles only unsampled records reach: as many more as all records' first positions
            // reach than the sampled ones' (thinning never empties a tile: each keeps its first
            // point); each holds a few features, so it takes what a sampled tile of one feature
            // takes.
            let all = sample.expectedTiles(sample.anchoredTiles)
            let kept = sample.expectedTiles(sample.keptAnchoredTiles)
            for zoom in zoomRange where kept[zoom] > 0 {
                let cut = totals[zoom].tiles
                totals[zoom].tiles *= all[zoom] / kept[zoom]
                guard let single = tally.singleFeatureBytes(zoom: zoom) else { continue }
                let unseen = max(0, totals[zoom].tiles - cut)
                totals[zoom].bytes += unseen * single.encoded
                totals[zoom].stored += unseen * single.stored
            }
        }
        let zooms = zoomRange.map { zoom in
            TilePlan.Zoom(zoom: zoom, tiles: Int(saturating: totals[zoom].tiles.rounded()),
                          bytes: Int(saturating: totals[zoom].bytes.rounded()),
                          storedBytes: Int(saturating: totals[zoom].stored.rounded()), tilesCut: totals[zoom].cut)
        }
        let format = resolvedArchiveFormat
        let stored = zooms.reduce(0) { $0.addingSaturating($1.storedBytes) }
        // PMTiles: its directory (see `PlanTally.repeatEntries`), header and metadata; MBTiles:
        // SQLite pages about 5/6 full and a row and index entry of about 60 bytes a tile
        // (measured on the countries to z4 and z7); a directory: its files.
        let tiles = zooms.reduce(0) { $0.addingSaturating($1.tiles) }
        let output = switch format {
        case .pmtiles:
            stored.addingSaturating(Int(saturating: (tally.newEntries * Self.newEntryBytes + tally.repeatEntries * Self.repeatEntryBytes).rounded()))
                .addingSaturating(try pmtilesMetadataBytes(source, zooms: visited))
        case .mbtiles: Int(saturating: (Double(stored) * 1.2).rounded()).addingSaturating(tiles.multipliedSaturating(by: 60))
        case .directory: stored
        }
        let features = sample.map { Int(saturating: (Double(source.inputCounts.features) * Double($0.records.records)
                                                      / Double(max(1, $0.records.keptRecords))).rounded()) }
            ?? source.inputCounts.features
        let archiveDisk = format == .pmtiles ? 2 * output : output
        // (A sample's points are thinned from a lower base zoom: the run's is this one's.)
        return TilePlan(maxZoom: options.maxZoom, baseZoom: self.options.resolvedBaseZoom, features: features,
                        zooms: zooms, exact: !tally.sampled && sample == nil,
                        peakMemoryBytes: store.onDisk
                            ? Self.diskStoreBaseMemory.addingSaturating(features.multipliedSaturating(by: Self.diskStoreBytesPerFeature))
                            : Int(Double(projectedMemory) * Self.peakMemoryFactor),
                        outputBytes: output,
                        temporaryDiskBytes: store.onDisk ? archiveDisk.addingSaturating(store.temporaryBytes) : archiveDisk,
                        onDisk: store.onDisk, recordStride: sample.map { Int(saturating: $0.records.stride.rounded()) } ?? 1)
    }

    /// How the run encodes a tile's features (its layers, its encoding).
    func planEncoder(layers: TileLayers) -> PlanTally.Encoder {
        switch encoding {
        case .mvt, .mlt:
            let encoder = LayeredMVTEncoder(names: layers.names.isEmpty ? [layer] : layers.names, encoding: encoding,
                                            compressesStrings: tilesStayUncompressed)
            return .vector { encoder.encode($0).0 }
        case .geojson:
            let encoder = TileGeoJSONEncoder(precision: precision)
            return .geojson { try encoder.encode($0) }
        }
    }

    /// What a PMTiles archive of `source` takes besides its tiles and directory: its header
    /// and its metadata (layers, fields and their values, statistics per zoom), gzip, as the
    /// run writes them; `zooms` are the sampled walk's counts (the metadata's per-zoom numbers
    /// differ from the run's in their digits only).
    func pmtilesMetadataBytes(_ source: TileSource, zooms: [TileZoomCounts]) throws -> Int {
        let sink = makeSink(writer: MetadataOnlyWriter(path: output), layers: source.layers)
        var metadata = try sink.metadata(for: source, minZoom: options.minZoom, zooms: zooms, name: name, description: description)
        metadata.attribution = attribution
        return PMTiles.headerLength + (try Gzip.compress(metadata.pmtilesJSON()).count)
    }

    /// Peak memory of a disk-store run: a base (subtrees walked in memory, one densest tile at a
    /// time, buffers) and bytes per input feature, fitted to 2 and 20 million clustered points
    /// (release build at cdeb79a, run alone: 280 MB and 363 MB; Benchmarks/bench_tile_memory.py
    /// gave 264, 321 and 361 MB at 2, 6 and 20 million beside other work, and 196 MB on 1 million
    /// small polygons, which this overestimates by a third).
    static let diskStoreBaseMemory = 264 << 20
    static let diskStoreBytesPerFeature = 5

    /// Peak memory of a run over the memory its projected input takes, measured on clustered
    /// points and small polygons (Benchmarks/bench_tile_scale.py): cutting the first zooms
    /// holds clipped copies of the features beside the source.
    static let peakMemoryFactor = 1.35

    /// Compressed PMTiles directory bytes an entry takes: one pointing at a tile stored for it
    /// (its tile id step, length and offset are new: 2.8–3.0 bytes on the countries and land
    /// to z8, 12,500–13,500 such entries), and one pointing back at a tile stored before (a
    /// block, a run alike, a tile met again: 151,000 such entries took 15 KB on the world
    /// polygon to z14).
    static let newEntryBytes = 2.9
    static let repeatEntryBytes = 0.1

    /// The process's peak resident memory so far.
    static func residentBytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024  // KiB on Linux
        #endif
    }
}

/// The weighted sums of a plan's sampled walk, per zoom: each tile cut is held to the budget,
/// encoded and compressed as the run's archive stores it. Called from several threads.
final class PlanTally: @unchecked Sendable {
    /// How a tile's features become bytes.
    enum Encoder {
        /// MVT or MLT.
        case vector(@Sendable (VectorTile) -> [UInt8])
        /// GeoJSON (a directory's files).
        case geojson(@Sendable (VectorTile) throws -> [UInt8])

        /// The tile's bytes.
        func encode(_ tile: VectorTile) throws -> [UInt8] {
            switch self {
            case .vector(let encode): encode(tile)
            case .geojson(let encode): try encode(tile)
            }
        }
    }

    /// One zoom's estimate: tiles, encoded bytes, stored bytes.
    struct Totals {
        /// Tiles cut (a block once).
        var cut = 0
        var tiles = 0.0
        var bytes = 0.0
        var stored = 0.0
    }

    private let encoder: Encoder
    private let budget: TileBudget
    private let format: TileArchiveFormat
    private let lock = NSLock()
    private var zooms: [Totals]
    /// The compressed tiles met so far by hash: their size, zoom and the weight they were
    /// counted with. An archive stores identical tiles once.
    private var seen = [UInt64: (size: Int, zoom: Int, weight: Double)]()
    /// Directory entries that point at bytes stored for them: one a tile stored.
    private(set) var newEntries = 0.0
    /// Directory entries that point back at a tile stored before: a block (one run of tile
    /// ids), a run of tiles alike along a row, a tile met again. PMTiles writes a directory
    /// column by column, so these repeat the same lengths and offsets and compress to almost
    /// nothing (0.1 byte each on the world polygon to z14; 2.9 bytes a new entry on the
    /// countries and land).
    private(set) var repeatEntries = 0.0
    /// Whether any tile stood for more than itself.
    private(set) var sampled = false

    /// With tiles cut from about one input record in a stride (`SequenceSample`): how they grow
    /// to the whole input's (read by every thread), and their measures, grown when summed.
    private let growth: SampledTileGrowth?
    private var sampledTiles: [SampledTileGrowth.Measured] = []

    /// `growth`: with tiles cut from a sample of the records, how much each zoom's grow.
    init(zooms: Int, encoder: Encoder, budget: TileBudget, format: TileArchiveFormat, growth: [Double]? = nil) {
        self.encoder = encoder
        self.budget = budget
        self.format = format
        self.growth = growth.map {
            SampledTileGrowth(growth: $0, maxFeatures: budget.maxFeatures, maxStoredBytes: format == .directory ? nil : budget.maxBytes)
        }
        self.zooms = Array(repeating: Totals(), count: zooms)
    }

    /// The sums so far, by zoom from 0.
    var totals: [Totals] {
        lock.lock()
        defer { lock.unlock() }
        guard let growth else { return zooms }
        var result = zooms
        for (zoom, grown) in growth.totals(of: sampledTiles, zooms: zooms.count).enumerated() {
            result[zoom].bytes += grown.encoded
            result[zoom].stored += grown.stored
        }
        return result
    }

    /// What a sampled tile of one feature at `zoom` takes, encoded and stored, on average (nil
    /// when the input was not sampled or no such tile was cut).
    func singleFeatureBytes(zoom: Int) -> (encoded: Double, stored: Double)? {
        lock.lock()
        defer { lock.unlock() }
        return growth?.singleFeatureBytes(of: sampledTiles, zoom: zoom)
    }

    /// Adds a tile cut by the walk, standing for `weight` tiles of its zoom (times its block's
    /// copies); returns its encoded size. Fits `TilePyramid.sample`'s `emit`.
    func add(_ tile: inout VectorTile, weight: Double, block: TileBlock?) throws -> Int {
        let fitted = try budget.fit(&tile) { try encoder.encode($0) }
        let encoded = fitted.encoded
        let stored = format == .directory ? encoded : try fitted.compressed()
        let copies = Double(block?.tileCount ?? 1)
        if growth != nil {
            // Tiles of a sample of the records: grown once the walk is done (no two alike).
            let tile = try measured(tile, encoded: encoded.count, stored: stored.count, weight: weight * copies)
            lock.lock()
            defer { lock.unlock() }
            sampled = true
            zooms[tile.zoom].tiles += tile.weight
            zooms[tile.zoom].cut += 1
            newEntries += tile.weight
            sampledTiles.append(tile)
            return encoded.count
        }
        // A directory writes every file; the archives store a tile met before once.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if format != .directory { for byte in stored { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
        lock.lock()
        defer { lock.unlock() }
        if weight > 1 { sampled = true }
        let zoom = tile.id.z
        zooms[zoom].tiles += weight * copies
        zooms[zoom].cut += 1
        zooms[zoom].bytes += weight * copies * Double(encoded.count)
        if format == .directory {
            zooms[zoom].stored += weight * copies * Double(stored.count)
        } else if let first = seen[hash], first.size == stored.count {
            // Met again: a tile the archive stores once (the inside of a polygon, a row along
            // its edge), so the first one counts once, not for the tiles it stood for.
            if first.weight > 1 {
                zooms[first.zoom].stored -= (first.weight - 1) * Double(first.size)
                newEntries -= first.weight - 1
                repeatEntries += first.weight - 1
                seen[hash] = (first.size, first.zoom, 1)
            }
            repeatEntries += entriesFor(tile, weight: weight, block: block)
        } else {
            // A block is one stored tile, and so is a run of tiles alike along a row or column;
            // another sampled tile stands for others like it.
            let alike = block == nil && weight > 1 ? RepeatingTile.axes(tile) : []
            let counted = block == nil && alike.isEmpty ? weight : 1
            if seen.count < Self.maximumHashes { seen[hash] = (stored.count, zoom, counted) }
            zooms[zoom].stored += counted * Double(stored.count)
            let entries = entriesFor(tile, weight: weight, block: block, alike: alike)
            newEntries += counted
            repeatEntries += max(0, entries - counted)
        }
        return encoded.count
    }

    /// The directory entries a cut tile standing for `weight` tiles (or blocks) makes: one a
    /// block, one a run of tiles alike along `alike` (``RepeatingTile``), else one a tile.
    private func entriesFor(_ tile: VectorTile, weight: Double, block: TileBlock?, alike: [Int]? = nil) -> Double {
        if block != nil { return weight }
        let axes = alike ?? (weight > 1 ? RepeatingTile.axes(tile) : [])
        return axes.isEmpty ? weight : RepeatingTile.runs(of: tile.id, along: axes, weight: weight)
    }

    /// A tile cut from the sampled records, measured as ``SampledTileGrowth`` grows it: its
    /// encoded and stored bytes with all its features, every other one and every fourth one.
    private func measured(_ tile: VectorTile, encoded: Int, stored: Int, weight: Double) throws -> SampledTileGrowth.Measured {
        let (halfIndices, quarterIndices) = SampledTileGrowth.halfAndQuarter(of: tile.features.count)
        func bytes(keeping indices: [Int]) throws -> (encoded: Double, stored: Double) {
            var part = tile
            part.keepFeatures(at: indices)
            let encoded = try encoder.encode(part)
            return (Double(encoded.count), format == .directory ? Double(encoded.count) : Double(try Gzip.compress(encoded).count))
        }
        // A zoom the sample holds as the run does is not grown: nothing more to measure.
        let grows = (growth?.factor(zoom: tile.id.z) ?? 1) > 1
        let half = grows ? try bytes(keeping: halfIndices) : (encoded: Double(encoded), stored: Double(stored))
        let quarter = grows && tile.features.count >= 4 ? try bytes(keeping: quarterIndices) : half
        return .init(zoom: tile.id.z, weight: weight, features: tile.features.count,
                     encoded: .init(all: Double(encoded), half: half.encoded, quarter: quarter.encoded),
                     stored: .init(all: Double(stored), half: half.stored, quarter: quarter.stored))
    }

    /// The most tile hashes remembered (a few MB).
    static let maximumHashes = 200_000
}

/// A writer a plan builds the run's metadata with: it stores nothing.
private final class MetadataOnlyWriter: TileArchiveWriter, @unchecked Sendable {
    let path: String

    init(path: String) { self.path = path }

    func write(_ id: TileID, _ tile: [UInt8]) throws {}
    func finish(metadata: TileSetMetadata) throws {}
    func abort() {}
}
