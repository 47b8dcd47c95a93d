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

    /// A path inside the corpus, or nil when it is absent.
    public static func corpusItem(_ relative: String) -> URL? {
        let url = corpus.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
