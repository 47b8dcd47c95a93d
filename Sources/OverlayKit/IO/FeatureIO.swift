import OverlayModel

/// Opens readers and writers by format: the one place that knows which type serves which
/// format, so commands stay format-agnostic.
public enum FeatureIO {
    /// The format of an input: the one given, else its extension, else its first bytes.
    /// - Throws: `Diagnostic` `input.unknown-format` when none of these tells.
    public static func detectFormat(of input: ByteInput, given: FileFormat? = nil) throws -> FileFormat {
        if let given { return given }
        if let name = input.name, let format = FileFormat(pathExtensionOf: name), format.isFeatureFormat {
            return format
        }
        if let format = FileFormat(sniffing: try input.peek(512)) { return format }
        throw Diagnostic(.error, code: .inputUnknownFormat,
                         message: "cannot tell the format of \(input.name ?? "standard input"); name it with --from",
                         location: SourceLocation(file: input.name, line: 1, column: 1))
    }

    /// A streaming reader for the input; `kmzLimits` bound what a KMZ may inflate to.
    public static func reader(for input: ByteInput, format: FileFormat? = nil,
                              kmzLimits: KMZ.Limits = KMZ.Limits()) throws -> any FeatureReader {
        try reader(for: input, format: format, kmzLimits: kmzLimits, geometryColumn: nil)
    }

    /// A streaming reader for the input, as ``reader(for:format:kmzLimits:)``; `geometryColumn`
    /// names the GeoParquet geometry column to read instead of the primary one (nil: the
    /// primary one); other formats have one geometry and refuse a name (usage error).
    public static func reader(for input: ByteInput, format: FileFormat? = nil, kmzLimits: KMZ.Limits = KMZ.Limits(),
                              geometryColumn: String?) throws -> any FeatureReader {
        try reader(for: input, format: format, kmzLimits: kmzLimits, geometryColumn: geometryColumn, hints: FeatureReadHints())
    }

    /// A streaming reader for the input, as ``reader(for:format:kmzLimits:geometryColumn:)``,
    /// told what the caller needs (GeoParquet skips row groups outside `hints.extent`, leaves
    /// properties not asked for undecoded and decodes row groups on `hints.threads` threads;
    /// the other formats read everything).
    /// - Parameters:
    ///   - input: the bytes to read.
    ///   - format: the input's format (nil: detected, ``detectFormat(of:given:)``).
    ///   - kmzLimits: what a KMZ may inflate to.
    ///   - geometryColumn: the GeoParquet geometry column to read (nil: the primary one).
    ///   - hints: the extent, properties and threads the caller needs.
    /// - Throws: what opening the reader throws; `geoparquet.geometry-column` (usage) for a
    ///   geometry column named for another format.
    public static func reader(for input: ByteInput, format: FileFormat? = nil, kmzLimits: KMZ.Limits = KMZ.Limits(),
                              geometryColumn: String?, hints: FeatureReadHints) throws -> any FeatureReader {
        let format = try detectFormat(of: input, given: format)
        if let geometryColumn, format != .geoparquet {
            throw Diagnostic(.error, code: .geoparquetGeometryColumn,
                             message: "--geometry-column \(geometryColumn) names a GeoParquet column, but the input is \(format.rawValue)",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        switch format {
        case .geojson, .geojsonseq:
            return GeoJSONReader(input: input)
        case .kml:
            return try KMLReader(input: input)
        case .kmz:
            return try KMZ.reader(for: input, limits: kmzLimits)
        case .geoparquet:
            return try GeoParquetReader(input: input, geometryColumn: geometryColumn, hints: hints)
        default:
            throw Diagnostic(.error, code: .inputUnsupportedFormat,
                             message: "\(format.rawValue) cannot be read as features")
        }
    }

    /// A streaming reader for the file or folder at `path` (nil or "-": standard input): a folder
    /// is read as a Hive-partitioned GeoParquet data set (``GeoParquetReader/init(folder:geometryColumn:hints:slice:)``),
    /// anything else as ``reader(for:format:kmzLimits:geometryColumn:hints:)`` reads it.
    /// - Parameters:
    ///   - path: the file or folder (nil or "-": standard input).
    ///   - format: the input's format (nil: detected; a folder is GeoParquet whatever it says).
    ///   - kmzLimits: what a KMZ may inflate to.
    ///   - geometryColumn: the GeoParquet geometry column to read (nil: the primary one).
    ///   - hints: the extent, properties and threads the caller needs.
    /// - Returns: the input (for a folder, an empty one named after it) and its reader.
    /// - Throws: what opening the file or the reader throws.
    public static func reader(atPath path: String?, format: FileFormat? = nil, kmzLimits: KMZ.Limits = KMZ.Limits(),
                              geometryColumn: String?, hints: FeatureReadHints) throws -> (ByteInput, any FeatureReader) {
        if let path, path != "-", HivePartitionedFolder.isFolder(path) {
            if let format, format != .geoparquet {
                throw Diagnostic(.error, code: .inputUnsupportedFormat,
                                 message: "\(path) is a folder: only GeoParquet is read from a folder, not \(format.rawValue)")
            }
            return (ByteInput(bytes: [], name: path), try GeoParquetReader(folder: path, geometryColumn: geometryColumn, hints: hints))
        }
        let input = try ByteInput(path: path)
        return (input, try reader(for: input, format: format, kmzLimits: kmzLimits, geometryColumn: geometryColumn, hints: hints))
    }

    /// A streaming writer into `output`.
    public static func writer(for format: FileFormat, output: ByteOutput,
                              options: WriterOptions = WriterOptions()) throws -> any FeatureWriter {
        switch format {
        case .geojson:
            return GeoJSONWriter(output: output, options: options, sequence: false)
        case .geojsonseq:
            return GeoJSONWriter(output: output, options: options, sequence: true)
        case .kml, .kmz:
            return try KMLWriter(output: output, options: options, kmz: format == .kmz)
        case .geoparquet:
            return GeoParquetWriter(output: output, options: options)
        default:
            throw Diagnostic(.error, code: .outputUnsupportedFormat,
                             message: "features cannot be written as \(format.rawValue) by this command")
        }
    }
}
