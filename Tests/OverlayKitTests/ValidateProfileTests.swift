import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// `validate --profile`: every built-in limit just at its value (passes) and one past it
/// (fails, with the measured value and the limit), the measurers on inputs written here, and
/// the reports.
final class ValidateProfileTests: XCTestCase {
    // MARK: Every limit, just under and just over

    /// Each limit of each built-in profile judged on a measurement at the limit and one past
    /// it: the first passes, the second gives one finding of the limit's rule and severity
    /// carrying the measured value and the limit.
    func testEveryBuiltInLimitPassesAtItsValueAndFailsOnePast() throws {
        XCTAssertEqual(ValidationProfile.builtInNames, ["android-maps-utils", "google-earth", "google-maps", "google-my-maps", "mapbox-upload"])
        let check = ProfileCheck(profiles: [])
        var judged = 0
        for profile in ValidationProfile.builtIn.values {
            for limit in profile.limits {
                let format = (limit.formats ?? profile.formats ?? []).first { limit.applies(to: $0) } ?? limit.measure.formats.sorted()[0]
                let input = ValidationInput(name: "in.\(format)", result: ValidationResult(file: "in.\(format)", format: FileFormat(rawValue: format),
                                                                                          findings: []))
                // Only this limit, so other limits of the profile do not speak.
                let alone = ValidationProfile(name: profile.name, title: profile.title, source: profile.source, formats: profile.formats, limits: [limit])
                func verdict(_ value: Int64) -> [CheckFinding] {
                    var measurement = ProfileMeasurement()
                    measurement.values[limit.measure] = .init(value: value)
                    return check.findings(for: input, format: format, measurement: measurement, profile: alone)
                }
                if let maximum = limit.maximum {
                    XCTAssertEqual(verdict(maximum).count, 0, "\(profile.name)/\(limit.id) at its maximum")
                    let over = verdict(maximum + 1)
                    XCTAssertEqual(over.map(\.diagnostic.code), [.profileOverLimit], "\(profile.name)/\(limit.id) one past its maximum")
                    XCTAssertEqual(over.first?.ruleID, "profile/\(profile.name)/\(limit.id)")
                    XCTAssertEqual(over.first?.diagnostic.severity, limit.severity)
                    XCTAssertEqual(over.first?.properties["measured"], .integer(maximum + 1))
                    XCTAssertEqual(over.first?.properties["maximum"], .integer(maximum))
                    XCTAssertTrue(over.first?.diagnostic.message.contains(ProfileNumbers.format(maximum + 1)) ?? false, "\(over)")
                    judged += 1
                }
                if let minimum = limit.minimum {
                    XCTAssertEqual(verdict(minimum).count, 0, "\(profile.name)/\(limit.id) at its minimum")
                    XCTAssertEqual(verdict(minimum - 1).map(\.diagnostic.code), [.profileUnderLimit], "\(profile.name)/\(limit.id) one under its minimum")
                    judged += 1
                }
                XCTAssertNotNil(limit.source ?? profile.source, "\(profile.name)/\(limit.id) names no source")
            }
        }
        XCTAssertEqual(judged, 24)
    }

    // MARK: Measured on real inputs at the boundary

    private func input(_ text: String, name: String) -> ValidationInput {
        let bytes = Array(text.utf8)
        let format = try? FeatureIO.detectFormat(of: ByteInput(bytes: bytes, name: name))
        return ValidationInput(name: name, result: ValidationResult(file: name, format: format, findings: []), bytes: bytes)
    }

    private func kmz(_ entries: [(path: String, bytes: [UInt8])], name: String = "in.kmz") -> ValidationInput {
        ValidationInput(name: name, result: ValidationResult(file: name, format: .kmz, findings: []), bytes: KMZTestArchive.stored(entries))
    }

    private func run(_ profile: String, _ inputs: [ValidationInput]) throws -> CheckReport {
        try XCTUnwrap(ProfileCheck(profiles: [try ValidationProfile.named(profile)]).run(on: inputs).first)
    }

    private func placemarks(_ count: Int, links: Int = 0) -> String {
        let features = (0..<count).map { "<Placemark><name>p\($0)</name><Point><coordinates>\($0 % 90),1</coordinates></Point></Placemark>\n" }.joined()
        let networkLinks = (0..<links).map { "<NetworkLink><Link><href>l\($0).kml</href></Link></NetworkLink>\n" }.joined()
        return "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n\(features)\(networkLinks)</Document></kml>\n"
    }

