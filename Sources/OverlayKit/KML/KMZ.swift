import OverlayModel

/// The files of a KMZ archive besides its main KML (icons, images, models, other KML), kept
/// available by path so a KMZ written from it carries them too.
public final class KMZResources {
    private let zip: RandomAccessBytes
    /// The resources' entries by archive path (a dictionary: looking each up by scanning made
    /// KMZ → KMZ quadratic in the number of entries; 5,000 entries took 33 s).
    private let entries: [String: ZipEntry]
    private let limits: KMZ.Limits
    /// The archive paths of the resources, in archive order.
    public let names: [String]

    fileprivate init(zip: RandomAccessBytes, entries: [ZipEntry], limits: KMZ.Limits) {
        self.zip = zip
        self.limits = limits
        names = entries.map(\.path)
        self.entries = Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The bytes of one resource, checked against its CRC-32 and the size limits.
    /// - Throws: `Diagnostic` `kmz.read-failed` when it is missing, `kmz.corrupt` or
    ///   `kmz.too-large` otherwise.
    public func contents(of name: String) throws -> [UInt8] {
        guard let entry = entries[name] else {
            throw Diagnostic(.error, code: .kmzReadFailed, message: "the KMZ has no entry \(name)")
        }
        var bytes: [UInt8] = []
        try KMZ.inflate(entry, of: zip, limits: limits) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Whether the archive has a resource at `path`.
    func contains(_ path: String) -> Bool { entries[path] != nil }

    /// A KML reader over the resource at `path` (a KML reached through a `NetworkLink`),
    /// streamed as the main KML is; diagnostics name it `displayName`.
    func kmlReader(forEntry path: String, displayName: String) throws -> KMLReader {
        guard let entry = entries[path] else {
            throw Diagnostic(.error, code: .kmzReadFailed, message: "the KMZ has no entry \(path)")
        }
        return try KMZ.kmlReader(for: entry, of: zip, limits: limits, name: displayName)
    }
}

/// KMZ: a zip holding `doc.kml` (or, failing that, the first `.kml`) and its resources.
public enum KMZ {
    /// Bounds on what a KMZ may inflate to, against zip bombs (a 4 MB KMZ once inflated to 4 GB).
    public struct Limits: Sendable {
        /// The most bytes one entry may inflate to (default 1 GiB).
        public var maximumEntryBytes: Int64
        /// The largest inflated/compressed ratio accepted once an entry passes
        /// `ratioCheckedAbove` bytes (default 200; deflate cannot exceed ~1,032, real KML is 5–20).
        public var maximumRatio: Int64
        /// Inflated size below which the ratio is not checked (default 64 MiB): small files with
        /// very repetitive content are harmless.
        public var ratioCheckedAbove: Int64

        /// Limits with the defaults above, or `maximumEntryBytes` as given.
        public init(maximumEntryBytes: Int64 = 1 << 30, maximumRatio: Int64 = 200, ratioCheckedAbove: Int64 = 64 << 20) {
            self.maximumEntryBytes = maximumEntryBytes
            self.maximumRatio = maximumRatio
            self.ratioCheckedAbove = ratioCheckedAbove
        }
    }

    /// Inflates one entry into `consumer`, failing past the limits, on a truncated or corrupt
    /// entry and on a CRC-32 mismatch.
    static func inflate(_ entry: ZipEntry, of zip: RandomAccessBytes, limits: Limits,
                        into consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        var inflated: Int64 = 0
        let compressed = max(1, entry.compressedSize)
        do {
            try ZipEntryReader.read(entry, from: zip) { data in
                inflated += Int64(data.count)
                if inflated > limits.maximumEntryBytes {
                    throw Diagnostic(.error, code: .kmzTooLarge,
                                     message: "\(entry.path) inflates to more than \(limits.maximumEntryBytes >> 20) MiB; "
                                        + "raise the limit with --max-kmz-size if the file is trusted")
                }
                if inflated > limits.ratioCheckedAbove && inflated / compressed > limits.maximumRatio {
                    throw Diagnostic(.error, code: .kmzTooLarge,
                                     message: "\(entry.path) inflates more than \(limits.maximumRatio) times its compressed size "
                                        + "(a zip bomb?); raise the limit with --max-kmz-size if the file is trusted")
                }
                try consumer(data)
            }
        } catch let failure as ZipFailure {
            throw Diagnostic(.error, code: .kmzCorrupt, message: "\(entry.path) in the KMZ is corrupt: \(failure)")
        }
    }

    /// Whether an entry path is safe to carry into another archive: relative, no `..` step,
    /// no backslash or drive letter (a later `unzip` would otherwise write outside its folder).
    static func isSafeEntryPath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        if path.count >= 2, path.dropFirst().first == ":" { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    /// A KML reader over the main KML of a KMZ, with the other entries as `resources`.
    ///
    /// The KML entry is inflated into an unnamed temporary file and streamed from there, so
    /// memory stays bounded whatever its size. Standard input is first copied to an unnamed
    /// file (a zip's directory is at its end). Entries are read by `ZipEntryReader`, which checks
    /// every offset, size and CRC-32 and refuses truncated deflate data.
    /// - Throws: `Diagnostic` `kmz.invalid` for a file that is not a zip or holds no KML,
    ///   `kmz.corrupt` or `kmz.too-large` for its KML entry.
    public static func reader(for input: ByteInput, limits: Limits = Limits()) throws -> KMLReader {
        let displayName = input.name ?? "<stdin>"
        let zip = try RandomAccessBytes(input)
        let entries: [ZipEntry]
        do {
            entries = try ZipDirectory.entries(of: zip).filter { !$0.isDirectory }
        } catch let failure as ZipFailure {
            throw Diagnostic(.error, code: .kmzInvalid, message: "\(displayName) is not a readable zip archive: \(failure)",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        let main = entries.first { $0.path.lowercased() == "doc.kml" }
            ?? entries.first { $0.path.lowercased().hasSuffix(".kml") }
        guard let main else {
            throw Diagnostic(.error, code: .kmzInvalid, message: "\(displayName) holds no .kml file",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        var reader: KMLReader
        do {
            reader = try kmlReader(for: main, of: zip, limits: limits, name: "\(displayName)/\(main.path)")
        } catch var diagnostic as Diagnostic {
            diagnostic.location = diagnostic.location ?? SourceLocation(file: input.name, line: 1, column: 1)
            throw diagnostic
        }
        if !isSafeEntryPath(main.path) {
            // Read (nothing is extracted to disk), but said: a tool that unpacks it would write outside its folder.
            reader.addWarning(Diagnostic(.warning, code: .kmzUnsafeEntryName,
                                         message: "the KML entry '\(main.path)' escapes the archive (absolute, '..' or backslash); "
                                            + "it is read, and a written KMZ names it doc.kml",
                                         location: SourceLocation(file: input.name, line: 1, column: 1)))
        }
        var resources: [ZipEntry] = []
        for entry in entries where entry.path != main.path {
            if isSafeEntryPath(entry.path) {
                resources.append(entry)
            } else {
                reader.addWarning(Diagnostic(.warning, code: .kmzUnsafeEntryName,
                                             message: "entry '\(entry.path)' escapes the archive (absolute, '..' or backslash); "
                                                + "it is not carried into written KMZ files",
                                             location: SourceLocation(file: input.name, line: 1, column: 1)))
            }
        }
        let kept = KMZResources(zip: zip, entries: resources, limits: limits)
        reader.resources = kept
        reader.networkLinks = KMZNetworkLinks(resources: kept, mainEntry: main.path, archiveName: displayName)
        reader.core.archiveEntry = reader.networkLinks?.linkResolver(relativeTo: main.path)
        return reader
    }

    /// A KML reader over one entry: inflated into memory when the zip is in memory and the entry
    /// small, else into an unnamed temporary file it streams from (memory stays bounded).
    fileprivate static func kmlReader(for entry: ZipEntry, of zip: RandomAccessBytes, limits: Limits, name: String) throws -> KMLReader {
        if zip.isInMemory && entry.uncompressedSize <= 16 << 20 {
            // A zip already in memory with a small KML (tests, library callers, the fuzzer): no spool file.
            var kml: [UInt8] = []
            try inflate(entry, of: zip, limits: limits) { kml.append(contentsOf: $0) }
            return try KMLReader(input: ByteInput(bytes: kml), name: name)
        }
        // Unnamed from the start: a KMZ killed while inflating leaves nothing in $TMPDIR.
        let spool = try TemporaryFile()
        try inflate(entry, of: zip, limits: limits) { try spool.write($0) }
        // The reader opens its own descriptor, which keeps the unnamed spool readable once closed here.
        return try KMLReader(input: ByteInput(path: spool.descriptorPath), name: name)
    }

    /// Zips `kml` (the complete document, as `doc.kml`, deflated) and the resources into
    /// `output`, deterministically (fixed timestamps, entries in the given order), in one pass:
    /// O(bytes + entries) (`ZipWriter`).
    static func write(kml: TemporaryFile, resources: KMZResources?, to output: ByteOutput) throws {
        var zip = try ZipWriter { try output.write($0) }
        try zip.add(path: "doc.kml", file: kml)
        for name in resources?.names ?? [] {
            try zip.add(path: name, bytes: resources!.contents(of: name))
        }
        try zip.finish()
    }
}
