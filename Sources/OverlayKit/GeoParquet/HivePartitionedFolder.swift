#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// The Parquet files of a folder as Spark, DuckDB and Arrow write a partitioned data set
/// (`dir/key=value/…/part-*.parquet`): every `.parquet` or `.geoparquet` file below it, in the
/// byte order of their paths, each with the `key=value` pairs of the folders it is in. Names
/// starting with `.` or `_` (`_SUCCESS`, `.crc` files, `_temporary`) are not read, as Spark
/// skips them.
struct HivePartitionedFolder: Sendable {
    /// One file of the data set.
    struct File: Sendable, Equatable {
        /// The file's path (the folder's path, then the path inside it).
        var path: String
        /// The partition keys and values of its folders, outermost first; a value is percent-decoded,
        /// and Hive's `__HIVE_DEFAULT_PARTITION__` is null.
        var partitions: [JSONObject.Member]
    }

    /// The files, in path order.
    var files: [File]

    /// The deepest folder nesting read, and the most files: a bound on hostile trees (and on
    /// symbolic links that loop).
    static let maxDepth = 32
    static let maxFiles = 1_000_000

    /// Lists the folder at `path`.
    /// - Throws: `Diagnostic` `io.open-failed` when a folder cannot be listed,
    ///   `geoparquet.empty-folder` when no Parquet file is below it or the bounds are passed.
    init(path: String) throws {
        var found = [(relative: [UInt8], file: File)]()
        func walk(_ folder: String, relative: String, partitions: [JSONObject.Member], depth: Int) throws {
            guard depth <= Self.maxDepth else {
                throw Diagnostic(.error, code: .geoparquetEmptyFolder, message: "\(path): folders nest deeper than \(Self.maxDepth) (a loop of links?)")
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
                throw Diagnostic(.error, code: .ioOpenFailed, message: "cannot list the folder \(folder)")
            }
            for name in names where !name.hasPrefix(".") && !name.hasPrefix("_") {
                let child = PathName(folder).appending(name)
                let inside = relative.isEmpty ? name : relative + "/" + name
                guard let info = POSIX.status(child) else { continue }
                if POSIX.type(info) == S_IFDIR {
                    var nested = partitions
                    if let equals = name.firstIndex(of: "="), equals != name.startIndex {
                        let value = String(name[name.index(after: equals)...])
                        nested.append(.init(key: String(name[..<equals]),
                                            value: value == "__HIVE_DEFAULT_PARTITION__" ? .null : .string(Self.percentDecoded(value))))
                    }
                    try walk(child, relative: inside, partitions: nested, depth: depth + 1)
                } else if POSIX.type(info) == S_IFREG, let ext = PathName(name).nameExtension?.lowercased(),
                          ext == "parquet" || ext == "geoparquet" {
                    guard found.count < Self.maxFiles else {
                        throw Diagnostic(.error, code: .geoparquetEmptyFolder, message: "\(path): more than \(Self.maxFiles) Parquet files")
                    }
                    found.append((Array(inside.utf8), File(path: child, partitions: partitions)))
                }
            }
        }
        try walk(PathName(path).path, relative: "", partitions: [], depth: 0)
        guard !found.isEmpty else {
            throw Diagnostic(.error, code: .geoparquetEmptyFolder, message: "\(path): a folder with no .parquet or .geoparquet file in it (nor in its key=value folders)")
        }
        files = found.sorted { $0.relative.lexicographicallyPrecedes($1.relative) }.map(\.file)
    }

    /// True when `path` names a folder (following symbolic links).
    static func isFolder(_ path: String) -> Bool {
        POSIX.status(path).map { POSIX.type($0) == S_IFDIR } ?? false
    }

    /// True when `path` is a folder whose first level holds a `.parquet` or `.geoparquet` file
    /// or a `key=value` folder: a data set, not a folder of tiles (`z/x/y.mvt`). Lists one level.
    static func looksLikeDataSet(_ path: String) -> Bool {
        guard isFolder(path), let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return names.contains { name in
            guard !name.hasPrefix("."), !name.hasPrefix("_") else { return false }
            if let ext = PathName(name).nameExtension?.lowercased(), ext == "parquet" || ext == "geoparquet" { return true }
            return name.dropFirst().contains("=") && isFolder(PathName(path).appending(name))
        }
    }

    /// `%XX` escapes decoded as Hive writes them; a malformed escape stays as it is.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes = [UInt8]()
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