    func testGoogleMapsFeaturesAndNetworkLinksAtTheLimitAndPast() throws {
        XCTAssertEqual(try run("google-maps", [input(placemarks(1_000, links: 10), name: "ok.kml")]).findings.map(\.diagnostic.description), [])
        let over = try run("google-maps", [input(placemarks(1_001, links: 11), name: "big.kml")])
        XCTAssertEqual(over.findings.map(\.ruleID), ["profile/google-maps/network-links", "profile/google-maps/features"])
        // Placed where the count passed the limit: the 1,001st Placemark (line 1,002), the 11th link.
        XCTAssertEqual(over.findings.map(\.diagnostic.description), [
            "big.kml:1013:1: error: profile.over-limit: google-maps: 11 network links; at most 10 network links — 10 allowed",
            "big.kml:1002:1: error: profile.over-limit: google-maps: 1,001 features; at most 1,000 features in the whole document — 1,000 allowed",
        ])
        XCTAssertFalse(over.passed())
    }

    func testKMZArchiveLimitsAtTheirValueAndPast() throws {
        let doc = (path: "doc.kml", bytes: Array(placemarks(1).utf8))
        // google-maps: an image of 500,000 bytes is allowed, 500,001 is not.
        XCTAssertEqual(try run("google-maps", [kmz([doc, ("files/a.png", [UInt8](repeating: 1, count: 500_000))])]).findings.count, 0)
        let image = try run("google-maps", [kmz([doc, ("files/a.png", [UInt8](repeating: 1, count: 500_001))])])
        XCTAssertEqual(image.findings.map(\.diagnostic.message),
                       ["google-maps: 500,001 bytes (500.0 KB) (files/a.png); each image in a KMZ is at most 500 KB uncompressed — 500,000 allowed"])
        // android-maps-utils: 200 entries (folders count, as the library's zip stream lists them), not 201.
        let files = (0..<198).map { (path: "files/\($0).txt", bytes: [UInt8]("x".utf8)) }
        XCTAssertEqual(try run("android-maps-utils", [kmz([doc, ("files/", [])] + files)]).findings.count, 0)
        XCTAssertEqual(try run("android-maps-utils", [kmz([doc, ("files/", []), ("more/", [])] + files)]).findings.map(\.ruleID),
                       ["profile/android-maps-utils/kmz-entries"])
        // android-maps-utils: 50 MiB uncompressed in all.
        let half = [UInt8](repeating: 0x20, count: 26_214_400 - doc.bytes.count)
        XCTAssertEqual(try run("android-maps-utils", [kmz([doc, ("a.bin", half), ("b.bin", [UInt8](repeating: 0x20, count: 26_214_400))])]).findings.count, 0)
        XCTAssertEqual(try run("android-maps-utils", [kmz([doc, ("a.bin", half + [0x20]), ("b.bin", [UInt8](repeating: 0x20, count: 26_214_400))])])
            .findings.map(\.ruleID), ["profile/android-maps-utils/kmz-size"])
        // google-earth: one KML in a KMZ and no KMZ inside it (warnings: Google Earth opens it anyway).
        XCTAssertEqual(try run("google-earth", [kmz([doc])]).findings.count, 0)
        let earth = try run("google-earth", [kmz([doc, ("extra.kml", doc.bytes), ("inner.kmz", [0])])])
        XCTAssertEqual(earth.findings.map { "\($0.diagnostic.severity) \($0.ruleID)" },
                       ["warning profile/google-earth/kmz-kml-files", "warning profile/google-earth/kmz-in-kmz"])
        XCTAssertTrue(earth.passed())
        XCTAssertFalse(earth.passed(strict: true))
    }

