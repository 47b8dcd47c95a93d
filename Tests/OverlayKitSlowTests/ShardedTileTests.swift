import Foundation
import TestSupport
import XCTest

/// Scale-out: tiling shards of a GeoJSONSeq (on Apache Spark, or with GNU parallel) and joining
/// them with `tile-join` gives, decoded tile by tile, exactly the features (geometry, id and
/// properties, as multisets) of one `tile` run over the whole file.
final class ShardedTileTests: XCTestCase {
    static let sparkScript = CLI.packageRoot.appendingPathComponent("Examples/spark/tile_spark.py")
    static let compareScript = CLI.packageRoot.appendingPathComponent("Tests/Scripts/compare_tilesets.py")
    /// Thinning, tiny-shape reduction and the budget look at a tile's other features (or all
    /// points): off, shards give exactly one run's features.
    static let tileOptions = ["--layer", "states", "--min-zoom", "0", "--max-zoom", "5", "--drop-rate", "1",
                              "--no-tiny-polygon-reduction", "--no-tile-size-limit", "--no-feature-limit"]
    /// Spark's shards are PMTiles archives, GNU parallel's MBTiles; joins write directories so
    /// their metadata.json compares with one process's.
    static let sparkShardExtension = ".pmtiles"
    static let parallelShardExtension = ".mbtiles"

    /// us-states as GeoJSONSeq with integer ids (kept in tiles), plus points and a line, so
    /// every geometry type crosses the shard boundaries.
    private func input(in folder: URL) throws -> URL {
        let url = try Prerequisite.corpus("geojson-vt/fixtures/us-states.json")
        let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var lines = [String]()
        for (index, feature) in try XCTUnwrap(collection["features"] as? [[String: Any]]).enumerated() {
            var feature = feature
            feature["id"] = index + 1
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: feature, options: [.sortedKeys]), as: UTF8.self))
        }
        for index in 0..<40 {
            let longitude = -120.0 + Double(index) * 1.3, latitude = 30.0 + Double(index % 7) * 2.1
            lines.append(#"{"type":"Feature","id":\#(1000 + index),"properties":{"name":"city \#(index)","rank":\#(index % 5),"capital":\#(index % 3 == 0)},"geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]}}"#)
        }
        lines.append(#"{"type":"Feature","id":2000,"properties":{"name":"route","lanes":2.5},"geometry":{"type":"LineString","coordinates":[[-122.4,37.8],[-104.9,39.7],[-87.6,41.9],[-74.0,40.7]]}}"#)
        let file = folder.appendingPathComponent("states.geojsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func python() throws -> URL {
        URL(fileURLWithPath: try Prerequisite.python(modules: ["mapbox_vector_tile", "pmtiles"],
                                                     install: "pip install mapbox-vector-tile pmtiles"))
    }

    /// Asserts both tile sets hold the same features in every tile; returns the tile count.
    private func assertSameFeatures(_ single: URL, _ joined: URL, python: URL) throws {
        let result = try CLI.runTool(python, [Self.compareScript.path, single.path, joined.path])
        print("compare: \(result.stdoutText)")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("mismatches=0"), result.stdoutText)
        XCTAssertFalse(result.stdoutText.contains("tiles=0 "), "the comparison must see tiles")
        // The joined metadata says what one process says: bounds, zooms, layer fields, input
        // counts and every per-zoom count (empty tiles aside: a z/x/y empty in one shard may
        // hold another shard's features; bytes depend on key/value table order).
        func metadata(_ url: URL) throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("metadata.json")))
            var dictionary = try XCTUnwrap(object as? [String: Any])
            var report = try XCTUnwrap(dictionary["overlaykit"] as? [String: Any], "the drop report")
            report["zooms"] = (report["zooms"] as? [[String: Any]])?.map { $0.filter { $0.key != "emptyTilesNotWritten" && $0.key != "bytes" } }
            dictionary["overlaykit"] = report
            let json = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(dictionary["json"] as? String).utf8)) as? [String: Any]
            dictionary["vector_layers"] = json?["vector_layers"]
            return dictionary
        }
        let expected = try metadata(single), actual = try metadata(joined)
        for key in ["bounds", "minzoom", "maxzoom", "vector_layers", "overlaykit"] {
            XCTAssertNotNil(expected[key], key)
            XCTAssertEqual(expected[key].map { NSArray(array: [$0]) }, actual[key].map { NSArray(array: [$0]) }, "metadata \(key)")
        }
    }

    func testSparkShardsJoinToTheSingleProcessTiles() throws {
        let python = try python()
        _ = try Prerequisite.python(modules: ["pyspark"], install: "pip install pyspark")
        try Prerequisite.require(CLI.which("java") != nil || ProcessInfo.processInfo.environment["JAVA_HOME"] != nil,
                                 "no java for Spark (Debian: openjdk-17-jre-headless)")
        let folder = try CLI.temporaryFolder(self)
        let input = try input(in: folder)
        let single = folder.appendingPathComponent("single")
        let tile = try CLI.run(["tile", input.path, "-o", single.path] + Self.tileOptions)
        XCTAssertEqual(tile.status, 0, tile.stderr)
        let joined = folder.appendingPathComponent("spark")
        let spark = try CLI.runTool(python, [Self.sparkScript.path, input.path, joined.path, "--overlaykit", CLI.binary.path,
                                             "--master", "local[2]", "--partitions", "3", "--shard-format", Self.sparkShardExtension, "--shards", folder.appendingPathComponent("shards").path]
                                            + Self.tileOptions)
        print(spark.stdoutText)
        XCTAssertEqual(spark.status, 0, spark.stderr.suffix(3000).description)
        XCTAssertTrue(spark.stdoutText.contains("spark: 3 shards"), spark.stdoutText)
        try assertSameFeatures(single, joined, python: python)
    }

    func testGNUParallelShardsJoinToTheSingleProcessTiles() throws {
        let python = try python()
        let parallel = URL(fileURLWithPath: try Prerequisite.executable("parallel", install: "Debian: parallel"))
        let folder = try CLI.temporaryFolder(self)
        let input = try input(in: folder)
        let single = folder.appendingPathComponent("single")
        let tile = try CLI.run(["tile", input.path, "-o", single.path] + Self.tileOptions)
        XCTAssertEqual(tile.status, 0, tile.stderr)
        // The README's recipe: 25 features per shard, one `tile` per shard, then one join.
        let shards = folder.appendingPathComponent("shards")
        try FileManager.default.createDirectory(at: shards, withIntermediateDirectories: true)
        let command = "\(CLI.binary.path) tile - --from geojsonseq -o \(shards.path)/shard-{#}\(Self.parallelShardExtension) --threads 1 "
            + Self.tileOptions.joined(separator: " ")
        let split = try CLI.runTool(parallel, ["--will-cite", "--pipe", "-N", "25", "-j", "2", command], stdin: Data(contentsOf: input))
        XCTAssertEqual(split.status, 0, split.stderr)
        let shardFiles = try FileManager.default.contentsOfDirectory(atPath: shards.path).sorted().map { shards.appendingPathComponent($0).path }
        XCTAssertEqual(shardFiles.count, 4, "93 features in shards of 25")
        let joined = folder.appendingPathComponent("joined")
        let join = try CLI.run(["tile-join"] + shardFiles + ["-o", joined.path])
        XCTAssertEqual(join.status, 0, join.stderr)
        try assertSameFeatures(single, joined, python: python)
    }
}
