import Foundation
import TestSupport
import XCTest

/// `overlaykit validate --profile` and `--schema` as a CI job runs them: exit statuses, the
/// lines printed, and the JSON report against its schema.
final class ValidateProfileCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try CLI.temporaryFolder(self)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func placemarks(_ count: Int) -> String {
        "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
            + (0..<count).map { "<Placemark><Point><coordinates>\($0 % 90),1</coordinates></Point></Placemark>\n" }.joined()
            + "</Document></kml>\n"
    }

    func testAFailedProfileExitsOneAndSaysWhichLimit() throws {
        let big = try write("big.kml", placemarks(1_001))
        let failed = try CLI.run(["validate", "--profile", "google-maps", "--profile", "google-earth", big])
        XCTAssertEqual(failed.status, 1, failed.stderr)
        XCTAssertEqual(failed.lines, [
            "\(big):1002:1: error: profile.over-limit: google-maps: 1,001 features; at most 1,000 features in the whole document — 1,000 allowed",
            "profile google-maps: failed, 1 error",
            "\(big): note: profile.over-limit: google-earth: 70,023 bytes (70.0 KB); a KML larger than 10 KB is better served as a KMZ (typically a tenth of the size) — 10,000 allowed",
            "profile google-earth: passed",
            "1 file checked: 1 error, 0 warnings, 1 note; failed: profile google-maps",
        ])
        let fits = try write("fits.kml", placemarks(1_000))
        XCTAssertEqual(try CLI.run(["validate", "--profile", "google-maps", fits]).status, 0)
        // A user's own limits, in YAML.
        let profile = try write("viewer.yaml", "name: viewer\nlimits:\n  - id: features\n    measure: features\n    max: 999\n")
        let own = try CLI.run(["validate", "--profile", profile, fits])
        XCTAssertEqual(own.status, 1)
        XCTAssertEqual(own.lines.first, "\(fits):1001:1: error: profile.over-limit: viewer: 1,000 features; at most 999 features — 999 allowed")
    }

    func testUnknownOrBrokenProfilesAreUsageErrors() throws {
        let fits = try write("fits.kml", placemarks(1))
        let unknown = try CLI.run(["validate", "--profile", "google-mapz", fits])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("profile.unknown: --profile google-mapz: no such built-in profile (android-maps-utils, google-earth"),
                      unknown.stderr)
        let broken = try write("broken.yaml", "name: x\nlimits:\n  - id: a\n    measure: pixels\n    max: 1\n")
        let invalid = try CLI.run(["validate", "--profile", broken, fits])
        XCTAssertEqual(invalid.status, 64)
        XCTAssertTrue(invalid.stderr.contains("\(broken):4:14: error: profile.invalid: measure 'pixels' is none of"), invalid.stderr)
    }

    /// `validate --schema missing.xsd places.kml`: the problem is the schema's, at its path (and
    /// line:column for a parse error); the document is checked and not counted unreadable.
    func testAnUnreadableSchemaIsReportedAgainstTheSchemaFile() throws {
        let places = CLI.packageRoot.appendingPathComponent("Examples/places.kml").path
        let missing = folder.appendingPathComponent("missing.xsd").path
        let result = try CLI.run(["validate", "--schema", missing, places])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.lines, [
            "\(missing): error: kml.schema-unreadable: cannot read the XML Schema: No such file or directory",
            "1 file checked: 0 errors, 0 warnings, 0 notes; 1 problem with the run's own inputs",
        ])
        let malformed = try write("bad.xsd", "<?xml version=\"1.0\"?>\n<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n  <broken\n</xs:schema>\n")
        let json = try CLI.run(["validate", "--format", "json", "--schema", malformed, places])
        XCTAssertEqual(json.status, 65)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let problem = try XCTUnwrap((report["problems"] as? [[String: Any]])?.first)
        XCTAssertEqual(problem["file"] as? String, malformed)
        XCTAssertEqual(problem["line"] as? Int, 4)
        XCTAssertEqual(problem["code"] as? String, "kml.schema-unreadable")
        XCTAssertEqual((report["files"] as? [[String: Any]])?.first?["readable"] as? Bool, true)
        XCTAssertEqual((report["summary"] as? [String: Any])?["unreadable"] as? Int, 0)
    }

    func testTheJSONReportWithChecksAndProblemsFollowsItsSchema() throws {
        let python = try Prerequisite.python(modules: ["jsonschema"], install: "pip install jsonschema")
        let big = try write("big.kml", placemarks(1_001))
        let report = try CLI.run(["validate", "--format", "json", "--schema", folder.appendingPathComponent("none.xsd").path,
                                  "--profile", "google-maps", "--profile", "mapbox-upload", big])
        let reportPath = try write("report.json", report.stdoutText)
        let schema = CLI.packageRoot.appendingPathComponent("Schemas/validation-report.schema.json").path
        let script = """
        import json, sys, jsonschema
        jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
        """
        let check = try CLI.runTool(URL(fileURLWithPath: python), ["-c", script, schema, reportPath])
        XCTAssertEqual(report.status, 65)
        XCTAssertEqual(check.status, 0, check.stderr)
    }
}
