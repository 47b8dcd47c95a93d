import ArgumentParser
import OverlayKit
import OverlayModel

extension StreamingFilter.ErrorPolicy: ExpressibleByArgument {}

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Stream the features that pass every predicate: box, circle, kind, properties, zoom, id.",
        discussion: """
            Reads GeoJSON, GeoJSONSeq or KML as a stream and writes matching features as they \
            come, in constant memory. Output is GeoJSONSeq (one feature per line) unless --to or \
            -o's extension says otherwise. Passing features are copied through byte for byte \
            (line breaks removed) when the output is GeoJSON or GeoJSONSeq and neither --select \
            nor --precision is given; otherwise they are re-encoded.

            --where EXPR: comparisons == != < <= > >= against numbers, 'strings', true, false, \
            null; 'in [..]'; 'exists'; '~ /regex/i'; and, or, not, parentheses; nested \
            properties as a.b; `odd key` in backquotes.
              overlaykit filter Examples/countries.geojson --where "POP_EST > 1e7" --count
            """
    )

    @OptionGroup var inputOptions: InputOptions

    @Option(name: [.short, .long], help: "Output file; '-' or none writes standard output.")
    var output: String?

    @OptionGroup var overwrite: OverwriteOption

    @Option(help: "Output format (default: from -o's extension, else geojsonseq).")
    var to: FileFormat?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep features that meet the box (w > e crosses the antimeridian).", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep features that lie wholly inside the box.", valueName: "w,s,e,n"))
    var within: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep features within this many meters of a point, on the sphere.", valueName: "lat,lon,meters"))
    var near: String?

    @Option(help: ArgumentHelp("Keep these kinds: \(ShapeKind.allCases.map(\.rawValue).joined(separator: ", ")), null.", valueName: "kinds"))
    var type: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("Keep features whose properties satisfy the expression.", valueName: "expr"))
    var whereExpression: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Drop features smaller than one screen point at this zoom.", valueName: "zoom"))
    var visibleAt: Double?

    @Option(help: ArgumentHelp("Keep features with these ids (comma-separated).", valueName: "ids"))
    var id: String?

    @Option(parsing: .unconditional, help: "Stop after this many matching features.")
    var limit: Int?

    @Option(help: ArgumentHelp("Keep only these properties (comma-separated).", valueName: "keys"))
    var select: String?

    @Option(parsing: .unconditional, help: "Re-encode coordinates with this many decimals instead of copying them through.")
    var precision: Int?

    @OptionGroup var geoParquet: GeoParquetOutputOptions

    @Flag(help: "Print only the number of matching features.")
    var count = false

    @Option(help: "What a bad feature does: fail (stop, exit 65), skip (drop and count it), report (drop it and print why).")
    var onError: StreamingFilter.ErrorPolicy = .fail

    @Flag(help: "Show bytes, features and rate on standard error (also on a terminal after 2 s).")
    var progress = false

    /// Predicates parsed once, in `validate()`, so a bad one is a usage error before any work.
    func makeFilter() throws -> FeatureFilter {
        var filter = FeatureFilter()
        func parse<T>(_ option: String, _ body: () throws -> T) throws -> T {
            do { return try body() } catch let diagnostic as Diagnostic {
                throw ValidationError("\(option): \(diagnostic.message)")
            } catch let syntax as WhereSyntaxError {
                throw ValidationError("\(option): \(syntax)")
            }
        }
        if let bbox { filter.intersecting = try parse("--bbox") { try GeographicBox(parsing: bbox) } }
        if let within { filter.within = try parse("--within") { try GeographicBox(parsing: within) } }
        if let near { filter.near = try parse("--near") { try CircularRegion(parsing: near) } }
        if let type { filter.kinds = try parse("--type") { try ShapeKindSet(parsing: type) } }
        if let whereExpression { filter.expression = try parse("--where") { try WhereExpression(parsing: whereExpression) } }
        if let id { filter.ids = FeatureIDSet(parsing: id) }
        filter.visibleAtZoom = visibleAt
        return filter
    }

    func validate() throws {
        _ = try makeFilter()
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let precision, !(0...17).contains(precision) { throw ValidationError("--precision must be 0…17") }
        if let visibleAt, !(0...30).contains(visibleAt) { throw ValidationError("--visible-at must be a zoom 0…30") }
        if let select, select.split(separator: ",").isEmpty { throw ValidationError("--select needs at least one key") }
        try geoParquet.validate(for: try FileFormat.forOutput(to: to, output: output, fallback: .geojsonseq))
    }

    func run() throws {
        try runReportingErrors {
            var engine = StreamingFilter(filter: try makeFilter())
            engine.limit = limit
            engine.selectedKeys = select.map { $0.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) } }
            engine.precision = precision
            engine.countsOnly = count
            engine.onError = onError
            engine.showsProgress = progress
            engine.geometryColumn = inputOptions.format.geometryColumn
            engine.geoParquet = geoParquet.writeOptions
            engine.readThreads = ReadAheadFeatureReader.usableCores
            let input = try inputOptions.openInput()
            let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
            defer { byteOutput.abandon() }
            let format = try FileFormat.forOutput(to: to, output: output, fallback: .geojsonseq)
            _ = try engine.run(input: input, inputFormat: inputOptions.from, output: byteOutput, format: format,
                               status: Report.standardError)
        }
    }
}
