import OverlayKit

/// Tiling: a PMTiles archive of z0–6 from features in memory.
func writePMTiles() throws {
    let document = try FeatureIO.readAll(path: "Examples/countries.geojson")
    var options = TileOptions()
    options.maxZoom = 6
    let source = try TileSource(features: document.features, options: options)
    var replace = TileArchive.CreateOptions()
    replace.replaceExisting = true                                          // as `tile --force`
    let writer = try TileArchive.create("countries.pmtiles", options: replace)  // or .mbtiles, or a directory
    let sink = TileArchiveSink(writer: writer, layer: "countries")
    let zooms = try TilePyramid.build(source, minZoom: 0, emit: sink.write)
    try writer.finish(metadata: sink.metadata(for: source, minZoom: 0, zooms: zooms))
    print("wrote \(sink.progress.tiles) tiles to countries.pmtiles")
}
