import Foundation
import TestSupport
import XCTest

/// Issue 20's scale benchmark tools: the data generator (Benchmarks/make_tile_scale_data.py)
/// makes the same bytes from the same seed and the shapes it promises; the benchmark
/// (Benchmarks/bench_tile_scale.py) counts every feature of every tile and checks the targets.
/// Tiny sizes here; the real sizes are the lead's benchmark run, never a test.
final class TileScaleBenchmarkTests: XCTestCase {
    static let generator = CLI.packageRoot.appendingPathComponent("Benchmarks/make_tile_scale_data.py")
    static let benchmark = CLI.packageRoot.appendingPathComponent("Benchmarks/bench_tile_scale.py")
    static let screenshots = CLI.packageRoot.appendingPathComponent("Benchmarks/maplibre_tiles_screenshot.py")

    private func python(needing modules: String? = nil) throws -> URL {
        let modules = modules.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        return URL(fileURLWithPath: try Prerequisite.python(modules: modules, install: "pip install " + modules.joined(separator: " ")))
    }

    private func generate(_ kind: String, count: Int, seed: Int, folder: URL, python: URL) throws -> Data {
        let result = try CLI.runTool(python, [Self.generator.path, kind, "--count", "\(count)", "--seed", "\(seed)", "--out", folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let path = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(URL(fileURLWithPath: path).deletingLastPathComponent().resolvingSymlinksInPath().path,
                       folder.resolvingSymlinksInPath().path, "written where --out says")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func features(_ data: Data) throws -> [[String: Any]] {
        try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testGeneratorMakesTheSameBytesFromTheSameSeed() throws {
        let python = try python()
        let folder = try CLI.temporaryFolder(self)
        let first = folder.appendingPathComponent("a"), second = folder.appendingPathComponent("b")
        for kind in ["points", "buildings"] {
            let one = try generate(kind, count: 400, seed: 1, folder: first, python: python)
            XCTAssertEqual(one, try generate(kind, count: 400, seed: 1, folder: second, python: python), kind)
            XCTAssertNotEqual(one, try generate(kind, count: 400, seed: 2, folder: second, python: python), kind)
            XCTAssertEqual(try features(one).count, 400, kind)
        }
        // Pinned: a benchmark compared across days needs the same input. A change here must be
        // deliberate (and said in the commit), since earlier measurements then no longer compare.
        let pinned = ["points": "0d943be9619faf372b0c876f7de2d20abb2076541cc78600d55cb64a835caeba",
                      "buildings": "255dcefbff63a669e185467e9ba0eb7b84d86131c9386d92087efea0604df0d4"]
        for (kind, digest) in pinned {
            let file = first.appendingPathComponent("\(kind)-400.geojsonseq")
            let hash = try CLI.runTool(python, ["-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", file.path])
            XCTAssertEqual(hash.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), digest, kind)
        }
        let usage = try CLI.runTool(python, [Self.generator.path, "lines", "--out", folder.path])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("unknown kind 'lines'"), usage.stderr)
    }

    /// Points: ids in order, the four properties, inside the clamped latitudes; several clusters.
    func testGeneratorPointsCarryTheirPropertiesAndCluster() throws {
        let python = try python()
        let points = try features(try generate("points", count: 2000, seed: 1, folder: try CLI.temporaryFolder(self), python: python))
        var cells = [String: Int]()
        for (index, feature) in points.enumerated() {
            let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
            XCTAssertEqual(Set(properties.keys), ["id", "name", "category", "value"])
            XCTAssertEqual(properties["id"] as? Int, index)
            XCTAssertNotNil(properties["value"] as? Double)
            let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
            XCTAssertEqual(geometry["type"] as? String, "Point")
            let position = try XCTUnwrap(geometry["coordinates"] as? [Double])
            XCTAssertLessThanOrEqual(abs(position[1]), 84)
            XCTAssertLessThan(position[0], 180)
            XCTAssertGreaterThanOrEqual(position[0], -180)
            cells["\(Int((position[0] / 10).rounded(.down))),\(Int((position[1] / 10).rounded(.down)))", default: 0] += 1
        }
        // Clustered, not uniform: the busiest 10° cell holds far more than an even share.
        let busiest = try XCTUnwrap(cells.values.max())
        XCTAssertGreaterThan(busiest, 2000 / cells.count * 5, "cells \(cells.count), busiest \(busiest)")
        XCTAssertGreaterThan(cells.count, 20)
    }

    /// Buildings: closed counter-clockwise rectangles with sides of 5–40 m and right angles.
    func testGeneratorBuildingsAreSmallRotatedRectangles() throws {
        let python = try python()
        let buildings = try features(try generate("buildings", count: 1000, seed: 1, folder: try CLI.temporaryFolder(self), python: python))
        var angles = Set<Int>()
        for feature in buildings {
            let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
            XCTAssertEqual(Set(properties.keys), ["id", "kind", "height", "levels"])
            let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
            let rings = try XCTUnwrap(geometry["coordinates"] as? [[[Double]]])
            let ring = try XCTUnwrap(rings.first)
            XCTAssertEqual(rings.count, 1)
            XCTAssertEqual(ring.count, 5)
            XCTAssertEqual(ring.first, ring.last)
            let latitude = ring[0][1] * Double.pi / 180
            let metres = ring.map { [($0[0] - ring[0][0]) * 111_320 * cos(latitude), ($0[1] - ring[0][1]) * 111_320] }
            var twiceArea = 0.0
            for index in 0..<4 {
                let a = metres[index], b = metres[index + 1], c = metres[(index + 2) % 4]
                let side = hypot(b[0] - a[0], b[1] - a[1])
                XCTAssertGreaterThanOrEqual(side, 4.95)
                XCTAssertLessThanOrEqual(side, 40.05)
                let dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1])
                XCTAssertLessThan(abs(dot) / (side * hypot(c[0] - b[0], c[1] - b[1])), 0.01, "a right angle")
                twiceArea += a[0] * b[1] - b[0] * a[1]
            }
            XCTAssertGreaterThan(twiceArea, 0, "counter-clockwise exterior (RFC 7946)")
            angles.insert(Int(atan2(metres[1][1], metres[1][0]) * 180 / Double.pi / 10))
        }
        XCTAssertGreaterThanOrEqual(angles.count, 17, "rotations spread over the half turn (18 buckets of 10°)")
    }

