import Foundation
import OverlayModel

/// `overlaykit tile` as one library call (go-pmtiles' `Convert`): reads features, projects
/// them, builds every tile of a zoom range, encodes each one, stores it in an archive with the
/// tile set's metadata, and returns one report.
///
/// ```swift
/// var reader = try FeatureIO.reader(for: ByteInput(path: "Examples/parks.geojson"))
/// var tiler = Tiler(output: "parks.pmtiles", layer: "parks")
/// tiler.options.maxZoom = 12
/// let report = try tiler.run(reading: &reader)
/// for note in report.diagnostics { print(note) }
/// ```
///
/// Nothing appears at ``output`` until the whole set is written; a run that throws leaves the
/// old output (or none).
public struct Tiler: Sendable, Codable {
    /// The output: a `.pmtiles` or `.mbtiles` file, or a directory.
    public var output: String
    /// The container; nil takes it from ``output``'s extension (anything else is a directory).
    public var archiveFormat: TileArchiveFormat?
    /// How tiles are encoded (GeoJSON tiles need a directory).
    public var encoding: TileEncoding = .mvt
    /// The layer of the input `run(reading:onWarning:onProgress:)` with one reader reads (several
    /// inputs name their own), and the tile set's name when ``name`` is nil.
    public var layer: String
    /// The tile set's name in its metadata; nil uses ``layer``.
    public var name: String?
    /// A sentence about the tile set in its metadata (tippecanoe's `-N`); empty for none.
    public var description = ""
    /// The data's attribution in the metadata (tippecanoe's `-A`); nil for none.
    public var attribution: String?
    /// Every setting that decides what the tiles hold: zoom range and guesses, extent, buffer,
    /// tolerance, ids, attributes, thinning, tiny shapes, clustering and the tile budget. A new
    /// `Tiler` starts from ``TileOptions/tileDefaults`` (tippecanoe's); `TileOptions()` alone is
    /// geojson-vt's.
    public var options = TileOptions.tileDefaults
    /// `plan(reading:onWarning:)` cuts about this many tiles a zoom (every tile of the first
    /// zooms, while this covers them).
    public var planSampleTiles = 512
    /// `plan(reading:onWarning:)` parses about this many records of a large GeoJSON text
    /// sequence or FeatureCollection, chosen evenly, and grows what their tiles take to the
    /// whole input's (0: parse every record).
    public var planSampleRecords = 200_000
    /// Decimal places of GeoJSON tile coordinates.
    public var precision = 7
    /// Threads that cut tiles, and that read a GeoJSON text sequence file in parts (1 does
    /// everything on the calling thread).
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Replace an existing output (otherwise an existing non-empty output is an error).
    public var replaceExisting = false

    /// What to tell the readers of this run's inputs (``FeatureIO/reader(for:format:kmzLimits:geometryColumn:hints:)``):
    /// decode on ``threads`` threads, read only ``TileOptions/propertiesRead``, and leave out
    /// what lies outside ``TileOptions/clipBox`` (a GeoParquet reader skips those row groups and
    /// pages). The tiles are the same bytes as when every feature and property is read on one thread.
    public var readHints: FeatureReadHints {
        FeatureReadHints(extent: options.clipBox, properties: options.propertiesRead, threads: threads)
    }
    /// Where projected features are kept while tiles are cut (see ``FeatureStore``).
    public var featureStore = FeatureStore.automatic
    /// The folder of the temporary files ``FeatureStore/disk`` writes; nil uses `$TMPDIR`, else `/tmp`.
    public var temporaryDirectory: String?

    /// Where a run keeps its projected features.
    public enum FeatureStore: String, Sendable, CaseIterable, Codable {
        /// In memory: fastest, but memory grows with the input (about 1 KB per point).
        case memory
        /// In temporary files, read back zoom by zoom (as tippecanoe does): memory stays flat
        /// whatever the input's size; the disk holds about three times the input while tiles
        /// are cut. The files have no name from the moment they are made, so none is ever left
        /// behind, whatever ends the run.
        case disk
        /// ``disk`` when the inputs' features would take ``Tiler/automaticDiskBytes`` or more as
        /// GeoJSON text in all (``FeatureReader/featureTextBytes``), else ``memory``.
        case automatic
    }

