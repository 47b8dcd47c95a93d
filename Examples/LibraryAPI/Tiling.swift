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
