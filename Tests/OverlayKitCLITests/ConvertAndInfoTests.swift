import Foundation
import TestSupport
import XCTest

final class ConvertAndInfoTests: XCTestCase {
    let sample = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{"name":"Pin"},"geometry":{"type":"Point","coordinates":[2.35,48.85]}},
    {"type":"Feature","properties":{"k":1},"geometry":{"type":"LineString","coordinates":[[179,10],[181,11]]}}
    ]}
    """

    func testConvertFileToFileAndSequence() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("in.geojson")
        try sample.write(to: input, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.geojsons")
        let result = try CLI.run(["convert", input.path, "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(String(lines[0]), #"{"type":"Feature","properties":{"name":"Pin"},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}"#)
        // No temporary files are left behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["in.geojson", "out.geojsons"])
    }

    func testConvertStdinToStdoutDetectsFormatFromContent() throws {
        let result = try CLI.run(["convert", "--precision", "1"], stdin: Data(sample.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":[\n"))
        XCTAssertTrue(result.stdoutText.contains("[2.4,48.9]"), result.stdoutText)
    }

    func testBadInputExits65WithLocationAndWritesNoFile() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("bad.geojson")
        try "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1]}}]}"
            .write(to: input, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.geojson")
        let result = try CLI.run(["convert", input.path, "-o", output.path])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stderr, "\(input.path):2:76: error: geojson.position-too-short: position needs at least 2 numbers, found 1 (/features/0/geometry/coordinates)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["bad.geojson"])
    }

    func testMissingFileAndUnknownFormat() throws {
        let missing = try CLI.run(["convert", "/nonexistent/x.geojson"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.contains("io.open-failed"), missing.stderr)
        let unknown = try CLI.run(["info"], stdin: Data("hello".utf8))
        XCTAssertEqual(unknown.status, 65)
        XCTAssertTrue(unknown.stderr.contains("input.unknown-format"), unknown.stderr)
        let usage = try CLI.run(["convert", "--precision", "40"])
        XCTAssertEqual(usage.status, 64)
    }

    func testInfoTextAndJSON() throws {
        let text = try CLI.run(["info"], stdin: Data(sample.utf8))
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdoutText.contains("features: 2\n  annotation: 1\n  polyline: 1\n"), text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("vertices: 3\n"))
        let json = try CLI.run(["info", "--json"], stdin: Data(sample.utf8))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        XCTAssertEqual(object["features"] as? Int, 2)
        XCTAssertEqual(object["vertices"] as? Int, 3)
        // A line written past 180° (edges are straight in longitude: a jump to -179 would be the
        // long way round) and a point far west of it: west > east.
        XCTAssertEqual(object["bbox"] as? [Double], [2.35, 10, -179, 48.85])
        XCTAssertEqual(object["crossesAntimeridian"] as? Bool, true)
        XCTAssertEqual((object["properties"] as? [String: [String]])?["k"], ["number"])
    }

    func testClosedPipeEndsQuietly() throws {
        // Many features to stdout, whose reader goes away at once.
        let feature = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let big = Data((0..<200_000).map { _ in feature }.joined(separator: "\n").utf8)
        CLI.ignoreBrokenPipes()
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["convert", "--to", "geojsonseq"]
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        try output.fileHandleForReading.close()
        DispatchQueue.global().async {
            try? input.fileHandleForWriting.write(contentsOf: big)
            try? input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
    }
}
