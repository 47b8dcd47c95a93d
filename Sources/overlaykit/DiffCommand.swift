import ArgumentParser
import OverlayKit
import OverlayModel

extension DiffReport.Format: ExpressibleByArgument {}

/// `overlaykit diff`: what changed between two versions of map data, for a pull request.
/// Exit status as diff(1): 0 no changes, 1 changes; 64 usage, 65 bad input, 74 I/O.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show which features were added, removed, modified or moved between two versions (text, JSON, SARIF, Markdown).",
        discussion: """
        Features are matched by --key value, else id, else content, never by position; key order, \
        number spelling, coordinates equal at --precision decimals, ring start and orientation, and the \
        same data or style written as GeoJSON or KML are no change. Exit status: 0 no changes, 1 changes, \
        64 usage, 65 bad input, 74 I/O.
        """
    )

    @Argument(help: "The old version (a GeoJSON, GeoJSONSeq, KML or KMZ file; it is read twice).")
    var old: String

    @Argument(help: "The new version (any of those formats; '-' reads standard input).")
    var new: String

    @Option(name: [.short, .long], help: "Write the report here instead of standard output.")
    var output: String?

    @OptionGroup var overwrite: OverwriteOption

    @Option(help: "Report format: \(DiffReport.Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: DiffReport.Format = .text

    @Option(help: ArgumentHelp("Match features by this property's value (before their id).", valueName: "PROP"))
    var key: String?

    @Option(help: "Compare coordinates rounded to this many decimals of a degree.")
    var precision: Int = 7

    @Option(help: ArgumentHelp("Ignore geometry changes of at most this many metres (Hausdorff distance).", valueName: "METRES"))
    var tolerance: Double = 0

    @Option(help: "With --format markdown: rows per table before the rest are counted.")
    var markdownRows: Int = 50

    @Option(help: ArgumentHelp("Also draw the changes as a PNG picture (added green, removed red, modified orange).", valueName: "OUT.png"))
    var png: String?

    @Option(help: ArgumentHelp("Also draw the changes as an SVG picture.", valueName: "OUT.svg"))
    var svg: String?

    @Option(help: "Picture size in screen points, WIDTHxHEIGHT.")
    var size: String = "1024x768"

    @Option(parsing: .unconditional, help: ArgumentHelp("Picture center in degrees (with --zoom; default: fitted to the changes).", valueName: "lat,lon"))
    var center: String?

    @Option(help: "Picture zoom level (0–24; with --center).")
    var zoom: Double?

    @OptionGroup var input: InputFormatOptions

    func validate() throws {
        guard markdownRows >= 0 else { throw ValidationError("--markdown-rows must be ≥ 0") }
        if png != nil && svg != nil { throw ValidationError("give --png or --svg, not both") }
        guard let (width, height) = parsedSize, width <= RenderOptions.maximumPixelSide, height <= RenderOptions.maximumPixelSide else {
            throw ValidationError("--size must be WIDTHxHEIGHT in points, 1…16384 each, e.g. 1024x768")
        }
        if (center == nil) != (zoom == nil) { throw ValidationError("--center goes with --zoom") }
        if center != nil && parsedCenter == nil {
            let hint = center.flatMap(CoordinateOrder.pointHint(parsing:)).map { " (\($0))" } ?? ""
            throw ValidationError("--center must be LAT,LON in degrees, latitude -90…90 and longitude -180…180\(hint)")
        }
        if let zoom, !(0...24).contains(zoom) { throw ValidationError("--zoom must be 0…24") }
        if let picture = png ?? svg, picture == "-" || picture.isEmpty {
            throw ValidationError("name a file for the picture (it is not written to standard output)")
        }
    }

    private var parsedSize: (Int, Int)? { RenderOptions.size(parsing: size) }

    private var parsedCenter: Coordinate? { center.flatMap(CoordinateOrder.point(parsing:)) }

    /// Draws the changes into `--png`/`--svg`, when given.
    private func drawPicture(_ result: DiffResult) throws {
        guard let path = png ?? svg, let (width, height) = parsedSize else { return }
        let camera: RenderOptions.CameraChoice? = parsedCenter.map { .centered($0, zoom: zoom ?? 0) }
        let picture = DiffPicture(options: RenderOptions(width: width, height: height, camera: camera))
        let output = try ByteOutput(path: path, replaceExisting: overwrite.force)
        _ = try picture.render(result, to: output, format: png != nil ? .png : .svg)
    }

    func run() throws {
        var status: Int32 = 0
        try runReportingErrors {
            let options = DiffOptions(key: key, precision: precision, tolerance: tolerance,
                                      oldFormat: input.from, newFormat: input.from, kmzLimits: input.kmzLimits)
            if new == "-" { input.noteIfReadingTerminal(new) }
            let tileSets = [old, new].map { TileSet.isTileSet($0) }
            if tileSets[0] || tileSets[1] {
                guard tileSets[0] && tileSets[1] else {
                    throw Diagnostic(.error, code: .diffBadOption, message: "a tile set can only be compared with another tile set")
                }
                guard png == nil && svg == nil else {
                    throw Diagnostic(.error, code: .diffBadOption, message: "--png and --svg draw feature files' changes, not tile sets'")
                }
                let result = try TileSetDiff.compare(oldPath: old, newPath: new)
                let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
                try byteOutput.write(result.report(format))
                try byteOutput.commit()
                status = result.hasChanges ? 1 : 0
                return
            }
            let result = try FeatureDiff.compare(oldPath: old, newPath: new, options: options, warning: Report.diagnostic)
            let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
            try byteOutput.write(DiffReport.render(result, as: format, markdownRows: markdownRows))
            try byteOutput.commit()
            try drawPicture(result)
            if format != .text { Report.standardError(DiffReport.summaryLine(result.summary) + "\n") }
            status = result.exitStatus
        }
        if status != 0 { throw ExitCode(status) }
    }
}
