import OverlayKit

/// Tiling: a PMTiles archive of z0–6, the whole `overlaykit tile` run as one call.
func writePMTiles() throws {
    var reader = try FeatureIO.reader(for: ByteInput(path: "Examples/countries.geojson"))
    var tiler = Tiler(output: "countries.pmtiles", layer: "countries")  // or .mbtiles, or a directory
    tiler.options.maxZoom = 6
    tiler.replaceExisting = true                                         // as `tile --force`
    let report = try tiler.run(reading: &reader)
    for note in report.diagnostics { print(note) }                       // what was dropped, and why
    print("wrote \(report.tiles) tiles, \(report.fileBytes ?? 0) bytes, to countries.pmtiles")
}

/// Joining: `overlaykit tile-join` as one call, the layer renamed and a property left out.
func joinTileSets() throws {
    var options = TileJoin.Options(inputs: ["countries.pmtiles"], output: "joined.mbtiles")
    options.merging.renamedLayers = ["countries": "land"]                // as `-R countries:land`
    options.merging.excludedProperties = ["POP_EST"]                      // as `-x POP_EST`
    options.replaceExisting = true                                        // as `-f`
    let report = try TileJoin.join(options)
    for warning in report.diagnostics { print(warning) }
    print("joined \(report.tiles) tiles, layers \(report.layers), left out \(report.dropped.properties)")
}
