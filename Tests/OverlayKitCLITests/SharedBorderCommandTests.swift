import Foundation
import TestSupport
import XCTest

/// Shared borders through the command line: `tile --detect-shared-borders`/`-ab`, `convert --zoom
/// --detect-shared-borders` (whose output shapely's `coverage_is_valid` accepts) and `validate
/// --coverage [--gap-width]` in every report format, on a coverage written here.
final class SharedBorderCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try CLI.temporaryFolder(self)
    }

    /// A 6 × 5 grid of cells over 2°–14° E, 40°–50° N whose inner borders wiggle, each border's
    /// points computed once for both cells that share it, as GeoJSON.
    private func writeGrid(_ name: String) throws -> URL {
        let columns = 6, rows = 5
        let xs = (0...columns).map { 2.0 + 2.0 * Double($0) }, ys = (0...rows).map { 40.0 + 2.0 * Double($0) }
        // The border at grid line `index` along the other axis, from `from` to `to`, 24 points.
        func border(vertical: Bool, index: Int, from: Int, to: Int) -> [(Double, Double)] {
            let steps = 24
            return (0...steps).map { step -> (Double, Double) in
                let start = (vertical ? ys : xs)[from], end = (vertical ? ys : xs)[to]
                // The ends exactly (corners are shared by four cells).
                let along = step == steps ? end : start + (end - start) * Double(step) / Double(steps)
                let inner = vertical ? index != 0 && index != columns : index != 0 && index != rows
                let offset = inner && step != 0 && step != steps ? 0.25 * sin(along * 3.1 + Double(index) * 1.7) * sin(Double(step) / Double(steps) * .pi) : 0
                let across = (vertical ? xs : ys)[index] + offset
                return vertical ? (across, along) : (along, across)
            }
        }
        var features = [String]()
        for row in 0..<rows {
            for column in 0..<columns {
                var ring = border(vertical: false, index: row, from: column, to: column + 1)  // south, west to east
                ring += border(vertical: true, index: column + 1, from: row, to: row + 1).dropFirst()  // east, going north
                ring += border(vertical: false, index: row + 1, from: column, to: column + 1).reversed().dropFirst()  // north, east to west
                ring += border(vertical: true, index: column, from: row, to: row + 1).reversed().dropFirst()  // west, going south
                // Each ring starts somewhere else along its outline (simplified ring by ring, the
                // sides of a border then differ; the coverage is the same).
                let shift = (row * columns + column) * 7 % (ring.count - 1)
                ring = Array(ring[shift..<(ring.count - 1)] + ring[0..<shift]) + [ring[shift]]
                let coordinates = ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
                features.append(#"{"type":"Feature","properties":{"cell":\#(row * columns + column)},"geometry":{"type":"Polygon","coordinates":[[\#(coordinates)]]}}"#)
            }
        }
        let url = folder.appendingPathComponent(name)
        try Data(("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n").utf8).write(to: url)
        return url
    }

    func testTileSpellingsAgreeAndChangeTheTiles() throws {
        let grid = try writeGrid("grid.geojson")
        var outputs = [String: Data]()
        for (label, flags) in [("ab", ["-ab"]), ("long", ["--detect-shared-borders"]), ("none", []), ("no", ["--no-detect-shared-borders"])] {
            let output = folder.appendingPathComponent("\(label).pmtiles")
            let result = try CLI.run(["tile", grid.path, "-o", output.path, "-z6", "-q"] + flags)
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs[label] = try Data(contentsOf: output)
        }
        XCTAssertEqual(outputs["ab"], outputs["long"])
        XCTAssertEqual(outputs["none"], outputs["no"])
        XCTAssertNotEqual(outputs["ab"], outputs["none"])
    }

    func testConvertKeepsACoverageThatShapelyAccepts() throws {
        let python = try Prerequisite.python(modules: ["shapely"], install: "pip install 'shapely>=2.1'")
        let probe = try CLI.runTool(URL(fileURLWithPath: python), ["-c", "import shapely; shapely.coverage_is_valid"])
        try Prerequisite.require(probe.status == 0, "shapely 2.1 or later (coverage_is_valid) missing")
        let grid = try writeGrid("grid.geojson")
        let script = """
        import json, sys, shapely
        from shapely.geometry import shape
        features = json.load(open(sys.argv[1]))["features"]
        print(len(features), bool(shapely.coverage_is_valid([shape(f["geometry"]) for f in features])))
        """
        XCTAssertEqual(try CLI.runTool(URL(fileURLWithPath: python), ["-c", script, grid.path]).stdoutText, "30 True\n")
        for zoom in ["3", "5", "7"] {
            let shared = folder.appendingPathComponent("shared-\(zoom).geojson"), alone = folder.appendingPathComponent("alone-\(zoom).geojson")
            let run = try CLI.run(["convert", grid.path, "--zoom", zoom, "--detect-shared-borders", "-o", shared.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(try CLI.run(["convert", grid.path, "--zoom", zoom, "-o", alone.path]).status, 0)
            XCTAssertEqual(try CLI.runTool(URL(fileURLWithPath: python), ["-c", script, shared.path]).stdoutText, "30 True\n", "zoom \(zoom)")
            // Simplified ring by ring, the same cells are no coverage any more.
            XCTAssertEqual(try CLI.runTool(URL(fileURLWithPath: python), ["-c", script, alone.path]).stdoutText, "30 False\n", "zoom \(zoom)")
            // validate --coverage agrees with GEOS on both.
            XCTAssertEqual(try CLI.run(["validate", "--coverage", shared.path]).status, 0)
            let invalid = try CLI.run(["validate", "--coverage", alone.path])
            XCTAssertEqual(invalid.status, 1)
            XCTAssertTrue(invalid.stdoutText.contains("coverage."), invalid.stdoutText)
        }
    }

    func testValidateCoverageReportsInEveryFormat() throws {
        let overlapping = folder.appendingPathComponent("overlap.geojson")
        try Data("""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}},
        {"type":"Feature","properties":{"name":"b"},"geometry":{"type":"Polygon","coordinates":[[[1,1],[3,1],[3,3],[1,3],[1,1]]]}},
        {"type":"Feature","properties":{"name":"c"},"geometry":{"type":"Polygon","coordinates":[[[3.0005,1],[5,1],[5,3],[3.0005,3],[3.0005,1]]]}}
        ]}

        """.utf8).write(to: overlapping)
        let text = try CLI.run(["validate", "--coverage", "--gap-width", "100", overlapping.path])
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdoutText.contains("overlap.geojson:2:1: error: coverage.overlap: feature 0 at 2:1 and feature 1 at 3:1 overlap at "),
                      text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("error: coverage.gap: feature 1 at 3:1 and feature 2 at 4:1 leave a gap narrower than 100 m"),
                      text.stdoutText)
        // Without --coverage the file is valid.
        XCTAssertEqual(try CLI.run(["validate", overlapping.path]).status, 0)
        let json = try CLI.run(["validate", "--coverage", "--gap-width", "100", "--format", "json", overlapping.path])
        XCTAssertEqual(json.status, 1)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let check = try XCTUnwrap((report["checks"] as? [[String: Any]])?.first)
        XCTAssertEqual(check["kind"] as? String, "coverage")
        let rules = (check["rules"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        XCTAssertEqual(rules, ["coverage/overlap", "coverage/unmatched-border", "coverage/gap"])
        let found = (check["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        XCTAssertEqual(found, ["coverage/overlap", "coverage/gap"])
        let sarif = try CLI.run(["validate", "--coverage", "--format", "sarif", overlapping.path])
        XCTAssertEqual(sarif.status, 1)
        XCTAssertTrue(sarif.stdoutText.contains("coverage.overlap") || sarif.stdoutText.contains("coverage/overlap"), sarif.stdoutText)
    }

    func testUsageErrors() throws {
        let grid = try writeGrid("grid.geojson")
        XCTAssertEqual(try CLI.run(["convert", grid.path, "--detect-shared-borders"]).status, 64)
        XCTAssertEqual(try CLI.run(["convert", grid.path, "--zoom", "4", "--detect-shared-borders", "--algorithm", "vw"]).status, 64)
        XCTAssertEqual(try CLI.run(["validate", "--gap-width", "5", grid.path]).status, 64)
        XCTAssertEqual(try CLI.run(["validate", "--coverage", "--gap-width", "-1", grid.path]).status, 64)
    }
}
