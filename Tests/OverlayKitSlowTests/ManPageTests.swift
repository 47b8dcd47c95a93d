import Foundation
import TestSupport
import XCTest

/// Scripts/install-completions.sh writes completions and a man page that troff reads without a
/// warning and that keeps every line of the help, characters beyond ASCII included. Slow: the
/// script builds argument-parser's generate-manual tool (about 25 s the first time).
final class ManPageTests: XCTestCase {
    func testInstalledManPageRendersWithoutWarningsAndKeepsTheHelpText() throws {
        let groff = try Prerequisite.executable("groff", install: "Debian: groff-base")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-man-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let script = TestLocations.packageRoot.appendingPathComponent("Scripts/install-completions.sh").path
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let install = try ToolRun.run("/usr/bin/env", ["-u", "XDG_DATA_HOME", "-u", "XDG_CONFIG_HOME", "HOME=\(home.path)",
                                                       "PATH=\(path)", "/bin/sh", script, CLI.binary.path])
        XCTAssertEqual(install.status, 0, install.errors)
        let page = home.appendingPathComponent(".local/share/man/man1/overlaykit.1")
        for completion in [".local/share/bash-completion/completions/overlaykit", ".zfunc/_overlaykit",
                           ".config/fish/completions/overlaykit.fish"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(completion).path), completion)
        }

        // -ww: every warning; -z: no output, only the diagnostics.
        let check = try ToolRun.run(groff, ["-mandoc", "-ww", "-z", page.path], mergingErrors: true)
        XCTAssertEqual(check.status, 0, check.text)
        XCTAssertEqual(check.text, "", "troff warns about the man page:\n\(check.text)")

        let text = try ToolRun.run("/usr/bin/env", ["MANWIDTH=400", "man", "-l", page.path])
        XCTAssertEqual(text.status, 0, text.errors)
        let rendered = text.text
        // The help lines that were lost or garbled: a line starting with ".pmtiles" (read as an
        // undefined macro and dropped), "2^(20−z)" without its minus, "256·2^z" without its dot.
        for expected in [".pmtiles and .mbtiles archives", "2^(20−z)", "256·2^z"] {
            XCTAssertTrue(rendered.contains(expected), "the man page lost '\(expected)'")
        }
    }
}
