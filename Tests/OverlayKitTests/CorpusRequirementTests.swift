import Foundation
import TestSupport
import XCTest

/// With `OVERLAYKIT_REQUIRE_CORPUS=1` (CI sets it) a test that would skip for want of
/// ../shared/corpus fails instead, so a lost corpus cannot pass as a run of skips. Every corpus
/// skip goes through `Prerequisite.corpus` (`SkipPlacementTests` checks that no test skips
/// any other way).
final class CorpusRequirementTests: XCTestCase {
    func testCorpusSkipBecomesAFailureOnlyWhenRequired() throws {
        let saved = ProcessInfo.processInfo.environment["OVERLAYKIT_REQUIRE_CORPUS"]
        defer {
            if let saved { setenv("OVERLAYKIT_REQUIRE_CORPUS", saved, 1) } else { unsetenv("OVERLAYKIT_REQUIRE_CORPUS") }
        }
        let missing = "no/such/corpus/file.json"
        unsetenv("OVERLAYKIT_REQUIRE_CORPUS")
        XCTAssertThrowsError(try Prerequisite.corpus(missing)) { error in
            XCTAssertTrue(error is XCTSkip, "\(error)")
            XCTAssertTrue(String(describing: error).contains(missing), "\(error)")
        }
        setenv("OVERLAYKIT_REQUIRE_CORPUS", "1", 1)
        XCTAssertThrowsError(try Prerequisite.corpus(missing)) { error in
            XCTAssertFalse(error is XCTSkip, "a skip would pass")
            XCTAssertTrue(String(describing: error).contains("OVERLAYKIT_REQUIRE_CORPUS=1"), "\(error)")
            XCTAssertTrue(String(describing: error).contains(missing), "\(error)")
        }
    }
}