    /// The verdicts from saved measurements: an oversized tile, an empty zoom, a zoom kept below
    /// 80% of tippecanoe's and a run under 3× its speed each fail, and the good run passes.
    func testTargetsAreCheckedFromMeasurements() throws {
        func zooms(_ rows: [(tiles: Int, largest: Int, most: Int, features: Int)]) -> [String: Any] {
            var out = [String: Any]()
            for (z, row) in rows.enumerated() {
                out["\(z)"] = ["tiles": row.tiles, "bytes": row.largest * row.tiles, "largest": row.largest, "largest_tile": "\(z)/0/0",
                               "most_features": row.most, "most_features_tile": "\(z)/0/0", "features": row.features]
            }
            return out
        }
        let peer: [String: Any] = ["key": "tippecanoe", "extra": [], "status": "ok", "reason": "", "seconds": 30.0, "rss_mb": 100.0,
                                   "bytes": 1000, "decoded": 1,
                                   "zooms": zooms([(1, 9000, 100, 100), (4, 9000, 100, 400), (16, 9000, 200, 1000)])]
        // Defaults: a 600,000-byte tile at z0 and nothing at z1; 20 s.
        let defaults: [String: Any] = ["key": "defaults", "extra": [], "status": "ok", "reason": "", "seconds": 20.0, "rss_mb": 50.0,
                                       "bytes": 2000, "decoded": 1, "zooms": zooms([(1, 600_000, 100, 100), (0, 0, 0, 0), (16, 9000, 200, 1000)])]
        // With the budget: fits, every zoom, z1 keeps 75% of tippecanoe's; 5 s (6×).
        let budget: [String: Any] = ["key": "ok-args", "extra": ["--max-tile-bytes", "512000"], "status": "ok", "reason": "", "seconds": 5.0,
                                     "rss_mb": 50.0, "bytes": 1500, "decoded": 1,
                                     "zooms": zooms([(1, 9000, 100, 100), (4, 9000, 100, 300), (16, 9000, 250_000, 1000)])]
        let results: [String: Any] = [
            "meta": ["date": "today", "binary": "overlaykit", "tippecanoe": "tippecanoe", "max_tile_bytes": 512_000, "max_tile_features": 200_000,
                     "load_before": "-", "load_after": "-"],
            "inputs": [["name": "points", "count": 1000, "file": "points.geojsonseq", "input_bytes": 1000, "min_zoom": 0, "max_zoom": 2,
                        "runs": [defaults, budget, peer]]]]
        let folder = try CLI.temporaryFolder(self)
        let saved = folder.appendingPathComponent("results.json"), markdown = folder.appendingPathComponent("report.md")
        try JSONSerialization.data(withJSONObject: results).write(to: saved)
        let result = try CLI.runTool(try python(), [Self.benchmark.path, "--from-json", saved.path, "--markdown", markdown.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOf: markdown, encoding: .utf8), result.stdoutText)
        func verdict(_ target: String, _ run: String) -> String? {
            result.lines.first { $0.contains("| \(target)") && $0.contains("| \(run) |") }
        }
        let over = try XCTUnwrap(verdict("T1", "overlaykit (defaults)"))
        XCTAssertTrue(over.contains("**FAIL**") && over.contains("z0: 600,000 B at 0/0/0"), over)
        let overFeatures = try XCTUnwrap(verdict("T1", "overlaykit (--ok-args)"))
        XCTAssertTrue(overFeatures.contains("**FAIL**") && overFeatures.contains("250,000 features at 2/0/0"), overFeatures)
        let empty = try XCTUnwrap(verdict("T2", "overlaykit (defaults)"))
        XCTAssertTrue(empty.contains("**FAIL**") && empty.contains("empty: z1"), empty)
        XCTAssertTrue(try XCTUnwrap(verdict("T2", "overlaykit (--ok-args)")).contains("**PASS**"))
        XCTAssertTrue(try XCTUnwrap(verdict("T1", "tippecanoe")).contains("**PASS**"))
        let kept = try XCTUnwrap(verdict("T3", "overlaykit (--ok-args)"))
        XCTAssertTrue(kept.contains("**FAIL**") && kept.contains("below: z1 75%"), kept)
        let speed = try XCTUnwrap(verdict("T4", "overlaykit (--ok-args)"))
        XCTAssertTrue(speed.contains("**PASS**") && speed.contains("6.00×"), speed)
        // Per zoom: kept vs tippecanoe for both of our runs, in run order.
        XCTAssertTrue(result.lines.contains("| 1 | 0 / 4 / 4 | 0.0 / 8.8 / 8.8 | 0 / 100 / 100 | 0 / 300 / 400 | 0% / 75% |"), result.stdoutText)
    }

