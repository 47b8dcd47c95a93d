import ArgumentParser
import OverlayKit
import OverlayModel

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Stream the features that pass every predicate: box, circle, kind, properties, zoom, id.",
        discussion: """
            Reads GeoJSON, GeoJSONSeq or KML as a stream and writes matching features as they
            come, in constant memory. Output is GeoJSONSeq (one feature per line) unless --to or
            -o's extension says otherwise. Passing features are copied through byte for byte
            (line breaks removed) when the output is GeoJSON or GeoJSONSeq and neither --select
            nor --precision is given; otherwise they are re-encoded.

            --where EXPR: comparisons == != < <= > >= against numbers, 'strings', true, false,
            null; 'in [..]'; 'exists'; '~ /regex/i'; and, or, not, parentheses; nested
            properties as a.b; `odd key` in backquotes.
              overlaykit filter countries.geojson --where "CONTINENT == 'Europe' and POP_EST > 1e7"
            """
    )

    enum OnError: String, ExpressibleByArgument, CaseIterable {
        case fail, skip, report
    }

    @OptionGroup var inputOptions: InputOptions

    @Option(name: [.short, .long], help: "Output file; '-' or none writes standard output.")
    var output: String?

    @Option(help: "Output format: geojsonseq (default), geojson, or another feature format.")
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

    @Option(help: ArgumentHelp("Drop features smaller than one screen point at this zoom.", valueName: "zoom"))
    var visibleAt: Double?

    @Option(help: ArgumentHelp("Keep features with these ids (comma-separated).", valueName: "ids"))
    var id: String?

    @Option(help: "Stop after this many matching features.")
    var limit: Int?

    @Option(help: ArgumentHelp("Keep only these properties (comma-separated).", valueName: "keys"))
    var select: String?

    @Option(help: "Re-encode coordinates with this many decimals instead of copying them through.")
    var precision: Int?

    @Flag(help: "Print only the number of matching features.")
    var count = false

    @Option(help: "What a bad feature does: fail (stop, exit 65), skip (drop and count it), report (drop it and print why).")
    var onError: OnError = .fail

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
    }

    func run() throws {
        try runReportingErrors {
            let filter = try makeFilter()
            let input = try ByteInput(path: inputOptions.input)
            let inputFormat = try FeatureIO.detectFormat(of: input, given: inputOptions.from)
            let format = to ?? output.flatMap(FileFormat.init(pathExtensionOf:)) ?? .geojsonseq
            let keys = select.map { $0.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) } }
            let copiesBytes = !count && keys == nil && precision == nil && (format == .geojson || format == .geojsonseq)

            var source: FilterSource
            if inputFormat == .geojson || inputFormat == .geojsonseq {
                var reader = GeoJSONReader(input: input)
                reader.keepsFeatureBytes = copiesBytes
                reader.skipsGeometry = !filter.needsGeometry && (copiesBytes || count)
                reader.resumable = onError != .fail
                source = .geoJSON(reader)
            } else {
                source = .other(try FeatureIO.reader(for: input, format: inputFormat))
            }

            let byteOutput = try ByteOutput(path: output)
            defer { byteOutput.abandon() }
            var writer: (any FeatureWriter)? = count ? nil
                : try FeatureIO.writer(for: format, output: byteOutput, options: WriterOptions(precision: precision ?? 7))
            // A GeoJSON writer is kept as its concrete type: it takes copied bytes.
            var geoJSONWriter = writer as? GeoJSONWriter
            if geoJSONWriter != nil { writer = nil }
            var warnings = WarningLimiter()
            var meter = ProgressMeter(input: input, forced: progress)
            var matched = 0, skipped = 0
            var firstSkipped: Diagnostic?
            var line: [UInt8] = []

            do {
                while limit.map({ matched < $0 }) ?? true {
                    let next: Feature?
                    do {
                        next = try source.next()
                    } catch let diagnostic as Diagnostic where onError != .fail && !diagnostic.code.hasPrefix("io.") {
                        skipped += 1
                        if firstSkipped == nil { firstSkipped = diagnostic }
                        if onError == .report { meter.clearLine(); Report.diagnostic(diagnostic) }
                        try source.resumeAfterError()
                        continue
                    }
                    guard let feature = next else { break }
                    source.takeWarnings().forEach { warnings.report($0, meter: &meter) }
                    meter.tick(matched: matched)
                    guard filter.matches(feature) else { continue }
                    matched += 1
                    guard writer != nil || geoJSONWriter != nil else { continue }
                    if copiesBytes, var copier = geoJSONWriter,
                       try source.withLastFeatureBytes({ try writeCopied($0, to: &copier, scratch: &line) }) != nil {
                        geoJSONWriter = copier
                        continue
                    }
                    if geoJSONWriter != nil {
                        try geoJSONWriter!.write(keys.map { FeatureFilter.selecting($0, from: feature) } ?? feature)
                        geoJSONWriter!.takeWarnings().forEach { warnings.report($0, meter: &meter) }
                    } else {
                        try writer!.write(keys.map { FeatureFilter.selecting($0, from: feature) } ?? feature)
                        writer!.takeWarnings().forEach { warnings.report($0, meter: &meter) }
                    }
                }
            } catch let diagnostic as Diagnostic {
                // Stopped at a bad feature: what was already written stays whole (records end on
                // line boundaries); a file output is not created.
                meter.clearLine()
                if byteOutput.path == nil { try? byteOutput.flush() }
                throw diagnostic
            }
            source.takeWarnings().forEach { warnings.report($0, meter: &meter) }
            meter.finish(matched: matched)
            if count {
                try byteOutput.write("\(matched)\n")
            } else if geoJSONWriter != nil {
                try geoJSONWriter!.finish()
            } else {
                try writer!.finish()
                writer!.takeWarnings().forEach { warnings.report($0, meter: &meter) }
            }
            try byteOutput.commit()
            warnings.summarize()
            if skipped > 0 {
                var text = "filter: skipped \(skipped) bad feature\(skipped == 1 ? "" : "s")"
                if onError == .skip, let firstSkipped { text += "; the first: \(firstSkipped)" }
                Report.standardError(text + "\n")
            }
        }
    }
}

