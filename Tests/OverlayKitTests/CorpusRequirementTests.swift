import Foundation
import TestSupport
import XCTest

/// With `OVERLAYKIT_REQUIRE_CORPUS=1` (CI sets it) a test that would skip for want of
/// ../shared/corpus fails instead, so a lost corpus cannot pass as a run of skips.
final class CorpusRequirementTests: XCTestCase {
    func testCorpusSkipBecomesAFailureOnlyWhenRequired() throws {
        let saved = ProcessInfo.processInfo.environment["OVERLAYKIT_REQUIRE_CORPUS"]
        defer {
            if let saved { setenv("OVERLAYKIT_REQUIRE_CORPUS", saved, 1) } else { unsetenv("OVERLAYKIT_REQUIRE_CORPUS") }
        }
        unsetenv("OVERLAYKIT_REQUIRE_CORPUS")
        XCTAssertTrue(TestPaths.corpusAbsent(XCTSkip("corpus not found at x")) is XCTSkip)
        setenv("OVERLAYKIT_REQUIRE_CORPUS", "1", 1)
        let required = TestPaths.corpusAbsent(XCTSkip("corpus not found at x"))
        XCTAssertFalse(required is XCTSkip, "a skip would pass")
        XCTAssertTrue(String(describing: required).contains("OVERLAYKIT_REQUIRE_CORPUS=1"), "\(required)")
        XCTAssertTrue(String(describing: required).contains("corpus not found at x"), "\(required)")
    }

    /// Every place a test skips for want of the corpus goes through `corpusAbsent`.
    func testEveryCorpusSkipGoesThroughTheRequirement() throws {
        let tests = TestLocations.packageRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        XCTAssertFalse(files.isEmpty)
        // Split so that this file's own search does not match itself.
        let skipCall = "XCTSkip" + "(", reason = "corpus not" + " found"
        for file in files {
            let lines = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            for (number, line) in lines.enumerated() where line.contains(skipCall) && line.contains(reason) {
                XCTAssertTrue(line.contains("corpusAbsent(" + skipCall), "Tests/\(file):\(number + 1) skips for the corpus without corpusAbsent")
            }
        }
    }
}
