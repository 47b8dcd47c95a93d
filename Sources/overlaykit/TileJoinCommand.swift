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

    @Option(name: [.customShort("z"), .customLong("maximum-zoom")], parsing: .unconditional, help: "Leave out tiles above this zoom.")
    var maximumZoom: Int?

    @Option(name: [.customShort("Z"), .customLong("minimum-zoom")], parsing: .unconditional, help: "Leave out tiles below this zoom.")
    var minimumZoom: Int?

    @Option(name: [.short, .long], help: "Tile set name in the metadata (default: the first input's).")
    var name: String?

    @Option(name: .customLong("tile-format"), help: ArgumentHelp("Encoding of the joined tiles: mvt or mlt (default: the inputs', which must then agree); inputs of the other encoding are converted.", valueName: "mvt|mlt"))
    var tileFormat: VectorTileFormat?

    @Flag(help: "Refuse same-named layers with different extents instead of rescaling to the largest.")
    var noRescale = false

    func validate() throws {
        try validateTileSetOutput(output)
        for rename in renames where rename.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).count != 2 {
            throw ValidationError("--rename-layer takes OLD:NEW, not '\(rename)'")
        }
        if excludeAll && !includedProperties.isEmpty { throw ValidationError("--exclude-all cannot be combined with --include") }
        // The ranges are checked once, by the library, and said with this command's option names.
        if let problem = joinOptions.problems.first {
            let names = ["inputs": "the input tile sets", "output": "-o", "minZoom": "--minimum-zoom", "maxZoom": "--maximum-zoom",
                         "merging.renamedLayers": "--rename-layer", "tileEncoding": "--tile-format"]
            let requirement = problem.requirement.replacingOccurrences(of: "maxZoom", with: "--maximum-zoom")
            throw ValidationError("\(names[problem.setting] ?? problem.setting) \(requirement), not \(problem.value)")
        }
    }

    /// The library's options, as this command's arguments set them.
    var joinOptions: TileJoin.Options {
        var options = TileJoin.Options(inputs: inputs, output: output)
        options.replaceExisting = overwrite.force
        for rename in renames {
            let parts = rename.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            options.merging.renamedLayers[String(parts[0])] = String(parts.count > 1 ? parts[1] : "")
        }
        if !layers.isEmpty { options.merging.onlyLayers = Set(layers) }
        options.merging.excludedLayers = Set(excludedLayers)
        options.merging.excludedProperties = Set(excludedProperties)
        if !includedProperties.isEmpty { options.merging.includedProperties = Set(includedProperties) }
        if excludeAll { options.merging.includedProperties = [] }
        options.merging.rescaleExtents = !noRescale
        options.minZoom = minimumZoom
        options.maxZoom = maximumZoom
        options.name = name
        options.tileEncoding = tileFormat.map { $0 == .mlt ? .mlt : .mvt }
        return options
    }

    func run() throws {
        try runReportingErrors {
            let report = try TileJoin.join(joinOptions)
            let counts = report.counts
            let zoomText = counts.written.zoomRange.map { "z\($0.lowerBound)–z\($0.upperBound)" } ?? "no zooms"
            // The file's own size for an archive; a directory has none, so its tiles' (uncompressed) bytes.
            let size = report.fileBytes.map { "\($0) bytes" } ?? "\(counts.bytes) bytes of uncompressed tiles"
            Report.standardError("tile-join: \(counts.tiles) tiles (\(counts.mergedTiles) merged, \(counts.rewrittenTiles) rewritten, "
                + "\(counts.copiedTiles) copied), \(zoomText), \(size) from \(inputs.count) input\(inputs.count == 1 ? "" : "s") in \(output)\n")
            report.diagnostics.forEach(Report.diagnostic)
        }
    }
}
