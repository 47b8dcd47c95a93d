import Foundation
import TestSupport
import XCTest

/// Scale-out: a `tile` run split over workers (`tile --job`, `tile-job`), on Apache Spark or
/// with GNU parallel, writes what one `tile` run writes, every file byte for byte, with the
/// defaults (point thinning, tiny-polygon stand-ins, the tile budget).
final class ShardedTileTests: XCTestCase {
    static let sparkScript = CLI.packageRoot.appendingPathComponent("Examples/spark/tile_spark.py")
    static let tileOptions = ["--layer", "states", "--max-zoom", "7"]

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

    /// Every file of a tile directory by path.
    private func files(_ folder: URL) throws -> [String: Data] {
        var result = [String: Data]()
        for case let path as String in FileManager.default.enumerator(atPath: folder.path) ?? FileManager.DirectoryEnumerator() {
            var directory: ObjCBool = false
            let file = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &directory), !directory.boolValue {
                result[path] = try Data(contentsOf: file)
            }
        }
        return result
    }

    /// Asserts the two tile directories hold the same files, byte for byte.
    private func assertSameFiles(_ single: URL, _ split: URL) throws {
        let expected = try files(single), actual = try files(split)
        XCTAssertGreaterThan(expected.count, 50, "the run wrote tiles")
        XCTAssertEqual(expected.keys.sorted(), actual.keys.sorted(), "the same tiles")
        XCTAssertEqual(expected.filter { actual[$0.key] != $0.value }.keys.sorted(), [], "files that differ")
    }

    /// One `tile` run over the whole input, into a directory.
    private func single(_ input: URL, in folder: URL) throws -> URL {
        let single = folder.appendingPathComponent("single")
        let tile = try CLI.run(["tile", input.path, "-o", single.path] + Self.tileOptions)
        XCTAssertEqual(tile.status, 0, tile.stderr)
        return single
    }

    func testSparkSplitRunEqualsTheSingleProcessRun() throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["pyspark"], install: "pip install pyspark"))
        try Prerequisite.require(CLI.which("java") != nil || ProcessInfo.processInfo.environment["JAVA_HOME"] != nil,
                                 "no java for Spark (Debian: openjdk-17-jre-headless)")
        let folder = try CLI.temporaryFolder(self)
        let input = try input(in: folder)
        let joined = folder.appendingPathComponent("spark")
        let spark = try CLI.runTool(python, [Self.sparkScript.path, input.path, joined.path, "--overlaykit", CLI.binary.path,
                                             "--master", "local[2]", "--partitions", "3", "--work", folder.appendingPathComponent("work").path]
                                            + Self.tileOptions)
        print(spark.stdoutText)
        XCTAssertEqual(spark.status, 0, spark.stderr.suffix(3000).description)
        XCTAssertTrue(spark.stdoutText.contains("spark: 3 slices"), spark.stdoutText)
        try assertSameFiles(try single(input, in: folder), joined)
    }

    /// The README's recipe: 25 features per shard.
    func testGNUParallelSplitRunEqualsTheSingleProcessRun() throws {
        let parallel = URL(fileURLWithPath: try Prerequisite.executable("parallel", install: "Debian: parallel"))
        let shell = URL(fileURLWithPath: "/bin/sh")
        let folder = try CLI.temporaryFolder(self)
        let input = try input(in: folder)
        let work = folder.appendingPathComponent("work"), joined = folder.appendingPathComponent("joined")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let setUp = try CLI.run(["tile", "--job", work.path, "-o", joined.path] + Self.tileOptions)
        XCTAssertEqual(setUp.status, 0, setUp.stderr)
        let split = try CLI.runTool(parallel, ["--will-cite", "--pipe", "-N", "25", "-j", "2",
                                               "\(CLI.binary.path) tile-job split \(work.path) {#} - --from geojsonseq"],
                                    stdin: Data(contentsOf: input))
        XCTAssertEqual(split.status, 0, split.stderr)
        let cut = try CLI.runTool(shell, ["-c", "\(CLI.binary.path) tile-job plan \(work.path) | \(parallel.path) --will-cite -j 2 -N 8 "
                                                + "\(CLI.binary.path) tile-job cut \(work.path)"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        let finish = try CLI.run(["tile-job", "finish", work.path])
        XCTAssertEqual(finish.status, 0, finish.stderr)
        try assertSameFiles(try single(input, in: folder), joined)
    }
}
