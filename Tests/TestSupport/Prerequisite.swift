import Foundation
import XCTest

/// What a test needs beyond the package and Swift: the shared corpus, a peer program, a Python
/// module used as an oracle, a kernel feature. Every test checks its needs through these calls,
/// first, before its first assertion: each either hands back what was found or throws an
/// `XCTSkip` saying what is missing and how to install it (for the corpus with
/// `OVERLAYKIT_REQUIRE_CORPUS=1`, an error that fails the test).
///
/// A skip thrown inside an assertion (`XCTAssertEqual(try decode(x), …)` where `decode` needs
/// python) is counted as a failure by XCTest on Linux: `SkipPlacementTests` finds such calls.
public enum Prerequisite {
    /// The path of `name` on `PATH`, or a skip naming the package that installs it.
    /// - Parameter install: how to get it, e.g. "Debian: gdal-bin".
    public static func executable(_ name: String, install: String) throws -> String {
        guard let path = ToolRun.find(name) else { throw XCTSkip("skipped: \(name) not on PATH (\(install))") }
        return path
    }

    /// The path of a `python3` that imports every module of `modules`, or a skip naming them.
    /// - Parameter install: how to get them, e.g. "pip install mapbox-vector-tile".
    public static func python(modules: [String], install: String) throws -> String {
        let python = try executable("python3", install: "Debian: python3")
        guard !modules.isEmpty else { return python }
        let key = ([python] + modules).joined(separator: " ")
        if let known = PythonProbes.shared.result(for: key) {
            if known { return python }
            throw XCTSkip("skipped: Python module(s) \(modules.joined(separator: ", ")) missing (\(install))")
        }
        let probe = try ToolRun.run(python, ["-c", "import " + modules.joined(separator: ", ")], mergingErrors: true)
        PythonProbes.shared.record(probe.status == 0, for: key)
        guard probe.status == 0 else {
            throw XCTSkip("skipped: Python module(s) \(modules.joined(separator: ", ")) missing (\(install))")
        }
        return python
    }

    /// Fills `folder` by running `Tests/Scripts/script` (given the folder as its one argument)
    /// with a `python3` that imports `modules`: fixtures the real writers make (pyarrow,
    /// geopandas, DuckDB). A skip when a module is missing; an error when the script fails.
    /// - Parameters:
    ///   - script: the script's file name in `Tests/Scripts`.
    ///   - folder: where the files go (the script makes it when missing).
    ///   - modules: what the script imports.
    ///   - install: how to get the modules.
    public static func writeScriptCorpus(_ script: String, into folder: URL, modules: [String], install: String) throws {
        let python = try python(modules: modules, install: install)
        let path = TestLocations.packageRoot.appendingPathComponent("Tests/Scripts/\(script)").path
        let run = try ToolRun.run(python, [path, folder.path], mergingErrors: true)
        try require(run.status == 0, "the corpus writer \(script) failed: \(run.text)")
    }

    /// A file or folder of `../shared/corpus`; a skip when it is absent (an error that fails the
    /// test with `OVERLAYKIT_REQUIRE_CORPUS=1`).
    public static func corpus(_ relative: String) throws -> URL {
        guard let item = TestLocations.corpusItem(relative) else {
            throw TestLocations.corpusAbsent(
                XCTSkip("skipped: corpus not found at \(TestLocations.corpus.appendingPathComponent(relative).path)"))
        }
        return item
    }

    /// A skip saying `reason` unless `condition` holds (a kernel file, a writable tmpfs…).
    public static func require(_ condition: @autoclosure () throws -> Bool, _ reason: String) throws {
        guard try condition() else { throw XCTSkip("skipped: \(reason)") }
    }
}

/// Python import probes already run, so a suite probes each module set once.
private final class PythonProbes: @unchecked Sendable {
    static let shared = PythonProbes()
    private let lock = NSLock()
    private var results = [String: Bool]()

    func result(for key: String) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        return results[key]
    }

    func record(_ result: Bool, for key: String) {
        lock.lock()
        results[key] = result
        lock.unlock()
    }
}
