import ArgumentParser
import Foundation
import OverlayKit
import OverlayModel

/// Tile output formats: an archive file, or a directory of MVT or GeoJSON tiles (`dir`: a
/// directory of the `--tile-format` encoding; `mvt` is one of MVT tiles).
enum TileFormat: String, ExpressibleByArgument, CaseIterable {
    case mvt, geojson, pmtiles, mbtiles, dir
}

/// `--tile-format`: the vector encoding of each tile (planetiler's option).
enum VectorTileFormat: String, ExpressibleByArgument, CaseIterable {
    case mvt, mlt
}

struct TileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile",
        abstract: "Cut overlays into vector tiles: a PMTiles or MBTiles archive, or a directory of MVT/GeoJSON tiles.",
        discussion: """
            -o out.pmtiles writes one PMTiles v3 file, -o out.mbtiles one MBTiles 1.3 file (gzip tiles), \
            a name without an extension a directory DIR/z/x/y.mvt (or .geojson) with DIR/metadata.json in \
            the layout tippecanoe and GDAL use. Any other extension (out.pmtile, out.geojson) is refused \
            unless --format dir (or --output-to-directory DIR, tippecanoe's -e) says a directory is meant. Every tile a feature reaches is clipped with a buffer and simplified \
            for its zoom (full detail at --max-zoom); the metadata holds bounds, zoom range, layer fields \
            and, under "overlaykit", per zoom every feature and ring that was dropped. Tiles left empty \
            are not written. The output appears only when complete (built beside it, then renamed); \
            a run that fails or is killed leaves the old output or none. --tolerance is in tile units \
            (1/extent of a tile): at extent 4096 the default 3 is 3/16 of a screen point. Defaults \
            match geojson-vt's.
            """
    )

    @OptionGroup var inputOptions: TileInputOptions

    @Option(name: [.short, .long], help: "Output: a .pmtiles or .mbtiles file, or a directory (a name without an extension, else with --format dir; not with --explain).")
    var outputOption: String?

    @Option(name: [.customShort("e"), .customLong("output-to-directory")],
            help: ArgumentHelp("Output: a directory of tiles, whatever its name (tippecanoe's -e; the same as -o DIR --format dir).", valueName: "dir"))
    var outputDirectory: String?

    /// Where the tiles go: `-o` or `-e`.
    var output: String? { outputOption ?? outputDirectory }

    @Option(help: ArgumentHelp("Also write a MapLibre style for the tiles (fill, line, circle layers per layer; colors from simplestyle and KML styles). See docs/serve.md.", valueName: "style.json"))
    var style: String?

    @Option(name: .customLong("style-tiles"), help: ArgumentHelp("The tile URL template the --style source uses (default: pmtiles://OUTPUT for PMTiles, OUTPUT/{z}/{x}/{y}.mvt for a directory).", valueName: "url"))
    var styleTiles: String?

    @Option(help: ArgumentHelp("Glyphs URL template ({fontstack}, {range}) for the --style's point labels (overlaykit serve serves them at /fonts/{fontstack}/{range}.pbf); without it the style has no labels.", valueName: "url"))
    var glyphs: String?

    @Option(help: ArgumentHelp("The labels' font stack on the --glyphs host, comma-separated.", valueName: "names"))
    var font = SDFGlyphFont.defaultFamily

    @Option(help: ArgumentHelp("Read nothing: set up a run split over workers in the folder DIR (see tile-job), with these options and -o.", valueName: "dir"))
    var job: String?

    @Option(name: .customLong("partition-zoom"), parsing: .unconditional, help: ArgumentHelp("With --job: the zoom whose tiles are the partitions workers cut (default 4, at most the max zoom and 8).", valueName: "zoom"))
    var partitionZoom: Int?

    @Flag(help: "Write nothing; print the zooms, tiles and bytes per zoom, output size, peak memory and disk the run would use (estimates; -o picks the format).")
    var plan = false

    @Option(name: .customLong("plan-tiles"), parsing: .unconditional, help: ArgumentHelp("With --plan: about this many tiles cut a zoom (default 512; more is slower and closer; the first zooms are cut whole).", valueName: "n"))
    var planTiles: Int?

    @Option(name: .customLong("plan-records"), parsing: .unconditional, help: ArgumentHelp("With --plan: parse about this many records of a large GeoJSON text sequence, chosen evenly, and grow their tiles to the whole input's (default 200000; 0 parses every record).", valueName: "n"))
    var planRecords: Int?

    @Option(help: ArgumentHelp("Write nothing; print what tile Z/X/Y of this run holds and, for every input feature that reaches it, why it is kept, thinned, too small, clustered or dropped.", valueName: "z/x/y"))
    var explain: String?

    @Option(name: [.customShort("Z"), .customLong("min-zoom"), .customLong("minimum-zoom")], parsing: .unconditional, help: "Lowest zoom written.")
    var minZoom = TileOptions.tileDefaults.minZoom

    @Option(name: [.customShort("z"), .customLong("max-zoom"), .customLong("maximum-zoom")], parsing: .unconditional,
            help: "Highest zoom written, with full detail (0…24), or g to guess it from the features' spacing (at most 20; -zg).")
    var maxZoomArgument: ZoomArgument = .zoom(TileOptions.tileDefaults.maxZoom)

    @Option(name: [.customLong("bbox"), .customLong("clip"), .customLong("clip-bounding-box")], parsing: .unconditional,
            help: ArgumentHelp("Tile only what lies inside this box, in degrees: features clipped to it, none outside, no tile outside it (w > e crosses the antimeridian; tippecanoe's --clip-bounding-box). A GeoParquet input skips the row groups and pages outside it.", valueName: "w,s,e,n"))
    var bbox: String?

    @OptionGroup(title: "Per-tile budget, thinning and clustering")
    var density: TileDensityOptions

    @Option(parsing: .unconditional, help: "Tile units across a tile.")
    var extent = TileOptions.tileDefaults.extent

    @Option(parsing: .unconditional, help: "Tile units kept beyond each edge (default 64).")
    var buffer: Int?

    @Option(parsing: .unconditional, help: "Simplification tolerance in tile units.")
    var tolerance = TileOptions.tileDefaults.tolerance

    @Flag(inversion: .prefixedNo,
          help: "Keep borders that polygons of a layer share shared at every zoom: each simplified once, snapped to the same tile units on both sides (tippecanoe's -ab).")
    var detectSharedBorders: Bool?

    @Option(help: "Output format: pmtiles, mbtiles, or a directory of mvt or geojson tiles (default: from the output's extension, else mvt).")
    var format: TileFormat?

    @Option(name: .customLong("tile-format"), help: ArgumentHelp("Vector encoding of each tile: mvt (Mapbox Vector Tile, the default) or mlt (MapLibre Tile: columnar, smaller; MapLibre GL JS ≥ 5.12 and Native read it with \"encoding\": \"mlt\").", valueName: "mvt|mlt"))
    var tileFormat: VectorTileFormat = .mvt

    @Option(name: [.customShort("l"), .long], help: "MVT layer of every input named without -L (default: each input's file name without extension).")
    var layer: String?

    @Option(parsing: .unconditional, help: "Decimal places for --format geojson coordinates.")
    var precision = 7

    @Option(parsing: .unconditional, help: "Threads to use (cutting tiles, and reading a GeoJSONSeq file in parts); by default one per core this process may use.")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Where projected features are kept while tiles are cut: memory (fastest), disk (temporary files, as tippecanoe: memory stays flat at any input size) or auto (disk for inputs of 128 MB or more as GeoJSON text, a GeoParquet file's estimated from its footer).", valueName: "auto|memory|disk"))
    var featureStore: Tiler.FeatureStore = .automatic

    @Option(name: [.customShort("t"), .customLong("tmpdir")], help: ArgumentHelp("Folder for the disk feature store's temporary files (default: $TMPDIR, else /tmp); a run checks its free space first.", valueName: "dir"))
    var temporaryDirectory: String?

    @OptionGroup var overwrite: OverwriteOption

    @OptionGroup(title: "tippecanoe's controls") var tippecanoe: TileAttributeOptions

    @Flag(inversion: .prefixedNo, help: "Print zoom, tiles written and rate on standard error (default: when it is a terminal).")
    var progress: Bool?

    /// The highest zoom: the number given, or the most a guess may choose.
    var maxZoom: Int {
        if case .zoom(let zoom) = maxZoomArgument { return zoom }
        return 20
    }

    /// The run these options ask for.
    var tiler: Tiler {
        get throws {
        var tiler = Tiler(output: output ?? "", layer: inputOptions.firstLayer(layer))
        switch format {
        case .pmtiles: tiler.archiveFormat = .pmtiles
        case .mbtiles: tiler.archiveFormat = .mbtiles
        case .geojson: tiler.archiveFormat = .directory; tiler.encoding = .geojson
        case .mvt, .dir: tiler.archiveFormat = .directory
        case nil: if outputDirectory != nil { tiler.archiveFormat = .directory }
        }
        if tileFormat == .mlt { tiler.encoding = .mlt }
        if let planTiles {
            guard planTiles >= 1 else { throw ValidationError("--plan-tiles takes a count ≥ 1, not \(planTiles)") }
            tiler.planSampleTiles = planTiles
        }
        if let planRecords {
            guard planRecords >= 0 else { throw ValidationError("--plan-records takes a count ≥ 0, not \(planRecords)") }
            tiler.planSampleRecords = planRecords
        }
        tiler.options.minZoom = minZoom
        tiler.options.maxZoom = maxZoom
        tiler.options.extent = extent
        tiler.options.buffer = buffer ?? TileOptions.tileDefaults.buffer
        tiler.options.tolerance = tolerance
        tiler.options.sharedBorders = detectSharedBorders ?? false
        tiler.precision = precision
        tiler.threads = threads
        tiler.replaceExisting = overwrite.force
        tiler.featureStore = featureStore
        tiler.temporaryDirectory = temporaryDirectory
        tiler.options.guessesMaxZoom = maxZoomArgument == .guess
        tiler.options.clipBox = try TileCommand.clipBox(bbox)
        try density.apply(to: &tiler)
        tippecanoe.apply(to: &tiler)
        return tiler
        }
    }

    func validate() throws {
        guard outputOption == nil || outputDirectory == nil else {
            throw ValidationError("-o and --output-to-directory (-e) both name the output: give one")
        }
        if outputDirectory != nil, let format, format == .pmtiles || format == .mbtiles {
            throw ValidationError("--output-to-directory writes a directory; --format \(format.rawValue) is a file: use -o")
        }
        if job != nil {
            guard explain == nil && !plan else { throw ValidationError("--job sets a run up; --plan and --explain read one") }
            guard inputOptions.inputs.isEmpty && inputOptions.namedLayers.isEmpty else {
                throw ValidationError("--job reads no input: give each shard to 'overlaykit tile-job split'")
            }
        } else if partitionZoom != nil {
            throw ValidationError("--partition-zoom goes with --job")
        }
        guard planTiles == nil || plan else { throw ValidationError("--plan-tiles goes with --plan") }
        guard planRecords == nil || plan else { throw ValidationError("--plan-records goes with --plan") }
        if explain != nil {
            guard output == nil else { throw ValidationError("--explain writes nothing: leave out -o") }
            guard !plan else { throw ValidationError("--plan and --explain cannot be used together") }
            _ = try explainedTile()
        } else if plan {
            // -o only chooses the format.
        } else {
            guard let output else { throw ValidationError("Missing expected argument '--output <output>'") }
            try validateTileSetOutput(output)
        }
        if style == nil {
            guard glyphs == nil else { throw ValidationError("--glyphs goes with --style") }
        } else {
            guard explain == nil && !plan else { throw ValidationError("--style goes with a run that writes tiles, not --plan or --explain") }
            guard glyphs == nil || StyleFontStack.names(font) != nil else { throw ValidationError("--font needs at least one font name") }
            if styleTiles == nil, (try? tiler.resolvedArchiveFormat) == .mbtiles {
                throw ValidationError("--style for an MBTiles output needs --style-tiles URL: a browser cannot read MBTiles")
            }
        }
        guard buffer == nil || tippecanoe.bufferPixels == nil else { throw ValidationError("--buffer and --buffer-pixels cannot be used together") }
        guard format != .geojson || tileFormat == .mvt else { throw ValidationError("--format geojson and --tile-format mlt cannot be used together") }
        if let output, format == .geojson && TileArchiveFormat(path: output) != .directory {
            throw ValidationError("--format geojson writes a directory; PMTiles and MBTiles hold MVT tiles")
        }
        if let output, let format {
            let archive: TileArchiveFormat = format == .pmtiles ? .pmtiles : format == .mbtiles ? .mbtiles : .directory
            if let contradiction = Tiler.nameContradicting(output, format: archive) { throw ValidationError(contradiction) }
        }
        // The ranges are checked once, by the library, and said with this command's option names.
        if let problem = try tiler.problems.first {
            throw ValidationError("\(Self.optionName(problem.setting)) \(problem.requirement.replacingOccurrences(of: "maxZoom", with: "--max-zoom")), not \(problem.value)")
        }
    }

    /// `--bbox`'s box, parsed as `filter --bbox` parses its box; nil without one.
    /// - Throws: `ValidationError` (exit 64) naming the option for a box that is not four numbers
    ///   within ±180° and ±90°, or that has no area.
    static func clipBox(_ text: String?, option: String = "--bbox") throws -> GeographicBox? {
        guard let text else { return nil }
        let box: GeographicBox
        do { box = try GeographicBox(parsing: text) } catch let diagnostic as Diagnostic {
            throw ValidationError("\(option): \(diagnostic.message)")
        }
        guard box.south < box.north, box.west != box.east else {
            throw ValidationError("\(option) needs a box with area: south < north and west ≠ east (west > east crosses the antimeridian), not \(text)")
        }
        return box
    }

    /// The option that sets a library setting (`TileSettingProblem.setting`).
    static func optionName(_ setting: String) -> String {
        let names = ["minZoom": "--min-zoom", "maxZoom": "--max-zoom", "extent": "--extent", "buffer": "--buffer",
                     "tolerance": "--tolerance", "precision": "--precision", "threads": "--threads",
                     "pointDropRate": "--drop-rate", "baseZoom": "--base-zoom", "tinyPolygonSize": "--tiny-polygon-size",
                     "clusterDistance": "--cluster-distance", "clusterMaxZoom": "--cluster-maxzoom",
                     "budget.maxBytes": "--max-tile-bytes", "budget.maxFeatures": "--max-tile-features",
                     "generateID": "--generate-ids", "encoding": "--format", "output": "-o", "clipBox": "--bbox"]
        return names[setting] ?? setting
    }

    /// `--explain`'s z/x/y.
    func explainedTile() throws -> TileID? {
        guard let explain else { return nil }
        let parts = explain.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2], (0...24).contains(z),
              x >= 0, y >= 0, x < 1 << z, y < 1 << z else {
            throw ValidationError("--explain takes z/x/y with z 0…24 and x, y 0…2^z − 1, not \(explain)")
        }
        return TileID(z: z, x: x, y: y)
    }

    func run() throws {
        if let job, let output {
            try runReportingErrors {
                let tiler = try tiler
                let zoom = partitionZoom ?? min(4, tiler.options.maxZoom)
                _ = try TileJob.create(work: job, tiler: tiler, partitionZoom: zoom)
                if !tippecanoe.quiet {
                    Report.standardError("tile: a run into \(output) set up in \(job), partitioned at z\(zoom); now "
                        + "'overlaykit tile-job split \(job) N SHARD' for each shard N of the input (numbered in input order from 0 or 1), "
                        + "'overlaykit tile-job plan \(job)', 'overlaykit tile-job cut \(job) P' for each partition P it prints, "
                        + "and 'overlaykit tile-job finish \(job)'\n")
                }
            }
            return
        }
        if let tile = try explainedTile() {
            try runReportingErrors {
                var inputs = try inputOptions.open(layer: layer, tiler: try tiler)
                let explanation = try tiler.explain(tile, reading: &inputs, onWarning: Report.diagnostic)
                print(TileExplanationText(explanation).text, terminator: "")
            }
            return
        }
        if plan {
            try runReportingErrors {
                var inputs = try inputOptions.open(layer: layer, tiler: try tiler)
                let estimate = try tiler.plan(reading: &inputs, onWarning: Report.diagnostic)
                print(Self.text(estimate, format: try tiler.resolvedArchiveFormat), terminator: "")
            }
            return
        }
        guard let output else { return }
        try runReportingErrors {
            var inputs = try inputOptions.open(layer: layer, tiler: try tiler)
            let meter = ProgressMeter(show: tippecanoe.quiet ? false : progress) { Report.standardError($0) }
            var onProgress: (@Sendable (TileRunProgress) -> Void)?
            if meter.enabled {
                onProgress = { progress in
                    // Stages drawn at once when they begin: reading, reading under way (the first
                    // report with features read, so its percentage and time left show), writing.
                    let stage = progress.stage == .writing ? 3 : progress.featuresRead == 0 ? 1 : 2
                    meter.update(stage: stage) { Self.progressLine(progress, seconds: meter.elapsedSeconds) }
                }
            }
            let tiler = try tiler
            let report = try tiler.run(reading: &inputs, onWarning: tippecanoe.show, onProgress: onProgress)
            var done = TileRunProgress(stage: .writing)
            done.written = TileWriteCounts(report.zooms)
            if meter.finish(Self.progressLine(done, seconds: meter.elapsedSeconds, finished: true)) {
                Report.standardError("tile: read and projected \(report.input.features) features in \((report.readingSeconds * 100).rounded() / 100) s\n")
            }
            let size = report.fileBytes.map { "\($0) bytes" } ?? "\(report.encodedBytes) bytes of tiles"
            let guessed = maxZoomArgument == .guess ? " (max zoom guessed from the features' spacing)" : ""
            if !tippecanoe.quiet {
                let spill = report.temporaryBytes.map { "; features on disk, at most \(($0 + (1 << 20) - 1) >> 20) MB of temporary files" } ?? ""
                Report.standardError("tile: \(report.tiles) tiles, z\(minZoom)–z\(report.metadata.maxZoom)\(guessed), \(size) in \(output)\(spill)\n")
            }
            report.diagnostics.forEach(tippecanoe.show)
            if let style {
                try TileStyleOutput.write(style, metadata: report.metadata, output: output, format: tiler.resolvedArchiveFormat,
                                          tiles: styleTiles, glyphs: glyphs, fontStack: StyleFontStack.names(font) ?? [],
                                          replaceExisting: overwrite.force)
            }
        }
    }
}

