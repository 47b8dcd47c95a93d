import Foundation
import TestSupport
import XCTest

/// Exit codes and messages when output fails or input is empty, cut short or ambiguous.
final class FaultMessageTests: XCTestCase {
    func testValidateIntoAFullDiskIsAnIOErrorNotFindings() throws {
        try Prerequisite.require(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full")
        let parks = CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path
        for command in [["validate", parks], ["convert", parks, "--to", "geojson"], ["info", parks]] {
            let result = try CLI.runTool(URL(fileURLWithPath: "/bin/sh"),
                                         ["-c", "exec \"$0\" \"$@\" > /dev/full", CLI.binary.path] + command)
            XCTAssertEqual(result.status, 74, "\(command): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Error: error:"), result.stderr)
            XCTAssertTrue(result.stderr.contains("io.write-failed") && result.stderr.contains("No space left on device"), result.stderr)
        }
    }

    func testEmptyAndCutKMLSayWhatIsWrong() throws {
        let empty = try CLI.run(["convert", "-", "--from", "kml", "--to", "geojson"], stdin: Data())
        XCTAssertEqual(empty.status, 65)
        XCTAssertTrue(empty.stderr.contains("kml.empty-document: the document has no root element"), empty.stderr)
        let cut = Data(#"<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>x"#.utf8)
        for command in [["convert", "-", "--from", "kml", "--to", "geojson"], ["validate", "-", "--from", "kml"]] {
            let result = try CLI.run(command, stdin: cut)
            XCTAssertNotEqual(result.status, 0)
            let text = result.stdoutText + result.stderr
            XCTAssertTrue(text.contains("kml.truncated: the document ends inside <name> (4 elements left open)"), text)
            XCTAssertFalse(text.contains("Extra content"), text)
        }
    }

    func testDuplicatePropertyKeysAreWrittenOnceAndReported() throws {
        let feature = Data(#"{"type":"Feature","properties":{"a":1,"b":{"c":1,"c":3},"a":2},"geometry":null}"#.utf8)
        let converted = try CLI.run(["convert", "-", "--to", "geojsonseq"], stdin: feature)
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(converted.lines, [#"{"type":"Feature","properties":{"a":2,"b":{"c":3}},"geometry":null}"#])
        XCTAssertTrue(converted.stderr.contains("warning: geojson.duplicate-member: member \"a\" appears more than once; the last one counts (/properties/a)"),
                      converted.stderr)
        XCTAssertTrue(converted.stderr.contains("(/properties/b/c)"), converted.stderr)
        let validated = try CLI.run(["validate", "-"], stdin: feature)
        XCTAssertEqual(validated.status, 1, validated.stderr + validated.stdoutText)
        let report = validated.stdoutText + validated.stderr
        XCTAssertTrue(report.contains("geojson.duplicate-member") && report.contains("(/properties/a)") && report.contains("(/properties/b/c)"), report)
    }
}
