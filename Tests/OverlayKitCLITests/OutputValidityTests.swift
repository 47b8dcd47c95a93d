import Foundation
import TestSupport
import XCTest

/// Output is always valid for its format (issue 21 item 2, issue 25 item 8): an open ring is
/// closed, a ring too short to close is dropped, a one-position LineString becomes a point —
/// each with a located warning, exit 0 — in `convert` to every format and in `filter`.
final class OutputValidityTests: XCTestCase {
    private let input = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}},
    {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0]]}},
    {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}},
    {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[]]}}
    ]}

    """

    private func run(_ arguments: [String]) throws -> CLI.Result {
        let folder = try CLI.temporaryFolder(self)
        let file = folder.appendingPathComponent("open.geojson")
        try Data(input.utf8).write(to: file)
        return try CLI.run(arguments.map { $0 == "IN" ? file.path : $0 })
    }

    private func assertWarnings(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(stderr.contains("open.geojson:2:79: warning: geojson.ring-not-closed"), stderr, file: file, line: line)
        XCTAssertTrue(stderr.contains("closed by repeating its first position"), stderr, file: file, line: line)
        XCTAssertTrue(stderr.contains("open.geojson:3:81: warning: geojson.line-too-short"), stderr, file: file, line: line)
        XCTAssertTrue(stderr.contains("open.geojson:4:79: warning: geojson.ring-too-short"), stderr, file: file, line: line)
        XCTAssertTrue(stderr.contains("open.geojson:5:79: warning: geojson.ring-too-short"), stderr, file: file, line: line)
    }

    func testConvertToGeoJSONAndGeoJSONSeqWritesOnlyValidGeometry() throws {
        for format in ["geojson", "geojsonseq"] {
            let result = try run(["convert", "IN", "--to", format])
            XCTAssertEqual(result.status, 0, result.stderr)
            assertWarnings(result.stderr)
            let out = result.stdoutText
            XCTAssertTrue(out.contains(#""coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"#), out)
            XCTAssertTrue(out.contains(#"{"type":"Point","coordinates":[0,0]}"#), out)
            XCTAssertFalse(out.contains("[[[0,0],[1,0],[0,0]]]"), out)
            XCTAssertFalse(out.contains("[[]]"), out)
            XCTAssertFalse(out.contains("LineString"), out)
        }
    }

    func testConvertToKMLWritesOnlyValidGeometry() throws {
        let result = try run(["convert", "IN", "--to", "kml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertWarnings(result.stderr)
        let out = result.stdoutText
        XCTAssertTrue(out.contains("<coordinates>0,0 1,0 1,1 0,1 0,0</coordinates>"), out)
        XCTAssertTrue(out.contains("<Point><coordinates>0,0</coordinates></Point>"), out)
        XCTAssertFalse(out.contains("<coordinates>0,0 1,0 0,0</coordinates>"), out)
        XCTAssertFalse(out.contains("<coordinates></coordinates>"), out)
        // A polygon left with no ring has no KML element: it travels as overlaykit:geometry Data,
        // so it reads back as the empty Polygon it was (docs/kml.md), not dropped.
        XCTAssertTrue(out.contains(#"<Data name="overlaykit:geometry"><value>Polygon</value></Data>"#), out)
        XCTAssertFalse(result.stderr.contains("output.geometry-dropped"), result.stderr)
    }

    func testFilterCopiesNoInvalidGeometryThrough() throws {
        let result = try run(["filter", "IN"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertWarnings(result.stderr)
        XCTAssertEqual(result.lines.count, 4)
        XCTAssertTrue(result.lines[0].contains("[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"), result.lines[0])
        XCTAssertTrue(result.lines[1].contains(#"{"type":"Point","coordinates":[0,0]}"#), result.lines[1])
        XCTAssertTrue(result.lines[2].contains(#"{"type":"Polygon","coordinates":[]}"#), result.lines[2])
        XCTAssertTrue(result.lines[3].contains(#"{"type":"Polygon","coordinates":[]}"#), result.lines[3])
    }
}
