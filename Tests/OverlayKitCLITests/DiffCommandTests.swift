import Foundation
import TestSupport
import XCTest

/// `overlaykit diff` run as a user would: real files in two versions, every report format,
/// diff(1)'s exit statuses and the project's 64/65/74.
final class DiffCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try CLI.temporaryFolder(self)
    }

    private var parks: String { CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// parks.geojson with the Spree walk's name changed and the Tiergarten's fill: one
    /// property and one style change, both on line 18 / 8 of the edited text.
    private func editedParks() throws -> String {
        let text = try String(contentsOfFile: parks, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"Spree walk\"", with: "\"Spree path\"")
            .replacingOccurrences(of: "\"fill\": \"#2e7d32\"", with: "\"fill\": \"#ff0000\"")
        XCTAssertNotEqual(edited, text)
        return try write("parks-edited.geojson", edited)
    }

    func testNoChangesExitZeroAgainstItsOwnKMLConversion() throws {
        let kml = folder.appendingPathComponent("parks.kml").path
        XCTAssertEqual(try CLI.run(["convert", parks, "-o", kml]).status, 0)
        let result = try CLI.run(["diff", parks, kml])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.last, "0 changes: 0 added, 0 removed, 0 modified, 0 moved; 4 unchanged")
    }

    func testChangesExitOneWithTheirLines() throws {
        let result = try CLI.run(["diff", parks, try editedParks()])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.lines.count, 5, result.stdoutText)
        XCTAssertEqual(result.lines[2], "2 changes: 0 added, 0 removed, 2 modified, 0 moved; 2 unchanged")
        XCTAssertTrue(result.lines[3].hasSuffix(##"parks-edited.geojson:5:5: modified tiergarten: style fill "#2e7d32" → "#ff0000" (/features/0)"##), result.lines[3])
        XCTAssertTrue(result.lines[4].hasSuffix(#"parks-edited.geojson:15:5: modified 2: properties name "Spree walk" → "Spree path" (/features/1)"#), result.lines[4])
    }

    func testJSONReportFollowsItsSchema() throws {
        let new = try editedParks()
        let text = folder.appendingPathComponent("report.json").path
        let result = try CLI.run(["diff", parks, new, "--format", "json", "-o", text])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "2 changes: 0 added, 0 removed, 2 modified, 0 moved; 2 unchanged\n")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: text))) as! [String: Any]
        let changes = report["changes"] as! [[String: Any]]
        XCTAssertEqual(changes.map { $0["change"] as? String }, ["modified", "modified"])
        XCTAssertEqual(((changes[1]["properties"] as! [String: Any])["changed"] as! [String: Any])["name"] as! [String: String],
                       ["old": "Spree walk", "new": "Spree path"])
        XCTAssertEqual((changes[0]["location"] as! [String: Any])["line"] as? Int, 5)
        // And a report with every class, through the schema.
        let removedAndAdded = try write("parks-cut.geojson", """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"tiergarten","properties":{"name":"Großer Tiergarten"},"geometry":{"type":"Point","coordinates":[13.36,52.51]}},
        {"type":"Feature","id":"x","properties":{"name":"X","n":[1,{"a":null}]},"geometry":null}
        ]}
        """)
        let second = folder.appendingPathComponent("report2.json").path
        XCTAssertEqual(try CLI.run(["diff", parks, removedAndAdded, "--format", "json", "-o", second]).status, 1)
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["jsonschema"], install: "pip install jsonschema"))
        let schema = CLI.packageRoot.appendingPathComponent("Schemas/diff-report.schema.json").path
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        for path in sys.argv[2:]:
            jsonschema.validate(json.load(open(path)), schema, cls=jsonschema.Draft7Validator)
        """
        let check = try CLI.runTool(python, ["-c", script, schema, text, second])
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    func testSARIFAndMarkdown() throws {
        let new = try editedParks()
        let sarif = try CLI.run(["diff", parks, new, "--format", "sarif"])
        XCTAssertEqual(sarif.status, 1)
        let log = try JSONSerialization.jsonObject(with: sarif.stdout) as! [String: Any]
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let results = (log["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]]
        XCTAssertEqual(results.map { $0["ruleId"] as? String }, ["diff.modified", "diff.modified"])
        let markdown = try CLI.run(["diff", parks, new, "--format", "markdown"])
        XCTAssertEqual(markdown.status, 1)
        XCTAssertTrue(markdown.stdoutText.contains("#### Modified (2)"), markdown.stdoutText)
        XCTAssertTrue(markdown.stdoutText.contains(#"| 2 | `"#), markdown.stdoutText)
    }

    /// The SARIF against the SARIF 2.1.0 schema, through PyPI's pydantic-sarif (models generated
    /// from the OASIS schema; a log without `tool.driver` fails it).
    func testSARIFPassesTheSARIFSchemaModels() throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["pydantic_sarif"], install: "pip install pydantic-sarif"))
        let folder = try CLI.temporaryFolder(self)
        let report = folder.appendingPathComponent("diff.sarif")
        let sarif = try CLI.run(["diff", parks, try editedParks(), "--format", "sarif", "-o", report.path])
        XCTAssertEqual(sarif.status, 1, sarif.stderr)
        let script = """
            import sys
            from pydantic_sarif.model import StaticAnalysisResultsFormatSarifVersion210JsonSchema as Log
            log = Log.parse_raw(open(sys.argv[1]).read())
            print(log.version.value if hasattr(log.version, "value") else log.version, len(log.runs[0].results))
            try:
                Log.parse_raw('{"version":"2.1.0","runs":[{"tool":{}}]}')
                print("the broken log passed")
            except Exception:
                pass
            """
        let check = try CLI.runTool(python, ["-c", script, report.path])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdoutText, "2.1.0 2\n")
    }

    /// GeoParquet on either side, through the one reader seam: the same features written by
    /// geopandas are no change; one row renamed is one modification.
    func testGeoParquetAgainstGeoJSON() throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["geopandas", "pyarrow"], install: "pip install geopandas pyarrow"))
        let folder = try CLI.temporaryFolder(self)
        let countries = CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path
        let same = folder.appendingPathComponent("same.parquet").path, renamed = folder.appendingPathComponent("renamed.parquet").path
        let script = """
            import sys, geopandas
            frame = geopandas.read_file(sys.argv[1])
            frame.to_parquet(sys.argv[2])
            frame.loc[0, "NAME"] = "Renamed"
            frame.to_parquet(sys.argv[3])
            """
        let written = try CLI.runTool(python, ["-c", script, countries, same, renamed])
        XCTAssertEqual(written.status, 0, written.stderr)
        let none = try CLI.run(["diff", countries, same])
        XCTAssertEqual(none.status, 0, none.stdoutText + none.stderr)
        XCTAssertTrue(none.stdoutText.contains("0 changes"), none.stdoutText)
        let one = try CLI.run(["diff", same, renamed, "--format", "json"])
        XCTAssertEqual(one.status, 1, one.stderr)
        let report = try JSONSerialization.jsonObject(with: one.stdout) as! [String: Any]
        let changes = report["changes"] as! [[String: Any]]
        XCTAssertEqual(changes.map { $0["change"] as? String }, ["modified"])
    }

    /// A folder of GeoParquet files is a data set of features, not a directory of tiles: two
    /// such folders are compared feature by feature (an empty tile diff once said "no changes").
    func testTwoGeoParquetFoldersAreComparedAsFeatures() throws {
        let old = folder.appendingPathComponent("old"), new = folder.appendingPathComponent("new")
        for (version, input) in [(old, parks), (new, try editedParks())] {
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let written = try CLI.run(["convert", input, "-o", version.appendingPathComponent("part-0.parquet").path])
            XCTAssertEqual(written.status, 0, written.stderr)
        }
        let same = try CLI.run(["diff", old.path, old.path])
        XCTAssertEqual(same.status, 0, same.stdoutText + same.stderr)
        XCTAssertTrue(same.stdoutText.contains("0 changes"), same.stdoutText)
        let changed = try CLI.run(["diff", old.path, new.path, "--format", "json"])
        XCTAssertEqual(changed.status, 1, changed.stdoutText + changed.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: changed.stdout) as? [String: Any])
        let changes = try XCTUnwrap(report["changes"] as? [[String: Any]])
        XCTAssertEqual(changes.map { $0["change"] as? String }, ["modified", "modified"], changed.stdoutText)
        let info = try CLI.run(["info", old.path, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdoutText.contains("\"features\""), info.stdoutText)
    }

    func testExitStatusesOfUsageBadDataAndIO() throws {
        let new = try editedParks()
        XCTAssertEqual(try CLI.run(["diff", parks]).status, 64)
        XCTAssertEqual(try CLI.run(["diff", parks, new, "--precision", "16"]).status, 64)
        XCTAssertEqual(try CLI.run(["diff", parks, new, "--format", "xml"]).status, 64)
        XCTAssertEqual(try CLI.run(["diff", parks, new, "--center", "52,13"]).status, 64)
        let stdinOld = try CLI.run(["diff", "-", new], stdin: Data())
        XCTAssertEqual(stdinOld.status, 64, stdinOld.stderr)
        XCTAssertTrue(stdinOld.stderr.contains("diff.bad-option"), stdinOld.stderr)
        let broken = try write("broken.geojson", "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":")
        XCTAssertEqual(try CLI.run(["diff", parks, broken]).status, 65)
        let missing = try CLI.run(["diff", parks, folder.appendingPathComponent("missing.geojson").path])
        XCTAssertEqual(missing.status, 74, missing.stderr)
        // An existing report is not replaced without --force.
        let report = try write("report.txt", "keep")
        XCTAssertEqual(try CLI.run(["diff", parks, new, "-o", report]).status, 74)
        XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), "keep")
        XCTAssertEqual(try CLI.run(["diff", parks, new, "-o", report, "-f"]).status, 1)
        // The new version may come on standard input.
        let piped = try CLI.run(["diff", parks, "-", "--from", "geojson"], stdin: try Data(contentsOf: URL(fileURLWithPath: new)))
        XCTAssertEqual(piped.status, 1, piped.stderr)
        XCTAssertTrue(piped.stdoutText.contains("<stdin>:15:5: modified 2"), piped.stdoutText)
    }

    func testPictureIsWritten() throws {
        let png = folder.appendingPathComponent("changes.png").path
        let result = try CLI.run(["diff", parks, try editedParks(), "--png", png, "--size", "400x300"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let svg = folder.appendingPathComponent("changes.svg").path
        XCTAssertEqual(try CLI.run(["diff", parks, try editedParks(), "--svg", svg]).status, 1)
        XCTAssertTrue(try String(contentsOfFile: svg, encoding: .utf8).contains("<svg"))
    }

    /// Two tile sets: the same tiles as PMTiles and MBTiles are no change; without one country
    /// and one zoom more, per zoom the tiles added, removed and changed, and the changed tiles'
    /// features per layer, checked against the tiles decoded by `info TILESET z/x/y`.
    func testTileSetsPerZoom() throws {
        let countries = CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path
        let a = folder.appendingPathComponent("a.pmtiles").path, same = folder.appendingPathComponent("same.mbtiles").path
        let b = folder.appendingPathComponent("b.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", a, "-z3", "-l", "countries"]).status, 0)
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", same, "-z3", "-l", "countries"]).status, 0)
        let unchanged = try CLI.run(["diff", a, same])
        XCTAssertEqual(unchanged.status, 0, unchanged.stdoutText + unchanged.stderr)
        XCTAssertTrue(unchanged.lines.allSatisfy { !$0.hasPrefix("z") || $0.contains(" 0 added, 0 removed, 0 changed") }, unchanged.stdoutText)

        let filtered = folder.appendingPathComponent("without-france.geojsons").path
        let filter = try CLI.run(["filter", countries, "--where", "NAME != 'France'", "-o", filtered])
        XCTAssertEqual(filter.status, 0, filter.stderr)
        XCTAssertEqual(try CLI.run(["tile", filtered, "-o", b, "-z4", "-l", "countries"]).status, 0)
        let result = try CLI.run(["diff", a, b, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let report = try JSONSerialization.jsonObject(with: result.stdout) as! [String: Any]
        let zooms = report["zooms"] as! [[String: Int]]
        XCTAssertEqual(zooms.map { $0["zoom"] }, [0, 1, 2, 3, 4])
        XCTAssertEqual(zooms[0]["changed"], 1)  // France was in the world tile
        XCTAssertEqual(zooms[4]["removed"], 0)
        XCTAssertGreaterThan(zooms[4]["added"] ?? 0, 0)
        XCTAssertEqual(zooms[4]["changed"], 0)
        XCTAssertEqual(zooms[4]["unchanged"], 0)
        // Each listed tile: the features per layer, checked against `info` decoding them.
        let tiles = report["changedTiles"] as! [[String: Any]]
        XCTAssertFalse(tiles.isEmpty)
        for tile in tiles.prefix(3) {
            let id = tile["tile"] as! String
            let layer = (tile["layers"] as! [[String: Any]])[0]
            XCTAssertEqual(layer["name"] as? String, "countries")
            for (set, key) in [(a, "old"), (b, "new")] {
                let decoded = try CLI.run(["info", set, id])
                let features = (try JSONSerialization.jsonObject(with: decoded.stdout) as? [String: Any])?["features"] as? [Any]
                XCTAssertEqual(features?.count, layer[key] as? Int, "\(id) \(key)")
            }
            XCTAssertLessThanOrEqual(layer["new"] as! Int, layer["old"] as! Int, id)
        }
        // The world tile held France: one feature fewer.
        let world = try XCTUnwrap(tiles.first { $0["tile"] as? String == "0/0/0" })
        let counts = (world["layers"] as! [[String: Any]])[0]
        XCTAssertEqual((counts["old"] as! Int) - (counts["new"] as! Int), 1)
        // A tile set and a feature file cannot be compared.
        XCTAssertEqual(try CLI.run(["diff", a, countries]).status, 64)
    }
}
