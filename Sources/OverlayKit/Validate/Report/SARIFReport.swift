import OverlayModel

/// Validation results as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format),
/// the format GitHub code scanning reads to show findings inline on a pull request.
///
/// One run; one rule per finding code (in order of first appearance) and per rule of a check;
/// severities map to SARIF levels error, warning and note. Locations give the file as a
/// relative URI, the 1-based line and column, and the JSON Pointer or KML path as a logical
/// location.
public enum SARIFReport {
    /// The tool name SARIF reports carry.
    public static let toolName = "overlaykit"
    /// The tool version SARIF reports carry.
    public static let toolVersion = "0.1.0"

    /// The results as a SARIF 2.1.0 log (one run, one rule per code).
    public static func render(_ results: [ValidationResult]) -> String { render(ValidationRun(results: results)) }

    /// A validation run as a SARIF 2.1.0 log: one rule per finding code of the format rules,
    /// one per `CheckRule` of the checks (`profile/google-maps/features`, with the rule's
    /// source as `helpUri` and its facts as properties); check findings carry their values
    /// (measured, limit…) as result properties.
    public static func render(_ run: ValidationRun) -> String {
        var log = Log()
        for problem in run.problems { log.add(problem, file: problem.location?.file) }
        for result in run.results {
            for finding in result.findings { log.add(finding, file: result.file) }
        }
        for check in run.checks {
            let rules = Dictionary(check.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for finding in check.findings {
                log.add(finding, rule: rules[finding.ruleID], check: check)
            }
        }
        let driver: JSONObject = [
            "name": .string(toolName),
            "version": .string(toolVersion),
            "informationUri": .string("https://github.com/overlaykit/overlaykit"),
            "rules": .array(log.rules),
        ]
        let sarifRun: JSONObject = [
            "tool": .object(["driver": .object(driver)]),
            "results": .array(log.results),
        ]
        let root: JSONObject = [
            "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
            "version": .string("2.1.0"),
            "runs": .array([.object(sarifRun)]),
        ]
        var bytes = JSONBytes()
        bytes.appendObject(root)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// The rules and results of a log, in order of first appearance.
    private struct Log {
        var rules: [JSONValue] = []
        var results: [JSONValue] = []
        var ruleIndex: [String: Int] = [:]

        /// The index of rule `id`, adding it (made by `make`) on first use.
        mutating func index(of id: String, _ make: () -> JSONObject) -> Int {
            if let known = ruleIndex[id] { return known }
            ruleIndex[id] = rules.count
            rules.append(.object(make()))
            return rules.count - 1
        }

        /// A finding of the format rules (or a problem of the run): its code is its rule.
        mutating func add(_ finding: Diagnostic, file: String?) {
            let index = index(of: finding.code.rawValue) {
                var rule: JSONObject = [
                    "id": .string(finding.code.rawValue),
                    "name": .string(SARIFReport.ruleName(finding.code.rawValue)),
                    "shortDescription": .object(["text": .string(finding.code.rawValue)]),
                    "defaultConfiguration": .object(["level": .string(SARIFReport.level(finding.severity))]),
                ]
                SARIFReport.addATSMetadata(to: &rule, code: finding.code)
                return rule
            }
            results.append(.object(SARIFReport.result(finding, ruleID: finding.code.rawValue, index: index, file: file, properties: [:])))
        }

        /// A finding of a check, under its `CheckRule` (tagged with the check's kind and name).
        mutating func add(_ finding: CheckFinding, rule: CheckRule?, check: CheckReport) {
            let index = index(of: finding.ruleID) {
                var entry: JSONObject = [
                    "id": .string(finding.ruleID),
                    "name": .string(SARIFReport.ruleName(finding.ruleID)),
                    "shortDescription": .object(["text": .string(rule?.summary ?? finding.ruleID)]),
                ]
                let source = rule?.helpURI.map { " (\($0))" } ?? ""
                entry.append("fullDescription", .object(["text": .string("\(check.title): \(rule?.summary ?? finding.ruleID)\(source)")]))
                entry.append("defaultConfiguration", .object(["level": .string(SARIFReport.level(finding.diagnostic.severity))]))
                if let uri = rule?.helpURI { entry.append("helpUri", .string(uri)) }
                var properties = rule?.properties ?? [:]
                properties.append("tags", .array([.string(check.kind), .string(check.name), .string(finding.diagnostic.code.rawValue)]))
                entry.append("properties", .object(properties))
                return entry
            }
            results.append(.object(SARIFReport.result(finding.diagnostic, ruleID: finding.ruleID, index: index,
                                                     file: finding.diagnostic.location?.file, properties: finding.properties)))
        }
    }

    /// One SARIF result: rule, level, message, the place (no region for a whole-file finding)
    /// and the JSON Pointer or KML path as a logical location.
    static func result(_ finding: Diagnostic, ruleID: String, index: Int, file: String?, properties: JSONObject) -> JSONObject {
        var physical: JSONObject = ["artifactLocation": .object(["uri": .string(uri(finding.location?.file ?? file))])]
        if (finding.location?.line ?? 1) > 0 {
            var region = JSONObject()
            region.append("startLine", .integer(Int64(max(1, finding.location?.line ?? 1))))
            region.append("startColumn", .integer(Int64(max(1, finding.location?.column ?? 1))))
            physical.append("region", .object(region))
        }
        var location = JSONObject()
        location.append("physicalLocation", .object(physical))
        if let path = finding.location?.documentPath {
            location.append("logicalLocations", .array([.object([
                "fullyQualifiedName": .string(path),
                "kind": .string(finding.location?.jsonPointer != nil ? "member" : "element"),
            ])]))
        }
        var result: JSONObject = [
            "ruleId": .string(ruleID),
            "ruleIndex": .integer(Int64(index)),
            "level": .string(level(finding.severity)),
            "message": .object(["text": .string(finding.message)]),
            "locations": .array([.object(location)]),
        ]
        if !properties.isEmpty { result.append("properties", .object(properties)) }
        return result
    }

    /// KML rules name the OGC KML 2.2 Abstract Test Suite test they implement and the KML 2.3
    /// one asserting the same (`KMLRuleCatalog`): a full description, the first ATS identifier
    /// as `helpUri`, and tags (`OGC 07-134r2`, `level-1`, `ATC 28`, `OGC 14-068r2`, `ATC-128`).
    static func addATSMetadata(to rule: inout JSONObject, code: Diagnostic.Code) {
        guard !KMLRuleCatalog.sharedWithGeoJSON.contains(code), let entry = KMLRuleCatalog.byCode[code],
              !(entry.tests.isEmpty && entry.kml23Tests.isEmpty) else { return }
        let tests = entry.tests.map { "ATC \($0)" }, tests23 = entry.kml23Tests.map { "ATC-\($0)" }
        var references: [String] = []
        if !tests.isEmpty { references.append("OGC 07-134r2 " + tests.joined(separator: ", ")) }
        if !tests23.isEmpty { references.append("OGC 14-068r2 " + tests23.joined(separator: ", ")) }
        rule.append("fullDescription", .object([
            "text": .string("\(entry.summary) (\(references.joined(separator: "; ")), conformance level \(entry.level))"),
        ]))
        let identifiers = entry.identifiers + entry.kml23Identifiers
        if let identifier = identifiers.first { rule.append("helpUri", .string(identifier)) }
        var tags = tests.isEmpty ? ["level-\(entry.level)"] : ["OGC 07-134r2", "level-\(entry.level)"] + tests
        if !tests23.isEmpty { tags += ["OGC 14-068r2"] + tests23 }
        rule.append("properties", .object([
            "tags": .array(tags.map { .string($0) }),
            "ogcAtsIdentifiers": .array(identifiers.map { .string($0) }),
        ]))
    }

    static func level(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// `geojson.ring-not-closed` → `GeojsonRingNotClosed`, `profile/google-maps/features` →
    /// `ProfileGoogleMapsFeatures` (SARIF rule names are identifiers).
    static func ruleName(_ id: String) -> String {
        id.split(whereSeparator: { $0 == "." || $0 == "-" || $0 == "/" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A relative URI reference for a path: unreserved bytes and '/' kept, the rest
    /// percent-encoded. Standard input is `stdin`.
    static func uri(_ path: String?) -> String {
        guard let path else { return "stdin" }
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += "%" + (byte < 16 ? "0" : "") + hex
            }
        }
        return text
    }
}
