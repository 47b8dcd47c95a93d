#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import OverlayKit
import OverlayModel

/// Exit codes (BSD sysexits, as the style guide asks), each the status of a diagnostic kind:
/// `Diagnostic.Code.Kind.exitStatus` is the one place they are decided.
enum ExitStatus {
    static let findings = Diagnostic.Code.Kind.finding.exitStatus
    static let ioError = Diagnostic.Code.Kind.io.exitStatus
}

/// `--from`/`--to` take feature formats only: `--to png` is a usage error (exit 64), and help
/// and completions list just these.
extension FileFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = FileFormat(rawValue: argument), format.isFeatureFormat else { return nil }
        self = format
    }

    public static var allValueStrings: [String] { allCases.filter(\.isFeatureFormat).map(\.rawValue) }

    /// The format to write: `--to`, else the output file's extension, else `fallback`.
    /// - Throws: a usage error when the output file's extension names no feature format and
    ///   `--to` does not say which to write (so `-o out.shp` is not silently GeoJSON).
    /// - Throws: a usage error too when `-o`'s extension names another format than `--to`
    ///   (`-o x.kml --to geojson` would write GeoJSON named .kml).
    static func forOutput(to: FileFormat?, output: String?, fallback: FileFormat) throws -> FileFormat {
        let name = output.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        if let to {
            if let output, output != "-", let named = FileFormat(pathExtensionOf: output), named != to {
                throw ValidationError("'\(name)' is named as \(named.rawValue) but --to asks for \(to.rawValue): name it for what it holds")
            }
            return to
        }
        guard let output, output != "-" else { return fallback }
        guard name.contains(".") else { return fallback }
        guard let format = FileFormat(pathExtensionOf: output), format.isFeatureFormat else {
            throw ValidationError("cannot tell a feature format from '\(name)': use .geojson, .geojsonseq, .kml, .kmz or .parquet, or give --to")
        }
        return format
    }
}

/// The one overwrite switch of every command that writes files (convert, filter, render, tile,
/// tile-join): without it an existing output is an error, as in tippecanoe and ogr2ogr.
struct OverwriteOption: ParsableArguments {
    @Flag(name: [.short, .long], help: "Replace an existing output file or directory (without it, an existing output is an error, exit 74).")
    var force = false
}

/// A tile set is a file or a directory and cannot be streamed: `-o -` is a usage error.
func validateTileSetOutput(_ output: String) throws {
    if output == "-" { throw ValidationError("a tile set cannot be written to standard output: name a .pmtiles or .mbtiles file or a directory") }
    if output.isEmpty { throw ValidationError("the output path is empty") }
}

/// How inputs are read: their format and the KMZ limits.
struct InputFormatOptions: ParsableArguments {
    @Option(help: "Input format when the extension and content do not tell.")
    var from: FileFormat?

    @Option(name: .customLong("max-kmz-size"), parsing: .unconditional, help: "Largest size in MiB a KMZ entry may inflate to, a guard against zip bombs (default 1024; also lifts the 200:1 ratio check).")
    var maxKMZSize: Int?

    @Option(name: .customLong("geometry-column"), help: "GeoParquet: the geometry column to read instead of the primary one.")
    var geometryColumn: String?

    /// The KMZ limits these options ask for.
    var kmzLimits: KMZ.Limits {
        guard let maxKMZSize else { return KMZ.Limits() }
        let bytes = Int64(clamping: maxKMZSize).multipliedReportingOverflow(by: 1 << 20)
        return KMZ.Limits(maximumEntryBytes: bytes.overflow ? .max : bytes.partialValue, maximumRatio: .max)
    }

    /// Opens the file `path`, or standard input for nil or "-" (saying so on standard error when
    /// it is a terminal, so a user who forgot the file name is not left waiting).
    func openInput(_ path: String?) throws -> ByteInput {
        noteIfReadingTerminal(path)
        return try ByteInput(path: path)
    }

    /// Says so on standard error when `path` means standard input and it is a terminal.
    func noteIfReadingTerminal(_ path: String?) {
        if path == nil || path == "-", POSIX.isTerminal(STDIN_FILENO) {
            Report.diagnostic(Diagnostic(.note, code: .inputStdin, message: "reading standard input (end it with Ctrl-D; name a file to read one)"))
        }
    }

    /// Opens the input `path` (as ``openInput(_:)``; a folder as a Hive-partitioned GeoParquet
    /// data set) and a reader for it, told `hints` (by default: GeoParquet row groups decoded on
    /// every core this process may use, which changes no byte of the result).
    func openReader(_ path: String?, hints: FeatureReadHints = FeatureReadHints(threads: ReadAheadFeatureReader.usableCores))
        throws -> (ByteInput, any FeatureReader) {
        noteIfReadingTerminal(path)
        return try FeatureIO.reader(atPath: path, format: from, kmzLimits: kmzLimits, geometryColumn: geometryColumn, hints: hints)
    }
}

/// The input every reading command takes.
struct InputOptions: ParsableArguments {
    @Argument(help: "Input file (GeoJSON, GeoJSONSeq, KML, KMZ or GeoParquet; a folder of GeoParquet files is one input); '-' or none reads standard input.")
    var input: String?

    @OptionGroup var format: InputFormatOptions

    /// `--from`.
    var from: FileFormat? { format.from }

    /// Opens the input file, or standard input.
    func openInput() throws -> ByteInput { try format.openInput(input) }

    /// Opens the input and a reader for it.
    func openReader() throws -> (ByteInput, any FeatureReader) { try format.openReader(input) }
}

/// Writes diagnostics to standard error.
enum Report {
    static func diagnostic(_ diagnostic: Diagnostic) {
        standardError("\(diagnostic)\n")
    }

    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = POSIX.writeOnce(STDERR_FILENO, UnsafeRawBufferPointer(bytes))
        }
    }
}

/// Runs a command body, turning errors into a message on standard error and the exit status
/// of the diagnostic's kind (bad input 65, I/O 74, usage 64); a closed output pipe ends quietly
/// with 0.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch is ByteOutput.Closed {
        throw ExitCode.success
    } catch let diagnostic as Diagnostic {
        Report.diagnostic(diagnostic)
        throw ExitCode(diagnostic.exitStatus)
    }
}