    /// ``FeatureStore/automatic`` keeps features on disk from this many input bytes on.
    public static let automaticDiskBytes = 128 << 20

    /// A run writing `layer` into `output`, with `tile`'s options (``TileOptions/tileDefaults``).
    public init(output: String, layer: String) {
        self.output = output
        self.layer = layer
        options = .tileDefaults
    }

    /// The container that will be written.
    public var resolvedArchiveFormat: TileArchiveFormat { archiveFormat ?? TileArchiveFormat(path: output) }

    /// Every setting out of its range: ``options``' and the run's own (``precision``,
    /// ``threads``, an encoding the container cannot hold); empty when all are fine.
    public var problems: [TileSettingProblem] {
        var found = options.problems
        if !(0...17).contains(precision) {
            found.append(TileSettingProblem(setting: "precision", requirement: "must be 0…17", value: "\(precision)"))
        }
        if threads < 1 { found.append(TileSettingProblem(setting: "threads", requirement: "must be ≥ 1", value: "\(threads)")) }
        if encoding == .geojson && resolvedArchiveFormat != .directory {
            found.append(TileSettingProblem(setting: "encoding", requirement: "must be mvt or mlt in a \(resolvedArchiveFormat.rawValue) archive "
                + "(GeoJSON tiles need a directory)", value: encoding.rawValue))
        }
        if archiveFormat == nil, let suffix = TileArchiveFormat.undeclaredDirectoryExtension(output) {
            found.append(TileSettingProblem(setting: "output", requirement: "must end in .pmtiles or .mbtiles, or be declared a directory "
                + "(--format dir, --output-to-directory): .\(suffix) is not a tile set's extension", value: output))
        }
        if let contradiction = Self.nameContradicting(output, format: resolvedArchiveFormat) {
            found.append(TileSettingProblem(setting: "output", requirement: "must not contradict the format (\(contradiction))",
                                            value: output))
        }
        return found
    }

    /// Checks every setting before any work starts; the error names the first one out of range
    /// (``problems`` has them all).
    /// - Throws: `Diagnostic` `tile.bad-option`.
    public func validate() throws {
        if let first = problems.first { throw first.diagnostic }
    }

    /// Why `output`'s name lies about `format`, or nil when it does not: a name ending
    /// `.pmtiles` or `.mbtiles` holds that format, and a PMTiles or MBTiles file is not named as
    /// a feature or picture file (`x.geojson`). A name without such an extension says nothing
    /// (readers recognise tile sets by their bytes).
    public static func nameContradicting(_ output: String, format: TileArchiveFormat) -> String? {
        let named = TileArchiveFormat(path: output)
        if named != .directory && named != format {
            return "\(output) is named as \(named.rawValue) but the format asked for is \(format.rawValue): "
                + "name it .\(format == .directory ? "something without either extension" : format.rawValue) or drop the format"
        }
        if format != .directory, named == .directory, let other = FileFormat(pathExtensionOf: output) {
            return "\(output) is named as \(other.rawValue) but would hold \(format.rawValue): name it .\(format.rawValue)"
        }
        return nil
    }

    /// What a run wrote and left out.
    public struct Report: Sendable {
        /// The metadata stored with the tiles.
        public var metadata: TileSetMetadata
        /// Per zoom from ``TileOptions/minZoom``: tiles, bytes, features and what was dropped.
        public var zooms: [TileZoomCounts]
        /// What was read, and what had nothing to tile.
        public var input: TileInputCounts
        /// What the tile encoding could not hold, counted once per input feature or value.
        public var losses: TileEncodingLosses
        /// The size of the output file (PMTiles, MBTiles); nil for a directory.
        public var fileBytes: Int?
        /// Wall seconds spent reading and projecting the input, before the first tile was cut
        /// (the phase ``Tiler/threads`` above 1 spreads over cores for a GeoJSON text sequence file).
        public var readingSeconds: Double = 0
        /// With the disk feature store, the most bytes its temporary files held at once (they
        /// live in the page cache and may never reach the disk); nil in memory.
        public var temporaryBytes: Int?
        /// Features whose `tippecanoe` member named a layer they could not go to (GeoJSON tiles
        /// hold one; at most `TileLayers.maximumCount` layers), and members whose minzoom or
        /// maxzoom is not a number (ignored).
        public var tippecanoeMembersIgnored = (layers: 0, zooms: 0)