    func testKMLDepthAndLayersAtTheirLimitsAndPast() throws {
        // android-maps-utils: elements 50 deep (kml, Document, then Folders), not 51.
        // One Folder a line: the 49th, on line 50, is the 51st level.
        func nested(_ depth: Int) -> String {
            "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n" + String(repeating: "<Folder>\n", count: depth - 2)
                + String(repeating: "</Folder>", count: depth - 2) + "</Document></kml>"
        }
        XCTAssertEqual(try run("android-maps-utils", [input(nested(50), name: "d.kml")]).findings.count, 0)
        XCTAssertEqual(try run("android-maps-utils", [input(nested(51), name: "d.kml")]).findings.map(\.diagnostic.description),
                       ["d.kml:50:1: error: profile.over-limit: android-maps-utils: 51 levels; KML elements nest at most 50 levels deep — 50 allowed"])
        // mapbox-upload: 15 layers (Folders holding placemarks), not 16; not none; no two of one name.
        func layers(_ count: Int, names: (Int) -> String = { "L\($0)" }) -> String {
            "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n" + (0..<count).map {
                "<Folder><name>\(names($0))</name><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></Folder>\n"
            }.joined() + "</Document></kml>"
        }
        XCTAssertEqual(try run("mapbox-upload", [input(layers(15), name: "l.kml")]).findings.count, 0)
        XCTAssertEqual(try run("mapbox-upload", [input(layers(16), name: "l.kml")]).findings.map(\.diagnostic.description),
                       ["l.kml:17:1: error: profile.over-limit: mapbox-upload: 16 layers; a KML has 1 to 15 layers (Documents or Folders holding placemarks) — 15 allowed"])
        XCTAssertEqual(try run("mapbox-upload", [input(layers(0), name: "l.kml")]).findings.map(\.diagnostic.code), [.profileUnderLimit])
        XCTAssertEqual(try run("mapbox-upload", [input(layers(3) { $0 == 2 ? "L0" : "L\($0)" }, name: "l.kml")]).findings.map(\.diagnostic.description),
                       ["l.kml:4:1: error: profile.over-limit: mapbox-upload: 1 duplicate layer names; no two KML layers share a name — 0 allowed"])
    }

