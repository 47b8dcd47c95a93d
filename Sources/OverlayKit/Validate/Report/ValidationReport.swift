import OverlayModel

/// Formats validation runs: `text` for people and compilers' conventions, `json` following
/// `Schemas/validation-report.schema.json`, `sarif` (SARIF 2.1.0) for code-scanning services.
/// A run's check reports (profiles, any `ValidationCheck`) are written by the same code
/// whatever their kind. Output is deterministic: same run, same bytes.
public enum ValidationReport {
    /// The output formats of `overlaykit validate --format`.
    public enum Format: String, CaseIterable, Sendable {
        /// `file:line:col: severity: code: message` lines and a summary, for people.
        case text
        /// One JSON object (Schemas/validation-report.schema.json), for scripts.
        case json
        /// SARIF 2.1.0, for GitHub code scanning and other CI viewers.
        case sarif
    }

    /// Totals over all inputs and checks.
    public struct Summary: Hashable, Sendable {
        /// Inputs checked.
        public var files = 0
        /// Inputs that could not be read at all.
        public var unreadable = 0
        /// Inputs with at least one error.
        public var filesWithErrors = 0
        /// Errors over all inputs and checks.
        public var errors = 0
        /// Warnings over all inputs and checks.
        public var warnings = 0
        /// Notes over all inputs and checks.
        public var notes = 0
        /// The labels of the checks that failed (`profile google-maps`), in order.
        public var failedChecks: [String] = []
        /// Problems of the run's own inputs beside the files (an unreadable `--schema`).
        public var problems = 0

        /// The totals of `results`.
        public init(_ results: [ValidationResult]) {
            for result in results {
                files += 1
                if result.isUnreadable { unreadable += 1 }
                let errorCount = result.count(.error)
                if errorCount > 0 { filesWithErrors += 1 }
                errors += errorCount
                warnings += result.count(.warning)
                notes += result.count(.note)
            }
        }

        /// The totals of a run: its inputs, its checks' findings, its problems.
        public init(_ run: ValidationRun) {
            self.init(run.results)
            for check in run.checks {
                errors += check.count(.error)
                warnings += check.count(.warning)
                notes += check.count(.note)
                if !check.passed() { failedChecks.append(check.label) }
            }
            problems = run.problems.count
        }