        /// Tiles written.
        public var tiles: Int { zooms.reduce(0) { $0 + $1.tiles } }
        /// Encoded tile bytes before archive compression.
        public var encodedBytes: Int { zooms.reduce(0) { $0 + $1.bytes } }

        /// Notes and warnings about what was dropped or changed, each with its count (empty
        /// when nothing was): tiny and degenerate parts, features without geometry, and what
        /// MVT cannot hold.
        public var diagnostics: [Diagnostic] {
            var notes = [Diagnostic]()
            var total = TileStatistics()
            for zoom in zooms { total += zoom.statistics }
            let dropped = total.droppedTinyRings + total.droppedTinyLines + total.droppedDegenerateRings
                + total.droppedDegenerateLines
            if dropped > 0 || total.droppedFeatures > 0 {
                notes.append(Diagnostic(.note, code: .tileDropped,
                    message: "\(total.droppedTinyRings) tiny rings, \(total.droppedTinyLines) tiny lines, "
                        + "\(total.droppedDegenerateRings + total.droppedDegenerateLines) degenerate rings/lines and "
                        + "\(total.droppedFeatures) feature copies left empty were not written "
                        + "(per zoom in the metadata under \"\(TileSetMetadata.dropReportKey)\")"))
            }
            if total.thinnedFeatures + total.tinyStandIns + total.clusters > 0 {
                notes.append(Diagnostic(.note, code: .tileDensity,
                    message: "\(total.thinnedFeatures) point copies were thinned out below the base zoom, "
                        + "\(total.tinyStandIns) stand-ins drawn for tiny rings and lines, and \(total.clusteredPoints) "
                        + "points merged into \(total.clusters) clusters (per zoom in the metadata)"))
            }
            if total.overflowedSums > 0 {
                notes.append(Diagnostic(.warning, code: .tileSumOverflow,
                    message: "\(total.overflowedSums) cluster attributes were left out: the sum of their members' values "
                        + "is beyond the largest double (±1.8e308); a mean stays finite (per zoom in the metadata)"))
            }
            if total.filteredAtZoom > 0 {
                let perZoom = zooms.filter { $0.statistics.filteredAtZoom > 0 }.map { "z\($0.zoom): \($0.statistics.filteredAtZoom)" }
                notes.append(Diagnostic(.note, code: .tileFiltered,
                    message: "\(total.filteredAtZoom) feature copies were left out at zooms where --where (naming $zoom) does not "
                        + "hold (\(perZoom.joined(separator: ", ")))"))
            }
            if total.droppedForBudget + total.coalescedForBudget > 0 {
                let atMaxZoom = zooms.last.map { $0.statistics.droppedForBudget + $0.statistics.coalescedForBudget } ?? 0
                let perZoom = zooms.filter { $0.statistics.droppedForBudget + $0.statistics.coalescedForBudget > 0 }
                    .map { "z\($0.zoom): \($0.statistics.droppedForBudget + $0.statistics.coalescedForBudget)" }
                notes.append(Diagnostic(atMaxZoom > 0 ? .warning : .note, code: .tileBudget,
                    message: "\(total.droppedForBudget) feature copies dropped and \(total.coalescedForBudget) merged to keep "
                        + "tiles within their budget (\(perZoom.joined(separator: ", ")))"
                        + (atMaxZoom > 0 ? "; at the max zoom they are missing from the tiles: raise --max-tile-bytes "
                            + "or --max-zoom to keep them" : "")))
            }
            if input.withoutGeometry + input.withoutPositions > 0 {
                notes.append(Diagnostic(.warning, code: .tileNoGeometry,
                    message: "\(input.withoutGeometry) features without geometry and \(input.withoutPositions) "
                        + "without positions have nothing to tile"))
            }
            if losses.idsNotWritten > 0 {
                notes.append(Diagnostic(.warning, code: .mvtIdNotInteger,
                    message: "\(losses.idsNotWritten) features have ids that are not unsigned integers; MVT cannot "
                        + "hold them and they were not written"))
            }
            if losses.nullValuesNotWritten > 0 {
                notes.append(Diagnostic(.warning, code: .mvtNullValue,
                    message: "\(losses.nullValuesNotWritten) null property values (counted once per feature) have no MVT form and were not written"))
            }
            if losses.valuesWrittenAsJSON > 0 {
                notes.append(Diagnostic(.note, code: .mvtJsonValue,
                    message: "\(losses.valuesWrittenAsJSON) object or array property values (counted once per feature) were written as JSON text"))
            }
            if tippecanoeMembersIgnored.layers > 0 {
                notes.append(Diagnostic(.warning, code: .tileTippecanoeLayerIgnored,
                    message: "\(tippecanoeMembersIgnored.layers) features name a layer in their \"tippecanoe\" member that "
                        + "they could not go to (GeoJSON tiles hold one layer; a run makes at most \(TileLayers.maximumCount)); "
                        + "they went to their input's layer"))
            }
            if tippecanoeMembersIgnored.zooms > 0 {
                notes.append(Diagnostic(.warning, code: .tileTippecanoeZoomIgnored,
                    message: "\(tippecanoeMembersIgnored.zooms) \"tippecanoe\" minzoom/maxzoom values are not numbers and were ignored"))
            }
            return notes
        }
    }