    func testGeoJSONDepthAndCharactersAndFileSize() throws {
        // android-maps-utils: arrays and objects 512 deep, not 513 (placed at the 513th bracket).
        func deep(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        var measurement = ProfileMeasurement()
        try JSONTextCounter.count(ByteInput(string: deep(513), name: "d.json"), file: "d.json", needs: [.jsonDepth: [512]], into: &measurement)
        XCTAssertEqual(measurement.values[.jsonDepth]?.value, 513)
        XCTAssertEqual(measurement.values[.jsonDepth]?.passed[512], SourceLocation(file: "d.json", line: 1, column: 513))
        // Brackets in strings do not nest; characters are UTF-16 units, as Java counts them.
        measurement = ProfileMeasurement()
        try JSONTextCounter.count(ByteInput(string: "{\"a\":\"[[é😀\\\"]]\"}"), file: nil, needs: [:], into: &measurement)
        XCTAssertEqual(measurement.values[.jsonDepth]?.value, 1)
        XCTAssertEqual(measurement.values[.jsonCharacters]?.value, 17)
        // mapbox-upload and google-maps: formats they do not load.
        let geojson = input(#"{"type":"Point","coordinates":[1,2]}"#, name: "p.geojson")
        XCTAssertEqual(try run("mapbox-upload", [geojson]).findings.count, 0)
        XCTAssertEqual(try run("google-maps", [geojson]).findings.map(\.diagnostic.description),
                       ["p.geojson: error: profile.format-not-accepted: google-maps: Google Maps JavaScript API (KmlLayer) does not load geojson files; it loads kml, kmz"])
        // google-my-maps: 5,000,000 bytes, not 5,000,001 (a KML padded with a comment).
        let head = placemarks(1)
        func padded(_ size: Int) -> String { head + "<!--" + String(repeating: " ", count: size - head.utf8.count - 8) + "-->\n" }
        XCTAssertEqual(try run("google-my-maps", [input(padded(5_000_000), name: "m.kml")]).findings.count, 0)
        XCTAssertEqual(try run("google-my-maps", [input(padded(5_000_001), name: "m.kml")]).findings.map(\.diagnostic.description),
                       ["m.kml: error: profile.over-limit: google-my-maps: 5,000,001 bytes (5.0 MB); an imported file is at most 5 MB — 5,000,000 allowed"])
    }

    func testMBTilesTilesAreMeasuredAsStored() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func tileSet(_ name: String, _ tiles: [(TileID, [UInt8])]) throws -> ValidationInput {
            let path = folder.appendingPathComponent(name).path
            let writer = try TileArchive.create(path)
            for (id, bytes) in tiles { try writer.write(id, bytes) }
            try writer.finish(metadata: TileSetMetadata(name: "t", bounds: nil, center: nil, minZoom: 0, maxZoom: 1, vectorLayers: []))
            return ValidationInput(name: path, result: TileSetInput.open(path, format: .mbtiles))
        }
        // Random bytes do not compress: 600,000 of them stay over 512,000 gzipped; a
        // repetitive tile of the same size shrinks far below.
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<600_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let big = try tileSet("big.mbtiles", [(TileID(z: 1, x: 0, y: 1), noise), (TileID(z: 0, x: 0, y: 0), [1, 2, 3])])
        let report = try run("mapbox-upload", [big])
        XCTAssertEqual(report.findings.map(\.ruleID), ["profile/mapbox-upload/mbtiles-tile-size"])
        XCTAssertTrue(report.findings[0].diagnostic.message.contains("(tile 1/0/1)"), report.findings[0].diagnostic.message)
        let small = try tileSet("small.mbtiles", [(TileID(z: 1, x: 0, y: 1), [UInt8](repeating: 7, count: 600_000))])
        XCTAssertEqual(try run("mapbox-upload", [small]).findings.count, 0)
        let empty = try tileSet("empty.mbtiles", [])
        XCTAssertEqual(try run("mapbox-upload", [empty]).findings.map(\.diagnostic.code), [.profileUnderLimit])
    }

    // MARK: Profile files

    static let yamlProfile = """
        # Our viewer's limits
        name: our-viewer
        title: "Our field app's viewer"
        extends: google-maps
        formats: [kml, kmz]   # no GeoJSON
        limits:
          - id: features          # replaces google-maps' 1,000
            measure: features
            max: 500
            summary: at most 500 features
            source: https://wiki.example.com/viewer
          - id: depth
            measure: element-depth
            max: 20
            severity: warning
        """

    static let jsonProfile = """
        {"name": "our-viewer", "title": "Our field app's viewer", "extends": "google-maps", "formats": ["kml", "kmz"],
         "limits": [{"id": "features", "measure": "features", "max": 500, "summary": "at most 500 features",
                     "source": "https://wiki.example.com/viewer"},
                    {"id": "depth", "measure": "element-depth", "max": 20, "severity": "warning"}]}
        """

    private func writeProfile(_ text: String, _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testYAMLAndJSONProfilesReadAlikeAndExtendABuiltIn() throws {
        let yaml = try ValidationProfile.named(try writeProfile(Self.yamlProfile, "p.yaml"))
        let json = try ValidationProfile.named(try writeProfile(Self.jsonProfile, "p.json"))
        XCTAssertEqual(yaml, json)
        XCTAssertEqual(yaml.limits.map(\.id), ["fetched-size", "kml-size", "kmz-image-size", "network-links", "features", "depth"])
        XCTAssertEqual(yaml.limits[4].maximum, 500)
        XCTAssertEqual(yaml.limits[5].severity, .warning)
        XCTAssertEqual(yaml.limits[5].summary, "at most 20 levels")
        XCTAssertEqual(yaml.source, "https://developers.google.com/kml/documentation/mapsSupport")
        let report = try XCTUnwrap(ProfileCheck(profiles: [yaml]).run(on: [input(placemarks(501), name: "f.kml")]).first)
        XCTAssertEqual(report.findings.map(\.diagnostic.description),
                       ["f.kml:502:1: error: profile.over-limit: our-viewer: 501 features; at most 500 features — 500 allowed"])
    }

    func testProfileFileErrorsNameTheirPlace() throws {
        func failure(_ text: String, _ name: String) throws -> String {
            let path = try writeProfile(text, name)
            do {
                _ = try ValidationProfile.named(path)
                return "no error"
            } catch let diagnostic as Diagnostic {
                XCTAssertEqual(diagnostic.code, .profileInvalid)
                XCTAssertEqual(diagnostic.exitStatus, 64)
                return diagnostic.description.replacingOccurrences(of: path, with: name)
            }
        }
        XCTAssertEqual(try failure("name: x\nlimits:\n  - id: a\n    measure: pixels\n    max: 1\n", "p.yaml"),
                       "p.yaml:4:14: error: profile.invalid: measure 'pixels' is none of " + ProfileMeasure.allCases.map(\.rawValue).joined(separator: ", ")
                        + " (/limits/0/measure)")
        XCTAssertEqual(try failure("name: x\nlimits:\n  - id: a\n    measure: features\n    maximum: 1\n", "p.yaml"),
                       "p.yaml:5:14: error: profile.invalid: 'maximum' is not a profile key here (formats, id, max, measure, min, severity, source, summary) (/limits/0/maximum)")
        XCTAssertEqual(try failure("name: x\nlimits: &a\n", "p.yaml"),
                       "p.yaml:2:9: error: profile.invalid: not a profile YAML: YAML '&' (anchors, aliases, tags, block scalars, directives) is not supported in a profile")
        XCTAssertEqual(try failure("name: x\n\tlimits: []\n", "p.yaml"),
                       "p.yaml:2:1: error: profile.invalid: not a profile YAML: tabs cannot indent YAML; use spaces")
        XCTAssertEqual(try failure(#"{"name": "x", "limits": [{"id": "a", "measure": "features", "max": -1}]}"#, "p.json"),
                       "p.json: error: profile.invalid: expected a whole number, 0 or more (/limits/0/max)")
        XCTAssertEqual(try failure(#"{"name": "x", "limits": [}"#, "p.json"),
                       "p.json:1:26: error: profile.invalid: not a profile JSON: expected a value but found '}' (/limits/0)")
        XCTAssertThrowsError(try ValidationProfile.named("google-mapz")) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .profileUnknown)
        }
    }

    func testYAMLSubset() throws {
        var yaml = try ProfileYAML("""
            ---
            a:
              b: 'it''s'   # comment
              c: "tab\\t\\u00e9 # not a comment"
              list:
              - 1
              - -2.5
              - [x, "y, z", 3]
              - ~
              - k: v
                k2: true
            e: {}
            f: []
            url: https://example.com/a#b
            note: the viewer's limit   # an apostrophe is no quote
            """, file: "t.yaml")
        let value = try yaml.value()
        var expected = JSONObject()
        expected.append("a", .object([
            "b": .string("it's"), "c": .string("tab\té # not a comment"),
            "list": .array([.integer(1), .number(-2.5), .array([.string("x"), .string("y, z"), .integer(3)]), .null,
                            .object(["k": .string("v"), "k2": .bool(true)])]),
        ]))
        expected.append("e", .object([:]))
        expected.append("f", .array([]))
        expected.append("url", .string("https://example.com/a#b"))
        expected.append("note", .string("the viewer's limit"))
        XCTAssertEqual(value, .object(expected))
        XCTAssertEqual(yaml.places["/a/list/4/k2"], SourceLocation(file: "t.yaml", line: 11, column: 9))
        for bad in ["a: |\n  text\n", "a: b\n  c: d\n", "- a\nb: c\n", "a: 'open\n", "a: b\n---\nc: d\n", "a: 1\na: 2\n"] {
            XCTAssertThrowsError(try {
                var parser = try ProfileYAML(bad, file: "t.yaml")
                _ = try parser.value()
            }(), bad)
        }
    }

    // MARK: Reports

    func testReportsCarryTheProfileTheRuleAndTheValues() throws {
        let check = ProfileCheck(profiles: [try ValidationProfile.named("google-maps")])
        let inputs = [input(placemarks(1_001), name: "big.kml")]
        let run = ValidationRun(results: inputs.map(\.result), checks: check.run(on: inputs))
        XCTAssertEqual(run.exitStatus(strict: false), 1)
        let text = ValidationReport.render(run, as: .text)
        XCTAssertTrue(text.hasSuffix("""
            profile google-maps: failed, 1 error
            1 file checked: 1 error, 0 warnings, 0 notes; failed: profile google-maps

            """), text)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ValidationReport.render(run, as: .json).utf8)) as? [String: Any])
        let checks = try XCTUnwrap(json["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.first?["name"] as? String, "google-maps")
        XCTAssertEqual(checks.first?["passed"] as? Bool, false)
        let finding = try XCTUnwrap((checks.first?["findings"] as? [[String: Any]])?.first)
        XCTAssertEqual(finding["rule"] as? String, "profile/google-maps/features")
        XCTAssertEqual(finding["line"] as? Int, 1_002)
        XCTAssertEqual((finding["properties"] as? [String: Any])?["measured"] as? Int, 1_001)
        XCTAssertEqual((finding["properties"] as? [String: Any])?["maximum"] as? Int, 1_000)
        XCTAssertEqual((json["summary"] as? [String: Any])?["failedChecks"] as? [String], ["profile google-maps"])
        let sarif = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ValidationReport.render(run, as: .sarif).utf8)) as? [String: Any])
        let sarifRun = try XCTUnwrap((sarif["runs"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(((sarifRun["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["profile/google-maps/features"])
        XCTAssertEqual(rules[0]["helpUri"] as? String, "https://developers.google.com/kml/documentation/mapsSupport")
        XCTAssertEqual((rules[0]["properties"] as? [String: Any])?["profile"] as? String, "google-maps")
        XCTAssertEqual((rules[0]["properties"] as? [String: Any])?["tags"] as? [String], ["profile", "google-maps", "profile.over-limit"])
        let result = try XCTUnwrap((sarifRun["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(result["ruleId"] as? String, "profile/google-maps/features")
        XCTAssertEqual((result["properties"] as? [String: Any])?["measured"] as? Int, 1_001)
    }
}
