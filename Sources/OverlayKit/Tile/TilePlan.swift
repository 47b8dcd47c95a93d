#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// What a tile run will write, estimated before it does (`overlaykit tile --plan`): the zooms,
/// tiles and bytes per zoom, memory and disk.
///
/// Tiles per zoom are counted from every feature the zoom draws (thinned points left out): the
/// tiles its bounding box covers, buffer included, as a set (long lines: their length in tiles;
/// polygons covering more than 4,096 tiles: their box's area, overlaps counted twice). Bytes come
/// from cutting and encoding a deterministic sample of the features (every k-th input feature,
/// at most `Tiler.planSampleFeatures`) and scaling by k, each tile capped at the budget; with
/// no more features than that, every tile is cut and held to its budget, so bytes are exact.
public struct TilePlan: Sendable {
    /// One zoom's estimate.
    public struct Zoom: Sendable {
        /// The zoom.
        public var zoom: Int
        /// Tiles that will be written.
        public var tiles: Int
        /// Encoded tile bytes before archive compression (what the run reports per zoom).
        public var bytes: Int
    }

    /// The max zoom the run will use (guessed, when asked).
    public var maxZoom: Int
    /// The base zoom of point thinning.
    public var baseZoom: Int
    /// Input features read.
    public var features: Int
    /// Per zoom from the run's min zoom.
    public var zooms: [Zoom]
    /// One in this many input features was cut to estimate bytes (1: all, bytes exact).
    public var sampleEvery: Int
    /// The peak resident memory the run should reach, in bytes (with the disk feature store, a
    /// base and bytes per feature measured at scale; else the projected input's, measured).
    public var peakMemoryBytes: Int
    /// The archive's size on disk (gzip tiles; a directory holds the encoded bytes).
    public var outputBytes: Int
    /// The most disk the run uses beside the output while it is built: a PMTiles archive stages
    /// its tiles and then assembles the file (twice its size at the end); MBTiles and directories
    /// about their size; with the disk feature store (`Tiler.FeatureStore.disk`), also its
    /// temporary files, about 4 times the input.
    public var temporaryDiskBytes: Int

    /// All tiles.
    public var tiles: Int { zooms.reduce(0) { $0 + $1.tiles } }
    /// All encoded bytes.
    public var bytes: Int { zooms.reduce(0) { $0 + $1.bytes } }
}

extension Tiler {
    /// Estimates the run these settings describe without writing anything (see ``TilePlan``).
    /// - Throws: `Diagnostic` `tile.bad-option`; the reader's errors.
    public func plan(reading reader: inout some FeatureReader, onWarning: (Diagnostic) -> Void = { _ in }) throws -> TilePlan {
        try withSingleInput(&reader) { try plan(reading: &$0, onWarning: onWarning) }
    }

    /// Estimates a run over several inputs (see `run(reading:onWarning:onProgress:)` with inputs).
    /// - Throws: `Diagnostic` `tile.bad-option`; the readers' errors.
    public func plan(reading inputs: inout [TileInput], onWarning: (Diagnostic) -> Void = { _ in }) throws -> TilePlan {
        try validate(inputs: inputs)
        let store = featureStorePlan(for: inputs)
        let source = try TileSource(reading: &inputs, options: options, readThreads: threads, onWarning: onWarning)
        let projectedMemory = Self.residentBytes()
        let options = source.options
        let zoomRange = min(options.minZoom, options.maxZoom)...options.maxZoom
        let tileCounts = zoomRange.map { TileCoverage.count(source, zoom: $0) }
        let every = max(1, (source.inputCounts.features + planSampleFeatures - 1) / max(1, planSampleFeatures))
        let sample = every == 1 ? source : source.sample(every: every)
        let encoder = LayeredMVTEncoder(names: source.layers.names.isEmpty ? [layer] : source.layers.names,
                                        encoding: encoding == .mlt ? .mlt : .mvt)
        let budget = options.budget
        let lock = NSLock()
        nonisolated(unsafe) var bytes = [Int](repeating: 0, count: options.maxZoom + 1)
        nonisolated(unsafe) var compressed = [Int](repeating: 0, count: options.maxZoom + 1)
        _ = try TilePyramid.build(sample, minZoom: zoomRange.lowerBound, parallelism: threads) { tile in
            var size: Int, stored: Int
            if every == 1 {
                let encoded = try budget.fit(&tile) { encoder.encode($0).0 }
                size = encoded.count
                stored = try Gzip.compress(encoded).count
            } else {
                let encoded = encoder.encode(tile).0
                let ratio = Double(try Gzip.compress(encoded).count) / Double(max(1, encoded.count))
                var scaled = Double(encoded.count) * Double(every)
                // The run holds each tile to its budget (of gzip bytes and of features).
                if let maxBytes = budget.maxBytes { scaled = min(scaled, Double(maxBytes) / max(ratio, 0.01)) }
                if let maxFeatures = budget.maxFeatures, tile.features.count * every > maxFeatures {
                    scaled = min(scaled, scaled * Double(maxFeatures) / Double(tile.features.count * every))
                }
                size = Int(scaled)
                stored = Int(scaled * ratio)
            }
            lock.lock()
            bytes[tile.id.z] += size
            compressed[tile.id.z] += stored
            lock.unlock()
            return size
        }
        let zooms = zip(zoomRange, tileCounts).map { TilePlan.Zoom(zoom: $0.0, tiles: $0.1, bytes: bytes[$0.0]) }
        let encoded = zooms.reduce(0) { $0 + $1.bytes }
        let format = resolvedArchiveFormat
        let output = format == .directory ? encoded : compressed[zoomRange].reduce(0, +)
        let features = source.inputCounts.features
        let archiveDisk = format == .pmtiles ? 2 * output : output
        return TilePlan(maxZoom: options.maxZoom, baseZoom: options.resolvedBaseZoom, features: features,
                        zooms: zooms, sampleEvery: every,
                        peakMemoryBytes: store.onDisk
                            ? Self.diskStoreBaseMemory.addingSaturating(features.multipliedSaturating(by: Self.diskStoreBytesPerFeature))
                            : Int(Double(projectedMemory) * Self.peakMemoryFactor),
                        outputBytes: output,
                        temporaryDiskBytes: store.onDisk ? archiveDisk.addingSaturating(store.temporaryBytes) : archiveDisk)
    }