    /// Tiles everything `reader` yields.
    ///
    /// With ``threads`` above 1, a GeoJSON text sequence read from a regular file is read and
    /// projected on that many threads, a part of the file each (tippecanoe's `-P`); the tiles,
    /// warnings and errors are the same as with one.
    /// - Parameters:
    ///   - reader: the input; read to its end before the first tile is cut (or, when it is read
    ///     in parts, left unread).
    ///   - onWarning: the reader's warnings, as they are found; then, once the input is read, a
    ///     `tile.attribute-type` warning counting values ``TileOptions/attributeTypes`` left out, a
    ///     `tile.attribute-not-found` warning naming property names no tiled feature has, and a
    ///     `tile.filtered` note counting features ``TileOptions/featureFilter`` left out (each when any were).
    ///   - onProgress: how far the run is (``TileRunProgress``): while reading, once before the
    ///     first feature and every 1,024 features, with the inputs' bytes read of their size; then
    ///     after every tile written, with the tiles the features reach (under a lock: keep it quick).
    /// - Returns: what was written and what was left out (``Report/diagnostics`` says it in words).
    /// - Throws: `Diagnostic` `tile.bad-option` before any work; the reader's errors; `io.*` when the
    ///   archive cannot be written. The old output is then untouched.
    public func run(reading reader: inout some FeatureReader, onWarning: (Diagnostic) -> Void = { _ in },
                    onProgress: (@Sendable (TileRunProgress) -> Void)? = nil) throws -> Report {
        try withSingleInput(&reader) { try run(reading: &$0, onWarning: onWarning, onProgress: onProgress) }
    }

