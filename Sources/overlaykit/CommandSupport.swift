import ArgumentParser
import OverlayKit
import OverlayModel

/// Exit codes (BSD sysexits, as the style guide asks).
enum ExitStatus {
    static let findings: Int32 = 1
    static let usage: Int32 = 64
    static let badInput: Int32 = 65
    static let ioError: Int32 = 74
}

extension FileFormat: ExpressibleByArgument {}

/// The input every reading command takes.
struct InputOptions: ParsableArguments {
    @Argument(help: "Input file (GeoJSON, GeoJSONSeq, KML or KMZ); '-' or none reads standard input.")
    var input: String?

    @Option(help: "Input format when the extension and content do not tell: \(FileFormat.featureFormatList).")
    var from: FileFormat?

    /// Opens the input file, or standard input (saying so on standard error when it is a
    /// terminal, so a user who forgot the file name is not left waiting).
    func openInput() throws -> ByteInput {
        if input == nil || input == "-", isatty(STDIN_FILENO) == 1 {
            Report.diagnostic(Diagnostic(.note, code: "input.stdin", message: "reading standard input (end it with Ctrl-D; name a file to read one)"))
        }
        return try ByteInput(path: input)
    }

    /// Opens the input and a reader for it.
    func openReader() throws -> (ByteInput, any FeatureReader) {
        let byteInput = try openInput()
        return (byteInput, try FeatureIO.reader(for: byteInput, format: from))
    }
}

extension FileFormat {
    static var featureFormatList: String {
        allCases.filter(\.isFeatureFormat).map(\.rawValue).joined(separator: ", ")
    }
}

/// Writes diagnostics to standard error.
enum Report {
    static func diagnostic(_ diagnostic: Diagnostic) {
        standardError("\(diagnostic)\n")
    }

    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count)
        }
    }
}

/// Runs a command body, turning errors into a message on standard error and an exit code:
/// bad input 65, I/O 74; a closed output pipe ends quietly with 0.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch is ByteOutput.Closed {
        throw ExitCode.success
    } catch let diagnostic as Diagnostic {
        Report.diagnostic(diagnostic)
        throw ExitCode(diagnostic.code.hasPrefix("io.") ? ExitStatus.ioError : ExitStatus.badInput)
    }
}
