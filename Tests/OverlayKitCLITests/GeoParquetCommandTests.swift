import Foundation
import TestSupport
import XCTest

/// GeoParquet through the commands: written in set-up by pyarrow (Tests/Scripts/geoparquet_corpus.py),
/// read by `convert`, `info`, `validate`, `filter`, `render` and `tile` through the one input seam.
final class GeoParquetCommandTests: XCTestCase {
    private func corpus() throws -> URL {
        let folder = try CLI.temporaryFolder(self)
        try Prerequisite.writeScriptCorpus("geoparquet_corpus.py", into: folder, modules: ["pyarrow", "shapely"],
                                           install: "pip install pyarrow shapely geopandas")
        return folder
    }

    func testEveryReadingCommandTakesGeoParquet() throws {
        let folder = try corpus()
        let input = folder.appendingPathComponent("codec_zstd.parquet").path
        let converted = try CLI.run(["convert", input, "--to", "geojsonseq"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(converted.lines.count, 400)
        XCTAssertTrue(converted.lines[0].contains("\"name\":null") && converted.lines[0].contains("\"Point\""), converted.lines[0])
        let info = try CLI.run(["info", input])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdoutText.contains("400"), info.stdoutText)
        let validate = try CLI.run(["validate", input])
        XCTAssertEqual(validate.status, 0, validate.stderr + validate.stdoutText)
        let filter = try CLI.run(["filter", input, "--bbox", "0,0,5,5", "--to", "geojsonseq"])
        XCTAssertEqual(filter.status, 0, filter.stderr)
        XCTAssertGreaterThan(filter.lines.count, 0)
        XCTAssertLessThan(filter.lines.count, 400)
        let svg = folder.appendingPathComponent("map.svg").path
        let render = try CLI.run(["render", input, "-o", svg])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: svg))
        let piped = try CLI.run(["info", "--from", "geoparquet", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: input)))
        XCTAssertEqual(piped.status, 0, piped.stderr)
    }

    func testTileOfGeoParquetEqualsTileOfTheSameFeaturesAsGeoJSONSeq() throws {
        let folder = try corpus()
        for name in ["codec_snappy", "geopandas_1_1_covering"] {
            let input = folder.appendingPathComponent(name + ".parquet").path
            guard FileManager.default.fileExists(atPath: input) else { continue }
            let sequence = folder.appendingPathComponent(name + ".geojsonseq").path
            let converted = try CLI.run(["convert", input, "-o", sequence, "--precision", "15"])
            XCTAssertEqual(converted.status, 0, converted.stderr)
            let fromParquet = folder.appendingPathComponent(name + "-parquet").path
            let fromSequence = folder.appendingPathComponent(name + "-seq").path
            for (source, output) in [(input, fromParquet), (sequence, fromSequence)] {
                let run = try CLI.run(["tile", source, "-o", output, "--format", "dir", "--max-zoom", "5", "--layer", "l"])
                XCTAssertEqual(run.status, 0, run.stderr)
            }
            let tiles = try FileManager.default.subpathsOfDirectory(atPath: fromParquet).filter { $0.hasSuffix(".pbf") || $0.hasSuffix(".mvt") }.sorted()
            XCTAssertGreaterThan(tiles.count, 5, name)
            XCTAssertEqual(tiles, try FileManager.default.subpathsOfDirectory(atPath: fromSequence).filter { $0.hasSuffix(".pbf") || $0.hasSuffix(".mvt") }.sorted())
            for tile in tiles {
                let a = try Data(contentsOf: URL(fileURLWithPath: fromParquet + "/" + tile))
                let b = try Data(contentsOf: URL(fileURLWithPath: fromSequence + "/" + tile))
                XCTAssertEqual(a, b, "\(name) tile \(tile)")
            }
        }
    }

    func testGeometryColumnOptionOnEveryReadingCommand() throws {
        let folder = try corpus()
        let input = folder.appendingPathComponent("two_geometries.parquet").path
        try Prerequisite.require(FileManager.default.fileExists(atPath: input), "geopandas missing: no file with two geometry columns")
        for arguments in [["convert", input, "--to", "geojsonseq"], ["filter", input, "--bbox", "-180,-90,180,90", "--to", "geojsonseq"]] {
            let run = try CLI.run(arguments + ["--geometry-column", "centroid"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertFalse(run.stdoutText.contains("\"Polygon\""), "centroids are points: \(arguments[0])")
            XCTAssertTrue(run.stdoutText.contains("\"Point\""))
        }
        let info = try CLI.run(["info", input, "--geometry-column", "centroid"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertFalse(info.stdoutText.contains("polygon"), info.stdoutText)
        let wrong = try CLI.run(["info", input, "--geometry-column", "nope"])
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("geoparquet.geometry-column") && wrong.stderr.contains("centroid"), wrong.stderr)
        let notParquet = try CLI.run(["info", "--from", "geojson", "--geometry-column", "g", "-"], stdin: Data("{\"type\":\"FeatureCollection\",\"features\":[]}".utf8))
        XCTAssertEqual(notParquet.status, 64, notParquet.stderr)
    }

    func testDamagedGeoParquetExits65WithTheFileNamed() throws {
        let folder = try corpus()
        var bytes = try Array(Data(contentsOf: folder.appendingPathComponent("codec_none.parquet")))
        bytes.removeLast(30)
        let damaged = folder.appendingPathComponent("cut.parquet").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let output = folder.appendingPathComponent("out.geojson").path
        let run = try CLI.run(["convert", damaged, "-o", output])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("geoparquet.bad-file") && run.stderr.contains("cut.parquet"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "nothing half-written")
    }

    /// The files `Tests/Scripts/geoparquet_scale_corpus.py` writes with pyarrow into a new folder,
    /// and its `covering.parquet` converted to GeoJSONSeq at full precision.
    private func scaleCorpus() throws -> (folder: URL, input: String, sequence: String) {
        let folder = try CLI.temporaryFolder(self)
        try Prerequisite.writeScriptCorpus("geoparquet_scale_corpus.py", into: folder, modules: ["pyarrow"], install: "pip install pyarrow")
        let input = folder.appendingPathComponent("covering.parquet").path
        let sequence = folder.appendingPathComponent("covering.geojsons").path
        XCTAssertEqual(try CLI.run(["convert", input, "-o", sequence, "--precision", "17"]).status, 0)
        return (folder, input, sequence)
    }

    /// `filter --bbox` skips row groups (and pages, by a page index) and prints what a full read
    /// prints, and refuses a page index that points past the file; a Hive folder is one
    /// input to `convert`, `info` and `tile`; `tile-job split --row-groups` takes K/N.
    func testPushdownFoldersAndRowGroupSlicesThroughTheCommands() throws {
        let (folder, input, sequence) = try scaleCorpus()
        for box in ["0,-90,10,90", "100,0,120,30"] {
            let pushed = try CLI.run(["filter", input, "--bbox", box, "--precision", "17"])
            let full = try CLI.run(["filter", sequence, "--bbox", box, "--precision", "17"])
            XCTAssertEqual(pushed.status, 0, pushed.stderr)
            XCTAssertFalse(pushed.lines.isEmpty)
            XCTAssertEqual(pushed.stdoutText, full.stdoutText, box)
            XCTAssertEqual(try CLI.run(["filter", input, "--bbox", box, "--count"]).stdoutText, "\(pushed.lines.count)\n")
            // The same features with a page index: pages skipped, the same output.
            let paged = try CLI.run(["filter", folder.appendingPathComponent("paged.parquet").path, "--bbox", box, "--precision", "17"])
            XCTAssertEqual(paged.status, 0, paged.stderr)
            XCTAssertEqual(paged.stdoutText, full.stdoutText, box)
        }
        // A page index pointing past the file: 65, the file, row group and column named.
        let broken = try CLI.run(["filter", folder.appendingPathComponent("paged_bad_offset.parquet").path, "--bbox", "-30,-90,-20,90"])
        XCTAssertEqual(broken.status, 65, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("paged_bad_offset.parquet: row group 0, column bbox.xmin: the offset index"), broken.stderr)
        let hive = folder.appendingPathComponent("hive").path
        let converted = try CLI.run(["convert", hive, "--to", "geojsonseq"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(converted.lines.count, 2400)
        // Path order: region=__HIVE_DEFAULT_PARTITION__ (null) before region=east.
        XCTAssertTrue(converted.lines[0].contains("\"region\":null"), converted.lines[0])
        XCTAssertTrue(converted.lines[800].contains("\"region\":\"east\""), converted.lines[800])
        let info = try CLI.run(["info", hive])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdoutText.contains("2400") && info.stdoutText.contains("region"), info.stdoutText)
        let tiles = folder.appendingPathComponent("hive.pmtiles").path
        let tile = try CLI.run(["tile", hive, "-o", tiles, "--max-zoom", "3", "-y", "name"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        let refused = try CLI.run(["tile-job", "split", folder.path, "0", input, "--row-groups", "2/2"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
    }

    /// `tile --bbox` on GeoParquet (row groups and pages skipped) writes the archive `tile --bbox`
    /// writes from the same features as GeoJSONSeq, and so does the split run (`tile --job
    /// --bbox`, `tile-job split --row-groups`), byte for byte.
    func testTileBBoxOfGeoParquetEqualsGeoJSONSeqAndTheSplitRun() throws {
        let (folder, input, sequence) = try scaleCorpus()
        let box = "-100,-70,-20,70"
        let options = ["--bbox", box, "--max-zoom", "5", "--layer", "l"]
        var archives = [String: Data]()
        for (name, source) in [("parquet", input), ("paged", folder.appendingPathComponent("paged.parquet").path), ("sequence", sequence)] {
            let output = folder.appendingPathComponent(name + ".pmtiles").path
            let run = try CLI.run(["tile", source, "-o", output] + options)
            XCTAssertEqual(run.status, 0, run.stderr)
            archives[name] = try Data(contentsOf: URL(fileURLWithPath: output))
        }
        XCTAssertEqual(archives["parquet"], archives["sequence"])
        XCTAssertEqual(archives["paged"], archives["sequence"])
        let unboxed = folder.appendingPathComponent("unboxed.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", input, "-o", unboxed, "--max-zoom", "5", "--layer", "l"]).status, 0)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: unboxed)), archives["sequence"])

        let work = folder.appendingPathComponent("work").path
        let split = folder.appendingPathComponent("split.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", "--job", work, "-o", split, "--partition-zoom", "2"] + options).status, 0)
        for slice in ["0/2", "1/2"] {
            let shard = try CLI.run(["tile-job", "split", work, String(slice.prefix(1)), input, "--row-groups", slice])
            XCTAssertEqual(shard.status, 0, shard.stderr)
        }
        let plan = try CLI.run(["tile-job", "plan", work])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertEqual(try CLI.run(["tile-job", "cut", work] + plan.lines).status, 0)
        let finish = try CLI.run(["tile-job", "finish", work])
        XCTAssertEqual(finish.status, 0, finish.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: split)), archives["sequence"], "the split run with the job's box")
    }
}
