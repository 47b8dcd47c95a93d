/// The release of a MapLibre GL JS script, read from its license header comment
/// (`https://github.com/maplibre/maplibre-gl-js/blob/v5.3.0/LICENSE.txt`, which every build of
/// `dist/maplibre-gl.js` starts with), and what that release can draw.
public struct MapLibreScriptVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Major, minor and patch numbers.
    public var major: Int, minor: Int, patch: Int

    /// The first release that decodes MapLibre Tiles (a vector source with `"encoding": "mlt"`,
    /// maplibre-gl-js#6570).
    public static let firstReadingMLT = MapLibreScriptVersion(major: 5, minor: 12, patch: 0)

    /// A version from its numbers.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// A version from `5.3.0` (a pre-release suffix such as `-pre.1` is ignored); nil for any
    /// other text.
    public init?(_ text: Substring) {
        let core = text.prefix { $0 != "-" && $0 != "+" }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2]) else { return nil }
        self.init(major: major, minor: minor, patch: patch)
    }

    /// The version a script's header names, nil when its first 4 KiB name none (a build
    /// without the header, or not MapLibre).
    public init?(script: [UInt8]) {
        let head = String(decoding: script.prefix(4096), as: UTF8.self)
        let marker = "maplibre-gl-js/blob/v"
        guard let found = head.range(of: marker) else { return nil }
        let rest = head[found.upperBound...]
        self.init(rest.prefix { $0 != "/" && !$0.isWhitespace })
    }

    /// True for releases that decode MapLibre Tiles (5.12.0 and later).
    public var readsMLT: Bool { self >= Self.firstReadingMLT }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public var description: String { "\(major).\(minor).\(patch)" }
}
