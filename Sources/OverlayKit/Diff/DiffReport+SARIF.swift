import OverlayModel

extension DiffReport {
    /// The SARIF 2.1.0 log: one rule per change class (`diff.added`, …), one result of level
    /// `note` per change at its location (as `validate --format sarif` writes results), the
    /// JSON Pointer or KML path as a logical location, and what changed as properties.
    static func sarif(_ result: DiffResult) -> String {
        let kinds = FeatureChange.Kind.allCases
        let rules: [JSONValue] = kinds.map { kind in
            .object([
                "id": .string(kind.code.rawValue),
                "name": .string(SARIFReport.ruleName(kind.code.rawValue)),
                "shortDescription": .object(["text": .string(ruleSummary(kind))]),
                "defaultConfiguration": .object(["level": .string("note")]),
            ])
        }
        let results: [JSONValue] = result.changes.map { change in
            let diagnostic = Diagnostic(.note, code: change.kind.code, message: describe(change), location: change.location)
            var properties = jsonObject(change)
            properties["location"] = nil
            let index = kinds.firstIndex(of: change.kind) ?? 0
            return .object(SARIFReport.result(diagnostic, ruleID: change.kind.code.rawValue, index: index,
                                              file: change.location?.file, properties: properties))
        }
        let driver: JSONObject = [
            "name": .string(SARIFReport.toolName),
            "version": .string(SARIFReport.toolVersion),
            "informationUri": .string("https://github.com/overlaykit/overlaykit"),
            "rules": .array(rules),
        ]
        let run: JSONObject = [
            "tool": .object(["driver": .object(driver)]),
            "automationDetails": .object(["id": .string("overlaykit-diff/")]),
            "results": .array(results),
        ]
        let root: JSONObject = [
            "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
            "version": .string("2.1.0"),
            "runs": .array([.object(run)]),
        ]
        var bytes = JSONBytes()
        bytes.appendObject(root)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// What each rule means, for the SARIF rule's short description.
    private static func ruleSummary(_ kind: FeatureChange.Kind) -> String {
        switch kind {
        case .added: "Feature added"
        case .removed: "Feature removed"
        case .modified: "Feature modified: geometry, properties or style"
        case .moved: "Feature moved between KML folders"
        }
    }
}
