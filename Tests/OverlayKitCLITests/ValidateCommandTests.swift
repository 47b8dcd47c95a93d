import Foundation
import TestSupport
import XCTest

/// `overlaykit validate` run as a user would: real files, pipes, exit codes, all three formats.
final class ValidateCommandTests: XCTestCase {
    static let packageRoot = CLI.packageRoot
    static let corpus = CLI.corpus

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL { CLI.binary }

    private func run(_ executable: URL, _ arguments: [String], stdin: String? = nil) throws -> Run {
        let result = try CLI.runTool(executable, arguments, stdin: stdin.map { Data($0.utf8) })
        return Run(status: result.status, stdout: result.stdoutText, stderr: result.stderr)
    }

    private func validate(_ arguments: [String], stdin: String? = nil) throws -> Run {
        try run(Self.binary, ["validate"] + arguments, stdin: stdin)
    }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = try CLI.temporaryFolder(self)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    let clean = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}
    ]}
    """

    // An unclosed ring on line 3 and a bow tie on line 4.
    let broken = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
    {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}},
    {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[0,1],[1,0],[1,1],[0,0]]]}}
    ]}
    """

    func testCleanFileExitsZero() throws {
        let path = try write("clean.geojson", clean)
        let result = try validate([path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, "1 file checked: 0 errors, 0 warnings, 0 notes\n")
    }

    func testErrorsAreListedAsFileLineColumnAndExitOne() throws {
        let path = try write("broken.geojson", broken)
        let result = try validate([path])
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            "\(path):3:79: error: geojson.ring-not-closed: the first and last positions of a linear ring must be the same (/features/1/geometry/coordinates/0)",
            // A bow tie's two halves cancel out, so its area is not positive: also a winding warning.
            "\(path):4:46: warning: geojson.right-hand-rule: polygons should follow the right-hand rule: exterior rings counterclockwise, holes clockwise (/features/2/geometry/coordinates)",
            "\(path):4:98: error: geometry.self-intersection: the ring crosses itself near 0.5, 0.5 (/features/2/geometry/coordinates/0/3)",
            "1 file checked: 2 errors, 1 warning, 0 notes; 1 file with errors",
        ])
    }

    func testStrictTurnsWarningsIntoFailure() throws {
        // Clockwise exterior ring: a right-hand-rule warning only.
        let path = try write("cw.geojson", #"{"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]}"#)
        let lenient = try validate([path])
        XCTAssertEqual(lenient.status, 0, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("warning: geojson.right-hand-rule"), lenient.stdout)
        XCTAssertEqual(try validate(["--strict", path]).status, 1)
    }

    func testManyFilesStdinAndUnreadableInput() throws {
        let good = try write("good.geojson", clean)
        let bad = try write("bad.geojson", broken)
        let result = try validate([good, bad, folder.appendingPathComponent("missing.geojson").path])
        XCTAssertEqual(result.status, 74, "a missing input (I/O, as in every command) wins over findings")
        XCTAssertTrue(result.stdout.contains("io.open-failed: cannot open"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("3 files checked: 3 errors, 1 warning, 0 notes; 2 files with errors; 1 unreadable\n"),
                      result.stdout)

        let piped = try validate(["-"], stdin: "{\"type\":\"Point\",\"coordinates\":[1]}")
        XCTAssertEqual(piped.status, 1)
        XCTAssertTrue(piped.stdout.hasPrefix("<stdin>:1:31: error: geojson.position-too-short"), piped.stdout)

        let syntax = try validate(["-"], stdin: "{\"type\":\"Point\"\n\"coordinates\":[1,2]}")
        XCTAssertEqual(syntax.status, 1)
        XCTAssertTrue(syntax.stdout.hasPrefix("<stdin>:1:16: error: json.syntax: expected ',' or '}'"), syntax.stdout)

        let notGeo = try validate(["-"], stdin: "hello")
        XCTAssertEqual(notGeo.status, 65)
        XCTAssertTrue(notGeo.stdout.contains("input.unknown-format"), notGeo.stdout)
    }

    func testJSONReportFollowsItsSchema() throws {
        let good = try write("good.geojson", clean)
        let bad = try write("bad.geojson", broken)
        let result = try validate(["--format", "json", good, bad])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "2 files checked: 2 errors, 1 warning, 0 notes; 1 file with errors\n")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let files = report["files"] as! [[String: Any]]
        XCTAssertEqual(files.map { $0["file"] as? String }, [good, bad])
        let findings = files[1]["findings"] as! [[String: Any]]
        XCTAssertEqual(findings.map { $0["code"] as? String }, ["geojson.ring-not-closed", "geojson.right-hand-rule", "geometry.self-intersection"])
        XCTAssertEqual(findings.map { $0["severity"] as? String }, ["error", "warning", "error"])
        XCTAssertEqual(findings[0]["line"] as? Int, 3)
        XCTAssertEqual(findings[0]["column"] as? Int, 79)
        XCTAssertEqual(findings[0]["jsonPointer"] as? String, "/features/1/geometry/coordinates/0")
        XCTAssertEqual((report["summary"] as! [String: Any])["errors"] as? Int, 2)

        let schema = Self.packageRoot.appendingPathComponent("Schemas/validation-report.schema.json").path
        let reportPath = try write("report.json", result.stdout)
        try checkWithPythonJSONSchema(schema: schema, documents: [reportPath], expectValid: true)
    }

    func testSARIFReport() throws {
        let bad = try write("bad file.geojson", broken)
        let result = try validate(["--format", "sarif", bad])
        XCTAssertEqual(result.status, 1)
        let log = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let run = (log["runs"] as! [[String: Any]])[0]
        let driver = (run["tool"] as! [String: Any])["driver"] as! [String: Any]
        XCTAssertEqual(driver["name"] as? String, "overlaykit")
        let rules = driver["rules"] as! [[String: Any]]
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["geojson.ring-not-closed", "geojson.right-hand-rule", "geometry.self-intersection"])
        let results = run["results"] as! [[String: Any]]
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(results.map { $0["level"] as? String }, ["error", "warning", "error"])
        XCTAssertEqual(results[2]["ruleId"] as? String, "geometry.self-intersection")
        XCTAssertEqual(results[2]["ruleIndex"] as? Int, 2)
        let location = (results[2]["locations"] as! [[String: Any]])[0]
        let physical = location["physicalLocation"] as! [String: Any]
        XCTAssertEqual((physical["artifactLocation"] as! [String: Any])["uri"] as? String,
                       bad.replacingOccurrences(of: " ", with: "%20"))
        XCTAssertEqual((physical["region"] as! [String: Any])["startLine"] as? Int, 4)
        XCTAssertEqual((physical["region"] as! [String: Any])["startColumn"] as? Int, 98)
        let logical = (location["logicalLocations"] as! [[String: Any]])[0]
        XCTAssertEqual(logical["fullyQualifiedName"] as? String, "/features/2/geometry/coordinates/0/3")
    }

    /// The project's own GeoJSON schema, checked by Python's jsonschema, reaches the same 66
    /// verdicts as geojson/schema's fixtures expect.
    func testOurGeoJSONSchemaAgreesWithSchemaFixtures() throws {
        let fixtures = Self.corpus.appendingPathComponent("geojson-schema-fixtures")
        _ = try Prerequisite.corpus("geojson-schema-fixtures")
        let schema = Self.packageRoot.appendingPathComponent("Schemas/geojson.schema.json").path
        var valid: [String] = [], invalid: [String] = []
        for verdict in ["valid", "invalid"] {
            let enumerator = FileManager.default.enumerator(atPath: fixtures.appendingPathComponent(verdict).path)!
            for case let relative as String in enumerator where relative.hasSuffix(".json") {
                let path = fixtures.appendingPathComponent(verdict).appendingPathComponent(relative).path
                if verdict == "valid" { valid.append(path) } else { invalid.append(path) }
            }
        }
        XCTAssertEqual(valid.count + invalid.count, 66)
        try checkWithPythonJSONSchema(schema: schema, documents: valid, expectValid: true)
        try checkWithPythonJSONSchema(schema: schema, documents: invalid, expectValid: false)
        print("Schemas/geojson.schema.json: \(valid.count + invalid.count) of 66 fixture verdicts agree")
    }

    /// Validates documents with Python's jsonschema (Draft 7); skips when it is not installed.
    private func checkWithPythonJSONSchema(schema: String, documents: [String], expectValid: Bool) throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["jsonschema"], install: "pip install jsonschema"))
        let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        validator = jsonschema.Draft7Validator(schema)
        wrong = [p for p in sys.argv[3:] if validator.is_valid(json.load(open(p))) != (sys.argv[2] == "valid")]
        print("\\n".join(wrong))
        sys.exit(1 if wrong else 0)
        """
        let result = try run(python, ["-c", script, schema, expectValid ? "valid" : "invalid"] + documents)
        XCTAssertEqual(result.status, 0, "expected \(expectValid ? "valid" : "invalid"): \(result.stdout)\(result.stderr)")
    }

    /// Files written by `overlaykit convert --to kml` validate clean against the OGC KML 2.2
    /// schema (libxml2's XSD validator, offline copy of the schema).
    func testConvertedKMLValidatesAgainstOGCSchema() throws {
        let schema = Self.corpus.appendingPathComponent("schemas/kml22-offline/ogckml22.xsd").path
        _ = try Prerequisite.corpus("schemas/kml22-offline/ogckml22.xsd")
        let source = try write("mixed.geojson", """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":7,"properties":{"name":"Pin","stroke":"#ff0000","n":3,"ok":true},"geometry":{"type":"Point","coordinates":[2.35,48.85,30]}},
        {"type":"Feature","properties":{"radius":500},"geometry":{"type":"Point","coordinates":[10,50]}},
        {"type":"Feature","properties":{"fill":"#00ff00"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[2,1],[1,1]]]}},
        {"type":"Feature","properties":null,"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,1]},{"type":"LineString","coordinates":[[0,0],[1,0]]}]}},
        {"type":"Feature","properties":{},"geometry":null}
        ]}
        """)
        let kml = folder.appendingPathComponent("mixed.kml").path
        let converted = try run(Self.binary, ["convert", source, "-o", kml])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let result = try validate(["--schema", schema, kml])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertFalse(result.stdout.contains("kml.schema"), result.stdout)

        // A real file: every province converts to schema-valid KML (the one invalid ring stays invalid).
        let provinces = Self.corpus.appendingPathComponent("real/ne_50m_admin_1_states_provinces.geojson").path
        let provincesKML = folder.appendingPathComponent("provinces.kml").path
        XCTAssertEqual(try run(Self.binary, ["convert", provinces, "-o", provincesKML]).status, 0)
        let real = try validate(["--schema", schema, "--format", "json", provincesKML])
        let report = try JSONSerialization.jsonObject(with: Data(real.stdout.utf8)) as! [String: Any]
        let findings = (report["files"] as! [[String: Any]])[0]["findings"] as! [[String: Any]]
        XCTAssertEqual(findings.compactMap { $0["code"] as? String }, ["geometry.self-intersection"])

        // And a schema violation is reported with its line, exit 1.
        let bad = try write("bad.kml", "<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Placemark><Point><coordinates>1,2</coordinates></Point><name>x</name></Placemark></kml>")
        let failing = try validate(["--schema", schema, bad])
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stdout.contains("\(bad):2:"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("error: kml.schema: Element '{http://www.opengis.net/kml/2.2}name': This element is not expected."),
                      failing.stdout)
    }

    /// A real file: the one invalid province in Natural Earth 1:50m (shapely agrees:
    /// "Ring Self-intersection[-47.3019712562314 -16.0391817490219]").
    func testNaturalEarthProvincesHaveOneSelfIntersection() throws {
        let path = Self.corpus.appendingPathComponent("real/ne_50m_admin_1_states_provinces.geojson").path
        _ = try Prerequisite.corpus("real/ne_50m_admin_1_states_provinces.geojson")
        let result = try validate(["--format", "json", path])
        XCTAssertEqual(result.status, 1)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let findings = ((report["files"] as! [[String: Any]])[0]["findings"] as! [[String: Any]]).filter { $0["severity"] as? String == "error" }
        XCTAssertEqual(findings.count, 1)
        XCTAssertEqual(findings.first?["code"] as? String, "geometry.self-intersection")
        XCTAssertEqual(findings.first?["jsonPointer"] as? String, "/features/19/geometry/coordinates/0/191")
        XCTAssertTrue((findings.first?["message"] as? String ?? "").contains("near -47.301971, -16.039182"))
    }
}
