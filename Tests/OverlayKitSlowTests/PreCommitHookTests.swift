import Foundation
import TestSupport
import XCTest

/// The repository's `.pre-commit-hooks.yaml` run by pre-commit itself (`pre-commit try-repo`),
/// offline: the hook is `language: system`, so pre-commit installs nothing and runs the
/// `overlaykit` it finds on PATH (here the one this package built). The manifest is copied
/// into a one-commit repository of its own, so the run neither clones this package's history
/// nor depends on what is committed in it.
final class PreCommitHookTests: XCTestCase {
    func testTheHookFailsACommitWithABrokenFileAndPassesAClean() throws {
        let preCommit = try Prerequisite.executable("pre-commit", install: "pip install pre-commit")
        let git = try Prerequisite.executable("git", install: "Debian: git")
        let folder = try CLI.temporaryFolder(self)
        func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> CLI.Result {
            // pre-commit finds overlaykit on PATH; its cache stays in the test's folder.
            let environment = ["PATH=\(CLI.binary.deletingLastPathComponent().path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
                               "PRE_COMMIT_HOME=\(folder.appendingPathComponent("cache").path)", "HOME=\(folder.path)",
                               "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"]
            return try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), environment + [tool] + arguments, currentDirectory: directory)
        }
        // The hook repository: this package's manifest, committed.
        let hooks = folder.appendingPathComponent("hooks")
        try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent(".pre-commit-hooks.yaml"),
                                         to: hooks.appendingPathComponent(".pre-commit-hooks.yaml"))
        for arguments in [["init", "-q", "."], ["add", ".pre-commit-hooks.yaml"], ["commit", "-q", "-m", "hooks"]] {
            let step = try run(git, arguments, in: hooks)
            guard step.status == 0 else { return XCTFail("git \(arguments): \(step.stderr)") }
        }
        // A project with a broken GeoJSON, a clean KML and a file the hook does not look at.
        let project = folder.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(#"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}"#.utf8)
            .write(to: project.appendingPathComponent("bad.geojson"))
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Examples/places.kml"), to: project.appendingPathComponent("good.kml"))
        try Data("# notes\n".utf8).write(to: project.appendingPathComponent("README.md"))
        _ = try run(git, ["init", "-q", "."], in: project)
        _ = try run(git, ["add", "."], in: project)

        let failing = try run(preCommit, ["try-repo", hooks.path, "overlaykit-validate", "--files", "bad.geojson", "good.kml", "README.md"], in: project)
        let output = failing.stdoutText
        XCTAssertEqual(failing.status, 1, output + failing.stderr)
        XCTAssertTrue(output.contains("overlaykit validate....") && output.contains("Failed"), output)
        XCTAssertTrue(output.contains("bad.geojson:1:79: error: geojson.ring-not-closed"), output)
        // README.md is not a file the hook matches: two files reach overlaykit.
        XCTAssertTrue(output.contains("2 files checked: 1 error, 0 warnings, 0 notes; 1 file with errors"), output)

        let passing = try run(preCommit, ["try-repo", hooks.path, "overlaykit-validate", "--files", "good.kml"], in: project)
        XCTAssertEqual(passing.status, 0, passing.stdoutText + passing.stderr)
        XCTAssertTrue(passing.stdoutText.contains("Passed"), passing.stdoutText)
    }
}
