#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// The engine of `overlaykit filter`: streams features from an input to an output in constant
/// memory, keeping those a ``FeatureFilter`` passes.
///
/// Passing features are copied through byte for byte (line breaks removed, so each stays one
/// GeoJSONSeq record) when input and output are GeoJSON or GeoJSONSeq and neither
/// ``selectedKeys`` nor ``precision`` is set; otherwise they are decoded and re-encoded.
public struct StreamingFilter {
    /// What a feature that cannot be read does to the run.
    public enum ErrorPolicy: String, CaseIterable, Sendable {
        /// Stop at the first bad feature and throw its diagnostic.
        case fail
        /// Drop bad features and count them (GeoJSON and GeoJSONSeq input only).
        case skip
        /// Drop bad features and report each one.
        case report
    }

    /// What a run did.
    public struct Outcome: Equatable, Sendable {
        /// Features that passed the filter (and were written, unless ``StreamingFilter/countsOnly``).
        public var matched: Int
        /// Bad features dropped under ``ErrorPolicy/skip`` or ``ErrorPolicy/report``.
        public var skipped: Int
    }

    /// The predicates a feature must pass.
    public var filter: FeatureFilter
    /// Stop after this many matching features; nil for no limit.
    public var limit: Int?
    /// Keep only these top-level properties; nil keeps all.
    public var selectedKeys: [String]?
    /// Re-encode coordinates with this many decimals instead of copying them through.
    public var precision: Int?
    /// The GeoParquet geometry column to read instead of the primary one.
    public var geometryColumn: String?
    /// How GeoParquet output is laid out.
    public var geoParquet = GeoParquetWriteOptions()
    /// Write only the number of matching features, one line.
    public var countsOnly = false
    /// What a bad feature does.
    public var onError: ErrorPolicy = .fail
    /// Always show the progress line (otherwise only on a terminal after two seconds).
    public var showsProgress = false
    /// Threads a GeoParquet input's row groups are decoded on (the output is the same bytes).
    public var readThreads = 1

    /// What the reader is told: the box of ``FeatureFilter/intersecting`` or
    /// ``FeatureFilter/within`` (row groups that cannot meet it are skipped: their features
    /// would not pass), ``readThreads``, and the properties used when the filter looks at none
    /// (`--count` reads none; `--select` the selected ones).
    public var readHints: FeatureReadHints {
        var properties: Set<String>?
        if filter.expression == nil {
            if countsOnly { properties = [] } else if let selectedKeys { properties = Set(selectedKeys) }
        }
        return FeatureReadHints(extent: filter.intersecting ?? filter.within, properties: properties, threads: readThreads)
    }

    /// A filter run with the given predicates and defaults for everything else.
    public init(filter: FeatureFilter) {
        self.filter = filter
    }

