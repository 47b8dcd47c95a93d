import ArgumentParser
import Foundation
import OverlayKit
import OverlayModel

struct TileJoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile-join",
        abstract: "Join vector tile sets into one: tiles of the same z/x/y are merged, metadata united.",
        discussion: """
            Every z/x/y held by any input becomes one tile; layers with the same name (after \
            --rename-layer) become one layer with united key and value tables (the MVT spec \
            forbids two layers of one name). A tile only one input holds is copied byte for byte \
            unless layers or properties are filtered or renamed (then it is rewritten). Metadata: \
            bounds and zoom range united, vector_layers fields united, tilestats and per-zoom \
            drop counts summed.

            Options follow tippecanoe's tile-join: -l/-L keep or drop layers, -R renames, -x/-y \
            drop or keep properties, -X drops them all, -z/-Z limit zooms.

            Inputs and output: any mix of tile directories (z/x/y.mvt or .mlt with metadata.json), \
            .pmtiles and .mbtiles archives (format from the extension); the output appears \
            only when complete. An input that is none of these, or inputs that hold no tiles \
            at all, are an error (exit 65).
            """
    )

    @Argument(help: "Input tile sets: directories, .pmtiles or .mbtiles.")
    var inputs: [String]

    @Option(name: [.short, .long], help: "Output tile set: a directory, .pmtiles or .mbtiles.")
    var output: String

    @OptionGroup var overwrite: OverwriteOption

    @Option(name: [.short, .customLong("layer")], help: ArgumentHelp("Keep only this layer (repeatable).", valueName: "name"))
    var layers: [String] = []

    @Option(name: [.customShort("L"), .customLong("exclude-layer")], help: ArgumentHelp("Leave out this layer (repeatable).", valueName: "name"))
    var excludedLayers: [String] = []

    @Option(name: [.customShort("R"), .customLong("rename-layer")], help: ArgumentHelp("Rename a layer (repeatable).", valueName: "old:new"))
    var renames: [String] = []

    @Option(name: [.customShort("x"), .customLong("exclude")], help: ArgumentHelp("Leave out this property (repeatable).", valueName: "key"))
    var excludedProperties: [String] = []

    @Option(name: [.customShort("y"), .customLong("include")], help: ArgumentHelp("Keep only this property (repeatable).", valueName: "key"))
    var includedProperties: [String] = []

    @Flag(name: [.customShort("X"), .customLong("exclude-all")], help: "Leave out every property.")
    var excludeAll = false

    @Option(name: [.customShort("z"), .customLong("maximum-zoom")], help: "Leave out tiles above this zoom.")
    var maximumZoom: Int?

    @Option(name: [.customShort("Z"), .customLong("minimum-zoom")], help: "Leave out tiles below this zoom.")
    var minimumZoom: Int?

    @Option(name: [.short, .long], help: "Tile set name in the metadata (default: the first input's).")
    var name: String?

    @Option(name: .customLong("tile-format"), help: ArgumentHelp("Encoding of the joined tiles: mvt or mlt (default: the inputs', which must then agree); inputs of the other encoding are converted.", valueName: "mvt|mlt"))
    var tileFormat: VectorTileFormat?

    @Flag(help: "Refuse same-named layers with different extents instead of rescaling to the largest.")
    var noRescale = false

    func validate() throws {
        try validateTileSetOutput(output)
        guard !inputs.isEmpty else { throw ValidationError("give at least one input tile set") }
        for rename in renames where rename.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).count != 2
            || rename.hasPrefix(":") || rename.hasSuffix(":") {
            throw ValidationError("--rename-layer takes OLD:NEW, not '\(rename)'")
        }
        if let maximumZoom, !(0...30).contains(maximumZoom) { throw ValidationError("--maximum-zoom must be 0…30") }
        if let minimumZoom, !(0...30).contains(minimumZoom) { throw ValidationError("--minimum-zoom must be 0…30") }
        if let maximumZoom, let minimumZoom, minimumZoom > maximumZoom {
            throw ValidationError("--minimum-zoom must not exceed --maximum-zoom")
        }
        if excludeAll && !includedProperties.isEmpty { throw ValidationError("--exclude-all cannot be combined with --include") }
        if inputs.contains(output) { throw ValidationError("the output \(output) is also an input") }
    }

    var mergerOptions: VectorTileMerger.Options {
        var options = VectorTileMerger.Options()
        for rename in renames {
            let parts = rename.split(separator: ":", maxSplits: 1)
            options.renamedLayers[String(parts[0])] = String(parts[1])
        }
        if !layers.isEmpty { options.onlyLayers = Set(layers) }
        options.excludedLayers = Set(excludedLayers)
        options.excludedProperties = Set(excludedProperties)
        if !includedProperties.isEmpty { options.includedProperties = Set(includedProperties) }
        if excludeAll { options.includedProperties = [] }
        options.rescaleExtents = !noRescale
        return options
    }

    func run() throws {
        try runReportingErrors {
            var sources = [TileJoin.Input](), metadata = [TileSetMetadata]()
            var readers = [any TileArchiveReader]()
            for path in inputs {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw Diagnostic(.error, code: .ioNotFound, message: "no such tile set: \(path)",
                                     location: SourceLocation(file: path, line: 1, column: 1))
                }
                readers.append(try TileArchive.open(path))
            }
            // MLT tiles are joined as MVT (converted on reading) and written in the output's encoding.
            let outputEncoding = try TileJoin.outputEncoding(readers.map { ($0.path, $0.metadata.format) },
                                                             requested: tileFormat.map { $0 == .mlt ? .mlt : .mvt })
            for reader in readers {
                let path = reader.path
                let encoding = TileEncoding(metadataFormat: reader.metadata.format.lowercased()) ?? .mvt
                // Readers are used from this thread only; the join reads one tile at a time.
                nonisolated(unsafe) let source = reader
                sources.append(TileJoin.Input(name: path, tileIDs: try reader.tileIDs()) { id in
                    guard let bytes = try source.tile(id) else { return nil }
                    if bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") {
                        throw Diagnostic(.error, code: .tilejoinFormatMismatch,
                                         message: "\(path) tile \(id.z)/\(id.x)/\(id.y) is a GeoJSON tile; tile-join joins vector tiles")
                    }
                    return try VectorTileTranscoder.transcode(bytes, from: encoding, to: .mvt)
                })
                metadata.append(reader.metadata)
            }
            try TileJoin.checkHoldTiles(sources).forEach(Report.diagnostic)
            let options = mergerOptions
            let zooms = (minimumZoom != nil || maximumZoom != nil) ? (minimumZoom ?? 0)...(maximumZoom ?? 30) : nil
            let join = TileJoin(merger: VectorTileMerger(options: options), zooms: zooms)
            let ids = join.tileIDs(sources)
            var createOptions = TileArchive.CreateOptions()
            createOptions.replaceExisting = overwrite.force
            createOptions.tileExtension = outputEncoding.fileExtension
            let writer = try TileArchive.create(output, options: createOptions)
            let counts: TileJoin.Counts
            do {
                counts = try join.run(sources, ids: ids) { id, bytes in
                    try writer.write(id, VectorTileTranscoder.transcode(bytes, from: .mvt, to: outputEncoding))
                }
                var merged = try join.metadata(merging: metadata, counts: counts)
                merged.format = outputEncoding.metadataFormat
                if let name { merged.name = name }
                try writer.finish(metadata: merged)
            } catch {
                writer.abort()
                throw error
            }
            let zoomText = counts.tilesByZoom.keys.min().map { "z\($0)–z\(counts.tilesByZoom.keys.max()!)" } ?? "no zooms"
            // The file's own size for an archive; a directory has none, so its tiles' (uncompressed) bytes.
            let fileSize = (try? FileManager.default.attributesOfItem(atPath: output))
                .flatMap { $0[.type] as? FileAttributeType == .typeRegular ? ($0[.size] as? NSNumber)?.intValue : nil }
            let size = fileSize.map { "\($0) bytes" } ?? "\(counts.bytes) bytes of uncompressed tiles"
            Report.standardError("tile-join: \(counts.tiles) tiles (\(counts.mergedTiles) merged, \(counts.rewrittenTiles) rewritten, "
                + "\(counts.copiedTiles) copied), \(zoomText), \(size) from \(inputs.count) input\(inputs.count == 1 ? "" : "s") in \(output)\n")
            if counts.emptyTiles > 0 {
                Report.diagnostic(Diagnostic(.note, code: .tilejoinEmpty,
                                             message: "\(counts.emptyTiles) tiles left without layers by the filters were not written"))
            }
        }
    }
}
