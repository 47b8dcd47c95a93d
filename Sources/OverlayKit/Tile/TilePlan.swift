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
        /// Tiles cut to estimate this zoom (every tile when it equals ``tiles``).
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
    /// Whether the plan read the input into the disk store (as the run will).
    public var onDisk: Bool

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
        let store = featureStorePlan(for: inputs)
        let diskFolder = try temporaryFolder(for: inputs)
        let source = try TileSource(reading: &inputs, options: options, readThreads: threads, diskFolder: diskFolder,
                                    onWarning: onWarning)
        let projectedMemory = Self.residentBytes()
        let options = source.options
        let zoomRange = min(options.minZoom, options.maxZoom)...options.maxZoom
        let tally = PlanTally(zooms: options.maxZoom + 1, encoder: planEncoder(layers: source.layers), budget: options.budget,
                              format: resolvedArchiveFormat)
        let visited = try TilePyramid.sample(source, minZoom: zoomRange.lowerBound, parallelism: threads,
                                             tilesPerZoom: planSampleTiles, emit: tally.add)
        let totals = tally.totals
        let zooms = zip(zoomRange, visited).map { zoom, cut in
            TilePlan.Zoom(zoom: zoom, tiles: Int(saturating: totals[zoom].tiles.rounded()),
                          bytes: Int(saturating: totals[zoom].bytes.rounded()),
                          storedBytes: Int(saturating: totals[zoom].stored.rounded()), tilesCut: cut.tiles)
        }
        let format = resolvedArchiveFormat
        let stored = zooms.reduce(0) { $0.addingSaturating($1.storedBytes) }
        // PMTiles: about 1.5 bytes of compressed directory a run of tiles (measured on the
        // countries and land to z8); MBTiles: SQLite pages about 5/6 full and a row and index
        // entry of about 60 bytes a tile (measured on the countries to z4 and z7); a
        // directory: its files.
        let tiles = zooms.reduce(0) { $0.addingSaturating($1.tiles) }
        let output = switch format {
        case .pmtiles: stored.addingSaturating(Int(saturating: (tally.entries * 1.5).rounded()))
        case .mbtiles: Int(saturating: (Double(stored) * 1.2).rounded()).addingSaturating(tiles.multipliedSaturating(by: 60))
        case .directory: stored
        }
        let features = source.inputCounts.features
        let archiveDisk = format == .pmtiles ? 2 * output : output
        return TilePlan(maxZoom: options.maxZoom, baseZoom: options.resolvedBaseZoom, features: features,
                        zooms: zooms, exact: !tally.sampled,
                        peakMemoryBytes: store.onDisk
                            ? Self.diskStoreBaseMemory.addingSaturating(features.multipliedSaturating(by: Self.diskStoreBytesPerFeature))
                            : Int(Double(projectedMemory) * Self.peakMemoryFactor),
                        outputBytes: output,
                        temporaryDiskBytes: store.onDisk ? archiveDisk.addingSaturating(store.temporaryBytes) : archiveDisk,
                        onDisk: source.disk != nil)
    }

    /// How the run encodes a tile's features (its layers, its encoding).
    func planEncoder(layers: TileLayers) -> PlanTally.Encoder {
        switch encoding {
        case .mvt, .mlt:
            let encoder = LayeredMVTEncoder(names: layers.names.isEmpty ? [layer] : layers.names, encoding: encoding)
            return .vector { encoder.encode($0).0 }
        case .geojson:
            let encoder = TileGeoJSONEncoder(precision: precision)
            return .geojson { try encoder.encode($0) }
        }
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
    }

    /// One zoom's estimate: tiles, encoded bytes, stored bytes.
    struct Totals {
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
    /// Directory entries: a tile stored once, or a block (one run of tile ids); a tile met
    /// again usually joins a run of its like.
    private(set) var entries = 0.0
    /// Whether any tile stood for more than itself.
    private(set) var sampled = false

    init(zooms: Int, encoder: Encoder, budget: TileBudget, format: TileArchiveFormat) {
        self.encoder = encoder
        self.budget = budget
        self.format = format
        self.zooms = Array(repeating: Totals(), count: zooms)
    }

    /// The sums so far, by zoom from 0.
    var totals: [Totals] {
        lock.lock()
        defer { lock.unlock() }
        return zooms
    }

    /// Adds a tile cut by the walk, standing for `weight` tiles of its zoom (times its block's
    /// copies); returns its encoded size. Fits `TilePyramid.sample`'s `emit`.
    func add(_ tile: inout VectorTile, weight: Double, block: TileBlock?) throws -> Int {
        let fitted: FittedTile
        switch encoder {
        case .vector(let encode): fitted = try budget.fit(&tile) { encode($0) }
        case .geojson(let encode): fitted = try budget.fit(&tile) { try encode($0) }
        }
        let encoded = fitted.encoded
        let stored = format == .directory ? encoded : try fitted.compressed()
        let copies = Double(block?.tileCount ?? 1)
        // A directory writes every file; the archives store a tile met before once.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if format != .directory { for byte in stored { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
        lock.lock()
        defer { lock.unlock() }
        if weight > 1 { sampled = true }
        let zoom = tile.id.z
        zooms[zoom].tiles += weight * copies
        zooms[zoom].bytes += weight * copies * Double(encoded.count)
        if format == .directory {
            zooms[zoom].stored += weight * copies * Double(stored.count)
        } else if let first = seen[hash], first.size == stored.count {
            // Met again: a tile the archive stores once (the inside of a polygon, a row along
            // its edge), so the first one counts once, not for the tiles it stood for.
            if first.weight > 1 {
                zooms[first.zoom].stored -= (first.weight - 1) * Double(first.size)
                entries -= first.weight - 1
                seen[hash] = (first.size, first.zoom, 1)
            }
        } else {
            // A block is one stored tile; a sampled tile stands for others like it.
            let counted = block == nil ? weight : 1
            if seen.count < Self.maximumHashes { seen[hash] = (stored.count, zoom, counted) }
            zooms[zoom].stored += counted * Double(stored.count)
            entries += counted
        }
        return encoded.count
    }

    /// The most tile hashes remembered (a few MB).
    static let maximumHashes = 200_000
}
