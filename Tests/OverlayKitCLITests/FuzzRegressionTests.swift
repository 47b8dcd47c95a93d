import Foundation
import TestSupport
import XCTest

/// Inputs the fuzzers found (Fuzz/README.md), each once a crash or a hang.
final class FuzzRegressionTests: XCTestCase {
    /// `tile` target: an empty array before the first position of a ring desynchronised the
    /// GeoJSON reader's shape builder (array index out of range).
    func testEmptyPositionBeforeTheFirstPositionIsAnError() throws {
        for text in [#"{"type":"Polygon","coordinates":[[[],[1,2],[3,4],[5,6],[1,2]]]}"#,
                     #"{"type":"LineString","coordinates":[[],[1,2]]}"#] {
            let result = try CLI.run(["info", "-"], stdin: Data(text.utf8))
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("geojson.position-too-short: position needs at least 2 numbers, found 0"), result.stderr)
        }
        let emptyRing = try CLI.run(["info", "-"], stdin: Data(#"{"type":"MultiPolygon","coordinates":[[[]],[[[1,2],[3,4],[5,6],[1,2]]]]}"#.utf8))
        XCTAssertEqual(emptyRing.status, 0, emptyRing.stderr)
    }

    /// `render` target: a longitude of 7.7e109 made the antimeridian unwrap span ~10^107 worlds,
    /// each drawn as a copy (timeout).
    func testHugeLongitudeRendersPromptly() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("far.geojson")
        try Data(#"{"type":"LineString","coordinates":[[39.35,52.52],[13.365,52.52],[80.13,52.519],[7.7e109,52.521]]}"#.utf8).write(to: input)
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"),
                                     ["60", CLI.binary.path, "render", input.path, "-o", folder.appendingPathComponent("far.svg").path])
        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
