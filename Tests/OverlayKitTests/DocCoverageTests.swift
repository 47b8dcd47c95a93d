import Foundation
import XCTest

/// Every public declaration of OverlayKit and OverlayModel has a doc comment: runs
/// Scripts/check-doc-coverage.sh over the modules this test bundle was built with.
final class DocCoverageTests: XCTestCase {
    func testEveryPublicDeclarationIsDocumented() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let tool = path.split(separator: ":").map { "\($0)/swift-symbolgraph-extract" }
        guard tool.contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("skipped: swift-symbolgraph-extract not on PATH")
        }
        // The bundle is (on Linux) or sits in (on macOS) the build folder whose Modules/ hold
        // the modules under test.
        let bundle = Bundle(for: DocCoverageTests.self).bundleURL
        let buildFolder = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        guard FileManager.default.fileExists(atPath: buildFolder.appendingPathComponent("Modules").path) else {
            throw XCTSkip("skipped: no Modules folder beside the test bundle at \(buildFolder.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Scripts/check-doc-coverage.sh").path, buildFolder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(text.contains("undocumented: 0"), text)
        XCTAssertEqual(process.terminationStatus, 0, text)
    }
}
