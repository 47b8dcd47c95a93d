import Foundation
import TestSupport
import XCTest

/// One rule for numbers in every command (issue 25 item 7): a number beyond a 64-bit float's
/// range is `json.number-out-of-range` (exit 65; `validate` reports it as an error, exit 1)
/// wherever it stands and whatever the options, and a number too long for a double is written
/// with its shortest round-trip digits, never with digits the input did not have.
final class NumberVerdictTests: XCTestCase {
    private func write(_ text: String, _ name: String) throws -> URL {
        let folder = try CLI.temporaryFolder(self)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    func testOutOfRangeNumberIsTheSameErrorInEveryCommand() throws {
        let cases = [
            ("coordinate", #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1e400,2]}}"#, ":1:82:"),
            ("property", #"{"type":"Feature","properties":{"a":1e400},"geometry":{"type":"Point","coordinates":[1,2]}}"#, ":1:37:"),
            ("ring", #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[-1E+999,1],[0,0]]]}}"#, ":1:93:"),
        ]
        for (what, text, place) in cases {
            let input = try write(text + "\n", "\(what).geojson")
            let folder = input.deletingLastPathComponent()
            let commands: [[String]] = [
                ["convert", input.path], ["convert", input.path, "--to", "kml"], ["info", input.path],
                ["filter", input.path], ["filter", input.path, "--where", "a == 1"], ["filter", input.path, "--count"],
                ["filter", input.path, "--type", "annotation,polygon"],
                ["tile", input.path, "-o", folder.appendingPathComponent("t.pmtiles").path, "--max-zoom", "1"],
                ["render", input.path, "-o", folder.appendingPathComponent("r.svg").path],
            ]
            for command in commands {
                let result = try CLI.run(command)
                XCTAssertEqual(result.status, 65, "\(what) \(command): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(place + " error: json.number-out-of-range"), "\(what) \(command): \(result.stderr)")
            }
            let validation = try CLI.run(["validate", input.path])
            XCTAssertEqual(validation.status, 1, "\(what): \(validation.stderr)\(validation.stdoutText)")
            XCTAssertTrue((validation.stdoutText + validation.stderr).contains(place + " error: json.number-out-of-range"),
                          "\(what): \(validation.stdoutText)\(validation.stderr)")
        }
    }

    func testLongIntegerCoordinateKeepsItsDigitsOrTheirShortestForm() throws {
        let input = try write(#"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1234567890123456789012345678901234567890,2]}}"# + "\n",
                              "long.geojson")
        let converted = try CLI.run(["convert", input.path])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertTrue(converted.stdoutText.contains("[1.2345678901234568e+39,2]"), converted.stdoutText)
        let kml = try CLI.run(["convert", input.path, "--to", "kml"])
        XCTAssertTrue(kml.stdoutText.contains("<coordinates>1.2345678901234568e+39,2</coordinates>"), kml.stdoutText)
        // Copied through byte for byte: the input's own digits.
        let filtered = try CLI.run(["filter", input.path])
        XCTAssertTrue(filtered.stdoutText.contains("[1234567890123456789012345678901234567890,2]"), filtered.stdoutText)
        // info wraps the longitude exactly (fmod), into −180…180, as the map does.
        let info = try CLI.run(["info", input.path])
        XCTAssertEqual(info.status, 0, info.stderr)
        let bbox = try XCTUnwrap(info.lines.first { $0.hasPrefix("bbox") })
        let west = try XCTUnwrap(Double(bbox.split(separator: ":")[1].split(separator: ",")[0].trimmingCharacters(in: .whitespaces)))
        XCTAssertTrue((-180...180).contains(west), bbox)
        let validation = try CLI.run(["validate", input.path])
        XCTAssertTrue((validation.stdoutText + validation.stderr).contains("geojson.coordinate-range"), validation.stdoutText)
    }
}
