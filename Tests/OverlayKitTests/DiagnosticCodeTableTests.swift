import Foundation
import XCTest
@testable import OverlayKit

/// The GeoJSON diagnostic codes live in one table: sources name codes only through it, the
/// reader and validator agree on shared defects, and docs/validate.md lists every one.
final class DiagnosticCodeTableTests: XCTestCase {
    func testSourcesNameGeoJSONCodesOnlyThroughTheTable() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources/OverlayKit")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "GeoJSONDiagnosticCode.swift" }
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(text.contains("\"geojson."), "\(file.lastPathComponent) spells a geojson.* code outside GeoJSONDiagnosticCode")
        }
    }

    func testDocsListEveryCodeWithItsSeverity() throws {
        let docs = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/validate.md"), encoding: .utf8)
        for code in GeoJSONDiagnosticCode.allCases {
            XCTAssertTrue(docs.contains("| `\(code.code)` | \(code.defaultSeverity.rawValue) | \(code.summary) |"),
                          "docs/validate.md lacks the row for \(code.code)")
        }
    }

    func testReaderAndValidatorUseOneCodeForABadID() throws {
        let text = #"{"type":"Feature","id":[1],"properties":{},"geometry":null}"#
        let read = try readGeoJSON(text)
        XCTAssertEqual(read.warnings.map(\.code), [GeoJSONDiagnosticCode.idType.code])
        let validated = Validator.validate(ByteInput(string: text, name: "id.geojson"), format: .geojson)
        XCTAssertTrue(validated.findings.contains { $0.code == GeoJSONDiagnosticCode.idType.code && $0.severity == .error },
                      "\(validated.findings)")
    }
}
