#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a tile set's files really are: symbolic links resolved, so a file of a tile directory
/// that links out of it is recognised and refused.
enum TileSetPaths {
    /// The absolute path with every symbolic link resolved (`realpath`), or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// True when `file`, links resolved, lies inside `root`, links resolved.
    static func isInside(_ file: String, root: String) -> Bool {
        guard let file = resolved(file), let root = resolved(root) else { return false }
        return file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}
