import OverlayModel

/// Formats validation results: `text` for people and compilers' conventions, `json` following
/// `Schemas/validation-report.schema.json`, `sarif` (SARIF 2.1.0) for code-scanning services.
/// Output is deterministic: same results, same bytes.
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

    /// Totals over all inputs.
    public struct Summary: Hashable, Sendable {
        /// Inputs checked.
        public var files = 0
        /// Inputs that could not be read at all.
        public var unreadable = 0
        /// Inputs with at least one error.
        public var filesWithErrors = 0
        /// Errors over all inputs.
        public var errors = 0
        /// Warnings over all inputs.
        public var warnings = 0
        /// Notes over all inputs.
        public var notes = 0

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

        /// One line, e.g. `3 files checked: 2 errors, 1 warning, 0 notes; 1 file has errors`.
        public var line: String {
            func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
            var text = "\(plural(files, "file")) checked: \(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note"))"
            if filesWithErrors > 0 { text += "; \(plural(filesWithErrors, "file")) with errors" }
            if unreadable > 0 { text += "; \(unreadable) unreadable" }
            return text
        }
    }

    /// The results as a report in `format`.
    public static func render(_ results: [ValidationResult], as format: Format) -> String {
        switch format {
        case .text: text(results)
        case .json: json(results)
        case .sarif: SARIFReport.render(results)
        }
    }

    /// `file:line:col: severity: code: message (pointer)`, one finding a line, then the summary.
    public static func text(_ results: [ValidationResult]) -> String {
        var output = ""
        for result in results {
            for finding in result.findings {
                var finding = finding
                if finding.location == nil { finding.location = SourceLocation(file: result.file, line: 1, column: 1) }
                output += "\(finding)\n"
            }
        }
        output += Summary(results).line + "\n"
        return output
    }

    /// The JSON report (see `Schemas/validation-report.schema.json`).
    public static func json(_ results: [ValidationResult]) -> String {
        var files: [JSONValue] = []
        for result in results {
            var file = JSONObject()
            file.append("file", result.file.map { .string($0) } ?? .null)
            file.append("format", result.format.map { .string($0.rawValue) } ?? .null)
            file.append("readable", .bool(!result.isUnreadable))
            file.append("errors", .integer(Int64(result.count(.error))))
            file.append("warnings", .integer(Int64(result.count(.warning))))
            file.append("notes", .integer(Int64(result.count(.note))))
            file.append("findings", .array(result.findings.map(findingJSON)))
            files.append(.object(file))
        }
        let summary = Summary(results)
        var root = JSONObject()
        root.append("version", .integer(2))
        root.append("files", .array(files))
        root.append("summary", .object([
            "files": .integer(Int64(summary.files)),
            "unreadable": .integer(Int64(summary.unreadable)),
            "filesWithErrors": .integer(Int64(summary.filesWithErrors)),
            "errors": .integer(Int64(summary.errors)),
            "warnings": .integer(Int64(summary.warnings)),
            "notes": .integer(Int64(summary.notes)),
        ]))
        var bytes = JSONBytes()
        bytes.appendObject(root)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    private static func findingJSON(_ finding: Diagnostic) -> JSONValue {
        var object = JSONObject()
        object.append("severity", .string(finding.severity.rawValue))
        object.append("code", .string(finding.code.rawValue))
        object.append("message", .string(finding.message))
        object.append("line", finding.location.map { .integer(Int64($0.line)) } ?? .null)
        object.append("column", finding.location.map { .integer(Int64($0.column)) } ?? .null)
        if let pointer = finding.location?.jsonPointer { object.append("jsonPointer", .string(pointer)) }
        if let path = finding.location?.kmlPath { object.append("kmlPath", .string(path)) }
        return .object(object)
    }
}
