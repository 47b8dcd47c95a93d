import ArgumentParser
import OverlayKit
import OverlayModel

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert overlays between GeoJSON, GeoJSONSeq, KML, KMZ and GeoParquet.",
        discussion: """
            Formats come from --from/--to, else the file extensions, else the input's first bytes. \
            Output goes to a temporary file renamed into place when complete, so a failed run \
            never leaves a half-written file; an existing output is replaced only with --force.
            """
    )

    @OptionGroup var inputOptions: InputOptions
    @OptionGroup var geometry: GeometryOptions

    @Option(name: [.short, .long], help: "Output file; '-' or none writes standard output.")
    var output: String?

    @OptionGroup var overwrite: OverwriteOption

    @Option(help: "Output format (default: from -o's extension, else geojson).")
    var to: FileFormat?

    @Option(parsing: .unconditional, help: "Decimal places for coordinates (degrees).")
    var precision: Int = 7

    @OptionGroup var geoParquet: GeoParquetOutputOptions

    func validate() throws {
        guard (0...17).contains(precision) else { throw ValidationError("--precision must be 0…17") }
        try geoParquet.validate(for: try FileFormat.forOutput(to: to, output: output, fallback: .geojson))
    }

    func run() throws {
        try runReportingErrors {
            let (_, reader) = try inputOptions.openReader()
            let format = try FileFormat.forOutput(to: to, output: output, fallback: .geojson)
            let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
            defer { byteOutput.abandon() }
            var writer = try FeatureIO.writer(for: format, output: byteOutput, options: WriterOptions(precision: precision, geoParquet: geoParquet.writeOptions))
            var transform = try geometry.makeTransform()
            try FeatureConversion.convert(reader, into: &writer, transform: &transform, onWarning: Report.diagnostic)
            try byteOutput.commit()
            transform.summary.map(Report.diagnostic)
        }
    }
}
