import ArgumentParser
import OverlayKit
import OverlayModel

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarize overlays: counts per kind, vertices, extent, the zoom that fits, property keys.",
        discussion: """
            A tile set (PMTiles, MBTiles or a directory, recognised by its bytes) gets its own \
            report: per zoom tiles, stored bytes (sum, max, 99th percentile) and features per layer, \
            the 10 largest tiles and the metadata's drop counts, after a summary printed before any \
            tile is read (the header and metadata); with z/x/y, that tile decoded to GeoJSON in \
            degrees (as tippecanoe-decode prints it). See docs/serve.md.
            """
    )

    @OptionGroup var inputOptions: InputOptions

    @Argument(help: ArgumentHelp("With a tile set: the tile to decode to GeoJSON.", valueName: "z/x/y"))
    var tile: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(inversion: .prefixedNo, help: "With a tile set: print the tiles read, a percentage and the time left on standard error (default: when it is a terminal).")
    var progress: Bool?

    func run() throws {
        if InfoTileSet.isTileSet(inputOptions.input) {
            try runReportingErrors { try InfoTileSet.run(path: inputOptions.input!, tile: tile, json: json, progress: progress) }
            return
        }
        if tile != nil { throw ValidationError("z/x/y goes with a tile set (.pmtiles, .mbtiles or a directory of tiles)") }
        try runReportingErrors {
            let (input, openedReader) = try inputOptions.openReader()
            var summary = DatasetSummary()
            if var parquet = openedReader as? GeoParquetReader {
                // Each row group summarized on the thread that decodes it, the parts merged in
                // order: the same report, and no feature crosses a thread or outlives its group.
                try parquet.forEachRowGroup({ (features: [Feature]) -> (summary: DatasetSummary, warnings: [Diagnostic]) in
                    var part = DatasetSummary()
                    var warnings: [Diagnostic] = []
                    for feature in features {
                        if let warning = PolarLatitudes.warning(for: feature) { warnings.append(warning) }
                        part.add(feature)
                    }
                    return (part, warnings)
                }, consume: { (part: (summary: DatasetSummary, warnings: [Diagnostic])) in
                    part.warnings.forEach(Report.diagnostic)
                    summary.merge(part.summary)
                })
            } else {
                // Parsing on a second thread overlaps summarizing (identical result).
                var reader = try ReadAheadFeatureReader.whenUseful(openedReader)
                while let feature = try reader.next() {
                    if let warning = PolarLatitudes.warning(for: feature) { Report.diagnostic(warning) }
                    summary.add(feature)
                }
                reader.takeWarnings().forEach(Report.diagnostic)
            }
            let output = try ByteOutput(path: nil)
            try output.write(json ? InfoReport.json(summary, source: input.name) : InfoReport.text(summary, source: input.name))
            try output.commit()
        }
    }
}