    /// Tiles several inputs into one tile set, each into its own layer (tippecanoe's several
    /// inputs and `-L NAME:FILE`; a feature's `tippecanoe` member may name another layer). The
    /// inputs are read one after another as if they were one: input positions and generated ids
    /// run on, and thinning and clustering see all of them. Otherwise as
    /// `run(reading:onWarning:onProgress:)` with one reader.
    public func run(reading inputs: inout [TileInput], onWarning: (Diagnostic) -> Void = { _ in },
                    onProgress: (@Sendable (TileRunProgress) -> Void)? = nil) throws -> Report {
        try validate(inputs: inputs)
        // Taken first: a locked or existing output fails before minutes of reading.
        let writer = try createWriter()
        do {
            let readingStart = DispatchTime.now().uptimeNanoseconds
            let diskFolder = try temporaryFolder(for: inputs)
            let onRead = onProgress.map { onProgress in
                { @Sendable (position: ReadPosition?, features: Int) in
                    var progress = TileRunProgress(stage: .reading)
                    progress.position = position
                    progress.featuresRead = features
                    progress.secondsInStage = TileRunProgress.seconds(since: readingStart)
                    onProgress(progress)
                }
            }
            let source = try TileSource(reading: &inputs, options: options, readThreads: threads, diskFolder: diskFolder,
                                        onWarning: onWarning, onRead: onRead)
            // Cutting writes each large tile's children: about the records again, and a level more.
            if let files = source.store.temporaryFiles { try Self.checkFreeSpace(files.folder, needed: files.bytes / 2 * 3) }
            let readingSeconds = Double(DispatchTime.now().uptimeNanoseconds - readingStart) / 1e9
            if let note = AttributeCoercion.warning(source.uncoercibleValues, types: options.attributeTypes.types) { onWarning(note) }
            if let warning = UnmatchedPropertyNames.warning(source.unmatchedPropertyNames) { onWarning(warning) }
            if source.featuresFilteredOut > 0 {
                onWarning(Diagnostic(.note, code: .tileFiltered,
                                     message: "\(source.featuresFilteredOut) features did not match --where and were not tiled"))
            }
            let onWritten = onProgress.map { onProgress in
                let expected = source.estimatedTiles(zooms: options.minZoom...source.options.maxZoom)
                let features = source.inputCounts.features
                let writingStart = DispatchTime.now().uptimeNanoseconds
                return { @Sendable (counts: TileWriteCounts) in
                    var progress = TileRunProgress(stage: .writing)
                    progress.featuresRead = features
                    progress.written = counts
                    progress.expectedTiles = expected
                    progress.secondsInStage = TileRunProgress.seconds(since: writingStart)
                    onProgress(progress)
                }
            }
            let sink = makeSink(writer: writer, layer: inputs[0].layer, layers: source.layers, onProgress: onWritten)
            if !writer.storesBlocksOnce || encoding == .geojson {
                // Checked before the first tile: hundreds of millions of files would fill the disk.
                let estimate = source.estimatedTiles(zooms: options.minZoom...source.options.maxZoom)
                let limit = Double(sink.maximumBlockTilesWrittenOneByOne)
                guard estimate <= limit else {
                    throw Diagnostic(.error, code: .tileTooManyTiles,
                        message: "the features (polygons by area, lines by length, points) reach about "
                            + "\(Int(saturating: estimate.rounded())) tiles from z\(options.minZoom) to "
                            + "z\(source.options.maxZoom), more than the \(Int(limit)) a \(resolvedArchiveFormat.rawValue) should hold "
                            + "one file or row per tile; write a .pmtiles archive (it stores identical tiles once) or lower --max-zoom")
                }
            }
            let zooms = try TilePyramid.build(source, minZoom: options.minZoom, parallelism: threads,
                                              loadBytes: TilePyramid.loadBytes, readsDeferred: true,
                                              emit: sink.write, emitBlock: sink.writeBlock)
            var metadata = try sink.metadata(for: source, minZoom: options.minZoom, zooms: zooms, name: name, description: description)
            metadata.attribution = attribution
            try writer.finish(metadata: metadata)
            return Report(metadata: metadata, zooms: zooms, input: source.inputCounts,
                          losses: metadata.dropReport?.notWritten ?? TileEncodingLosses(),
                          fileBytes: resolvedArchiveFormat == .directory ? nil : POSIX.regularFileSize(output),
                          readingSeconds: readingSeconds, temporaryBytes: source.store.temporaryFiles?.usage.peak,
                          tippecanoeMembersIgnored: (layersIgnored(source.layers), source.invalidZoomMembers))
        } catch {
            writer.abort()
            throw error
        }
    }

    /// The writer of ``output`` (taken under its lock; nothing appears there before `finish`).
    /// - Throws: `io.output-exists`, `io.output-locked`, `io.create-failed`.
    func createWriter() throws -> any TileArchiveWriter {
        var createOptions = TileArchive.CreateOptions()
        createOptions.replaceExisting = replaceExisting
        createOptions.tileExtension = encoding.fileExtension
        return try TileArchive.create(output, format: resolvedArchiveFormat, options: createOptions)
    }

    /// Whether the output keeps tiles as encoded (a directory); archives gzip them, and MLT text
    /// is then written without FSST, which gzip compresses better (the sink and the plan agree).
    var tilesStayUncompressed: Bool { resolvedArchiveFormat == .directory }

    /// Whether the output stores a block of identical tiles once (PMTiles' run lengths).
    func outputStoresBlocksOnce() -> Bool { resolvedArchiveFormat == .pmtiles }

    /// The sink that encodes tiles as this run does (encoding, precision, budget) into `writer`,
    /// features going to `layers` (or all to `layer` when they name none).
    func makeSink(writer: any TileArchiveWriter, layer: String? = nil, layers: TileLayers,
                  onProgress: (@Sendable (TileWriteCounts) -> Void)? = nil) -> TileArchiveSink {
        let sink = TileArchiveSink(writer: writer, layer: layer ?? self.layer, encoding: encoding, precision: precision,
                                   budget: options.budget, compressesStrings: tilesStayUncompressed, onProgress: onProgress)
        sink.assignLayers(layers)
        return sink
    }

