import Foundation
import TestSupport
import XCTest

/// `overlaykit validate --ats-level` and the OGC KML 2.2 ATS metadata of the SARIF report.
final class ValidateKMLATSCommandTests: XCTestCase {
    private let document = """
    <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
    <Placemark><ExtendedData><Data name="a"><value>1</value></Data><Data name="a"><value>2</value></Data></ExtendedData></Placemark>
    </Document></kml>
    """

    private func write(_ folder: URL) throws -> String {
        let path = folder.appendingPathComponent("dup.kml").path
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testSARIFRulesNameTheirATSTest() throws {
        let path = try write(try CLI.temporaryFolder(self))
        let result = try CLI.run(["validate", "--format", "sarif", "--ats-level", "2", path])
        XCTAssertEqual(result.status, 1, result.stderr)
        let log = try JSONSerialization.jsonObject(with: result.stdout) as! [String: Any]
        let run = (log["runs"] as! [[String: Any]])[0]
        let rules = ((run["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]]
        // Document order: the Placemark (level 2, ATC 67) starts before its second Data (ATC 28);
        // the reader's renaming of the repeated name (not an ATS rule) is reported at the Placemark.
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["kml.placemark-no-geometry", "kml.duplicate-property", "kml.data-name-duplicate"])
        XCTAssertEqual(rules[2]["helpUri"] as? String, "http://www.opengis.net/kml/2.2/atc/level-1/ExtendedData-Data")
        // The KML 2.3 ATS tests asserting the same (OGC 14-068r2) are named too.
        XCTAssertEqual((rules[2]["properties"] as? [String: Any])?["tags"] as? [String],
                       ["OGC 07-134r2", "level-1", "ATC 28", "OGC 14-068r2", "ATC-128", "ATC-208"])
        XCTAssertEqual((rules[0]["properties"] as? [String: Any])?["tags"] as? [String], ["OGC 07-134r2", "level-2", "ATC 67", "OGC 14-068r2", "ATC-226"])
        XCTAssertEqual((rules[2]["properties"] as? [String: Any])?["ogcAtsIdentifiers"] as? [String], [
            "http://www.opengis.net/kml/2.2/atc/level-1/ExtendedData-Data", "http://www.opengis.net/spec/KML/2.3/conf/level-1/atc-128",
            "http://www.opengis.net/spec/KML/2.3/conf/level-2/atc-208",
        ])
        let results = run["results"] as! [[String: Any]]
        XCTAssertEqual(results.map { $0["level"] as? String }, ["warning", "warning", "error"])
    }

    func testLevelOneIsTheDefaultAndOtherLevelsAreRefused() throws {
        let path = try write(try CLI.temporaryFolder(self))
        let result = try CLI.run(["validate", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines.count, 3, result.stdoutText)
        XCTAssertTrue(result.lines[0].contains("warning: kml.duplicate-property: property names used twice in one feature: 'a' (1 feature)"), result.lines[0])
        XCTAssertTrue(result.lines[1].hasPrefix(path + ":2:"), result.lines[1])
        XCTAssertTrue(result.lines[1].contains("error: kml.data-name-duplicate: Data name 'a' appears twice in this ExtendedData"), result.lines[1])
        XCTAssertEqual(try CLI.run(["validate", "--ats-level", "4", path]).status, 64)
    }
}
