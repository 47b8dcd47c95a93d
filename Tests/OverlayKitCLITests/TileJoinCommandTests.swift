import Foundation
import XCTest

/// `overlaykit tile-join`: merging tile sets, tippecanoe's options, and clear refusals.
final class TileJoinCommandTests: XCTestCase {
    private func write(_ text: String, _ name: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func square(_ id: Int, _ west: Double, _ properties: String) -> String {
        #"{"type":"Feature","id":\#(id),"properties":\#(properties),"geometry":{"type":"Polygon","coordinates":[[[\#(west),10],[\#(west + 10),10],[\#(west + 10),20],[\#(west),20],[\#(west),10]]]}}"#
    }

    /// Two tile sets: parks (west) and gardens (east, a different layer name), z0–2.
    private func tileSets(in folder: URL) throws -> (URL, URL) {
        let parks = try write(square(1, 0, #"{"name":"a","secret":1}"#) + "\n" + square(2, 40, #"{"name":"b","secret":2}"#), "parks.geojsonl", in: folder)
        let gardens = try write(square(3, 20, #"{"name":"c","area":2.5}"#), "gardens.geojsonl", in: folder)
        let first = folder.appendingPathComponent("parks"), second = folder.appendingPathComponent("gardens")
        for (input, output) in [(parks, first), (gardens, second)] {
            let result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "2"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        return (first, second)
    }

    /// layer name → sorted feature summaries ("id:key=value,…") of one tile, decoded by the peer.
    private func decode(_ tile: URL) throws -> [String: [String]] {
        guard let python = CLI.which("python3") else { throw XCTSkip("skipped: python3 not found") }
        let script = """
            import mapbox_vector_tile, sys, json
            t = mapbox_vector_tile.decode(open(sys.argv[1], 'rb').read())
            print(json.dumps({k: sorted('%s:%s' % (f['id'], ','.join('%s=%s' % kv for kv in sorted(f['properties'].items()))) for f in v['features']) for k, v in t.items()}))
            """
        let result = try CLI.runTool(python, ["-c", script, tile.path])
        if result.stderr.contains("No module named") { throw XCTSkip("skipped: PyPI mapbox-vector-tile missing") }
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: [String]])
    }

    func testJoinsRenamesAndFiltersLikeTippecanoe() throws {
        let folder = try CLI.temporaryFolder(self)
        let (parks, gardens) = try tileSets(in: folder)
        let joined = folder.appendingPathComponent("joined")
        let result = try CLI.run(["tile-join", parks.path, gardens.path, "-o", joined.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("tile-join: "), result.stderr)
        XCTAssertEqual(try decode(joined.appendingPathComponent("0/0/0.mvt")),
                       ["parks": ["1:name=a,secret=1", "2:name=b,secret=2"], "gardens": ["3:area=2.5,name=c"]])

        // -R merges gardens into parks (one layer, united tables); -x drops a property.
        let renamed = folder.appendingPathComponent("renamed")
        let rename = try CLI.run(["tile-join", parks.path, gardens.path, "-o", renamed.path, "-R", "gardens:parks", "-x", "secret"])
        XCTAssertEqual(rename.status, 0, rename.stderr)
        XCTAssertEqual(try decode(renamed.appendingPathComponent("0/0/0.mvt")),
                       ["parks": ["1:name=a", "2:name=b", "3:area=2.5,name=c"]])
        let metadata = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: renamed.appendingPathComponent("metadata.json"))) as? [String: Any])
        let layers = try XCTUnwrap(metadata["layers"] as? [[String: Any]])
        XCTAssertEqual(layers.map { $0["id"] as? String }, ["parks"])
        XCTAssertEqual(layers.first?["fields"] as? [String: String], ["name": "String", "area": "Number"])
        let bounds = try XCTUnwrap(metadata["bounds"] as? [Double])
        XCTAssertEqual(bounds[0], 0, accuracy: 1e-6)
        XCTAssertEqual(bounds[2], 50, accuracy: 1e-6, "bounds united")
        let input = try XCTUnwrap(metadata["input"] as? [String: Int])
        XCTAssertEqual(input["features"], 3, "input counts summed")

        // -l keeps one layer, -y keeps one property, -z limits zooms.
        let only = folder.appendingPathComponent("only")
        let keep = try CLI.run(["tile-join", parks.path, gardens.path, "-o", only.path, "-l", "gardens", "-y", "area", "-z", "1"])
        XCTAssertEqual(keep.status, 0, keep.stderr)
        XCTAssertEqual(try decode(only.appendingPathComponent("0/0/0.mvt")), ["gardens": ["3:area=2.5"]])
        XCTAssertFalse(FileManager.default.fileExists(atPath: only.appendingPathComponent("2").path), "-z 1 leaves out zoom 2")
    }

    func testRefusalsAndExitCodes() throws {
        let folder = try CLI.temporaryFolder(self)
        let (parks, gardens) = try tileSets(in: folder)

        // Usage: 64.
        XCTAssertEqual(try CLI.run(["tile-join", parks.path, "-o", folder.appendingPathComponent("x").path, "-R", "nocolon"]).status, 64)
        XCTAssertEqual(try CLI.run(["tile-join", "-o", folder.appendingPathComponent("x").path]).status, 64)

        // GeoJSON tiles cannot be joined with MVT tiles: 65, and the message names the file.
        let geojsonTiles = folder.appendingPathComponent("geojson-tiles")
        XCTAssertEqual(try CLI.run(["tile", folder.appendingPathComponent("gardens.geojsonl").path, "-o", geojsonTiles.path,
                                    "--max-zoom", "1", "--format", "geojson"]).status, 0)
        let mismatch = try CLI.run(["tile-join", parks.path, geojsonTiles.path, "-o", folder.appendingPathComponent("mixed").path])
        XCTAssertEqual(mismatch.status, 65)
        XCTAssertTrue(mismatch.stderr.contains("tilejoin.format-mismatch") && mismatch.stderr.contains("geojson"), mismatch.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("mixed").path), "nothing written")

        // A corrupt tile: 65, naming the input and z/x/y.
        try Data([0x1A, 0x7F, 0x00]).write(to: gardens.appendingPathComponent("0/0/0.mvt"))
        let corrupt = try CLI.run(["tile-join", parks.path, gardens.path, "-o", folder.appendingPathComponent("corrupt").path])
        XCTAssertEqual(corrupt.status, 65)
        XCTAssertTrue(corrupt.stderr.contains("mvt.bad-tile") && corrupt.stderr.contains("0/0/0"), corrupt.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("corrupt") }
        XCTAssertEqual(left, [], "a failed join leaves no half-written output")

        // A missing input: 74. A non-empty output without --force: 74.
        XCTAssertEqual(try CLI.run(["tile-join", folder.appendingPathComponent("nowhere").path, "-o", folder.appendingPathComponent("y").path]).status, 74)
        let busy = try CLI.run(["tile-join", parks.path, "-o", gardens.path])
        XCTAssertEqual(busy.status, 74, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("--force"), busy.stderr)
    }
}
