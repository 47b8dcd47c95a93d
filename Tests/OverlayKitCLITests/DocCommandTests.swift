import Foundation
import TestSupport
import XCTest

/// The docs run as written, the way rustdoc runs examples: every shell command in README.md,
/// Examples/README.md, docs/*.md and the DocC catalogs runs from the root of a fresh copy of the
/// package (its git-tracked files) with the built `overlaykit` on PATH, file by file, top to
/// bottom, twice (a reader runs a page again), and must end with its block's exit status and
/// print the output its console block shows. Swift snippets must appear in
/// Examples/LibraryAPI, which the build compiles and `testLibraryExampleRuns` runs.
/// The markers are described in README.md, "Tests".
final class DocCommandTests: XCTestCase {
    /// The Markdown files whose blocks are checked, relative to the package root.
    static func documentationFiles() throws -> [String] {
        let root = TestLocations.packageRoot
        let manager = FileManager.default
        var files = ["README.md", "Examples/README.md"]
        files += try manager.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        for module in try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).sorted() {
            for catalog in (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/\(module)").path)) ?? []
            where catalog.hasSuffix(".docc") {
                let folder = "Sources/\(module)/\(catalog)"
                files += try manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                    .filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
            }
        }
        return files
    }

    func testEveryDocCommandRunsAsWritten() throws {
        var ran = 0
        for file in try Self.documentationFiles() {
            let markdown = try String(contentsOf: TestLocations.packageRoot.appendingPathComponent(file), encoding: .utf8)
            let blocks = try DocBlock.blocks(in: markdown).filter(\.isShell)
            guard blocks.contains(where: { !$0.commands.isEmpty }) else { continue }
            let sandbox = try DocSandbox(testCase: self)
            for pass in 1...2 {
                for block in blocks {
                    if let step = block.ciStep {
                        if pass == 1 { print("doc-test: \(file):\(block.line): run by .ci/run as its '\(step)' step") }
                        continue
                    }
                    if let reason = block.skipReason {
                        if pass == 1 { print("doc-test: \(file):\(block.line): not run: \(reason)") }
                        continue
                    }
                    if let missing = block.needs.first(where: { !sandbox.has($0) }) {
                        let message = "\(file):\(block.line): skipped: needs \(missing)"
                        if missing.contains("shared/corpus"), TestLocations.corpusRequired {
                            XCTFail("\(message) and OVERLAYKIT_REQUIRE_CORPUS is set")
                        } else if pass == 1 {
                            print("doc-test: \(message)")
                        }
                        continue
                    }
                    for command in block.commands {
                        // A build or test run inside this test would build the package again in
                        // the copy (minutes) or recurse into this suite.
                        if command.text.hasPrefix("swift ") {
                            XCTFail("\(file):\(command.line): `\(command.text)` is not run by the doc test; mark its block "
                                    + "<!-- doc-test: skip: why -->")
                            continue
                        }
                        let result = try sandbox.run(command.text)
                        ran += 1
                        let place = "\(file):\(command.line) (run \(pass)): \(command.text)"
                        XCTAssertEqual(result.status, block.expectedStatus,
                                       "\(place)\nexit \(result.status), expected \(block.expectedStatus)\nstderr: \(result.stderr)")
                        if let expected = command.expectedOutput {
                            let actual = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                            let trimmedActual = actual.last == "" ? Array(actual.dropLast()) : actual
                            let trimmedExpected = expected.last == "" ? Array(expected.dropLast()) : expected
                            XCTAssertTrue(DocBlock.output(trimmedActual, matches: trimmedExpected),
                                          "\(place)\nprinted:\n\(result.stdoutText)\nthe doc shows:\n\(expected.joined(separator: "\n"))")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(ran, 20, "the docs hold fewer commands than expected: is the extraction broken?")
    }

    /// The README's set-up and test commands are what CI runs, as written: each block marked
    /// `ci NAME` is run by .ci/run through `Scripts/readme-block.sh NAME`, which prints it line
    /// for line, and the README has both steps. (The blocks install packages and build the
    /// package, so this test does not run them itself; CI does, on a fresh machine.)
    func testCIRunsTheReadmeSetUpAndTestCommandsAsWritten() throws {
        let root = TestLocations.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let steps = try DocBlock.blocks(in: readme).filter { $0.ciStep != nil }
        XCTAssertEqual(Set(steps.compactMap(\.ciStep)), ["setup", "test"], "README.md marks its set-up and test blocks `ci setup`, `ci test`")
        for block in steps {
            let step = block.ciStep ?? ""
            XCTAssertTrue(ci.contains("Scripts/readme-block.sh \(step)"), ".ci/run must run README.md's '\(step)' block")
            let printed = try ToolRun.run(root.appendingPathComponent("Scripts/readme-block.sh").path, [step])
            XCTAssertEqual(printed.status, 0)
            XCTAssertEqual(printed.text.split(separator: "\n").map(String.init), block.body.filter { !$0.isEmpty },
                           "Scripts/readme-block.sh \(step) prints README.md's block at line \(block.line)")
        }
        let setUp = steps.first { $0.ciStep == "setup" }?.body.joined(separator: "\n") ?? ""
        XCTAssertTrue(setUp.contains("swift build -c release --static-swift-stdlib"), "the set-up builds the release binary the tests run")
        XCTAssertTrue(setUp.contains("Examples/"), "the set-up runs the main job on an example")
        XCTAssertTrue(ci.contains("OVERLAYKIT_BINARY=\"$PWD/.build/release/overlaykit\""),
                      "CI runs the process tests against the release binary the README builds")
    }

    /// Every Swift snippet of README.md and the DocC catalogs is part of Examples/LibraryAPI
    /// (compared line by line, leading white space and `import` lines aside), so the build
    /// compiles it and `testLibraryExampleRuns` runs it.
    func testSwiftSnippetsAreCompiledInLibraryExample() throws {
        let root = TestLocations.packageRoot
        let exampleFolder = root.appendingPathComponent("Examples/LibraryAPI")
        let examples = try FileManager.default.contentsOfDirectory(atPath: exampleFolder.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: exampleFolder.appendingPathComponent($0), encoding: .utf8) }
            .map(Self.codeLines)
        var checked = 0
        for file in try Self.documentationFiles() {
            let markdown = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for block in try DocBlock.blocks(in: markdown) where block.language == "swift" && block.skipReason == nil {
                let snippet = Self.codeLines(block.body.joined(separator: "\n"))
                checked += 1
                XCTAssertTrue(examples.contains { Self.contains($0, snippet) },
                              "\(file):\(block.line): this Swift snippet is not in Examples/LibraryAPI, so nothing compiles it:\n"
                              + block.body.joined(separator: "\n"))
            }
        }
        XCTAssertGreaterThan(checked, 5)
    }

    /// The library example runs on every example input and writes what it says it writes.
    func testLibraryExampleRuns() throws {
        let sandbox = try DocSandbox(testCase: self)
        let result = try sandbox.run("overlaykit-example Examples/countries.geojson")
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = result.stdoutText
        for expected in ["read 15 features", "europe.geojson", "countries.pmtiles"] {
            XCTAssertTrue(text.contains(expected), "missing '\(expected)' in:\n\(text)")
        }
        XCTAssertFalse(text.contains("Optional("), text)
        XCTAssertFalse(text.contains("JSONValue"), text)
        // The clipped file holds only clipped shapes: nothing east of 30° or south of 35°.
        let clipped = try sandbox.run("overlaykit info europe.geojson --json")
        XCTAssertEqual(clipped.status, 0, clipped.stderr)
        let info = try JSONSerialization.jsonObject(with: clipped.stdout) as? [String: Any]
        let bbox = try XCTUnwrap(info?["bbox"] as? [Double], clipped.stdoutText)
        XCTAssertGreaterThanOrEqual(bbox[0], -10.0001)
        XCTAssertGreaterThanOrEqual(bbox[1], 34.9999)
        XCTAssertLessThanOrEqual(bbox[2], 30.0001)
        XCTAssertLessThanOrEqual(bbox[3], 60.0001)
        let tiles = try sandbox.run("overlaykit tile-join countries.pmtiles -o joined.pmtiles")
        XCTAssertEqual(tiles.status, 0, "the example's .pmtiles does not read back: \(tiles.stderr)")
    }

    func testMarkersAndConsoleBlocksAreParsed() throws {
        let markdown = """
            Text.

            <!-- doc-test: exit 1; needs ogr2ogr python3:shapely -->
            ```sh
            # a comment
            overlaykit validate a \\
                b.geojson
            ```

              ```console
              $ overlaykit info x
              source: x
              ...
              ```
            """
        let blocks = try DocBlock.blocks(in: markdown)
        XCTAssertEqual(blocks.count, 2)
        XCTAssertEqual(blocks[0].expectedStatus, 1)
        XCTAssertEqual(blocks[0].needs, ["ogr2ogr", "python3:shapely"])
        XCTAssertEqual(blocks[0].commands, [DocBlock.Command(line: 6, text: "overlaykit validate a b.geojson")])
        XCTAssertEqual(blocks[1].commands, [DocBlock.Command(line: 11, text: "overlaykit info x", expectedOutput: ["source: x", "..."])])
        XCTAssertTrue(DocBlock.output(["source: x", "a", "b"], matches: ["source: x", "..."]))
        XCTAssertFalse(DocBlock.output(["source: y"], matches: ["source: x", "..."]))
        XCTAssertThrowsError(try DocBlock.blocks(in: "<!-- doc-test: exit-code 1 -->\n```sh\nls\n```"))
    }

    /// Lines of code without leading white space, blank lines and `import` lines.
    static func codeLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// Whether `lines` holds `part` as a contiguous run.
    static func contains(_ lines: [String], _ part: [String]) -> Bool {
        guard !part.isEmpty, part.count <= lines.count else { return part.isEmpty }
        return (0...(lines.count - part.count)).contains { Array(lines[$0..<($0 + part.count)]) == part }
    }
}

/// A fresh copy of the package's tracked files in a temporary folder (with `../shared` beside
/// it when the real one exists), where doc commands run with the built tools on PATH and a
/// private HOME.
struct DocSandbox {
    let root: URL
    let home: URL
    let toolFolder: URL

    init(testCase: XCTestCase) throws {
        let folder = try CLI.temporaryFolder(testCase)
        root = folder.appendingPathComponent("overlaykit")
        home = folder.appendingPathComponent("home")
        toolFolder = CLI.binary.deletingLastPathComponent()
        let manager = FileManager.default
        try manager.createDirectory(at: home, withIntermediateDirectories: true)
        let source = TestLocations.packageRoot
        let listed = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", source.path, "ls-files", "-z"])
        XCTAssertEqual(listed.status, 0, "git ls-files: \(listed.stderr)")
        for path in listed.stdout.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }) {
            let target = root.appendingPathComponent(path)
            guard manager.fileExists(atPath: source.appendingPathComponent(path).path) else { continue }  // deleted, not committed
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: source.appendingPathComponent(path), to: target)
        }
        let shared = source.deletingLastPathComponent().appendingPathComponent("shared")
        if manager.fileExists(atPath: shared.path) {
            try manager.createSymbolicLink(at: folder.appendingPathComponent("shared"), withDestinationURL: shared)
        }
    }

    /// Whether a `needs` item is there: a path (relative to the copy), a Python module, or an
    /// executable on PATH.
    func has(_ need: String) -> Bool {
        if need.hasPrefix("python3:") {
            return (try? run("python3 -c 'import \(need.dropFirst("python3:".count))'").status) == 0
        }
        if need.contains("/") {
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(need).standardizedFileURL.path)
        }
        return (try? run("command -v '\(need)'").status) == 0
    }

    /// Runs one command line with bash (pipefail) in the copy's root.
    func run(_ command: String) throws -> CLI.Result {
        // The overlaykit under test first (the release binary in CI), then this build's other
        // executables (overlaykit-example).
        let path = toolFolder.path + ":" + CLI.productsFolder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"),
                               ["-u", "XDG_DATA_HOME", "-u", "XDG_CONFIG_HOME", "PATH=\(path)", "HOME=\(home.path)",
                                // timeout signals the whole process group: a hung pipeline cannot stall the suite.
                                "timeout", "-k", "10", "300", "bash", "-o", "pipefail", "-c", command],
                               currentDirectory: root)
    }
}
