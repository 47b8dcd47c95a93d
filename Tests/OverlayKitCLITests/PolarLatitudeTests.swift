import Foundation
import TestSupport
import XCTest

/// Latitudes beyond ±90° (up to ±1e308) never reach the tiler, `info`'s map rect, `render` or
/// `filter`'s geometry tests as non-finite map points: they are placed at the world's edge with
/// a located warning.
final class PolarLatitudeTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("polar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func write(_ text: String) throws -> String {
        let path = folder.appendingPathComponent("polar.geojson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    let hugeLine = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,1e308],[1,-1e308]]}}]}"#

    func testTileCutsAPoleToPoleLineNotEveryTile() throws {
        let input = try write(hugeLine)
        let output = folder.appendingPathComponent("out.pmtiles").path
        let result = try CLI.run(["tile", input, "-o", output, "--max-zoom", "8", "--no-progress"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("polar.geojson:1:41: warning: geometry.latitude-beyond-pole: latitude 1e+308"), result.stderr)
        XCTAssertTrue(result.stderr.contains("(/features/0/geometry)"), result.stderr)
        // A line from the top edge to the bottom edge at longitude 0–1: two columns of tiles per zoom
        // at most, not the whole grid (65,536 tiles at z8 before).
        let tiles = try XCTUnwrap(Int(result.stderr.split(separator: "\n").first { $0.hasPrefix("tile: ") }?
            .split(separator: " ")[1] ?? ""))
        XCTAssertLessThanOrEqual(tiles, (0...8).reduce(0) { $0 + 2 * (1 << $1) })
    }

    func testInfoPrintsAFiniteMapRect() throws {
        let input = try write(hugeLine)
        let result = try CLI.run(["info", input])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdoutText.contains("nan"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("boundingMapRect (x, y, width, height): 134217728.0, 0.0, 745654.0444444418, 268435456.0"),
                      result.stdoutText)
        XCTAssertTrue(result.stderr.contains("geometry.latitude-beyond-pole"), result.stderr)
    }

    func testRenderAndFilterWarnWithTheLocation() throws {
        let input = try write(#"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,100],[0,0]]]}}"#)
        let render = try CLI.run(["render", input, "-o", folder.appendingPathComponent("x.svg").path])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(render.stderr.contains("polar.geojson:1:1: warning: geometry.latitude-beyond-pole: latitude 100.0"), render.stderr)
        let filter = try CLI.run(["filter", input, "--bbox", "-10,-10,10,10"])
        XCTAssertEqual(filter.status, 0, filter.stderr)
        XCTAssertTrue(filter.stderr.contains("geometry.latitude-beyond-pole"), filter.stderr)
        XCTAssertEqual(filter.lines.count, 1, "the polygon still matches the box")
    }
}
