import Foundation
import OverlayModel

/// Features tiled exactly as `tile` tiles them: one `Tiler` run, with the same defaults and
/// options, into a temporary PMTiles archive when the set is made, whose tiles are then read
/// back on demand. What `serve` gives for a GeoJSON, GeoJSONSeq, KML, KMZ or GeoParquet file,
/// so a served tile is byte for byte the tile `tile` writes (thinning, tiny shapes, the tile
/// budget, guessed zooms and all).
///
/// The archive is unlinked as soon as it is open: nothing is left behind, whatever ends the
/// process. Memory is the archive's directory and what the run needed while it tiled (the
/// disk store keeps a large input's features out of memory, as `tile` does).
public final class FeatureTileSet: TileProvider, @unchecked Sendable {
    /// The tile set's metadata, as `tile` writes it.
    public let metadata: TileSetMetadata
    /// Always MVT.
    public let contentType = TileContentType.mvt
    /// The layer's name in the tiles.
    public let layer: String
    /// What the run reported (tiles per zoom, what was dropped).
    public let report: Tiler.Report
    private let tiles: LockedTileSet

    /// Tiles `inputs` (each into its layer, as `tile` does with several files) with `tiler`'s
    /// settings; its output, archive format and encoding are this set's own: a temporary
    /// PMTiles archive of MVT tiles.
    /// - Parameters:
    ///   - inputs: the features, by layer.
    ///   - tiler: the run's settings (``Tiler/init(output:layer:)`` gives `tile`'s defaults).
    ///   - onWarning: each warning of the run, as `tile` reports them.
    /// - Throws: `tile.bad-option` for settings out of range, the reader's `Diagnostic` for bad
    ///   input, `io.*` when the temporary archive cannot be written.
    public init(reading inputs: inout [TileInput], tiler: Tiler, onWarning: (Diagnostic) -> Void = { _ in }) throws {
        layer = inputs.first?.layer ?? tiler.layer
        let archive = try TemporaryFile(keepPath: true, suffix: ".pmtiles")
        var run = tiler
        run.output = archive.path ?? ""
        run.archiveFormat = .pmtiles
        run.encoding = .mvt
        run.replaceExisting = true
        report = try run.run(reading: &inputs, onWarning: onWarning)
        // Open, the archive's descriptor keeps its bytes; its name goes with `archive`.
        let tileSet = try TileSet(path: run.output)
        tiles = LockedTileSet(tileSet)
        metadata = tileSet.metadata
    }

    /// Tiles `features` into `layer` with `tile`'s defaults, or `tiler`'s settings.
    /// - Throws: `tile.bad-option` for settings out of range; `io.*`.
    public convenience init(features: [Feature], layer: String, tiler: Tiler? = nil) throws {
        var inputs = [TileInput(layer: layer, reader: FeatureArrayReader(features: features))]
        try self.init(reading: &inputs, tiler: tiler ?? Tiler(output: "", layer: layer))
    }

    /// Tiles the GeoJSON, GeoJSONSeq, KML, KMZ or GeoParquet file at `path` into a layer named
    /// `layer` (nil: the file's name without its extension), as `tile` would with `tile`'s
    /// defaults, or `tiler`'s settings. The file is read as `tile` reads it (``Tiler/readHints``:
    /// a GeoParquet file skips what lies outside ``TileOptions/clipBox``).
    /// - Throws: the reader's `Diagnostic` for bad input, `io.*` when the file cannot be read.
    public convenience init(path: String, layer: String? = nil, tiler: Tiler? = nil,
                            onWarning: (Diagnostic) -> Void = { _ in }) throws {
        let name = layer ?? PathName(path).stem
        let run = tiler ?? Tiler(output: "", layer: name)
        var inputs = [TileInput(layer: name, reader: try FeatureIO.reader(for: try ByteInput(path: path), geometryColumn: nil,
                                                                          hints: run.readHints))]
        try self.init(reading: &inputs, tiler: run, onWarning: onWarning)
    }

    public func storedTile(_ id: TileID) throws -> StoredTile? {
        try tiles.storedTile(id)
    }
}
