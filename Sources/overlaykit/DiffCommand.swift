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

    @OptionGroup var input: InputFormatOptions

    func validate() throws {
        guard markdownRows >= 0 else { throw ValidationError("--markdown-rows must be ≥ 0") }
    }

    func run() throws {
        var status: Int32 = 0
        try runReportingErrors {
            let options = DiffOptions(key: key, precision: precision, tolerance: tolerance,
                                      oldFormat: input.from, newFormat: input.from, kmzLimits: input.kmzLimits)
            if new == "-" { input.noteIfReadingTerminal(new) }
            let result = try FeatureDiff.compare(oldPath: old, newPath: new, options: options, warning: Report.diagnostic)
            let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
            try byteOutput.write(DiffReport.render(result, as: format, markdownRows: markdownRows))
            try byteOutput.commit()
            if format != .text { Report.standardError(DiffReport.summaryLine(result.summary) + "\n") }
            status = result.exitStatus
        }
        if status != 0 { throw ExitCode(status) }
    }
}