    /// A real small run: every tile of every archive counted. With `--buffer 0` each point is in
    /// exactly one tile at the deepest zoom, so the count there is the input's; tippecanoe keeps
    /// every point at its max zoom too (its buffer may add copies). An option the binary does
    /// not know skips that run and says which.
    func testSmallRunCountsEveryFeatureOfEveryTile() throws {
        let python = try python(needing: "mapbox_vector_tile, pmtiles, tippecanoe")
        let folder = try CLI.temporaryFolder(self)
        let saved = folder.appendingPathComponent("results.json")
        let arguments = [Self.benchmark.path, "--binary", CLI.binary.path, "--points", "1500", "--buildings", "500",
                         "--points-max-zoom", "5", "--buildings-max-zoom", "9", "--data", folder.path, "--work", folder.path,
                         "--json", saved.path, "--ok-args", "--buffer 0", "--threads", "2"]
        let result = try CLI.runTool(python, arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: saved)) as? [String: Any])
        let inputs = try XCTUnwrap(object["inputs"] as? [[String: Any]])
        XCTAssertEqual(inputs.map { $0["name"] as? String }, ["points", "buildings"])
        for input in inputs {
            let runs = try XCTUnwrap(input["runs"] as? [[String: Any]])
            XCTAssertEqual(runs.map { $0["key"] as? String }, ["defaults", "ok-args", "tippecanoe"])
            for run in runs {
                XCTAssertEqual(run["status"] as? String, "ok", "\(run)")
                XCTAssertGreaterThan(run["seconds"] as? Double ?? 0, 0)
                XCTAssertGreaterThan(run["rss_mb"] as? Double ?? 0, 1)
                XCTAssertGreaterThan(run["decoded"] as? Int ?? 0, 0, "decoder cross-check ran")
            }
        }
        func deepest(_ key: String) throws -> [String: Any] {
            let runs = try XCTUnwrap(inputs[0]["runs"] as? [[String: Any]])
            let run = try XCTUnwrap(runs.first { $0["key"] as? String == key })
            let zooms = try XCTUnwrap(run["zooms"] as? [String: Any])
            return try XCTUnwrap(zooms["5"] as? [String: Any])
        }
        XCTAssertEqual(try deepest("ok-args")["features"] as? Int, 1500)
        XCTAssertGreaterThanOrEqual(try deepest("defaults")["features"] as? Int ?? 0, 1500)
        XCTAssertGreaterThanOrEqual(try deepest("tippecanoe")["features"] as? Int ?? 0, 1500)
        XCTAssertTrue(result.stdoutText.contains("| points | T4 ≥ 3× tippecanoe's speed | overlaykit (--ok-args) |"), result.stdoutText)

        let unknown = try CLI.runTool(python, [Self.benchmark.path, "--binary", CLI.binary.path, "--points", "200", "--buildings", "0",
                                               "--points-max-zoom", "2", "--data", folder.path, "--work", folder.path,
                                               "--ok-args", "--no-such-option 3"])
        XCTAssertEqual(unknown.status, 0, unknown.stderr)
        XCTAssertTrue(unknown.stdoutText.contains("skipped: binary lacks --no-such-option"), unknown.stdoutText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("points-ok-args.pmtiles").path))

        // Run anyway: the usage error is the run's reported outcome; the other runs still count.
        let forced = try CLI.runTool(python, [Self.benchmark.path, "--binary", CLI.binary.path, "--points", "200", "--buildings", "0",
                                              "--points-max-zoom", "2", "--data", folder.path, "--work", folder.path,
                                              "--ok-args", "--no-such-option 3", "--no-option-check"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stdoutText.contains("| failed: exit 64: "), forced.stdoutText)
        XCTAssertTrue(forced.stdoutText.contains("| points | T2 no empty zoom z0–z2 | overlaykit (defaults) | **PASS** |"), forced.stdoutText)
    }

    /// MapLibre draws both archives at each zoom into OUT/tile-scale-NAME-zZ-LABEL.png, the
    /// points visible (red circles on the light background), and the Markdown table links them.
    /// 20,000 points at z0–1 make tiles of about 1 MB unpacked, which MapLibre's workers decode
    /// in real time: without the paced virtual time the map was never idle before the budget.
    func testScreenshotsOfTwoArchivesAtEachZoom() throws {
        let python = try python(needing: "pmtiles, maplibre")
        try Prerequisite.require(CLI.which("chromium") != nil || CLI.which("chromium-browser") != nil, "chromium not found (Debian: chromium)")
        let folder = try CLI.temporaryFolder(self)
        let generated = try CLI.runTool(python, [Self.generator.path, "points", "--count", "20000", "--out", folder.path])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let input = generated.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        var archives = [String]()
        for (label, buffer) in [("wide", "64"), ("narrow", "0")] {
            let archive = folder.appendingPathComponent("\(label).pmtiles")
            let tiled = try CLI.run(["tile", input, "-o", archive.path, "--max-zoom", "1", "--layer", "points", "--buffer", buffer])
            XCTAssertEqual(tiled.status, 0, tiled.stderr)
            archives.append("\(label)=\(archive.path)")
        }
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let result = try CLI.runTool(python, [Self.screenshots.path, "--layer", "points", "--zooms", "0,1", "--out", images.path] + archives)
        try Prerequisite.require(result.status != 3, result.stdoutText)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr.suffix(3000))
        XCTAssertTrue(result.lines.contains("| zoom | wide | narrow |"), result.stdoutText)
        XCTAssertTrue(result.lines.contains("| 1 | ![points wide z1](images/tile-scale-points-z1-wide.png) | ![points narrow z1](images/tile-scale-points-z1-narrow.png) |"),
                      result.stdoutText)
        let count = #"""
        import sys; sys.path.insert(0, sys.argv[1]); import maplibre_screenshot as m
        p = m.read_png(sys.argv[2]); print(int(((p[:, :, 0] > 150) & (p[:, :, 1] < 150)).sum()))
        """#
        for zoom in [0, 1] {
            for label in ["wide", "narrow"] {
                let image = images.appendingPathComponent("tile-scale-points-z\(zoom)-\(label).png")
                let reddish = try CLI.runTool(python, ["-c", count, CLI.packageRoot.appendingPathComponent("Tests/Scripts").path, image.path])
                XCTAssertEqual(reddish.status, 0, reddish.stderr)
                XCTAssertGreaterThan(Int(reddish.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 500, image.lastPathComponent)
            }
        }
        let missing = try CLI.runTool(python, [Self.screenshots.path, "--layer", "points", "--out", images.path, "x=\(folder.path)/absent.pmtiles"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("absent.pmtiles: no such archive or folder"), missing.stderr)
    }
}
