import Foundation
import TestSupport
import XCTest

/// Messages a new user meets first (issue 21 items 9, 10, 12, 13; issue 25 item 13): they say
/// what is wrong, in one spelling, with counts that add up and exit codes that fit.
final class NewcomerMessageTests: XCTestCase {
    private let examples = CLI.packageRoot.appendingPathComponent("Examples")

    private func tileSet(_ folder: URL, _ name: String, features: String) throws -> URL {
        let input = folder.appendingPathComponent("\(name).geojsonl")
        try Data(features.utf8).write(to: input)
        let output = folder.appendingPathComponent(name)
        let result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return output
    }

    func testTileJoinOfAFileThatIsNoTileSetIsBadInput() throws {
        let folder = try CLI.temporaryFolder(self)
        let parks = examples.appendingPathComponent("parks.geojson").path
        let result = try CLI.run(["tile-join", parks, "-o", folder.appendingPathComponent("j.pmtiles").path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("error: tile.not-a-tile-set: \(parks) is not a tile set"), result.stderr)
        XCTAssertFalse(result.stderr.contains("not a directory"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testTileJoinOfNothingButEmptyInputsIsAnError() throws {
        let folder = try CLI.temporaryFolder(self)
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("j.pmtiles")
        let result = try CLI.run(["tile-join", empty.path, "-o", output.path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("error: tilejoin.no-tiles: no tiles to join: \(empty.path) holds no tiles"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        // Beside a set that has tiles, an empty input is a warning and the join goes on.
        let parks = try tileSet(folder, "parks", features: #"{"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Point","coordinates":[1,2]}}"#)
        let mixed = try CLI.run(["tile-join", parks.path, empty.path, "-o", output.path])
        XCTAssertEqual(mixed.status, 0, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("warning: tilejoin.empty-input: \(empty.path) holds no tiles"), mixed.stderr)
    }

    func testTileJoinCountsAddUpAndTheSizeIsTheFiles() throws {
        let folder = try CLI.temporaryFolder(self)
        let west = try tileSet(folder, "west", features: #"{"type":"Feature","properties":{"name":"a","k":1},"geometry":{"type":"Point","coordinates":[-100,10]}}"#)
        let east = try tileSet(folder, "east", features: #"{"type":"Feature","properties":{"name":"b","k":2},"geometry":{"type":"Point","coordinates":[100,10]}}"#)
        let output = folder.appendingPathComponent("j.pmtiles")
        let result = try CLI.run(["tile-join", west.path, east.path, "-y", "name", "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        // z0 holds both points (merged); z1 and z2 one each per input (rewritten by -y).
        let line = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.hasPrefix("tile-join: ") }, result.stderr)
        XCTAssertTrue(line.hasPrefix("tile-join: 5 tiles (1 merged, 4 rewritten, 0 copied)"), String(line))
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int)
        XCTAssertTrue(line.contains(", \(size) bytes from 2 inputs in "), "the file's own size: \(line)")
        let copied = try CLI.run(["tile-join", west.path, "-o", folder.appendingPathComponent("d").path])
        XCTAssertTrue(copied.stderr.contains("(0 merged, 0 rewritten, 3 copied)"), copied.stderr)
        XCTAssertTrue(copied.stderr.contains("bytes of uncompressed tiles from 1 input in"), copied.stderr)
    }

    func testHelpSentencesAreNotBrokenAndDefaultsAreNotSaidTwice() throws {
        let join = try CLI.run(["tile-join", "--help"])
        XCTAssertEqual(join.status, 0)
        // Every line of the discussion runs on to fill the width or ends its paragraph
        // (it once broke after "(after", "byte", "range", "-x/-y").
        let discussion = join.stdoutText.components(separatedBy: "USAGE:")[0].split(separator: "\n").dropFirst(2)
        XCTAssertGreaterThan(discussion.count, 5)
        for line in discussion { XCTAssertTrue(line.count > 60 || line.hasSuffix("."), "a line broken mid-sentence: '\(line)'") }
        let tile = try CLI.run(["tile", "--help"])
        XCTAssertFalse(tile.stdoutText.contains("the default is every core). (default:"), tile.stdoutText)
        XCTAssertTrue(tile.stdoutText.contains("by default one per core"), tile.stdoutText)
    }

    func testEveryErrorIsSpelledTheSameWay() throws {
        let usage = try CLI.run(["convert", "--precision", "99", examples.appendingPathComponent("parks.geojson").path])
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.stderr.hasPrefix("error: usage: --precision must be 0…17\n"), usage.stderr)
        XCTAssertFalse(usage.stderr.contains("Error:"), usage.stderr)
        let unknown = try CLI.run(["info", "--bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("error: usage: "), unknown.stderr)
        // Help and version still go to standard output with exit 0.
        let help = try CLI.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdoutText.contains("USAGE:"), help.stdoutText)
    }

    func testAMissingInputIsNamedAsAFileInEveryCommand() throws {
        let missing = "/nonexistent/overlaykit/missing.geojson"
        let folder = try CLI.temporaryFolder(self)
        for arguments in [["convert", missing], ["info", missing], ["filter", missing], ["validate", missing],
                          ["render", missing, "-o", folder.appendingPathComponent("x.png").path],
                          ["tile", missing, "-o", folder.appendingPathComponent("t").path]] {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 74, "\(arguments[0]): \(result.stderr)")
            XCTAssertTrue((result.stderr + result.stdoutText).contains("\(missing):1:1: error: io.open-failed: cannot open \(missing)"),
                          "\(arguments[0]): \(result.stderr)")
        }
        let set = "/nonexistent/overlaykit/missing.pmtiles"
        let join = try CLI.run(["tile-join", set, "-o", folder.appendingPathComponent("j.pmtiles").path])
        XCTAssertEqual(join.status, 74, join.stderr)
        XCTAssertTrue(join.stderr.contains("\(set):1:1: error: io.not-found: no such tile set: \(set)"), join.stderr)
    }

    func testInfoBoundingMapRectAgreesWithABoxAcrossTheAntimeridian() throws {
        let result = try CLI.run(["info", "--json", examples.appendingPathComponent("countries.geojson").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(object["crossesAntimeridian"] as? Bool, true)
        let bbox = try XCTUnwrap(object["bbox"] as? [Double])
        let rect = try XCTUnwrap(object["boundingMapRect"] as? [String: Double])
        let world = 268_435_456.0
        let x = try XCTUnwrap(rect["x"]), width = try XCTUnwrap(rect["width"])
        // MapKit's form: starts at the west edge, runs past the world's east edge to the east one.
        XCTAssertEqual(x, (bbox[0] + 180) / 360 * world, accuracy: 1e-3)
        XCTAssertEqual(x + width, (bbox[2] + 180) / 360 * world + world, accuracy: 1e-3)
        XCTAssertLessThan(width, world)
    }
}

extension NewcomerMessageTests {
    /// Whole-world data written 180 … −180 (Google's time-span overlays) keeps the whole world's rect.
    func testInfoWholeWorldFromTheAntimeridianKeepsTheWorldsRect() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("world.geojson")
        try Data(#"{"type":"Polygon","coordinates":[[[180,-80],[-180,-80],[-180,80],[180,80],[180,-80]]]}"#.utf8).write(to: input)
        let result = try CLI.run(["info", "--json", input.path])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let rect = try XCTUnwrap(object["boundingMapRect"] as? [String: Double])
        XCTAssertGreaterThan(try XCTUnwrap(rect["width"]), 0, "\(object)")
    }
}
