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
        if TileSet.isTileSet(inputOptions.input) {
            try runReportingErrors { try InfoTileSet.run(path: inputOptions.input!, tile: tile, json: json, progress: progress) }
            return
        }
        if tile != nil { throw ValidationError("z/x/y goes with a tile set (.pmtiles, .mbtiles or a directory of tiles)") }
        try runReportingErrors {
            let (input, reader) = try inputOptions.openReader()
            let summary = try DatasetSummary.summarizing(reader, onWarning: Report.diagnostic)
            let output = try ByteOutput(path: nil)
            try output.write(json ? InfoReport.json(summary, source: input.name) : InfoReport.text(summary, source: input.name))
            try output.commit()
        }
    }
}