extension TileCommand {
    /// The progress line. Reading: bytes of the inputs' size (a percentage and the time left when
    /// the size is known) and features. Writing: the deepest zoom reached, tiles written (and at
    /// that zoom), the percentage of the tiles the features reach and the time left, tiles a second.
    static func progressLine(_ progress: TileRunProgress, seconds: Double, finished: Bool = false) -> String {
        switch progress.stage {
        case .reading:
            var text = "tile: reading"
            if let position = progress.position {
                text += " \(megabytes(position.bytesRead))"
                if let total = position.totalBytes { text += " of \(megabytes(total))" }
                text += ","
            }
            text += " \(progress.featuresRead) features"
            if let fraction = progress.fractionOfStage,
               let estimate = ProgressEstimate(done: fraction, total: 1, elapsedSeconds: progress.secondsInStage) {
                text += ", " + estimate.text
            }
            return text
        case .writing:
            let counts = progress.written
            let zoom = counts.deepestZoom ?? 0
            let atZoom = counts.zooms.indices.contains(zoom) ? counts.zooms[zoom].tiles : 0
            var text = "tile: z\(zoom) \(counts.tiles) tiles (\(atZoom) at z\(zoom))"
            if finished {
                text += ", 100%"
            } else if let fraction = progress.fractionOfStage,
                      let estimate = ProgressEstimate(done: fraction, total: 1, elapsedSeconds: progress.secondsInStage) {
                text += ", " + estimate.text
            }
            return text + ", \(Int((Double(counts.tiles) / seconds).rounded())) tiles/s"
        }
    }

