import OverlayModel

/// A check that runs over a validation run's inputs beside the format rules (GeoJSON, KML) and
/// reports in the same text, JSON and SARIF formats: a profile's limits (`ProfileCheck`), and
/// any other kind that returns a `CheckReport` (a coverage check, say). `Validator.run` calls
/// each check once, after every input has been validated; the report writers know nothing of
/// the kinds.
public protocol ValidationCheck: Sendable {
    /// What the check found over `inputs` (one per file of the run, in order, each with the
    /// result of its format rules); one report per thing checked (a profile each, say).
    func run(on inputs: [ValidationInput]) -> [CheckReport]
}

/// One input of a validation run as a check sees it: its name, its format rules' result, and
/// its bytes (read again from the file, or kept from standard input).
public struct ValidationInput: Sendable {
    /// The file as named, or nil for standard input.
    public var name: String?
    /// What the format rules found (format, findings, whether it could be read).
    public var result: ValidationResult
    /// Standard input's bytes, kept for the checks; nil for a file.
    let bytes: [UInt8]?

    /// An input read from `name` (a path), or from `bytes` when standard input was read.
    public init(name: String?, result: ValidationResult, bytes: [UInt8]? = nil) {
        self.name = name
        self.result = result
        self.bytes = bytes
    }

    /// The input's bytes from the start.
    /// - Throws: `Diagnostic` `io.*` when the file cannot be opened again.
    public func open() throws -> ByteInput {
        if let bytes { return ByteInput(bytes: bytes, name: name) }
        return try ByteInput(path: name ?? "-")
    }
}

/// A rule of a check, as reports show it: SARIF gives each its own rule entry.
public struct CheckRule: Hashable, Sendable {
    /// A stable id, unique over all checks of a run: `profile/google-maps/features`.
    public var id: String
    /// The finding code its findings carry (declared in `Diagnostic.Code`).
    public var code: Diagnostic.Code
    /// What the rule requires, in one line: "at most 1,000 features in the document".
    public var summary: String
    /// Where the rule is published (a URL), if anywhere.
    public var helpURI: String?
    /// Facts about the rule reports carry as they are (the profile, the limit, its unit…).
    public var properties: JSONObject

    /// A rule with its id, code, summary, source and properties.
    public init(id: String, code: Diagnostic.Code, summary: String, helpURI: String? = nil, properties: JSONObject = [:]) {
        self.id = id
        self.code = code
        self.summary = summary
        self.helpURI = helpURI
        self.properties = properties
    }
}

/// One finding of a check: the diagnostic (severity, code, message, place), the rule it
/// breaks, and the values that decided it (the measured value and the limit, say).
public struct CheckFinding: Hashable, Sendable {
    /// Severity, code, message and location (the file, and a line where there is one).
    public var diagnostic: Diagnostic
    /// The `CheckRule.id` it breaks.
    public var ruleID: String
    /// The values that decided it, carried into JSON and SARIF as they are.
    public var properties: JSONObject

    /// A finding of rule `ruleID`.
    public init(_ diagnostic: Diagnostic, ruleID: String, properties: JSONObject = [:]) {
        self.diagnostic = diagnostic
        self.ruleID = ruleID
        self.properties = properties
    }
}

/// What one check found: its kind and name (`profile`, `google-maps`), its rules and findings.
/// It fails when it has an error (or, under `--strict`, a warning).
public struct CheckReport: Hashable, Sendable {
    /// The kind of check: `profile`, `coverage`…
    public var kind: String
    /// Which one: a profile's name.
    public var name: String
    /// A title for people: "Google Maps JavaScript API (KmlLayer)".
    public var title: String
    /// Where what it checks is published (a URL), if anywhere.
    public var source: String?
    /// Every rule the check applied, broken or not.
    public var rules: [CheckRule]
    /// What it found, input by input in run order.
    public var findings: [CheckFinding]

    /// A report of kind `kind` named `name`.
    public init(kind: String, name: String, title: String, source: String? = nil, rules: [CheckRule] = [], findings: [CheckFinding] = []) {
        self.kind = kind
        self.name = name
        self.title = title
        self.source = source
        self.rules = rules
        self.findings = findings
    }

    /// The number of findings of a severity.
    public func count(_ severity: Diagnostic.Severity) -> Int {
        findings.reduce(0) { $0 + ($1.diagnostic.severity == severity ? 1 : 0) }
    }

    /// Whether the check passed: no error, and with `strict` no warning either.
    public func passed(strict: Bool = false) -> Bool {
        count(.error) == 0 && (!strict || count(.warning) == 0)
    }

    /// `kind name`, as text reports and summaries name the check: `profile google-maps`.
    public var label: String { "\(kind) \(name)" }
}
