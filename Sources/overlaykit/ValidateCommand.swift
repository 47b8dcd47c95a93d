import ArgumentParser
import OverlayKit
import OverlayModel

extension ValidationReport.Format: ExpressibleByArgument {}

/// `overlaykit validate`: checks GeoJSON and KML files for structure and geometry validity, and
/// with `--profile` against a target's limits, for people (text) or CI (json, sarif). Exit 0
/// clean, 1 errors or a failed profile (or warnings with --strict), 65 when an input is not
/// GeoJSON, KML or a tile set, 74 when one cannot be opened.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check GeoJSON and KML files: structure, geometry validity, KML references; text, JSON or SARIF report.",
        discussion: """
        Each finding reads `file:line:col: severity: code: message`. Exit status: 0 clean, 1 when any \
        file has errors or a profile fails (or warnings, with --strict), 65 when an input is not GeoJSON, \
        KML or a tile set (or the --schema file is not a schema), 74 when one cannot be opened.
        """
    )

    @Argument(help: "Files to check (GeoJSON, GeoJSONSeq, KML, KMZ); '-' or none reads standard input.")
    var files: [String] = []

    @Option(help: "Input format when the extension and content do not tell.")
    var from: FileFormat?

    @Option(help: "Report format: \(ValidationReport.Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ValidationReport.Format = .text

    @Flag(help: "Treat warnings as errors for the exit status.")
    var strict = false

    @Option(help: "Also validate KML against this XML Schema (XSD), e.g. the OGC KML 2.2 schema.")
    var schema: String?

    @Flag(help: "Check structure only, not geometry validity (self-intersection, holes).")
    var noGeometry = false

    @Option(parsing: .unconditional, help: "KML: OGC KML 2.2 Abstract Test Suite level to check: 1 requirements, 2 also recommendations (warnings), 3 also informative notes.")
    var atsLevel: Int = 1

    @Option(help: ArgumentHelp("KML: the version held to: 2.2 (a KML 2.3 construct is an error), 2.3, or auto (the default: 2.3 for a document that says so; elsewhere 2.3's constructs are accepted, as KML 2.3 kept 2.2's namespace).", valueName: "auto|2.2|2.3"))
    var kmlVersion: KMLVersion = .automatic

    @Option(name: .customLong("profile"),
            help: "Also check a target's limits (repeatable): \(ValidationProfile.builtInNames.joined(separator: ", ")), or a profile file (JSON or YAML).")
    var profiles: [String] = []

    @Flag(help: "Also check that each file's polygons form a coverage: no two features overlap, shared borders have the same vertices on both sides.")
    var coverage = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --coverage: also report gaps between features narrower than W metres.", valueName: "W"))
    var gapWidth: Double?

    func validate() throws {
        guard (1...3).contains(atsLevel) else { throw ValidationError("--ats-level must be 1, 2 or 3") }
        if let gapWidth {
            guard coverage else { throw ValidationError("--gap-width needs --coverage") }
            guard gapWidth >= 0 && gapWidth.isFinite else { throw ValidationError("--gap-width must be a number of metres ≥ 0") }
        }
    }

    func run() throws {
        let paths = files.isEmpty ? ["-"] : files
        let options = ValidationOptions(schemaPath: schema, checksGeometry: !noGeometry, atsLevel: atsLevel, kmlVersion: kmlVersion)
        var checks: [any ValidationCheck] = []
        if !profiles.isEmpty {
            do {
                checks.append(ProfileCheck(profiles: try profiles.map(ValidationProfile.named)))
            } catch let diagnostic as Diagnostic {
                Report.diagnostic(diagnostic)
                throw ExitCode(diagnostic.exitStatus)
            }
        }
        if coverage { checks.append(CoverageCheck(gapWidth: gapWidth ?? 0)) }
        let run = Validator.run(paths: paths, format: from, options: options, checks: checks)
        let output = try ByteOutput(path: nil)
        do {
            try output.write(ValidationReport.render(run, as: format))
            try output.commit()
        } catch is ByteOutput.Closed {
            // A reader that stopped early still gets the exit status below.
        } catch let diagnostic as Diagnostic {
            // The report could not be written (a full disk): that is an I/O failure, not findings.
            Report.diagnostic(diagnostic)
            throw ExitCode(ExitStatus.ioError)
        }
        if format != .text { Report.standardError(run.summary.line + "\n") }
        // An input that cannot be opened is an I/O failure (74) in every command; one that
        // opens but is not GeoJSON, KML or a tile set is bad data (65); errors or a failed
        // profile are findings (1).
        let status = run.exitStatus(strict: strict)
        if status != 0 { throw ExitCode(status) }
    }
}

extension KMLVersion: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument == "auto" ? "automatic" : argument)
    }

    public static var allValueStrings: [String] { ["auto", "2.2", "2.3"] }
}