    /// "12.3 MB", or "456.7 KB" below a megabyte.
    static func megabytes(_ bytes: Int) -> String {
        bytes < 1_000_000 ? "\((Double(bytes) / 100).rounded() / 10) KB" : "\((Double(bytes) / 100_000).rounded() / 10) MB"
    }

    /// `--plan`'s table.
    static func text(_ plan: TilePlan, format: TileArchiveFormat) -> String {
        func megabytes(_ bytes: Int) -> String { bytes < 10 << 20 ? "\(bytes / 1024) KiB" : "\(bytes >> 20) MiB" }
        let cut = plan.zooms.reduce(0) { $0 + $1.tilesCut }
        var basis = plan.exact ? "every tile cut: the run's numbers" : "\(cut) tiles cut, each standing for those like it"
        if plan.recordStride > 1 { basis += "; 1 input record in \(plan.recordStride) parsed, its tiles grown to the whole input's" }
        let store = plan.onDisk ? ", features on disk" : ""
        var lines = ["plan: \(plan.features) features\(store), z\(plan.zooms.first?.zoom ?? 0)–z\(plan.maxZoom), "
                        + "points thinned below z\(plan.baseZoom) (\(basis))",
                     "zoom  tiles  encoded bytes  stored bytes"]
        for zoom in plan.zooms {
            lines.append(String(repeating: " ", count: max(0, 4 - "\(zoom.zoom)".count))
                + "\(zoom.zoom)  \(zoom.tiles)  \(zoom.bytes)  \(zoom.storedBytes)")
        }
        lines.append("total: \(plan.tiles) tiles, \(plan.bytes) encoded bytes; \(format.rawValue) output about \(megabytes(plan.outputBytes)) (\(plan.outputBytes) bytes), "
            + "disk beside it while built about \(megabytes(plan.temporaryDiskBytes)), peak memory about \(megabytes(plan.peakMemoryBytes))")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Tiler.FeatureStore: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument == "auto" ? "automatic" : argument)
    }

    public static var allValueStrings: [String] { ["auto", "memory", "disk"] }
}