        /// One line, e.g. `3 files checked: 2 errors, 1 warning, 0 notes; 1 file with errors`.
        public var line: String {
            func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
            var text = "\(plural(files, "file")) checked: \(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note"))"
            if filesWithErrors > 0 { text += "; \(plural(filesWithErrors, "file")) with errors" }
            if unreadable > 0 { text += "; \(unreadable) unreadable" }
            if !failedChecks.isEmpty { text += "; failed: " + failedChecks.joined(separator: ", ") }
            if problems > 0 { text += "; \(plural(problems, "problem")) with the run's own inputs" }
            return text
        }
    }

    /// The results as a report in `format`.
    public static func render(_ results: [ValidationResult], as format: Format) -> String {
        render(ValidationRun(results: results), as: format)
    }

    /// A run as a report in `format`.
    public static func render(_ run: ValidationRun, as format: Format) -> String {
        switch format {
        case .text: text(run)
        case .json: json(run)
        case .sarif: SARIFReport.render(run)
        }
    }

    /// `file:line:col: severity: code: message (pointer)`, one finding a line, then the summary.
    public static func text(_ results: [ValidationResult]) -> String { text(ValidationRun(results: results)) }

    /// The run as text: the run's problems, each input's findings, each check's findings and
    /// verdict (`profile google-maps: failed, 2 errors`), then the summary.
    public static func text(_ run: ValidationRun) -> String {
        var output = ""
        for problem in run.problems { output += "\(problem)\n" }
        for result in run.results {
            for finding in result.findings {
                var finding = finding
                if finding.location == nil { finding.location = SourceLocation(file: result.file, line: 1, column: 1) }
                output += "\(finding)\n"
            }
        }
        for check in run.checks {
            for finding in check.findings { output += "\(finding.diagnostic)\n" }
            output += "\(check.label): " + verdict(check) + "\n"
        }
        output += Summary(run).line + "\n"
        return output
    }

    /// `passed`, or `failed, 2 errors, 1 warning`.
    static func verdict(_ check: CheckReport) -> String {
        let errors = check.count(.error), warnings = check.count(.warning)
        var parts = [check.passed() ? "passed" : "failed"]
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// The JSON report (see `Schemas/validation-report.schema.json`).
    public static func json(_ results: [ValidationResult]) -> String { json(ValidationRun(results: results)) }

    /// The JSON report of a run (see `Schemas/validation-report.schema.json`).
    public static func json(_ run: ValidationRun) -> String {
        var files: [JSONValue] = []
        for result in run.results {
            var file = JSONObject()
            file.append("file", result.file.map { .string($0) } ?? .null)
            file.append("format", result.formatName.map { .string($0) } ?? .null)
            file.append("readable", .bool(!result.isUnreadable))
            file.append("errors", .integer(Int64(result.count(.error))))
            file.append("warnings", .integer(Int64(result.count(.warning))))
            file.append("notes", .integer(Int64(result.count(.note))))
            file.append("findings", .array(result.findings.map { findingJSON($0) }))
            files.append(.object(file))
        }
        let summary = Summary(run)
        var root = JSONObject()
        root.append("version", .integer(2))
        root.append("files", .array(files))
        if !run.problems.isEmpty {
            root.append("problems", .array(run.problems.map { findingJSON($0, withFile: true) }))
        }
        if !run.checks.isEmpty { root.append("checks", .array(run.checks.map(checkJSON))) }
        var totals: JSONObject = [
            "files": .integer(Int64(summary.files)),
            "unreadable": .integer(Int64(summary.unreadable)),
            "filesWithErrors": .integer(Int64(summary.filesWithErrors)),
            "errors": .integer(Int64(summary.errors)),
            "warnings": .integer(Int64(summary.warnings)),
            "notes": .integer(Int64(summary.notes)),
        ]
        if !run.checks.isEmpty { totals.append("failedChecks", .array(summary.failedChecks.map { .string($0) })) }
        root.append("summary", .object(totals))
        var bytes = JSONBytes()
        bytes.appendObject(root)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// One check: kind, name, verdict, its rules, and its findings with their file and values.
    private static func checkJSON(_ check: CheckReport) -> JSONValue {
        var object = JSONObject()
        object.append("kind", .string(check.kind))
        object.append("name", .string(check.name))
        object.append("title", .string(check.title))
        if let source = check.source { object.append("source", .string(source)) }
        object.append("passed", .bool(check.passed()))
        object.append("errors", .integer(Int64(check.count(.error))))
        object.append("warnings", .integer(Int64(check.count(.warning))))
        object.append("notes", .integer(Int64(check.count(.note))))
        object.append("rules", .array(check.rules.map { rule in
            var entry = JSONObject()
            entry.append("id", .string(rule.id))
            entry.append("code", .string(rule.code.rawValue))
            entry.append("summary", .string(rule.summary))
            if let uri = rule.helpURI { entry.append("source", .string(uri)) }
            if !rule.properties.isEmpty { entry.append("properties", .object(rule.properties)) }
            return .object(entry)
        }))
        object.append("findings", .array(check.findings.map { finding in
            guard case .object(var entry) = findingJSON(finding.diagnostic, withFile: true) else { return .null }
            entry.append("rule", .string(finding.ruleID))
            if !finding.properties.isEmpty { entry.append("properties", .object(finding.properties)) }
            return .object(entry)
        }))
        return .object(object)
    }

    /// A finding: severity, code, message, line and column (null for the whole file), the
    /// pointer or KML path, and with `withFile` its file.
    private static func findingJSON(_ finding: Diagnostic, withFile: Bool = false) -> JSONValue {
        var object = JSONObject()
        if withFile { object.append("file", finding.location?.file.map { .string($0) } ?? .null) }
        object.append("severity", .string(finding.severity.rawValue))
        object.append("code", .string(finding.code.rawValue))
        object.append("message", .string(finding.message))
        let place = finding.location.flatMap { $0.line > 0 ? $0 : nil }
        object.append("line", place.map { .integer(Int64($0.line)) } ?? .null)
        object.append("column", place.map { .integer(Int64($0.column)) } ?? .null)
        if let pointer = finding.location?.jsonPointer { object.append("jsonPointer", .string(pointer)) }
        if let path = finding.location?.kmlPath { object.append("kmlPath", .string(path)) }
        return .object(object)
    }
}
