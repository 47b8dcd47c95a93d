import Foundation
import TestSupport
import XCTest

/// Runs the built `overlaykit tile` and `convert --clip/--zoom` on small fixtures.
final class TileCommandTests: XCTestCase {
    var temporary: URL!

    override func setUpWithError() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("tile-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try CLI.run(arguments)
        return (result.status, result.stdoutText, result.stderr)
    }

    /// A square around (10°E, 10°N), a line, a point with a null property, and a tiny island.
    let fixture = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":1,"properties":{"name":"square","n":2},"geometry":{"type":"Polygon","coordinates":[[[5,5],[15,5],[15,15],[5,15],[5,5]]]}},
        {"type":"Feature","id":2,"properties":{"name":"line"},"geometry":{"type":"LineString","coordinates":[[-20,0],[20,1]]}},
        {"type":"Feature","id":"p","properties":{"name":"point","empty":null},"geometry":{"type":"Point","coordinates":[10,10]}},
        {"type":"Feature","properties":{"name":"islet"},"geometry":{"type":"Polygon","coordinates":[[[40,40],[40.0001,40],[40.0001,40.0001],[40,40]]]}},
        {"type":"Feature","properties":{"name":"nothing"},"geometry":null}
        ]}
        """

    /// `tile --bbox` (also spelled `--clip` and tippecanoe's `--clip-bounding-box`) parses its box
    /// as `filter --bbox` does; a bad or arealess box is a usage error naming the option, on
    /// `tile` and `serve`. The metadata's bounds are the box ∩ data.
    func testBBoxClipsTheRunAndABadBoxIsAUsageError() throws {
        let input = temporary.appendingPathComponent("fixture.geojson")
        try Data(fixture.utf8).write(to: input)
        for bad in ["1,2,3", "0,0,x,5", "10,0,10,5", "0,5,10,5", "0,95,10,5", "200,0,10,5"] {
            for command in [["tile", input.path, "-o", temporary.appendingPathComponent("bad.pmtiles").path], ["serve", input.path]] {
                let result = try run(command + ["--bbox", bad])
                XCTAssertEqual(result.status, 64, "\(command[0]) --bbox \(bad): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("--bbox"), result.stderr)
            }
        }
        var archives = [Data]()
        for spelling in ["--bbox", "--clip", "--clip-bounding-box"] {
            let output = temporary.appendingPathComponent("boxed\(archives.count).pmtiles")
            let result = try run(["tile", input.path, "-o", output.path, "--max-zoom", "4", spelling, "0,2,12,12"])
            XCTAssertEqual(result.status, 0, result.stderr)
            archives.append(try Data(contentsOf: output))
        }
        XCTAssertEqual(Set(archives).count, 1, "one option, three spellings")
        let directory = temporary.appendingPathComponent("boxed")
        XCTAssertEqual(try run(["tile", input.path, "-o", directory.path, "--max-zoom", "4", "--bbox", "0,2,12,12"]).status, 0)
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json"))) as? [String: Any]
        let bounds = try XCTUnwrap(metadata?["bounds"] as? String).split(separator: ",").compactMap { Double($0) }
        XCTAssertEqual(bounds.count, 4)
        // The square (5…15) is cut at 12°E; the point is inside; the line (below 1°N) and the islet are outside.
        for (got, want) in zip(bounds, [5.0, 5, 12, 12]) { XCTAssertEqual(got, want, accuracy: 1e-7, "\(bounds)") }
    }

    /// `--feature-store disk` writes the same archive as `memory` (stdin included), leaves
    /// nothing in `--tmpdir`, and a bad store or folder is a clear error.
    func testDiskFeatureStoreWritesTheSameArchive() throws {
        let input = CLI.packageRoot.appendingPathComponent("Examples/countries.geojsons")
        let folder = temporary.appendingPathComponent("spill")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var archives = [Data]()
        for store in ["memory", "disk"] {
            let output = temporary.appendingPathComponent("countries-\(store).pmtiles")
            let result = try run(["tile", input.path, "-o", output.path, "--max-zoom", "5", "--feature-store", store,
                                  "--tmpdir", folder.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr.contains("features on disk, at most "), store == "disk", result.stderr)
            archives.append(try Data(contentsOf: output))
        }
        XCTAssertEqual(archives[0], archives[1], "the disk store writes the memory store's archive")
        let piped = temporary.appendingPathComponent("piped.pmtiles")
        let result = try CLI.run(["tile", "-", "--from", "geojsonseq", "-l", "countries-disk", "-o", piped.path, "--max-zoom", "5",
                                  "--feature-store", "disk", "-t", folder.path], stdin: try Data(contentsOf: input))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no temporary file left")

        let bad = try run(["tile", input.path, "-o", temporary.appendingPathComponent("x.pmtiles").path, "--feature-store", "swap"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("'auto', 'memory' or 'disk'"), bad.stderr)
        let missing = temporary.appendingPathComponent("no-such-folder").path
        let noFolder = try run(["tile", input.path, "-o", temporary.appendingPathComponent("y.pmtiles").path,
                                "--feature-store", "disk", "--tmpdir", missing])
        XCTAssertEqual(noFolder.status, 74, noFolder.stderr)
        XCTAssertTrue(noFolder.stderr.contains("cannot use \(missing) for temporary files"), noFolder.stderr)
    }

    func testTileWritesMVTPyramidWithMetadata() throws {
        let input = temporary.appendingPathComponent("places.geojson")
        try fixture.write(to: input, atomically: true, encoding: .utf8)
        let output = temporary.appendingPathComponent("tiles")
        let result = try run(["tile", input.path, "-o", output.path, "--min-zoom", "0", "--max-zoom", "4"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Counted once per feature, not per tile copy (the point is in one tile per zoom, 5 zooms).
        XCTAssertTrue(result.stderr.contains("mvt.null-value: 1 null property values"), result.stderr)
        XCTAssertTrue(result.stderr.contains("mvt.id-not-integer: 1 features have ids"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 features without geometry"), result.stderr)
        for path in ["0/0/0.mvt", "1/1/0.mvt", "4/8/7.mvt", "metadata.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), path)
        }
        // Tiles no feature reaches are not written.
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("4/0/0.mvt").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("4/8/12.mvt").path))
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("metadata.json"))) as! [String: Any]
        // tippecanoe/GDAL layout: flat strings, layers inside the "json" string, our report under "overlaykit".
        XCTAssertEqual(metadata["maxzoom"] as? String, "4")
        XCTAssertEqual(metadata["format"] as? String, "pbf")
        let layers = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(metadata["json"] as? String).utf8)) as! [String: Any]
        let layer = try XCTUnwrap((layers["vector_layers"] as? [[String: Any]])?.first)
        XCTAssertEqual(layer["id"] as? String, "places")
        XCTAssertEqual(layer["fields"] as? [String: String], ["name": "String", "n": "Number"])
        let report = try XCTUnwrap(metadata["overlaykit"] as? [String: Any])
        let zooms = try XCTUnwrap(report["zooms"] as? [[String: Any]])
        XCTAssertEqual(zooms.count, 5)
        // The islet is smaller than the tolerance below zoom 4 and is dropped there, counted.
        XCTAssertGreaterThan(zooms[0]["droppedTinyRings"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(zooms[0]["droppedFeatures"] as? Int ?? 0, 0)
        let input2 = report["input"] as? [String: Any]
        XCTAssertEqual(input2?["withoutGeometry"] as? Int, 1)
        let written = zooms.reduce(0) { $0 + ($1["tiles"] as? Int ?? 0) }
        let files = FileManager.default.enumerator(atPath: output.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".mvt") }
        XCTAssertEqual(files.count, written)
    }

    /// `--explain` writes nothing and accounts for every feature that reaches the tile; the
    /// tippecanoe spellings `-z4`, `-zg`, `-r1` parse; contradictory budget options are usage errors.
    func testExplainAndTippecanoeSpellings() throws {
        let input = temporary.appendingPathComponent("places.geojson")
        try fixture.write(to: input, atomically: true, encoding: .utf8)
        let explained = try run(["tile", input.path, "--explain", "2/2/1", "-z4"])
        XCTAssertEqual(explained.status, 0, explained.stderr)
        XCTAssertTrue(explained.stdout.hasPrefix("tile 2/2/1 (max zoom 4): "), explained.stdout)
        XCTAssertTrue(explained.stdout.contains("kept: 3 — written"), explained.stdout)
        XCTAssertTrue(explained.stdout.contains("id=1 name=square"), explained.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), ["places.geojson"])
        for (arguments, message) in [(["--explain", "2/9/1"], "x, y 0…2^z − 1"), (["--explain", "1/0/0", "-o", "x.pmtiles"], "leave out -o"),
                                     (["-o", "x.pmtiles", "--max-tile-bytes", "5", "--no-tile-size-limit"], "contradict"),
                                     (["-o", "x.pmtiles", "--drop-densest-as-needed", "--drop-smallest-as-needed"], "choose one"),
                                     // Ranges are the library's, said with the command's option names.
                                     (["-o", "x.pmtiles", "--max-zoom", "30"], "error: usage: --max-zoom must be 0…24, not 30"),
                                     (["-o", "x.pmtiles", "-z5", "-Z7"], "--min-zoom must be 0…--max-zoom, not 7"),
                                     (["-o", "x.pmtiles", "--drop-rate", "0.5"], "--drop-rate must be ≥ 1, not 0.5"),
                                     (["-o", "x.pmtiles", "--max-tile-bytes", "0"], "--max-tile-bytes must be ≥ 1, not 0"),
                                     (["-o", "x.pmtiles", "--cluster-distance", "300"], "--cluster-distance must be 0…256 pixels, not 300.0")] {
            let result = try run(["tile", input.path] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        let guessed = try run(["tile", input.path, "-o", temporary.appendingPathComponent("g.pmtiles").path, "-zg", "-r1", "-Z0"])
        XCTAssertEqual(guessed.status, 0, guessed.stderr)
        XCTAssertTrue(guessed.stderr.contains("(max zoom guessed from the features' spacing)"), guessed.stderr)
    }

    /// tippecanoe's ways to name inputs: several files (a layer each, named after the file), -l
    /// for all of them, -L NAME:FILE; and a --where naming $zoom.
    func testSeveralInputsNamedLayersAndZoomFilter() throws {
        let places = temporary.appendingPathComponent("places.geojson")
        try fixture.write(to: places, atomically: true, encoding: .utf8)
        let roads = temporary.appendingPathComponent("roads.geojsonl")
        try #"{"type":"Feature","properties":{"rank":1},"geometry":{"type":"LineString","coordinates":[[0,0],[20,10]]}}"#
            .write(to: roads, atomically: true, encoding: .utf8)
        /// The run's metadata.json (a directory output).
        func metadata(_ arguments: [String]) throws -> [String: Any] {
            let output = temporary.appendingPathComponent(UUID().uuidString)
            let result = try run(["tile"] + arguments + ["-o", output.path, "-z3"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("metadata.json"))) as? [String: Any])
        }
        func layerIDs(_ arguments: [String]) throws -> [String] {
            let json = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(metadata(arguments)["json"] as? String).utf8)) as? [String: Any]
            return (json?["vector_layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        }
        XCTAssertEqual(try layerIDs([places.path, roads.path]), ["places", "roads"])
        XCTAssertEqual(try layerIDs([places.path, roads.path, "-l", "all"]), ["all"])
        XCTAssertEqual(try layerIDs([places.path, "-L", "streets:" + roads.path]), ["places", "streets"])
        XCTAssertEqual(try layerIDs(["-L", "streets:" + roads.path, "--named-layer", "pois:" + places.path]), ["streets", "pois"])
        for (arguments, message) in [(["-L", "nocolon"], "NAME:FILE"), (["-L", ":" + roads.path], "NAME:FILE"),
                                     (["-", "-L", "x:-"], "standard input")] {
            let result = try run(["tile"] + arguments + ["-o", temporary.appendingPathComponent("bad.pmtiles").path])
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        let report = try XCTUnwrap(metadata([places.path, roads.path, "--where", "$type != 'LineString' or $zoom >= 2"])["overlaykit"] as? [String: Any])
        let hidden = try XCTUnwrap(report["zooms"] as? [[String: Any]]).map { $0["filteredAtZoom"] as? Int ?? -1 }
        XCTAssertEqual(hidden.count, 4)
        XCTAssertGreaterThan(hidden[0], 0, "the lines are left out at z0 and z1")
        XCTAssertGreaterThan(hidden[1], 0)
        XCTAssertEqual(hidden[2] + hidden[3], 0)
    }

    func testTileGeoJSONFormatAndNonEmptyDirectory() throws {
        let input = temporary.appendingPathComponent("places.geojson")
        try fixture.write(to: input, atomically: true, encoding: .utf8)
        let output = temporary.appendingPathComponent("tiles")
        var result = try run(["tile", input.path, "-o", output.path, "--max-zoom", "2", "--format", "geojson", "--layer", "x"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let tile = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("2/2/1.geojson"))) as! [String: Any]
        let features = try XCTUnwrap(tile["features"] as? [[String: Any]])
        let names = features.compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }
        XCTAssertEqual(Set(names), ["square", "point", "line"])
        let square = try XCTUnwrap(features.first { ($0["properties"] as? [String: Any])?["name"] as? String == "square" })
        let ring = ((square["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
        XCTAssertEqual(ring.first, ring.last)
        XCTAssertTrue(ring.allSatisfy { abs($0[0] - 5) < 0.01 || abs($0[0] - 15) < 0.01 }, "corners stay at 5°/15° within a tile unit")
        result = try run(["tile", input.path, "-o", output.path, "--max-zoom", "2"])
        XCTAssertEqual(result.status, 74, "a non-empty directory needs --force")
        XCTAssertTrue(result.stderr.contains("--force"), result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("2/2/1.geojson").path), "old output kept")
        result = try run(["tile", input.path, "-o", output.path, "--max-zoom", "2", "--force"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("2/2/1.geojson").path), "--force replaces the whole output")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("2/2/1.mvt").path))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        XCTAssertEqual(siblings, ["places.geojson", "tiles"], "no lock or temporary left behind")
        result = try run(["tile", input.path, "-o", output.path, "--max-zoom", "30"])
        XCTAssertEqual(result.status, 64)
    }

    func testTileRejectsBadInputWithoutWritingTiles() throws {
        let input = temporary.appendingPathComponent("bad.geojson")
        try "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Pologon\"}}]}"
            .write(to: input, atomically: true, encoding: .utf8)
        let output = temporary.appendingPathComponent("tiles")
        let result = try run(["tile", input.path, "-o", output.path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("bad.geojson:"), result.stderr)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        XCTAssertEqual(files, [], "no tiles, no metadata for bad input")
    }

    func testConvertClipAndZoom() throws {
        let input = temporary.appendingPathComponent("places.geojson")
        try fixture.write(to: input, atomically: true, encoding: .utf8)
        var result = try run(["convert", input.path, "--clip", "0,0,10,10"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let clipped = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let features = clipped["features"] as! [[String: Any]]
        XCTAssertEqual(features.compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }, ["square", "line", "point", "nothing"])
        let ring = ((features[0]["geometry"] as! [String: Any])["coordinates"] as! [[[Double]]])[0]
        XCTAssertEqual(Set(ring.map { "\($0[0].rounded()),\($0[1].rounded())" }), ["5.0,5.0", "10.0,5.0", "10.0,10.0", "5.0,10.0"])
        XCTAssertTrue(result.stderr.contains("1 shapes outside the rect"), result.stderr)

        result = try run(["convert", input.path, "--zoom", "2", "--tolerance", "2", "--algorithm", "vw"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("1 rings and 0 lines smaller than the tolerance dropped"), result.stderr)
        let simplified = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual((simplified["features"] as! [Any]).count, 4, "the islet is gone, counted")

        result = try run(["convert", input.path, "--clip", "10,0,0,10"])
        XCTAssertEqual(result.status, 64)
        result = try run(["convert", input.path, "--tolerance", "2"])
        XCTAssertEqual(result.status, 64, "--tolerance needs --zoom")
    }
}
