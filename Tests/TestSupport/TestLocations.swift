import Foundation

/// Where test inputs are, for every test target: the package root (from this file's path) and
/// the peer corpus beside it (`../shared/corpus`).
public enum TestLocations {
    /// The package root (this file is Tests/TestSupport/TestLocations.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The shared corpus folder; it may be absent (tests then skip, saying so).
    public static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Whether a missing corpus fails the tests that need it instead of skipping them:
    /// `OVERLAYKIT_REQUIRE_CORPUS=1` (CI sets it), so a lost corpus cannot pass as skips.
    public static var corpusRequired: Bool {
        ProcessInfo.processInfo.environment["OVERLAYKIT_REQUIRE_CORPUS"] == "1"
    }

    /// What a test throws when the corpus it needs is absent: `skip` (an `XCTSkip`), or with
    /// `OVERLAYKIT_REQUIRE_CORPUS=1` an error that fails the test.
    public static func corpusAbsent(_ skip: Error) -> Error {
        corpusRequired ? CorpusRequired(skip: String(describing: skip)) : skip
    }

    /// The failure a corpus skip becomes when the corpus is required.
    public struct CorpusRequired: Error, CustomStringConvertible {
        /// The skip it replaces, as text.
        public var skip: String
        /// Says the corpus is missing although required.
        public var description: String {
            "OVERLAYKIT_REQUIRE_CORPUS=1 but the shared corpus is missing (\(corpus.path)): \(skip)"
        }
    }

    /// A path inside the corpus, or nil when it is absent.
    public static func corpusItem(_ relative: String) -> URL? {
        let url = corpus.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
