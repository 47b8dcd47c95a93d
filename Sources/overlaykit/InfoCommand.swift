import ArgumentParser
import OverlayKit
import OverlayModel

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarize overlays: counts per kind, vertices, extent, the zoom that fits, property keys."
    )

    @OptionGroup var inputOptions: InputOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try runReportingErrors {
            let (input, openedReader) = try inputOptions.openReader()
            // Parsing on a second thread overlaps summarizing (identical result).
            var reader = try ReadAheadFeatureReader.whenUseful(openedReader)
            var summary = DatasetSummary()
            while let feature = try reader.next() {
                if let warning = PolarLatitudes.warning(for: feature) { Report.diagnostic(warning) }
                summary.add(feature)
            }
            reader.takeWarnings().forEach(Report.diagnostic)
            let output = try ByteOutput(path: nil)
            try output.write(json ? InfoReport.json(summary, source: input.name) : InfoReport.text(summary, source: input.name))
            try output.commit()
        }
    }
}
