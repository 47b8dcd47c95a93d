import Foundation
import OverlayModel

/// Tile directories (`DIR/z/x/y.mvt` plus `DIR/metadata.json`, as `overlaykit tile` and
/// `tippecanoe -e` write them) as `tile-join` inputs and output.
public enum TileJoinDirectory {
    /// The largest tile file read (tippecanoe's hard limit is 500 KiB; this leaves room).
    public static let maximumTileBytes = 64 << 20

    /// An input over a tile directory.
    /// - Throws: `Diagnostic` `io.cannot-read` when the directory cannot be listed,
    ///   `tilejoin.format-mismatch` when it holds GeoJSON tiles or its metadata says so.
    public static func input(path: String) throws -> (input: TileJoin.Input, metadata: JSONObject) {
        let manager = FileManager.default
        var metadata = JSONObject()
        let metadataPath = path + "/metadata.json"
        if manager.fileExists(atPath: metadataPath) {
            let value = try JSONScanner(input: ByteInput(path: metadataPath)).readValue()
            guard case .object(let object) = value else {
                throw Diagnostic(.error, code: "tilejoin.bad-metadata", message: "\(metadataPath): not a JSON object")
            }
            metadata = object
        }
        if let format = metadata["format"]?.stringValue, !["pbf", "mvt"].contains(format.lowercased()) {
            throw Diagnostic(.error, code: "tilejoin.format-mismatch",
                             message: "\(path) holds \(format) tiles (metadata.json format); tile-join joins Mapbox Vector Tiles (pbf/mvt)")
        }
        var ids = [TileID]()
        let zooms: [String]
        do { zooms = try manager.contentsOfDirectory(atPath: path) } catch {
            throw Diagnostic(.error, code: "io.cannot-read", message: "cannot list \(path): \(error.localizedDescription)")
        }
        for zName in zooms {
            guard let z = Int(zName), (0...30).contains(z), String(z) == zName else { continue }
            let xNames = (try? manager.contentsOfDirectory(atPath: "\(path)/\(zName)")) ?? []
            for xName in xNames {
                guard let x = Int(xName), x >= 0, x < 1 << z, String(x) == xName else { continue }
                for file in (try? manager.contentsOfDirectory(atPath: "\(path)/\(zName)/\(xName)")) ?? [] {
                    let parts = file.split(separator: ".", maxSplits: 1)
                    guard parts.count == 2, let y = Int(parts[0]), y >= 0, y < 1 << z, String(y) == parts[0] else { continue }
                    switch parts[1] {
                    case "mvt", "pbf": ids.append(TileID(z: z, x: x, y: y))
                    case "geojson", "json":
                        throw Diagnostic(.error, code: "tilejoin.format-mismatch",
                                         message: "\(path)/\(zName)/\(xName)/\(file) is a GeoJSON tile; tile-join joins Mapbox Vector Tiles (.mvt/.pbf)")
                    default: continue
                    }
                }
            }
        }
        // Each id's file name, found again when read (the extension seen when listing).
        let input = TileJoin.Input(name: path, tileIDs: ids) { id in
            for ext in ["mvt", "pbf"] {
                let file = "\(path)/\(id.z)/\(id.x)/\(id.y).\(ext)"
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { continue }
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                if size > maximumTileBytes {
                    throw Diagnostic(.error, code: "tilejoin.tile-too-large", message: "\(file): \(size) bytes, more than \(maximumTileBytes)")
                }
                // Read whole in one call: tiles are small and many (ByteInput's 1 MiB chunk would dominate).
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw Diagnostic(.error, code: "io.cannot-read", message: "cannot read \(file)")
                }
                let bytes = [UInt8](data)
                if bytes.starts(with: [0x1F, 0x8B]) {
                    throw Diagnostic(.error, code: "tilejoin.compressed-tile",
                                     message: "\(file) is gzip-compressed; tile directories here hold uncompressed tiles (gunzip them first)")
                }
                return bytes
            }
            return nil
        }
        return (input, metadata)
    }

    /// Writes joined tiles into a directory. A new (or empty) output is built in a temporary
    /// sibling directory and renamed into place by `finish`, so a failed join leaves nothing;
    /// with `force` into a non-empty directory, tiles are written in place (each file whole).
    public final class Writer: @unchecked Sendable {
        /// The output directory.
        public let path: String
        /// Where tiles are written until `finish`.
        private let workPath: String
        private var createdFolders = Set<String>()
        private var finished = false

        /// Checks the output and creates the working directory.
        /// - Throws: `Diagnostic` `io.directory-not-empty` (unless `force`), `io.not-a-directory`,
        ///   `io.cannot-create`.
        public init(path: String, force: Bool) throws {
            self.path = path
            var isDirectory: ObjCBool = false
            var inPlace = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw Diagnostic(.error, code: "io.not-a-directory", message: "\(path) exists and is not a directory")
                }
                let contents = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                if !contents.isEmpty && !force {
                    throw Diagnostic(.error, code: "io.directory-not-empty", message: "\(path) is not empty; use --force to write tiles into it")
                }
                inPlace = !contents.isEmpty
            }
            workPath = inPlace ? path : path + ".tmp-\(UInt32.random(in: 0...UInt32.max))"
            do { try FileManager.default.createDirectory(atPath: workPath, withIntermediateDirectories: true) } catch {
                throw Diagnostic(.error, code: "io.cannot-create", message: "cannot create \(workPath): \(error.localizedDescription)")
            }
        }

        deinit {
            // Not finished: a join that failed leaves no half-written output.
            if !finished && workPath != path { try? FileManager.default.removeItem(atPath: workPath) }
        }

        /// Writes one tile's uncompressed bytes to `z/x/y.mvt`.
        public func write(_ id: TileID, _ bytes: [UInt8]) throws {
            let folder = "\(workPath)/\(id.z)/\(id.x)"
            if !createdFolders.contains(folder) {
                do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                    throw Diagnostic(.error, code: "io.cannot-create", message: "cannot create \(folder): \(error.localizedDescription)")
                }
                createdFolders.insert(folder)
            }
            let file = try ByteOutput(path: "\(folder)/\(id.y).mvt")
            defer { file.abandon() }
            try file.write(bytes)
            try file.commit()
        }

        /// Writes `metadata.json` and moves the output into place.
        public func finish(metadata: JSONObject) throws {
            var json = JSONBytes()
            json.appendValue(.object(metadata))
            json.append("\n")
            let file = try ByteOutput(path: workPath + "/metadata.json")
            defer { file.abandon() }
            try file.write(json.bytes)
            try file.commit()
            if workPath != path {
                // An empty directory given as the output is replaced.
                if let contents = try? FileManager.default.contentsOfDirectory(atPath: path), contents.isEmpty {
                    try? FileManager.default.removeItem(atPath: path)
                }
                do { try FileManager.default.moveItem(atPath: workPath, toPath: path) } catch {
                    throw Diagnostic(.error, code: "io.cannot-create", message: "cannot move \(workPath) to \(path): \(error.localizedDescription)")
                }
            }
            finished = true
        }
    }
}
