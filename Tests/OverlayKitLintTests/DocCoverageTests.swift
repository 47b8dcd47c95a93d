import Foundation
import TestSupport
import XCTest

/// Every public declaration of OverlayKit and OverlayModel has a doc comment: runs
/// Scripts/check-doc-coverage.sh over the modules this test bundle was built with.
final class DocCoverageTests: XCTestCase {
    func testEveryPublicDeclarationIsDocumented() throws {
        _ = try Prerequisite.executable("swift-symbolgraph-extract", install: "part of the Swift toolchain")
        // The bundle is (on Linux) or sits in (on macOS) the build folder whose Modules/ hold
        // the modules under test.
        let bundle = Bundle(for: DocCoverageTests.self).bundleURL
        let buildFolder = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        try Prerequisite.require(FileManager.default.fileExists(atPath: buildFolder.appendingPathComponent("Modules").path),
                                 "no Modules folder beside the test bundle at \(buildFolder.path)")
        let script = TestLocations.packageRoot.appendingPathComponent("Scripts/check-doc-coverage.sh").path
        let run = try ToolRun.run("/bin/sh", [script, buildFolder.path], mergingErrors: true)
        XCTAssertTrue(run.text.contains("undocumented: 0"), run.text)
        XCTAssertEqual(run.status, 0, run.text)
    }
}