    /// Peak memory of a disk-store run: a base (batches of tiles, the densest tile, buffers) and
    /// bytes per input feature, measured on 2 and 6 million clustered points and 1 million small
    /// polygons (Benchmarks/bench_tile_memory.py: 0.42, 0.64 and 0.36 GB).
    static let diskStoreBaseMemory = 300 << 20
    static let diskStoreBytesPerFeature = 55

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

/// The tiles a zoom's features reach, counted without cutting them (see ``TilePlan``): points
/// by their tile (and the neighbours whose buffer they fall in), lines by the tiles along their
/// segments, polygons by the tiles along their rings plus the tiles whose centre row lies inside
/// (even-odd). Features whose box spans more than 4,096 tiles are counted arithmetically
/// (length in tiles for lines; area plus perimeter in tiles for polygons), overlaps twice.
enum TileCoverage {
    static let exactBoxLimit = 4096.0

    static func count(_ source: TileSource, zoom: Int) -> Int {
        var counter = Counter(zoom: zoom, margin: Double(source.options.buffer) / Double(source.options.extent))
        for feature in source.features where FeatureVisibility.hidden(feature.tags, zoom: zoom) == nil {
            counter.add(feature)
        }
        return counter.tiles.count + Int(saturating: min(counter.uncounted, Double(counter.across) * Double(counter.across)))
    }

    struct Counter {
        let across: Int
        let tileSize: Double
        /// The buffer in map points.
        let margin: Double
        var tiles = Set<Int>()
        var uncounted = 0.0

        init(zoom: Int, margin: Double) {
            across = 1 << zoom
            tileSize = MapProjection.worldSize / Double(across)
            self.margin = margin * tileSize
        }

        func column(_ value: Double) -> Int { Int(saturating: (value / tileSize).rounded(.down)).clamped(to: 0...(across - 1)) }

        /// The tile of a point and those whose buffer it lies in.
        mutating func insert(x: Double, y: Double) {
            for tx in column(x - margin)...column(x + margin) {
                for ty in column(y - margin)...column(y + margin) { tiles.insert(ty * across + tx) }
            }
        }

        mutating func add(_ feature: ProjectedFeature) {
            let c = feature.coordinates
            if feature.type == .point {
                var index = 0
                while index + 1 < c.count {
                    insert(x: c[index], y: c[index + 1])
                    index += 3
                }
                return
            }
            guard feature.minX.isFinite, feature.maxX.isFinite, feature.minY.isFinite, feature.maxY.isFinite else { return }
            let x0 = column(feature.minX - margin), x1 = column(feature.maxX + margin)
            let y0 = column(feature.minY - margin), y1 = column(feature.maxY + margin)
            let boxTiles = Double(x1 - x0 + 1) * Double(y1 - y0 + 1)
            if boxTiles > exactBoxLimit {
                var perimeter = 0.0
                forEachSegment(feature) { ax, ay, bx, by in perimeter += ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot() }
                var area = 0.0
                if feature.type == .polygon {
                    for ring in feature.rings { area += ring.isOuter ? ring.size : -ring.size }
                }
                uncounted += perimeter / tileSize + max(0, area) / (tileSize * tileSize) + 1
                return
            }
            // Along every segment, in steps of half a tile.
            forEachSegment(feature) { ax, ay, bx, by in
                let steps = Int(saturating: (max(abs(bx - ax), abs(by - ay)) / tileSize * 2).rounded(.up)).clamped(to: 1...8192)
                for step in 0...steps {
                    let t = Double(step) / Double(steps)
                    insert(x: ax + (bx - ax) * t, y: ay + (by - ay) * t)
                }
            }
            guard feature.type == .polygon, y1 > y0 || x1 > x0 else { return }
            // Inside: crossings of each tile row's centre line, filled pairwise (even-odd).
            for ty in y0...y1 {
                let centre = (Double(ty) + 0.5) * tileSize
                var crossings = [Double]()
                forEachSegment(feature) { ax, ay, bx, by in
                    if (ay <= centre) != (by <= centre) { crossings.append(ax + (centre - ay) / (by - ay) * (bx - ax)) }
                }
                crossings.sort()
                var pair = 0
                while pair + 1 < crossings.count {
                    for tx in column(crossings[pair])...column(crossings[pair + 1]) { tiles.insert(ty * across + tx) }
                    pair += 2
                }
            }
        }

        /// Every segment of every ring or line, in map points.
        func forEachSegment(_ feature: ProjectedFeature, _ body: (Double, Double, Double, Double) -> Void) {
            let c = feature.coordinates
            for ring in feature.rings where ring.count > 1 {
                var index = ring.start * 3
                let end = (ring.start + ring.count - 1) * 3
                while index < end {
                    body(c[index], c[index + 1], c[index + 3], c[index + 4])
                    index += 3
                }
            }
        }
    }
}