/// The reader behind the filter: GeoJSON ones can copy bytes through and skip bad features.
private enum FilterSource {
    case geoJSON(GeoJSONReader)
    case other(any FeatureReader)

    mutating func next() throws -> Feature? {
        switch self {
        case .geoJSON(var reader):
            defer { self = .geoJSON(reader) }
            return try reader.next()
        case .other(var reader):
            defer { self = .other(reader) }
            return try reader.next()
        }
    }

    mutating func takeWarnings() -> [Diagnostic] {
        switch self {
        case .geoJSON(var reader):
            defer { self = .geoJSON(reader) }
            return reader.takeWarnings()
        case .other(var reader):
            defer { self = .other(reader) }
            return reader.takeWarnings()
        }
    }

    /// Skips past the feature that failed; other readers cannot, so the error stands.
    mutating func resumeAfterError() throws {
        guard case .geoJSON(var reader) = self else {
            throw Diagnostic(.error, code: "filter.cannot-resume",
                             message: "--on-error skip/report needs GeoJSON or GeoJSONSeq input; this reader cannot skip a bad feature")
        }
        defer { self = .geoJSON(reader) }
        try reader.resumeAfterError()
    }

    func withLastFeatureBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        guard case .geoJSON(let reader) = self else { return nil }
        return try reader.withLastFeatureBytes(body)
    }
}

/// Copies a feature's source bytes into a GeoJSON writer without line breaks (whitespace
/// between JSON tokens: strings cannot hold raw ones), so each stays one record.
private func writeCopied(_ bytes: UnsafeRawBufferPointer, to writer: inout GeoJSONWriter, scratch: inout [UInt8]) throws {
    guard let base = bytes.baseAddress, bytes.count > 0,
          memchr(base, 0x0A, bytes.count) != nil || memchr(base, 0x0D, bytes.count) != nil else {
        return try writer.writeEncoded(bytes)
    }
    scratch.removeAll(keepingCapacity: true)
    for byte in bytes where byte != 0x0A && byte != 0x0D { scratch.append(byte) }
    try scratch.withUnsafeBytes { try writer.writeEncoded($0) }
}

/// Prints the first few warnings of each code and counts the rest, so a long stream of the
/// same warning does not flood standard error.
private struct WarningLimiter {
    static let perCode = 5
    private var counts: [String: Int] = [:]

    mutating func report(_ diagnostic: Diagnostic, meter: inout ProgressMeter) {
        counts[diagnostic.code, default: 0] += 1
        if counts[diagnostic.code]! <= WarningLimiter.perCode {
            meter.clearLine()
            Report.diagnostic(diagnostic)
        }
    }

    func summarize() {
        for (code, count) in counts.sorted(by: { $0.key < $1.key }) where count > WarningLimiter.perCode {
            Report.standardError("filter: \(count - WarningLimiter.perCode) more \(code) warnings not shown (\(count) in all)\n")
        }
    }
}

/// A progress line on standard error: bytes read, features seen and matched, rate. Shown when
/// asked for, or when standard error is a terminal and the run has taken over two seconds.
private struct ProgressMeter {
    let input: ByteInput
    let enabled: Bool
    private let forced: Bool
    private let start = ProgressMeter.now()
    private var lastDraw = 0.0
    private var features = 0
    private var drawn = false

    init(input: ByteInput, forced: Bool) {
        self.input = input
        enabled = forced || isatty(STDERR_FILENO) == 1
        self.forced = forced
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    mutating func tick(matched: Int) {
        features += 1
        guard enabled, features & 255 == 0 else { return }
        let now = ProgressMeter.now()
        guard now - lastDraw >= 0.5, forced || now - start >= 2 else { return }
        lastDraw = now
        draw(matched: matched, now: now, final: false)
    }

    private mutating func draw(matched: Int, now: Double, final: Bool) {
        let megabytes = Double(input.bytesRead) / 1_000_000
        let rate = megabytes / max(now - start, 1e-6)
        var text = "\r\(format(megabytes)) MB"
        if let size = input.expectedSize, size > 0 { text += " (\(Int(Double(input.bytesRead) * 100 / Double(size)))%)" }
        text += ", \(features) features, \(matched) matched, \(format(rate)) MB/s"
        Report.standardError(text + (final ? "\n" : "\u{1B}[K"))
        drawn = !final
    }

    private func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Ends the line before other text goes to standard error.
    mutating func clearLine() {
        guard drawn else { return }
        Report.standardError("\n")
        drawn = false
    }

    mutating func finish(matched: Int) {
        guard enabled, forced || drawn else { return }
        draw(matched: matched, now: ProgressMeter.now(), final: true)
    }
}
