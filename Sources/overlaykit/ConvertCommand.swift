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
            let (_, openedReader) = try inputOptions.openReader()
            // Parsing on a second thread overlaps writing (identical bytes).
            var reader = try ReadAheadFeatureReader.whenUseful(openedReader)
            let format = try FileFormat.forOutput(to: to, output: output, fallback: .geojson)
            let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
            defer { byteOutput.abandon() }
            var writer = try FeatureIO.writer(for: format, output: byteOutput, options: WriterOptions(precision: precision, geoParquet: geoParquet.writeOptions))
            var transform = try geometry.makeTransform()
            if transform.sharedBorders != nil {
                // Shared borders are found among all polygons: read everything, then write.
                var features = [Feature]()
                while let read = try reader.next() {
                    reader.takeWarnings().forEach(Report.diagnostic)
                    features.append(read)
                }
                reader.takeWarnings().forEach(Report.diagnostic)
                for feature in transform.apply(all: features) {
                    try writer.write(feature)
                    writer.takeWarnings().forEach(Report.diagnostic)
                }
            }
            while let read = try reader.next() {
                reader.takeWarnings().forEach(Report.diagnostic)
                guard let feature = transform.apply(read) else { continue }
                try writer.write(feature)
                writer.takeWarnings().forEach(Report.diagnostic)
            }
            reader.takeWarnings().forEach(Report.diagnostic)
            // A KMZ's embedded files go into a KMZ written from it, a collection's members into GeoJSON.
            writer.carry(reader.documentContext).forEach(Report.diagnostic)
            try writer.finish()
            writer.takeWarnings().forEach(Report.diagnostic)
            try byteOutput.commit()
            transform.summary.map(Report.diagnostic)
        }
    }
}
