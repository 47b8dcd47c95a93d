import OverlayModel

/// Validation results as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format),
/// the format GitHub code scanning reads to show findings inline on a pull request.
///
/// One run; one rule per finding code (in order of first appearance); severities map to SARIF
/// levels error, warning and note. Locations give the file as a relative URI, the 1-based
/// line and column, and the JSON Pointer or KML path as a logical location.
public enum SARIFReport {
    /// The tool name SARIF reports carry.
    public static let toolName = "overlaykit"
    /// The tool version SARIF reports carry.
    public static let toolVersion = "0.1.0"

    /// The results as a SARIF 2.1.0 log (one run, one rule per code).
    public static func render(_ results: [ValidationResult]) -> String {
        var ruleIndex: [Diagnostic.Code: Int] = [:]
        var rules: [JSONValue] = []
        var sarifResults: [JSONValue] = []
        for result in results {
            for finding in result.findings {
                let index: Int
                if let known = ruleIndex[finding.code] {
                    index = known
                } else {
                    index = rules.count
                    ruleIndex[finding.code] = index
                    var rule: JSONObject = [
                        "id": .string(finding.code.rawValue),
                        "name": .string(ruleName(finding.code)),
                        "shortDescription": .object(["text": .string(finding.code.rawValue)]),
                        "defaultConfiguration": .object(["level": .string(level(finding.severity))]),
                    ]
                    addATSMetadata(to: &rule, code: finding.code)
                    rules.append(.object(rule))
                }
                var region = JSONObject()
                region.append("startLine", .integer(Int64(max(1, finding.location?.line ?? 1))))
                region.append("startColumn", .integer(Int64(max(1, finding.location?.column ?? 1))))
                var location = JSONObject()
                location.append("physicalLocation", .object([
                    "artifactLocation": .object(["uri": .string(uri(finding.location?.file ?? result.file))]),
                    "region": .object(region),
                ]))
                if let path = finding.location?.documentPath {
                    location.append("logicalLocations", .array([.object([
                        "fullyQualifiedName": .string(path),
                        "kind": .string(finding.location?.jsonPointer != nil ? "member" : "element"),
                    ])]))
                }
                sarifResults.append(.object([
                    "ruleId": .string(finding.code.rawValue),
                    "ruleIndex": .integer(Int64(index)),
                    "level": .string(level(finding.severity)),
                    "message": .object(["text": .string(finding.message)]),
                    "locations": .array([.object(location)]),
                ]))
            }
        }
        let driver: JSONObject = [
            "name": .string(toolName),
            "version": .string(toolVersion),
            "informationUri": .string("https://github.com/overlaykit/overlaykit"),
            "rules": .array(rules),
        ]
        let run: JSONObject = [
            "tool": .object(["driver": .object(driver)]),
            "results": .array(sarifResults),
        ]
        let log: JSONObject = [
            "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
            "version": .string("2.1.0"),
            "runs": .array([.object(run)]),
        ]
        var bytes = JSONBytes()
        bytes.appendObject(log)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// KML rules name the OGC KML 2.2 Abstract Test Suite test they implement
    /// (`KMLRuleCatalog`): a full description, the ATS identifier as `helpUri`, and tags.
    static func addATSMetadata(to rule: inout JSONObject, code: Diagnostic.Code) {
        guard !KMLRuleCatalog.sharedWithGeoJSON.contains(code), let entry = KMLRuleCatalog.byCode[code], !entry.tests.isEmpty else { return }
        let tests = entry.tests.map { "ATC \($0)" }
        rule.append("fullDescription", .object([
            "text": .string("\(entry.summary) (OGC 07-134r2 \(tests.joined(separator: ", ")), conformance level \(entry.level))"),
        ]))
        if let identifier = entry.identifiers.first { rule.append("helpUri", .string(identifier)) }
        rule.append("properties", .object([
            "tags": .array((["OGC 07-134r2", "level-\(entry.level)"] + tests).map { .string($0) }),
            "ogcAtsIdentifiers": .array(entry.identifiers.map { .string($0) }),
        ]))
    }

    static func level(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// `geojson.ring-not-closed` → `GeojsonRingNotClosed` (SARIF rule names are identifiers).
    static func ruleName(_ code: Diagnostic.Code) -> String {
        code.rawValue.split(whereSeparator: { $0 == "." || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
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
