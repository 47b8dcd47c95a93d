import Foundation
import TestSupport
import XCTest

/// tippecanoe's controls on `overlaykit tile` that do not touch tile cutting, through the built
/// binary: `-y/-x/-X`, `-T`, `--where`, `--generate-ids`/`--use-attribute-for-id`, `-l -n -N -A`, `-q`,
/// `-P` and `-b`. Tiles are decoded by the peer (PyPI mapbox-vector-tile).
final class TippecanoeOptionTests: XCTestCase {
    /// Two points with a name, a population (one not a number), a code and a secret; one has a
    /// null property (an `mvt.null-value` note).
    let fixture = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"a","properties":{"name":"north","pop":"12","code":7,"secret":true,"gone":null},"geometry":{"type":"Point","coordinates":[10,10]}},
        {"type":"Feature","id":"b","properties":{"name":"south","pop":"many","code":9,"secret":false},"geometry":{"type":"Point","coordinates":[-10,-10]}}
        ]}
        """

    private func input(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("places.geojson")
        try Data(fixture.utf8).write(to: url)
        return url
    }

    /// Runs `tile` on the fixture into a new directory with `arguments` and z0 only.
    private func tile(_ arguments: [String], folder: URL) throws -> (result: CLI.Result, output: URL) {
        let output = folder.appendingPathComponent("tiles-\(UUID().uuidString)")
        let result = try CLI.run(["tile", try input(in: folder).path, "-o", output.path, "--max-zoom", "0"] + arguments)
        return (result, output)
    }

    /// Sorted feature summaries ("id|key=value,…") of the z0 tile's only layer, and the layer's name.
    private func decode(_ output: URL, python: String) throws -> (layer: String, features: [String]) {
        let script = """
            import mapbox_vector_tile, sys, json
            t = mapbox_vector_tile.decode(open(sys.argv[1], 'rb').read())
            (name, layer), = t.items()
            print(json.dumps([name, sorted('%s|%s' % (f.get('id'), ','.join('%s=%r' % kv for kv in sorted(f['properties'].items()))) for f in layer['features'])]))
            """
        let result = try CLI.runTool(URL(fileURLWithPath: python), ["-c", script, output.appendingPathComponent("0/0/0.mvt").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let decoded = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [Any])
        return (try XCTUnwrap(decoded[0] as? String), try XCTUnwrap(decoded[1] as? [String]))
    }

    private func metadata(_ output: URL) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("metadata.json"))) as? [String: Any])
    }

    private func fieldNames(_ output: URL) throws -> [String] {
        let json = try XCTUnwrap(try metadata(output)["json"] as? String)
        let layers = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let layer = try XCTUnwrap((layers["vector_layers"] as? [[String: Any]])?.first)
        return try XCTUnwrap(layer["fields"] as? [String: String]).keys.sorted()
    }

    func testIncludeExcludeAndExcludeAll() throws {
        let python = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let folder = try CLI.temporaryFolder(self)
        let included = try tile(["-y", "name", "--include", "code"], folder: folder)
        XCTAssertEqual(included.result.status, 0, included.result.stderr)
        XCTAssertEqual(try decode(included.output, python: python).features, ["0|code=7,name='north'", "0|code=9,name='south'"])
        XCTAssertEqual(try fieldNames(included.output), ["code", "name"])

        let excluded = try tile(["-x", "secret", "--exclude", "pop"], folder: folder)
        XCTAssertEqual(excluded.result.status, 0, excluded.result.stderr)
        XCTAssertEqual(try decode(excluded.output, python: python).features, ["0|code=7,name='north'", "0|code=9,name='south'"])
        XCTAssertEqual(try fieldNames(excluded.output), ["code", "name"])

        let typo = try tile(["-y", "nmae"], folder: folder)
        XCTAssertEqual(typo.result.status, 0, typo.result.stderr)
        XCTAssertTrue(typo.result.stderr.contains("warning: tile.attribute-not-found: no tiled feature has a property named \"nmae\""),
                      typo.result.stderr)
        XCTAssertFalse(included.result.stderr.contains("tile.attribute-not-found"), included.result.stderr)

        let none = try tile(["-X"], folder: folder)
        XCTAssertEqual(none.result.status, 0, none.result.stderr)
        XCTAssertEqual(try decode(none.output, python: python).features, ["0|", "0|"])
        XCTAssertEqual(try fieldNames(none.output), [])
    }

    func testAttributeTypeCoercesAndWarnsOnceWithTheCount() throws {
        let python = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let folder = try CLI.temporaryFolder(self)
        let run = try tile(["-T", "pop:int", "--attribute-type", "code:string", "-x", "secret", "-x", "name"], folder: folder)
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(try decode(run.output, python: python).features, ["0|code='7',pop=12", "0|code='9'"])
        let warnings = run.result.stderr.split(separator: "\n").filter { $0.contains("tile.attribute-type") }
        XCTAssertEqual(warnings.count, 1, run.result.stderr)
        XCTAssertTrue(warnings.first?.contains("1 of \"pop\" (not int)") ?? false, run.result.stderr)

        for bad in ["pop:integer", "pop", ":int"] {
            let refused = try tile(["-T", bad], folder: folder)
            XCTAssertEqual(refused.result.status, 64, bad)
            XCTAssertTrue(refused.result.stderr.contains("--attribute-type"), refused.result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: refused.output.path))
        }
    }

    func testGenerateIdsAndUseAttributeForIdAreExclusive() throws {
        let python = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let folder = try CLI.temporaryFolder(self)
        let generated = try tile(["--generate-ids", "-X"], folder: folder)
        XCTAssertEqual(generated.result.status, 0, generated.result.stderr)
        XCTAssertEqual(try decode(generated.output, python: python).features, ["0|", "1|"])

        let promoted = try tile(["--use-attribute-for-id", "code", "-y", "name"], folder: folder)
        XCTAssertEqual(promoted.result.status, 0, promoted.result.stderr)
        XCTAssertEqual(try decode(promoted.output, python: python).features, ["7|name='north'", "9|name='south'"])

        let both = try tile(["--generate-ids", "--use-attribute-for-id", "code"], folder: folder)
        XCTAssertEqual(both.result.status, 64)
        XCTAssertTrue(both.result.stderr.contains("cannot be used together"), both.result.stderr)
    }

    func testWhereChoosesFeaturesAndRefusesBadSyntax() throws {
        let python = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let folder = try CLI.temporaryFolder(self)
        let run = try tile(["--where", "code > 8 and $type == 'Point'", "-y", "name"], folder: folder)
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(try decode(run.output, python: python).features, ["0|name='south'"])
        XCTAssertTrue(run.result.stderr.contains("note: tile.filtered: 1 features did not match --where"), run.result.stderr)
        let quiet = try tile(["--where", "code > 8", "-q"], folder: folder)
        XCTAssertFalse(quiet.result.stderr.contains("tile.filtered"), quiet.result.stderr)

        for (bad, reason) in [("code >", "column"), ("$zoom >=", "column")] {
            let refused = try tile(["--where", bad], folder: folder)
            XCTAssertEqual(refused.result.status, 64, bad)
            XCTAssertTrue(refused.result.stderr.contains("--where") && refused.result.stderr.contains(reason), refused.result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: refused.output.path))
        }
    }

    func testLayerNameDescriptionAndAttributionInTheMetadata() throws {
        let python = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let folder = try CLI.temporaryFolder(self)
        let run = try tile(["-l", "cities", "-n", "Cities", "-N", "Two cities", "-A", "© Example"], folder: folder)
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(try decode(run.output, python: python).layer, "cities")
        let stored = try metadata(run.output)
        XCTAssertEqual(stored["name"] as? String, "Cities")
        XCTAssertEqual(stored["description"] as? String, "Two cities")
        XCTAssertEqual(stored["attribution"] as? String, "© Example")

        let long = try tile(["--layer", "cities", "--name", "Cities", "--description", "Two cities", "--attribution", "© Example"],
                            folder: folder)
        XCTAssertEqual(long.result.status, 0, long.result.stderr)
        XCTAssertEqual(try metadata(long.output)["attribution"] as? String, "© Example")
    }

    func testQuietPrintsWarningsButNoSummaryProgressOrNotes() throws {
        let folder = try CLI.temporaryFolder(self)
        // A tiny island gives a tile.dropped note; "many" a warning.
        let input = folder.appendingPathComponent("islands.geojson")
        try Data("""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":1,"properties":{"pop":"many"},"geometry":{"type":"Polygon","coordinates":[[[40,40],[40.0001,40],[40.0001,40.0001],[40,40]]]}}
            ]}
            """.utf8).write(to: input)
        func run(_ extra: [String]) throws -> CLI.Result {
            let output = folder.appendingPathComponent("islands-\(UUID().uuidString)")
            return try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "2", "-T", "pop:int"] + extra)
        }
        let loud = try run(["--progress"])
        XCTAssertEqual(loud.status, 0, loud.stderr)
        for expected in ["tiles, z0–z2", "note: tile.dropped", "warning: tile.attribute-type", "tiles/s"] {
            XCTAssertTrue(loud.stderr.contains(expected), "\(expected) in \(loud.stderr)")
        }

        let quiet = try run(["-q", "--progress"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let lines = quiet.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, quiet.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("warning: tile.attribute-type") ?? false, quiet.stderr)
    }

    func testReadParallelIsAcceptedAndChangesNothing() throws {
        let folder = try CLI.temporaryFolder(self)
        let plain = try tile(["--threads", "2"], folder: folder)
        let parallel = try tile(["--threads", "2", "-P"], folder: folder)
        XCTAssertEqual(parallel.result.status, 0, parallel.result.stderr)
        XCTAssertEqual(try Data(contentsOf: parallel.output.appendingPathComponent("0/0/0.mvt")),
                       try Data(contentsOf: plain.output.appendingPathComponent("0/0/0.mvt")))
        XCTAssertTrue(try CLI.run(["tile", "--help"]).stdoutText.contains("--read-parallel"))
    }

    func testBufferPixelsIsScreenPixelsOfA256PixelTile() throws {
        let folder = try CLI.temporaryFolder(self)
        func buffer(_ output: URL) throws -> Int? {
            (try metadata(output)["overlaykit"] as? [String: Any])?["buffer"] as? Int
        }
        let pixels = try tile(["-b", "5"], folder: folder)
        XCTAssertEqual(pixels.result.status, 0, pixels.result.stderr)
        XCTAssertEqual(try buffer(pixels.output), 80, "5 px × 4096 / 256")
        let small = try tile(["--buffer-pixels", "3", "--extent", "512"], folder: folder)
        XCTAssertEqual(try buffer(small.output), 6, "3 px × 512 / 256")
        let units = try tile(["--buffer", "10"], folder: folder)
        XCTAssertEqual(try buffer(units.output), 10)
        let unset = try tile([], folder: folder)
        XCTAssertEqual(try buffer(unset.output), 64, "the default is unchanged")

        let both = try tile(["-b", "5", "--buffer", "10"], folder: folder)
        XCTAssertEqual(both.result.status, 64)
        XCTAssertTrue(both.result.stderr.contains("--buffer and --buffer-pixels"), both.result.stderr)
        let tooBig = try tile(["-b", "257"], folder: folder)
        XCTAssertEqual(tooBig.result.status, 64)
    }
}
