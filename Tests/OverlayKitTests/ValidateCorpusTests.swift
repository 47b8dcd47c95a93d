import Foundation
import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// Validation against peer corpora: mapbox/geojsonhint's good and bad files with their
/// expected messages, and geojson/schema's valid and invalid fixtures.
final class ValidateCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

    private func folder(_ name: String) throws -> URL {
        try Prerequisite.corpus(name)
    }

    private func files(in folder: URL, extension wanted: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == wanted }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Our code for a geojsonhint message (see SOURCE.md for where the messages come from).
    static func code(forHintMessage message: String) -> String? {
        let table: [(String, String)] = [
            ("Parse error", "json.syntax"),
            ("duplicate members", "geojson.duplicate-member"),
            ("member required", "geojson.missing-member"),
            ("(case sensitive)", "geojson.type-case"),
            ("is unknown", "geojson.unknown-type"),
            ("cannot contain a", "geojson.forbidden-member"),
            ("Every feature must be an object", "geojson.feature-not-object"),
            ("must have a type=feature member", "geojson.feature-type"),
            ("\"id\" member must have", "geojson.id-type"),
            ("\"id\" property should be", "geojson.id-type"),
            ("position should be an array", "geojson.position-not-array"),
            ("position must have 2 or more", "geojson.position-too-short"),
            ("position should not have more than 3", "geojson.position-too-long"),
            ("each element in a position must be a number", "geojson.position-not-number"),
            ("where a coordinate array should have been found", "geojson.coordinates-too-shallow"),
            ("needs to have four or more positions", "geojson.ring-too-short"),
            ("first and last positions in a LinearRing", "geojson.ring-not-closed"),
            ("a line needs to have two or more", "geojson.line-too-short"),
            ("each element in a bbox member must be a number", "geojson.bbox-not-number"),
            ("bbox must contain 4 elements", "geojson.bbox-length"),
            ("bbox member must be an array", "geojson.bbox-not-array"),
            ("must contain only geometry objects", "geojson.geometry-not-object"),
            ("GeometryCollection with a single geometry", "geojson.collection-single"),
            ("avoid nested geometry collections", "geojson.collection-nested"),
            ("right-hand rule", "geojson.right-hand-rule"),
            ("precision of coordinates", "geojson.precision"),
            ("old-style crs", "geojson.crs"),
            ("root of a GeoJSON object must be an object", "geojson.root-not-object"),
            ("member should be", "geojson.member-type"),
        ]
        return table.first { message.contains($0.0) }?.1
    }

    /// RFC 7946 says SHOULD for these, so they are warnings here although geojsonhint's file
    /// output (at this commit) lists them without `level`.
    static let adviceCodes: Set<String> = ["geojson.collection-single", "geojson.collection-nested"]

    func testGeoJSONHintGoodFilesHaveNoErrors() throws {
        let good = try files(in: try folder("geojsonhint/good"), extension: "geojson")
        var passed = 0
        for file in good {
            let result = Validator.validate(path: file.path)
            let errors = result.findings.filter { $0.severity == .error }
            if errors.isEmpty && !result.isUnreadable {
                passed += 1
            } else {
                XCTFail("\(file.lastPathComponent): \(errors.map(\.description))")
            }
        }
        print("geojsonhint good: \(passed) of \(good.count) files have no error")
        XCTAssertEqual(passed, good.count)
        XCTAssertEqual(good.count, 18)
    }

    func testGeoJSONHintBadFilesGetTheSameKindOfErrorOnTheSameLine() throws {
        let bad = try folder("geojsonhint/bad")
        let inputs = try files(in: bad, extension: "geojson")
        var passed = 0
        for file in inputs {
            let expectedURL = file.deletingPathExtension().appendingPathExtension("result")
            let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as! [[String: Any]]
            let result = Validator.validate(path: file.path)
            var ours: [String: Int] = [:]  // "code@line" → count
            for finding in result.findings {
                ours["\(finding.code.rawValue)@\(finding.location?.line ?? 0)", default: 0] += 1
            }
            var problems: [String] = []
            var wanted: [String: Int] = [:]
            for message in expected {
                let text = message["message"] as! String
                guard let code = Self.code(forHintMessage: text) else {
                    problems.append("no code for message \(text)")
                    continue
                }
                var line = message["line"] as? Int ?? 1
                // geojsonhint reports the root with line 0; lines here start at 1.
                if line == 0 { line = 1 }
                // SOURCE.md: for bad-json only "one parse error at line 1 or 2" is portable.
                if code == "json.syntax" {
                    let lines = result.findings.filter { $0.code.rawValue.hasPrefix("json.") }.compactMap { $0.location?.line }
                    if lines.count != 1 || !(1...2).contains(lines[0]) { problems.append("parse error lines \(lines)") }
                    continue
                }
                wanted["\(code)@\(line)", default: 0] += 1
                // Same kind includes severity: "message" level is a warning, the rest errors.
                let severity: Diagnostic.Severity = message["level"] as? String == "message" || Self.adviceCodes.contains(code)
                    ? .warning : .error
                if !result.findings.contains(where: { $0.code.rawValue == code && $0.location?.line == line && $0.severity == severity }) {
                    problems.append("missing \(severity) \(code) at line \(line) (\(text))")
                }
            }
            for (key, count) in wanted where ours[key, default: 0] < count {
                problems.append("expected \(count)× \(key), found \(ours[key, default: 0])")
            }
            if problems.isEmpty {
                passed += 1
            } else {
                XCTFail("\(file.lastPathComponent): \(problems.joined(separator: "; "))\nours: \(result.findings.map(\.description))")
            }
        }
        print("geojsonhint bad: \(passed) of \(inputs.count) files get the expected errors on the expected lines")
        XCTAssertEqual(passed, inputs.count)
        XCTAssertEqual(inputs.count, 44)
    }

    func testGeoJSONSchemaFixtureVerdictsAgree() throws {
        let root = try folder("geojson-schema-fixtures")
        var agree = 0, total = 0
        for verdict in ["valid", "invalid"] {
            let typeFolders = try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent(verdict),
                                                                          includingPropertiesForKeys: nil)
            for typeFolder in typeFolders.sorted(by: { $0.path < $1.path }) {
                for file in try files(in: typeFolder, extension: "json") {
                    total += 1
                    let result = Validator.validate(path: file.path)
                    let hasErrors = result.count(.error) > 0
                    if hasErrors == (verdict == "invalid") {
                        agree += 1
                    } else {
                        XCTFail("\(verdict)/\(typeFolder.lastPathComponent)/\(file.lastPathComponent): \(result.findings.map(\.description))")
                    }
                }
            }
        }
        print("geojson-schema-fixtures: \(agree) of \(total) verdicts agree")
        XCTAssertEqual(total, 66)
        XCTAssertEqual(agree, total)
    }
}
