import Foundation
import TestSupport
import XCTest

/// Nesting that once overflowed the stack (SIGSEGV): every reader bounds its recursion and says so.
final class NestingLimitTests: XCTestCase {
    func testDeeplyNestedGeometryCollectionsAreAnErrorNotACrash() throws {
        let depth = 100_000
        let text = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: depth)
            + #"{"type":"Point","coordinates":[1,2]}"# + String(repeating: "]}", count: depth)
        for command in [["info", "-"], ["filter", "-", "--bbox", "0,0,5,5"], ["convert", "-", "--to", "kml"]] {
            let result = try CLI.run(command, stdin: Data(text.utf8))
            XCTAssertEqual(result.status, 65, "\(command): \(result.stderr.prefix(300))")
            XCTAssertTrue(result.stderr.contains("json.too-deep: values nest more than 512 levels deep"), String(result.stderr.prefix(300)))
        }
        // 500 levels are within the limit and go through every stage.
        let fine = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: 500)
            + #"{"type":"Point","coordinates":[1,2]}"# + String(repeating: "]}", count: 500)
        let converted = try CLI.run(["convert", "-", "--to", "kml"], stdin: Data(fine.utf8))
        XCTAssertEqual(converted.status, 0, converted.stderr)
    }

    func testDeeplyNestedKMLIsAnErrorNotACrash() throws {
        let depth = 5_000
        let text = #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark>"# + String(repeating: "<MultiGeometry>", count: depth)
            + "<Point><coordinates>1,2</coordinates></Point>" + String(repeating: "</MultiGeometry>", count: depth) + "</Placemark></kml>"
        for command in [["info", "-", "--from", "kml"], ["convert", "-", "--from", "kml", "--to", "geojson"], ["validate", "-", "--from", "kml"]] {
            let result = try CLI.run(command, stdin: Data(text.utf8))
            XCTAssertNotEqual(result.status, 0, "\(command)")
            XCTAssertLessThan(result.status, 128, "\(command) crashed: \(result.stderr.prefix(300))")
            XCTAssertTrue((result.stderr + result.stdoutText).contains("kml.too-deep: elements nest more than 1000 levels deep"),
                          String(result.stderr.prefix(300)))
        }
    }
}
