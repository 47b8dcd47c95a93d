import Foundation
import OverlayModel
import ZIPFoundation

/// The files of a KMZ archive besides its main KML (icons, images, models, other KML), kept
/// available by path so a KMZ written from it carries them too.
public final class KMZResources {
    private let archive: Archive
    /// Keeps a copy of standard input alive while the archive reads from it.
    private let backing: TemporaryFile?
    /// The archive paths of the resources, in archive order.
    public let names: [String]

    fileprivate init(archive: Archive, backing: TemporaryFile?, names: [String]) {
        self.archive = archive
        self.backing = backing
        self.names = names
    }

    /// The bytes of one resource.
    /// - Throws: `Diagnostic` `kmz.read-failed` when it is missing or cannot be inflated.
    public func contents(of name: String) throws -> [UInt8] {
        guard let entry = archive[name] else {
            throw Diagnostic(.error, code: "kmz.read-failed", message: "the KMZ has no entry \(name)")
        }
        var bytes: [UInt8] = []
        do {
            _ = try archive.extract(entry) { bytes.append(contentsOf: $0) }
        } catch {
            throw Diagnostic(.error, code: "kmz.read-failed", message: "cannot inflate \(name) from the KMZ: \(error)")
        }
        return bytes
    }
}

/// KMZ: a zip holding `doc.kml` (or, failing that, the first `.kml`) and its resources.
public enum KMZ {
    /// A KML reader over the main KML of a KMZ, with the other entries as `resources`.
    ///
    /// The KML entry is inflated into an unlinked temporary file and streamed from there, so
    /// memory stays bounded whatever its size. Standard input is first copied to a temporary
    /// file (a zip's directory is at its end).
    /// - Throws: `Diagnostic` `kmz.invalid` for a file that is not a zip or holds no KML.
    public static func reader(for input: ByteInput) throws -> KMLReader {
        let displayName = input.name ?? "<stdin>"
        var backing: TemporaryFile?
        let url: URL
        if let path = input.name {
            url = URL(fileURLWithPath: path)
        } else {
            let copy = try TemporaryFile(keepPath: true, suffix: ".kmz")
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
                if count == 0 { break }
                try chunk.withUnsafeBytes { try copy.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            backing = copy
            url = URL(fileURLWithPath: copy.path!)
        }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw Diagnostic(.error, code: "kmz.invalid", message: "\(displayName) is not a readable zip archive (\(error))",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        let entries = Array(archive).filter { $0.type == .file }
        let main = entries.first { $0.path.lowercased() == "doc.kml" }
            ?? entries.first { $0.path.lowercased().hasSuffix(".kml") }
        guard let main else {
            throw Diagnostic(.error, code: "kmz.invalid", message: "\(displayName) holds no .kml file",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        let spool = try TemporaryFile(keepPath: true, suffix: ".kml")
        do {
            _ = try archive.extract(main) { data in
                try data.withUnsafeBytes { try spool.write($0) }
            }
        } catch let diagnostic as Diagnostic {
            throw diagnostic
        } catch {
            throw Diagnostic(.error, code: "kmz.invalid", message: "cannot inflate \(main.path) from \(displayName): \(error)",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        // The open descriptor keeps the inflated KML readable after the spool unlinks it.
        var reader = try KMLReader(input: ByteInput(path: spool.path!), name: "\(displayName)/\(main.path)")
        reader.resources = KMZResources(archive: archive, backing: backing,
                                        names: entries.map(\.path).filter { $0 != main.path })
        return reader
    }

    /// Zips `kml` (the complete document, as `doc.kml`, deflated) and the resources into
    /// `output`, deterministically (fixed timestamps, entries in the given order).
    static func write(kml: TemporaryFile, resources: KMZResources?, to output: ByteOutput) throws {
        let zip = try TemporaryFile(keepPath: true, suffix: ".kmz")
        let url = URL(fileURLWithPath: zip.path!)
        // A fixed date so the same input gives the same bytes.
        let date = Date(timeIntervalSince1970: 315_532_800)
        do {
            try FileManager.default.removeItem(at: url)
            let archive = try Archive(url: url, accessMode: .create)
            try archive.addEntry(with: "doc.kml", type: .file, uncompressedSize: Int64(kml.size), modificationDate: date,
                                 compressionMethod: .deflate) { position, size in
                Data(try kml.read(at: Int(position), count: size))
            }
            for name in resources?.names ?? [] {
                let bytes = try resources!.contents(of: name)
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: date,
                                     compressionMethod: .deflate) { position, size in
                    Data(bytes[Int(position)..<min(bytes.count, Int(position) + size)])
                }
            }
        } catch let diagnostic as Diagnostic {
            throw diagnostic
        } catch {
            throw Diagnostic(.error, code: "io.write-failed", message: "cannot build the KMZ archive: \(error)")
        }
        let handle = try ByteInput(path: zip.path!)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try handle.read(into: $0) }
            if count == 0 { break }
            try chunk.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
