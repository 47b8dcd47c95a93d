import OverlayModel

extension TileJoin {
    /// What ``join(_:)`` joins and how: tippecanoe's `tile-join` options.
    public struct Options: Sendable {
        /// The tile sets to join, in order: directories, PMTiles or MBTiles files (recognised by
        /// their bytes); the first's name and description are the joined set's.
        public var inputs: [String]
        /// Where the joined set goes: a directory, or a `.pmtiles` or `.mbtiles` file.
        public var output: String
        /// Replace an existing output (otherwise an existing non-empty output is an error).
        public var replaceExisting = false
        /// Layers kept, left out or renamed, properties kept or left out, and whether
        /// same-named layers of different extents are rescaled (`-l`, `-L`, `-R`, `-y`, `-x`,
        /// `-X`, `--no-rescale`).
        public var merging = VectorTileMerger.Options()
        /// Tiles below this zoom are left out (`-Z`); nil keeps them.
        public var minZoom: Int?
        /// Tiles above this zoom are left out (`-z`); nil keeps them.
        public var maxZoom: Int?
        /// The joined set's name in its metadata (`-n`); nil takes the first input's.
        public var name: String?
        /// The joined tiles' encoding, MVT or MLT (`--tile-format`): inputs of the other are
        /// converted; nil takes the one every input shares.
        public var tileEncoding: TileEncoding?

        /// Joins `inputs` into `output`, keeping everything.
        public init(inputs: [String], output: String) {
            self.inputs = inputs
            self.output = output
        }

        /// The zooms kept: nil when neither ``minZoom`` nor ``maxZoom`` is set (or they are out
        /// of order, a ``problems`` entry).
        public var zooms: ClosedRange<Int>? {
            guard minZoom != nil || maxZoom != nil else { return nil }
            let lowest = minZoom ?? 0, highest = maxZoom ?? Self.deepestZoom
            return lowest <= highest ? lowest...highest : nil
        }

        /// The deepest zoom a joined tile set may hold.
        public static let deepestZoom = 30

        /// Every option out of range, each with the library name of its setting; empty when
        /// the join can start.
        public var problems: [TileSettingProblem] {
            var found = [TileSettingProblem]()
            if inputs.isEmpty { found.append(TileSettingProblem(setting: "inputs", requirement: "must name at least one tile set", value: "none")) }
            if output.isEmpty { found.append(TileSettingProblem(setting: "output", requirement: "must not be empty", value: "\"\"")) }
            if inputs.contains(output) {
                found.append(TileSettingProblem(setting: "output", requirement: "must not be one of the inputs", value: output))
            }
            for (setting, zoom) in [("minZoom", minZoom), ("maxZoom", maxZoom)] {
                if let zoom, !(0...Self.deepestZoom).contains(zoom) {
                    found.append(TileSettingProblem(setting: setting, requirement: "must be 0…\(Self.deepestZoom)", value: "\(zoom)"))
                }
            }
            if let minZoom, let maxZoom, minZoom > maxZoom {
                found.append(TileSettingProblem(setting: "minZoom", requirement: "must not exceed maxZoom (\(maxZoom))", value: "\(minZoom)"))
            }
            for (old, new) in merging.renamedLayers.sorted(by: { $0.key < $1.key }) where old.isEmpty || new.isEmpty {
                found.append(TileSettingProblem(setting: "merging.renamedLayers", requirement: "must name both layers", value: "\(old):\(new)"))
            }
            if tileEncoding == .geojson {
                found.append(TileSettingProblem(setting: "tileEncoding", requirement: "must be mvt or mlt", value: "geojson"))
            }
            return found
        }

        /// Checks every option before any work starts; the error names the first one out of
        /// range (``problems`` has them all).
        /// - Throws: `Diagnostic` `tile.bad-option`.
        public func validate() throws {
            if let first = problems.first { throw first.diagnostic }
        }
    }
}
