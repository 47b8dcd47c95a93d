/// A file path taken apart by its slashes, without Foundation: `NSString`'s path methods trap
/// on some one-character names on Linux (`("w" as NSString).deletingLastPathComponent`).
///
/// Pure string work, nothing is looked up on disk: `PathName("a/b.pmtiles").directory` is
/// `"a"`, `.lastComponent` `"b.pmtiles"`, `.stem` `"b"`.
public struct PathName: Sendable, Equatable {
    /// The path as given, without trailing slashes (except a lone "/").
    public let path: String

    /// Takes `path` apart; trailing slashes are dropped ("out/" names "out").
    public init(_ path: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.path = String(trimmed)
    }

    /// The folder that holds the last component: "." for a bare name, "/" for a name in the root.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component ("b.pmtiles" of "a/b.pmtiles"; the path itself when it has no slash).
    public var lastComponent: String {
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The last component without its extension ("b" of "a/b.pmtiles"; a leading dot, as in
    /// ".hidden", is part of the name, not an extension).
    public var stem: String {
        let name = lastComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The last component's extension without its dot ("pmtiles" of "a/b.pmtiles"), or nil when
    /// it has none ("b", ".hidden", "b.", "..").
    public var nameExtension: String? {
        let name = lastComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[name.index(after: dot)...]
        return suffix.isEmpty || name[..<dot].allSatisfy({ $0 == "." }) ? nil : String(suffix)
    }

    /// `component` inside this path ("a" + "b" is "a/b").
    public func appending(_ component: String) -> String {
        path.hasSuffix("/") ? path + component : path + "/" + component
    }
}
