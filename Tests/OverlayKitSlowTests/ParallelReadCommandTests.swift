import Foundation
import TestSupport
import XCTest

/// `overlaykit tile` on a GeoJSONSeq file big enough to be read in two parts (4 MiB each at
/// least): `--threads 2` writes the same archive bytes and the same messages as `--threads 1`.
final class ParallelReadCommandTests: XCTestCase {
    /// About 9 MB of points and lines, one record a line, with warnings (a one-position line,
    /// a duplicate member) in both halves; `bad` puts a non-number position near the end.
    private func sequence(bad: Bool, lineEnd: String) -> String {
        var text = ""
        text.reserveCapacity(9_500_000)
        for index in 0..<80_000 {
            let x = Double(index % 3_600) / 10 - 180, y = Double(index % 1_700) / 10 - 85
            switch index % 997 {
            case 5:
                text += #"{"type":"Feature","properties":{"i":\#(index)},"geometry":{"type":"LineString","coordinates":[[\#(x),\#(y)]]}}"#
            case 9:
                text += #"{"type":"Feature","id":\#(index),"properties":{"i":\#(index),"i":0},"geometry":{"type":"Point","coordinates":[\#(x),\#(y)]}}"#
            default:
                let value = bad && index == 70_001 ? #""x""# : "\(y)"
                text += #"{"type":"Feature","id":\#(index),"properties":{"i":\#(index),"name":"feature number \#(index)","kind":"k\#(index % 7)"},"geometry":{"type":"LineString","coordinates":[[\#(x),\#(y)],[\#(x + 0.5),\#(value)]]}}"#
            }
            text += lineEnd
        }
        return text
    }

    private func tile(_ input: URL, threads: Int, folder: URL) throws -> (status: Int32, stderr: String, archive: Data?) {
        let output = folder.appendingPathComponent("t\(threads).pmtiles")
        let result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "2", "--threads", "\(threads)",
                                  "--no-progress", "--force"])
        return (result.status, result.stderr.replacingOccurrences(of: output.path, with: "OUT"),
                try? Data(contentsOf: output))
    }

    func testTwoThreadsWriteTheSameArchiveAndMessages() throws {
        let folder = try CLI.temporaryFolder(self)
        for lineEnd in ["\n", "\r\n"] {
            let input = folder.appendingPathComponent("lines.geojsonseq")
            try Data(sequence(bad: false, lineEnd: lineEnd).utf8).write(to: input)
            let one = try tile(input, threads: 1, folder: folder)
            let two = try tile(input, threads: 2, folder: folder)
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertEqual(two.status, one.status)
            XCTAssertEqual(two.stderr, one.stderr)
            XCTAssertNotNil(one.archive)
            XCTAssertEqual(two.archive, one.archive, "archives differ with \(lineEnd.debugDescription)")
            // Warnings from the second half keep their place in the whole file.
            XCTAssertTrue(one.stderr.contains("lines.geojsonseq:79766:"), one.stderr)
        }
    }

    func testBadRecordInTheSecondPartFailsAlikeWithItsLocation() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("bad.geojsonseq")
        try Data(sequence(bad: true, lineEnd: "\n").utf8).write(to: input)
        let one = try tile(input, threads: 1, folder: folder)
        let two = try tile(input, threads: 2, folder: folder)
        XCTAssertEqual(one.status, 65)
        XCTAssertEqual(two.status, 65)
        XCTAssertEqual(two.stderr, one.stderr)
        XCTAssertTrue(one.stderr.contains("bad.geojsonseq:70002:"), one.stderr)
        XCTAssertTrue(one.stderr.contains("(/70001/geometry/coordinates/1/1)"), one.stderr)
        XCTAssertNil(two.archive, "no archive after an error")
    }

    func testProgressSaysHowLongReadingTook() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("small.geojsonseq")
        try Data(#"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#.utf8).write(to: input)
        let result = try CLI.run(["tile", input.path, "-o", folder.appendingPathComponent("s.pmtiles").path,
                                  "--max-zoom", "1", "--progress"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("tile: read and projected 1 features in "), result.stderr)
    }
}
