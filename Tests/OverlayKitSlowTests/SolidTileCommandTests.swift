import Foundation
import TestSupport
import XCTest

/// A polygon covering the world, or a circle whose radius is capped at the world, to z14: a
/// PMTiles archive stores each solid block once and the run takes seconds; a directory would
/// need hundreds of millions of files and is refused at once with the count, leaving nothing.
final class SolidTileCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("solid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func input(_ text: String) throws -> String {
        let path = folder.appendingPathComponent("in.geojson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func tileCount(_ stderr: String) -> Int? {
        stderr.split(separator: "\n").first { $0.hasPrefix("tile: ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    func testAHugeCircleToZoom14IsOnePMTilesRun() throws {
        let path = try input(#"{"type":"Feature","properties":{"radius":1e20},"geometry":{"type":"Point","coordinates":[0,0]}}"#)
        let output = folder.appendingPathComponent("circle.pmtiles").path
        let result = try CLI.run(["tile", path, "-o", output, "--no-progress"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Every tile of z0–z14 reaches the capped circle (the whole world).
        XCTAssertEqual(tileCount(result.stderr), ((1 << 30) - 1) / 3, result.stderr)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        // The tiles along the world's edges differ (about 4 · 2^14 at z14); the interior is runs.
        XCTAssertLessThan(size, 16 << 20, "identical tiles are stored once: well under a byte per tile")
    }

    func testADirectoryOfAWorldPolygonIsRefusedWithTheCount() throws {
        let path = try input(#"{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]}"#)
        let output = folder.appendingPathComponent("tiles").path
        let result = try CLI.run(["tile", path, "-o", output, "--no-progress"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("error: tile.too-many-tiles:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("write a .pmtiles archive"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["in.geojson"], "nothing left behind")
    }
}