    /// Runs `body` with `reader` as the one input, of layer ``layer``, and hands the reader back.
    func withSingleInput<Reader: FeatureReader, Result>(_ reader: inout Reader,
                                                        _ body: (inout [TileInput]) throws -> Result) rethrows -> Result {
        var inputs = [TileInput(layer: layer, reader: reader)]
        defer { if let back = inputs[0].reader as? Reader { reader = back } }
        return try body(&inputs)
    }

    /// ``validate()``, and the inputs' layers.
    func validate(inputs: [TileInput]) throws {
        try validate()
        guard !inputs.isEmpty, inputs.count <= TileLayers.maximumCount else {
            throw Diagnostic(.error, code: .tileBadOption, message: "a run reads 1…\(TileLayers.maximumCount) inputs, not \(inputs.count)")
        }
        guard !inputs.contains(where: { $0.layer.isEmpty }) else {
            throw Diagnostic(.error, code: .tileBadOption, message: "a layer name cannot be empty")
        }
        guard encoding != .geojson || Set(inputs.map(\.layer)).count == 1 else {
            throw Diagnostic(.error, code: .tileBadOption, message: "GeoJSON tiles hold one layer; write MVT or MLT tiles for several")
        }
    }

    /// Features whose `tippecanoe` member named a layer they did not go to: every one in GeoJSON
    /// tiles (one collection per tile), and those past the layer limit.
    func layersIgnored(_ layers: TileLayers) -> Int {
        encoding == .geojson ? layers.namedInMembers : layers.namesOverLimit
    }

    /// The folder for the run's temporary feature files, or nil to keep features in memory
    /// (``featureStore``); checked to have room for the records when the inputs' size is known.
    /// - Throws: `io.write-failed` when the folder's file system has too little free space.
    func temporaryFolder(for inputs: [TileInput]) throws -> String? {
        let store = featureStorePlan(for: inputs)
        guard store.onDisk else { return nil }
        let folder = temporaryDirectory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        if store.inputBytes != nil { try Self.checkFreeSpace(folder, needed: store.temporaryBytes) }
        return folder
    }

    /// Whether the run keeps its features on disk, the inputs' bytes when known, and the
    /// temporary space it then needs.
    typealias FeatureStorePlan = (onDisk: Bool, inputBytes: Int?, temporaryBytes: Int)

    /// Whether the run keeps its features on disk (``featureStore``), the inputs' bytes when
    /// known, and the temporary space it then needs: at most 4 times the inputs (their records,
    /// and the children of the tiles too large to hold, level by level). Asked before the
    /// inputs are read (a read input's size is no longer known).
    func featureStorePlan(for inputs: [TileInput]) -> FeatureStorePlan {
        var known: Int? = 0
        for input in inputs {
            if let size = input.reader.featureTextBytes {
                known = known.map { $0.addingSaturating(size) }
            } else {
                known = nil
            }
        }
        let onDisk: Bool
        switch featureStore {
        case .memory: onDisk = false
        case .automatic: onDisk = (known ?? 0) >= Self.automaticDiskBytes
        case .disk: onDisk = true
        }
        return (onDisk, known, (known ?? 0).multipliedSaturating(by: 4))
    }

    /// Throws unless `folder`'s file system has `needed` bytes free.
    static func checkFreeSpace(_ folder: String, needed: Int) throws {
        let free: Int
        switch POSIX.availableBytes(onFileSystemOf: folder) {
        case .success(let bytes): free = bytes
        case .failure(let error):
            throw Diagnostic(.error, code: .ioCreateFailed,
                             message: "cannot use \(folder) for temporary files: \(error) (see --tmpdir)")
        }
        guard free >= needed else {
            func megabytes(_ bytes: Int) -> Int { bytes >> 20 }
            throw Diagnostic(.error, code: .ioWriteFailed,
                             message: "tiling needs about \(megabytes(needed)) MB of temporary space in \(folder) but it has "
                                 + "\(megabytes(free)) MB free; point --tmpdir at a larger disk or keep features in memory "
                                 + "(--feature-store memory)")
        }
    }
}
