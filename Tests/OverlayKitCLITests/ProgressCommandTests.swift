import Foundation
import TestSupport
import XCTest

/// Long runs say how far they are (issue 51 item 11): `tile --progress` reads with a percentage
/// of the input's bytes and writes with a percentage of the tiles the features reach and the time
/// left; `info TILESET` prints what the header and metadata say before it reads a tile, and
/// `--progress` shows the scan.
final class ProgressCommandTests: XCTestCase {
    /// A world polygon and 3,000 points: 250 KB, tiles to every zoom; reading reports every 1,024
    /// features, so the first report with features read is a third of the file.
    private func input(_ folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("world.geojson")
        var text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"world"},"geometry":{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]}}"#
        for index in 0..<3000 {
            text += #",{"type":"Feature","properties":{"i":\#(index)},"geometry":{"type":"Point","coordinates":[\#(Double(index % 300) - 150),\#(Double(index / 300) * 7 - 35)]}}"#
        }
        try Data((text + "]}").utf8).write(to: url)
        return url
    }

    func testTileProgressSaysPercentAndTimeLeftWhileReadingAndWriting() throws {
        let folder = try CLI.temporaryFolder(self)
        let output = folder.appendingPathComponent("out.pmtiles").path
        let result = try CLI.run(["tile", try input(folder).path, "-o", output, "-z", "8", "--progress"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let reading = try XCTUnwrap(lines.first { $0.hasPrefix("tile: reading") }, result.stderr)
        XCTAssertNotNil(reading.range(of: #"^tile: reading 0\.0 KB of \d+\.\d KB, 0 features, 0%$"#, options: .regularExpression),
                        "a line from the first byte: \(reading)")
        XCTAssertNotNil(lines.first { $0.range(of: #"^tile: reading \d+\.\d KB of \d+\.\d KB, 1024 features, \d+%, about \d+ (s|min \d+ s) left$"#,
                                               options: .regularExpression) != nil },
                        "bytes of the file's size, a percentage and the time left: \(result.stderr)")
        let writing = lines.filter { $0.range(of: #"^tile: z\d+ \d+ tiles \(\d+ at z\d+\), \d+%(, about \d+ (s|min \d+ s|h \d+ min) left)?, \d+ tiles/s$"#,
                                               options: .regularExpression) != nil }
        XCTAssertFalse(writing.isEmpty, "a line with a percentage of the tiles: \(result.stderr)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("tile: z8 87381 tiles") && $0.contains(", 100%, ") }, result.stderr)
        XCTAssertLessThan(try XCTUnwrap(lines.firstIndex(of: reading)), try XCTUnwrap(lines.firstIndex(of: writing[0])), "reading first")

        // Without --progress and not on a terminal: no progress lines.
        let quiet = try CLI.run(["tile", try input(folder).path, "-o", output, "-z", "4", "--force"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("%"), quiet.stderr)
    }

    func testInfoPrintsTheHeaderSummaryBeforeItScansTheTiles() throws {
        let folder = try CLI.temporaryFolder(self)
        let archive = folder.appendingPathComponent("world.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", try input(folder).path, "-o", archive, "-z", "6"]).status, 0)

        // Standard output and error in one pipe, in the order they were written.
        let shell = URL(fileURLWithPath: "/bin/sh")
        let merged = try CLI.runTool(shell, ["-c", #""$0" info "$1" --progress 2>&1"#, CLI.binary.path, archive])
        XCTAssertEqual(merged.status, 0, merged.stdoutText)
        let lines = merged.stdoutText.split(separator: "\n").map(String.init)
        func index(_ prefix: String) throws -> Int {
            try XCTUnwrap(lines.firstIndex { $0.hasPrefix(prefix) }, "\(prefix) in \(merged.stdoutText)")
        }
        XCTAssertEqual(lines.first, "tileset: \(archive)")
        let header = try index("header: 5461 tiles in ")
        XCTAssertLessThan(try index("format: pmtiles, mvt tiles (gzip)"), header)
        XCTAssertLessThan(header, try index("layer world: zooms 0…6"))
        XCTAssertLessThan(try index("layer world: zooms 0…6"), try index("info: listing the tiles"), "the summary before the scan begins")
        XCTAssertLessThan(try index("info: listing the tiles"), try index("info: 0 of "))
        XCTAssertNotNil(lines.first { $0.range(of: #"^info: \d+ of \d+ runs of tiles read \(\d+ tiles so far\), \d+%"#, options: .regularExpression) != nil })
        XCTAssertLessThan(try index("info: read 5461 tiles in "), try index("tiles: 5461, bytes: "), "the scan's report after it")
        XCTAssertLessThan(try index("tiles: 5461, bytes: "), try index("zoom "))

        // Without --progress standard output is the same, and standard error empty.
        let plain = try CLI.run(["info", archive])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stderr, "")
        XCTAssertEqual(plain.lines, lines.filter { !$0.hasPrefix("info: ") })
        // --json is one JSON document: no summary before it.
        let json = try CLI.run(["info", archive, "--json"])
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: json.stdout), json.stdoutText)
    }
}
