import Foundation
import TestSupport
import XCTest

/// Inputs that once crashed (SIGILL on a trapping Double→Int conversion), hung, or were
/// written as JSON no parser reads. Each test holds the input that showed the problem.
final class HostileNumberTests: XCTestCase {
    func testCoordinateBeyondDoubleRangeIsAnErrorWithItsPlace() throws {
        let point = #"{"type":"Point","coordinates":[1e400,2]}"#
        for command in [["info", "-"], ["convert", "-", "--to", "geojson"], ["filter", "-", "--bbox", "-10,-10,10,10"]] {
            let result = try CLI.run(command, stdin: Data(point.utf8))
            XCTAssertEqual(result.status, 65, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdoutText.contains("inf"), false, "\(command) wrote \(result.stdoutText)")
            XCTAssertTrue(result.stderr.contains("<stdin>:1:32: error: json.number-out-of-range: '1e400'"), result.stderr)
        }
    }

    func testPropertyBeyondDoubleRangeIsAnErrorNotNull() throws {
        let feature = #"{"type":"Feature","properties":{"a":1e400},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let result = try CLI.run(["convert", "-", "--to", "geojson"], stdin: Data(feature.utf8))
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertFalse(result.stdoutText.contains("null"), result.stdoutText)
        XCTAssertTrue(result.stderr.contains("json.number-out-of-range") && result.stderr.contains("(/properties/a)"), result.stderr)
    }

    func testKMLCoordinateBeyondDoubleRangeIsNotReadAsInfinity() throws {
        let kml = #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>1e400,2</coordinates></Point></Placemark></kml>"#
        let result = try CLI.run(["convert", "-", "--from", "kml", "--to", "geojson"], stdin: Data(kml.utf8))
        XCTAssertFalse(result.stdoutText.contains("inf"), result.stdoutText)
        XCTAssertNotEqual(result.status, 132, result.stderr)
    }

    func testHugeFiniteLongitudesTileWithoutCrashing() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("far.geojson")
        try Data(#"{"type":"LineString","coordinates":[[1e308,1e308],[-1e308,-1e308]]}"#.utf8).write(to: input)
        let result = try CLI.run(["tile", input.path, "-o", folder.appendingPathComponent("tiles").path, "--max-zoom", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testHugeCircleRadiusConvertsToKML() throws {
        let circle = #"{"type":"Feature","properties":{"radius":1e20},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let result = try CLI.run(["convert", "-", "--to", "kml"], stdin: Data(circle.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("<Polygon>"), result.stdoutText)
        XCTAssertFalse(result.stdoutText.contains("nan") || result.stdoutText.contains("inf"), result.stdoutText)
    }

    func testCircleLargerThanTheWorldRendersPromptly() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("circle.geojson")
        try Data(#"{"type":"Feature","properties":{"radius":1e12},"geometry":{"type":"Point","coordinates":[1,2]}}"#.utf8).write(to: input)
        let output = folder.appendingPathComponent("circle.png")
        // Once ~26,000 copies of a giant disk: the run never ended. A hang fails the test by its timeout.
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"),
                                     ["60", CLI.binary.path, "render", input.path, "-o", output.path, "--size", "800x600"])
        XCTAssertNotEqual(result.status, 124, "render did not finish in 60 s")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.path))
    }
}
