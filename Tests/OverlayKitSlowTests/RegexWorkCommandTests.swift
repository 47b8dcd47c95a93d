import Foundation
import TestSupport
import XCTest

/// Issue 34 item 9: `(a{1000}){20}`, at the documented limits of a `--where` regex, took 33 s on
/// one 1 MB value. The work per value is now bounded (`LinearRegex.maximumWork`): `filter` and
/// `tile` refuse the value with its location instead (a bad feature; `--on-error skip` skips it).
/// Slow target: the bound is seconds of work in a debug build.
final class RegexWorkCommandTests: XCTestCase {
    func testARegexAtTheLimitsIsRefusedWithinItsBound() throws {
        let folder = try CLI.temporaryFolder(self)
        let runs = String(repeating: String(repeating: "a", count: 999) + "b", count: 1000)
        let input = folder.appendingPathComponent("big.geojsons")
        let lines = [
            #"{"type":"Feature","properties":{"v":"short aaa"},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            #"{"type":"Feature","properties":{"v":"\#(runs)"},"geometry":{"type":"Point","coordinates":[1,1]}}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let expression = "v ~ /(a{1000}){20}/"
        for arguments in [["filter", input.path, "--where", expression, "--count"],
                          ["tile", input.path, "--where", expression, "-z2", "-o", folder.appendingPathComponent("t.pmtiles").path]] {
            let start = Date()
            let result = try CLI.runMeasuringPeakMemory(arguments, seconds: 120)
            let seconds = Date().timeIntervalSince(start)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("big.geojsons:2:"), "located at the feature: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("filter.where-too-costly"), result.stderr)
            print("\(arguments[0]) refused the 1 MB value after \(String(format: "%.2f", seconds)) s (debug build unless OVERLAYKIT_BINARY)")
        }
        let skipped = try CLI.run(["filter", input.path, "--where", expression, "--count", "--on-error", "skip"])
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertEqual(skipped.stdoutText, "0\n")
        XCTAssertTrue(skipped.stderr.contains("1"), skipped.stderr)
    }
}
