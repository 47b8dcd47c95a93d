import Foundation
import TestSupport
import XCTest

/// GeoParquet out of `convert` and `filter`: what the files hold (read back by the tool itself
/// and by geoparquet-validator), KML's folders, styles and ids through a GeoParquet file, and the
/// output rules (an existing file is refused, a failed run leaves nothing).
final class GeoParquetWriteCommandTests: XCTestCase {
    private var places: String { CLI.packageRoot.appendingPathComponent("Examples/places.kml").path }
    private var parks: String { CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path }

    func testKMLThroughGeoParquetKeepsWhatGeoJSONKeeps() throws {
        let folder = try CLI.temporaryFolder(self)
        let parquet = folder.appendingPathComponent("places.parquet").path
        let written = try CLI.run(["convert", places, "-o", parquet])
        XCTAssertEqual(written.status, 0, written.stderr)
        // The StyleMaps' highlight styles and the icon scale have no place: said, not silent.
        XCTAssertTrue(written.stderr.contains("output.style-dropped") && written.stderr.contains("highlight"), written.stderr)
        let back = try CLI.run(["convert", parquet, "--to", "kml"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let viaGeoJSON = try CLI.run(["convert", "-", "--from", "geojson", "--to", "kml"],
                                     stdin: try CLI.run(["convert", places, "--to", "geojson"]).stdout)
        XCTAssertEqual(back.stdoutText, viaGeoJSON.stdoutText, "KML → GeoParquet → KML is KML → GeoJSON → KML")
        for kept in ["<Folder><name>", "id=\"regents-park\"", "<SimpleData name=\"area_ha\">166</SimpleData>", "<styleUrl>#s1</styleUrl>", "<LineStyle><color>"] {
            XCTAssertTrue(back.stdoutText.contains(kept), kept)
        }
    }

    func testGeoJSONRoundTripsAndTheValidatorFindsItConformant() throws {
        let folder = try CLI.temporaryFolder(self)
        let parquet = folder.appendingPathComponent("parks.geoparquet").path
        let written = try CLI.run(["convert", parks, "-o", parquet, "--compression", "snappy", "--row-group-size", "2"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stderr, "", "a FeatureCollection's name is kept in the file")
        let back = try CLI.run(["convert", parquet, "--to", "geojson"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let direct = try CLI.run(["convert", parks, "--to", "geojson"])
        // Ids of mixed types (a string and a number) share a STRING column.
        XCTAssertEqual(back.stdoutText, direct.stdoutText.replacingOccurrences(of: "\"id\":2,", with: "\"id\":\"2\","))
        let validator = try Prerequisite.executable("geoparquet-validator", install: "pip install geoparquet-validator")
        let check = try CLI.runTool(URL(fileURLWithPath: validator), ["check", parquet])
        XCTAssertEqual(check.status, 0, check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains("core: 13 pass, 0 fail"), check.stdoutText)
    }

    func testFilterWritesGeoParquetAndOptionsNeedGeoParquetOutput() throws {
        let folder = try CLI.temporaryFolder(self)
        let parquet = folder.appendingPathComponent("big.parquet").path
        let countries = CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path
        let filtered = try CLI.run(["filter", countries, "--where", "POP_EST > 1e8", "-o", parquet, "--geoparquet-version", "2.0", "--sort", "hilbert"])
        XCTAssertEqual(filtered.status, 0, filtered.stderr)
        let expected = try CLI.run(["filter", countries, "--where", "POP_EST > 1e8", "--count"])
        let count = try CLI.run(["filter", parquet, "--count"])
        XCTAssertEqual(count.stdoutText, expected.stdoutText)
        let misplaced = try CLI.run(["convert", parks, "--to", "geojson", "--compression", "zstd"])
        XCTAssertEqual(misplaced.status, 64)
        XCTAssertTrue(misplaced.stderr.contains("--compression applies to GeoParquet output only"), misplaced.stderr)
        let badSize = try CLI.run(["convert", parks, "-o", folder.appendingPathComponent("x.parquet").path, "--row-group-size", "0"])
        XCTAssertEqual(badSize.status, 64, badSize.stderr)
    }

    func testAnExistingOutputIsRefusedAndAFailedRunLeavesNoFile() throws {
        let folder = try CLI.temporaryFolder(self)
        let parquet = folder.appendingPathComponent("out.parquet")
        try Data("keep me".utf8).write(to: parquet)
        let refused = try CLI.run(["convert", parks, "-o", parquet.path])
        XCTAssertEqual(refused.status, 74, refused.stderr)
        XCTAssertEqual(try String(contentsOf: parquet, encoding: .utf8), "keep me")
        let forced = try CLI.run(["convert", parks, "-o", parquet.path, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(Array(try Data(contentsOf: parquet).prefix(4)), Array("PAR1".utf8))

        // The third record is bad: the run stops (65) with nothing at the target or beside it.
        let input = folder.appendingPathComponent("bad.geojsonl")
        let good = #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        try Data("\(good)\n\(good)\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,\n".utf8).write(to: input)
        let target = folder.appendingPathComponent("failed.parquet")
        let failed = try CLI.run(["convert", input.path, "-o", target.path])
        XCTAssertEqual(failed.status, 65, failed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["bad.geojsonl", "out.parquet"])
    }
}