    /// Streams `input` to `output` as `format`, then commits the output.
    ///
    /// - Parameters:
    ///   - input: the features to filter.
    ///   - inputFormat: the input's format; nil detects it (``FeatureIO/detectFormat(of:given:)``).
    ///   - status: receives text for standard error: warnings (the first five of each code),
    ///     notes, the progress line.
    ///   - output: where matching features (or their count) go.
    ///   - format: the output format.
    /// - Throws: the `Diagnostic` of the first bad feature under ``ErrorPolicy/fail`` (what was
    ///   written to standard output stays whole; a file output is not created), or an I/O error.
    public func run(input: ByteInput, inputFormat: FileFormat? = nil, output: ByteOutput, format: FileFormat,
                    status: @escaping (String) -> Void) throws -> Outcome {
        let inputFormat = try FeatureIO.detectFormat(of: input, given: inputFormat)
        let copiesBytes = !countsOnly && selectedKeys == nil && precision == nil && (format == .geojson || format == .geojsonseq)
        var source: FilterSource
        if (inputFormat == .geojson || inputFormat == .geojsonseq) && geometryColumn == nil {
            var reader = GeoJSONReader(input: input)
            reader.keepsFeatureBytes = copiesBytes
            reader.skipsGeometry = !filter.needsGeometry && (copiesBytes || countsOnly)
            reader.resumable = onError != .fail
            source = .geoJSON(reader)
        } else {
            source = .other(try FeatureIO.reader(for: input, format: inputFormat, geometryColumn: geometryColumn, hints: readHints))
        }

        var writer: (any FeatureWriter)? = countsOnly ? nil
            : try FeatureIO.writer(for: format, output: output, options: WriterOptions(precision: precision ?? 7, geoParquet: geoParquet))
        // A GeoJSON writer is kept as its concrete type: it takes copied bytes.
        var geoJSONWriter = writer as? GeoJSONWriter
        if geoJSONWriter != nil { writer = nil }
        var warnings = WarningLimiter()
        let meter = ProgressMeter(show: showsProgress ? true : nil, status: status)
        var seen = 0
        func progressLine(matched: Int) -> String {
            let megabytes = Double(input.bytesRead) / 1_000_000
            var text = "\(Self.tenths(megabytes)) MB"
            if let size = input.expectedSize, size > 0 { text += " (\(Int(Double(input.bytesRead) * 100 / Double(size)))%)" }
            return text + ", \(seen) features, \(matched) matched, \(Self.tenths(megabytes / meter.elapsedSeconds)) MB/s"
        }
        func report(_ diagnostic: Diagnostic) {
            guard warnings.admits(diagnostic) else { return }
            meter.clearLine()
            status("\(diagnostic)\n")
        }
        var matched = 0, skipped = 0
        var firstSkipped: Diagnostic?
        var line: [UInt8] = []

        do {
            while limit.map({ matched < $0 }) ?? true {
                let next: Feature?
                do {
                    next = try source.next()
                } catch let diagnostic as Diagnostic where onError != .fail && !diagnostic.isIOError {
                    skipped += 1
                    if firstSkipped == nil { firstSkipped = diagnostic }
                    if onError == .report { meter.clearLine(); status("\(diagnostic)\n") }
                    try source.resumeAfterError()
                    continue
                }
                guard let feature = next else { break }
                source.takeWarnings().forEach(report)
                if filter.needsGeometry, let warning = PolarLatitudes.warning(for: feature) { report(warning) }
                seen += 1
                if seen & 255 == 0 { meter.update { progressLine(matched: matched) } }
                let passes: Bool
                do {
                    passes = try filter.matches(feature)
                } catch let diagnostic as Diagnostic where onError != .fail {
                    // A value too costly to test is a bad feature: skipped and counted like one.
                    skipped += 1
                    if firstSkipped == nil { firstSkipped = diagnostic }
                    if onError == .report { meter.clearLine(); status("\(diagnostic)\n") }
                    continue
                }
                guard passes else { continue }
                matched += 1
                guard writer != nil || geoJSONWriter != nil else { continue }
                if copiesBytes, var copier = geoJSONWriter,
                   try source.withLastFeatureBytes({ try StreamingFilter.writeCopied($0, to: &copier, scratch: &line) }) != nil {
                    geoJSONWriter = copier
                    continue
                }
                let kept = selectedKeys.map { FeatureFilter.selecting($0, from: feature) } ?? feature
                if geoJSONWriter != nil {
                    try geoJSONWriter!.write(kept)
                    geoJSONWriter!.takeWarnings().forEach(report)
                } else {
                    try writer!.write(kept)
                    writer!.takeWarnings().forEach(report)
                }
            }
        } catch let diagnostic as Diagnostic {
            // Stopped at a bad feature: what was already written stays whole (records end on
            // line boundaries); a file output is not created.
            meter.clearLine()
            if output.path == nil { try? output.flush() }
            throw diagnostic
        }
        source.takeWarnings().forEach(report)
        meter.finish(progressLine(matched: matched))
        if countsOnly {
            try output.write("\(matched)\n")
        } else if geoJSONWriter != nil {
            // A KMZ's files: named in warnings (GeoJSON has no place for them). A GeoJSON
            // input's collection members are left out of a selection, as before.
            if case .other(let reader) = source {
                geoJSONWriter!.carry(DocumentContext(resources: reader.documentContext.resources, entriesRead: reader.documentContext.entriesRead)).forEach(report)
            }
            try geoJSONWriter!.finish()
        } else {
            if case .other(let reader) = source {
                writer!.carry(DocumentContext(resources: reader.documentContext.resources, entriesRead: reader.documentContext.entriesRead)).forEach(report)
            }
            try writer!.finish()
            writer!.takeWarnings().forEach(report)
        }
        try output.commit()
        for note in warnings.summary() { status("\(note)\n") }
        if skipped > 0 {
            var text = "skipped \(skipped) bad feature\(skipped == 1 ? "" : "s")"
            if onError == .skip, let firstSkipped { text += "; the first: \(firstSkipped)" }
            status("\(Diagnostic(.warning, code: .filterSkipped, message: text))\n")
        }
        return Outcome(matched: matched, skipped: skipped)
    }

    /// Copies a feature's source bytes into a GeoJSON writer without line breaks (whitespace
    /// between JSON tokens: strings cannot hold raw ones), so each stays one record.
    private static func writeCopied(_ bytes: UnsafeRawBufferPointer, to writer: inout GeoJSONWriter, scratch: inout [UInt8]) throws {
        guard let base = bytes.baseAddress, bytes.count > 0,
              memchr(base, 0x0A, bytes.count) != nil || memchr(base, 0x0D, bytes.count) != nil else {
            return try writer.writeEncoded(bytes)
        }
        scratch.removeAll(keepingCapacity: true)
        for byte in bytes where byte != 0x0A && byte != 0x0D { scratch.append(byte) }
        try scratch.withUnsafeBytes { try writer.writeEncoded($0) }
    }
}

extension StreamingFilter {
    /// `value` with one decimal ("12.3"), for the progress line.
    static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
