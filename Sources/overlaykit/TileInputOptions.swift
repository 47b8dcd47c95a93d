import ArgumentParser
import OverlayKit
import OverlayModel

/// `tile`'s inputs, as tippecanoe takes them: files named on the command line (each its own
/// layer named after the file, or all in the `-l` layer) and `-L NAME:FILE` inputs.
struct TileInputOptions: ParsableArguments {
    @Argument(help: "Input files (GeoJSON, GeoJSONSeq, KML, KMZ or GeoParquet; a folder of GeoParquet files is one input): each is a layer named after the file, or all go to -l's layer; '-' or none (and no -L) reads standard input.")
    var inputs: [String] = []

    @Option(name: [.customShort("L"), .customLong("named-layer")],
            help: ArgumentHelp("An input whose features go to the layer NAME (repeatable; tippecanoe's -L).", valueName: "NAME:FILE"))
    var namedLayers: [String] = []

    @OptionGroup var format: InputFormatOptions

    func validate() throws {
        _ = try namedInputs()
        guard inputs.count + namedLayers.count <= TileLayers.maximumCount else {
            throw ValidationError("at most \(TileLayers.maximumCount) inputs")
        }
        guard inputs.filter({ $0 == "-" }).count + namedLayers.filter({ $0.hasSuffix(":-") }).count <= 1 else {
            throw ValidationError("standard input can be read once: name '-' at most once")
        }
    }

    /// `-L`'s layer and file pairs.
    func namedInputs() throws -> [(layer: String, path: String)] {
        try namedLayers.map { argument in
            // The first colon ends the name: a path may hold colons, a layer name rarely does.
            guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex,
                  argument.index(after: colon) != argument.endIndex else {
                throw ValidationError("-L takes NAME:FILE (a layer name, a colon, an input file), not '\(argument)'")
            }
            return (String(argument[..<colon]), String(argument[argument.index(after: colon)...]))
        }
    }

    /// Every input with its layer, in order: the files named (or standard input, nil, when there
    /// are none), each in `layer` or the layer named after it, then the `-L` inputs.
    func layeredPaths(layer: String?) throws -> [(layer: String, path: String?)] {
        let named = try namedInputs()
        let positional: [String?] = inputs.isEmpty ? (named.isEmpty ? [nil] : []) : inputs
        return positional.map { path in (layer ?? path.flatMap { $0 == "-" ? nil : PathName($0).stem } ?? "features", path) }
            + named.map { ($0.layer, $0.path) }
    }

    /// The layer of the run's first input.
    func firstLayer(_ layer: String?) -> String {
        (try? layeredPaths(layer: layer))?.first?.layer ?? "features"
    }

    /// Every input of ``layeredPaths(layer:)`` opened, told what the run reads (`tiler`'s
    /// threads and properties: see ``Tiler/readHints``).
    func open(layer: String?, tiler: Tiler) throws -> [TileInput] {
        try layeredPaths(layer: layer).map { TileInput(layer: $0.layer, reader: try format.openReader($0.path, hints: tiler.readHints).1) }
    }
}
