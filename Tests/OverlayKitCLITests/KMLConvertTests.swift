import Foundation
import TestSupport
import XCTest

/// `overlaykit convert` with KML and KMZ, run as the built binary.
final class KMLConvertTests: XCTestCase {
    static let packageRoot = CLI.packageRoot

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    func run(_ arguments: [String], stdin: Data? = nil) throws -> Result {
        let result = try CLI.run(arguments, stdin: stdin)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = try CLI.temporaryFolder(self)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let geojson = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":5,"properties":{"name":"Dock","stroke":"#ff0000","stroke-width":3,"depth":12.5,"open":true},
         "geometry":{"type":"LineString","coordinates":[[1.5,2.5],[3,4]]}},
        {"type":"Feature","properties":{"name":"Buoy","radius":250},"geometry":{"type":"Point","coordinates":[10,20]}}
        ]}
        """

    func testGeoJSONToKMLAndBack() throws {
        let source = try file("in.geojson", Self.geojson)
        let kml = directory.appendingPathComponent("out.kml").path
        let toKML = try run(["convert", source, "-o", kml])
        XCTAssertEqual(toKML.status, 0, toKML.stderr)
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        XCTAssertTrue(text.contains("<Style id=\"s1\"><LineStyle><color>ff0000ff</color><width>3.0</width></LineStyle></Style>"), text)
        XCTAssertTrue(text.contains("<name>Dock</name>"))
        XCTAssertTrue(text.contains("overlaykit:circle-radius"), "the circle keeps its radius")

        let back = try run(["convert", kml])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.text.contains("\"id\":5"), back.text)
        XCTAssertTrue(back.text.contains("\"stroke\":\"#ff0000\""), back.text)
        XCTAssertTrue(back.text.contains("\"depth\":12.5"))
        XCTAssertTrue(back.text.contains("\"open\":true"))
        XCTAssertTrue(back.text.contains("{\"type\":\"Point\",\"coordinates\":[10,20]}"), "circle back as a Point with radius: \(back.text)")
        XCTAssertTrue(back.text.contains("\"radius\":250"))

        let again = directory.appendingPathComponent("again.kml").path
        XCTAssertEqual(try run(["convert", source, "-o", again]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: kml), FileManager.default.contents(atPath: again), "deterministic bytes")
    }

    /// GeoJSON now reads simplestyle into the feature's style; writing it back must not add
    /// properties the input did not have (e.g. a default `stroke` beside a lone `stroke-opacity`).
    func testSimplestyleRoundTripAddsNothing() throws {
        let source = try file("style.geojson", """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"stroke-opacity":0.5,"stroke-width":2},"geometry":{"type":"Point","coordinates":[1,2]}}]}
            """)
        let expected = "{\"type\":\"Feature\",\"properties\":{\"stroke-opacity\":0.5,\"stroke-width\":2},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
        let direct = try run(["convert", source])
        XCTAssertTrue(direct.text.contains(expected), direct.text)
        let kml = directory.appendingPathComponent("style.kml").path
        XCTAssertEqual(try run(["convert", source, "-o", kml]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: kml, encoding: .utf8).contains("<LineStyle><color>80555555</color><width>2.0</width></LineStyle>"))
        let back = try run(["convert", kml])
        XCTAssertTrue(back.text.contains(expected), back.text)
    }

    /// Issue 21 item 11: a collection's `name` is KML's Document/name, both ways, without a warning.
    func testCollectionNameIsTheDocumentName() throws {
        let kml = directory.appendingPathComponent("parks.kml").path
        let toKML = try run(["convert", CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path, "--to", "kml", "-o", kml])
        XCTAssertEqual(toKML.status, 0, toKML.stderr)
        XCTAssertEqual(toKML.stderr, "")
        XCTAssertTrue(try String(contentsOfFile: kml, encoding: .utf8).contains("<Document>\n<name>parks</name>\n"))
        let back = try run(["convert", kml])
        XCTAssertEqual(back.stderr, "")
        XCTAssertTrue(back.text.hasSuffix("],\"name\":\"parks\"}\n"), back.text)
    }

    func testKMZOutAndIn() throws {
        let source = try file("in.geojson", Self.geojson)
        let kmz = directory.appendingPathComponent("out.kmz").path
        let result = try run(["convert", source, "-o", kmz])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: kmz)?.prefix(2), Data("PK".utf8))
        let back = try run(["convert", kmz, "--to", "geojson"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.text.contains("\"name\":\"Dock\""), back.text)
    }

    func testKMLFromStandardInput() throws {
        let kml = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Placemark><name>s</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>"
        let result = try run(["convert", "-", "--from", "kml"], stdin: Data(kml.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.text.contains("\"coordinates\":[1,2]"), result.text)
        // Without --from the format is sniffed from the first 512 bytes. (ByteInput.peek loops
        // forever on a non-file input shorter than what it peeks — reported to the lead — so
        // this input is padded past 512 bytes.)
        let padded = "<!--" + String(repeating: " ", count: 600) + "-->" + kml
        let sniffed = try run(["convert"], stdin: Data(padded.utf8))
        XCTAssertEqual(sniffed.status, 0, sniffed.stderr)
    }

    func testBadKMLFailsWithLocationAndLeavesNoOutput() throws {
        let bad = try file("bad.kml", "<kml>\n<Placemark>\n<name>x</nam>\n</Placemark>\n</kml>\n")
        let target = directory.appendingPathComponent("never.geojson").path
        let result = try run(["convert", bad, "-o", target])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("bad.kml:3:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("kml.xml-syntax"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("never") }
        XCTAssertEqual(leftovers, [])
    }

    func testBillionLaughsIsRejected() throws {
        var entities = "<!ENTITY a0 \"lol\">"
        for level in 1...15 { entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
        let bomb = try file("bomb.kml", "<?xml version=\"1.0\"?><!DOCTYPE kml [\(entities)]><kml><Placemark><name>&a15;</name></Placemark></kml>")
        let result = try run(["convert", bomb])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("billion-laughs"), result.stderr)
    }

    func testMalformedCoordinateWarnsWithLineAndColumn() throws {
        let kml = try file("warn.kml", "<kml>\n<Placemark><LineString><coordinates>1,2 3,oops 5,6</coordinates></LineString></Placemark>\n</kml>\n")
        let result = try run(["convert", kml])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warn.kml:2:41: warning: kml.bad-coordinate"), result.stderr)
        XCTAssertTrue(result.text.contains("[[1,2],[5,6]]"), result.text)
    }
}
