import OverlayModel

/// The values of profile measures for one input. A count also keeps where it first passed
/// each threshold a profile asked about (the 1,001st feature when the limit is 1,000), and a
/// largest-of measure which item it is (an archive entry, a tile).
struct ProfileMeasurement {
    /// One measured value.
    struct Value {
        var value: Int64
        /// Which item holds the value, for a largest-of measure: `files/big.png`, `tile 12/655/1583`.
        var item: String?
        /// Where the count first passed a threshold (the threshold's value → the place).
        var passed: [Int64: SourceLocation] = [:]
    }

    var values: [ProfileMeasure: Value] = [:]
    /// Measures that could not be taken, with the reason (a damaged archive).
    var failures: [ProfileMeasure: Diagnostic] = [:]
}

/// Measures inputs for profiles: what each `ProfileMeasure` says, in one streaming pass per
/// kind of content (the file's size; a KMZ's zip directory; the KML document; the JSON text; the
/// tiles). Memory stays bounded by the open elements and one tile.
enum ProfileMeasurer {
    /// Measures `input` (of format `format`, a `ValidationResult.formatName`) for `needs`: each
    /// measure with the thresholds whose first passing place is wanted.
    static func measure(_ input: ValidationInput, format: String, needs: [ProfileMeasure: Set<Int64>]) -> ProfileMeasurement {
        var measurement = ProfileMeasurement()
        let file = input.name
        func attempt(_ measures: [ProfileMeasure], _ body: () throws -> Void) {
            guard measures.contains(where: { needs[$0] != nil }) else { return }
            do {
                try body()
            } catch {
                let diagnostic = error as? Diagnostic
                    ?? Diagnostic(.error, code: .ioReadFailed, message: "\(error)", location: SourceLocation(file: file, line: 0, column: 0))
                for measure in measures where needs[measure] != nil && measurement.values[measure] == nil {
                    measurement.failures[measure] = diagnostic
                }
            }
        }
        attempt([.fileBytes]) {
            measurement.values[.fileBytes] = .init(value: try RandomAccessBytes(try input.open()).size)
        }
        switch format {
        case "kml", "kmz":
            let kmlMeasures: [ProfileMeasure] = [.kmlBytes, .features, .networkLinks, .elementDepth, .layers, .duplicateLayerNames, .layerFeatures]
            if format == "kmz" {
                attempt([.kmzEntries, .kmzBytes, .kmzImageBytes, .kmzKMLFiles, .kmzArchives] + kmlMeasures) {
                    let zip = try RandomAccessBytes(try input.open())
                    let entries: [ZipEntry]
                    do {
                        entries = try ZipDirectory.entries(of: zip)
                    } catch let failure as ZipFailure {
                        throw Diagnostic(.error, code: .kmzInvalid, message: "\(file ?? "<stdin>") is not a readable zip archive: \(failure)",
                                         location: SourceLocation(file: file, line: 0, column: 0))
                    }
                    measureArchive(entries, into: &measurement)
                    if kmlMeasures.contains(where: { needs[$0] != nil }) {
                        try measureMainKML(of: zip, entries: entries, file: file, needs: needs, into: &measurement)
                    }
                }
            } else {
                attempt(kmlMeasures) {
                    let document = try input.open()
                    measurement.values[.kmlBytes] = .init(value: try RandomAccessBytes(try input.open()).size)
                    try KMLCounter(input: document, name: file, needs: needs).count(into: &measurement)
                }
            }
        case "geojson", "geojsonseq":
            attempt([.jsonCharacters, .jsonDepth]) {
                try JSONTextCounter.count(try input.open(), file: file, needs: needs, into: &measurement)
            }
            attempt([.features]) {
                var reader = try FeatureIO.reader(for: try input.open(), format: format == "geojson" ? .geojson : .geojsonseq)
                var count: Int64 = 0
                var passed: [Int64: SourceLocation] = [:]
                while let feature = try reader.next() {
                    count += 1
                    for threshold in needs[.features] ?? [] where count - 1 == threshold {   // threshold + 1 overflows at Int64.max
                        passed[threshold] = feature.location ?? SourceLocation(file: file, line: 0, column: 0)
                    }
                }
                measurement.values[.features] = .init(value: count, passed: passed)
            }
        case "mbtiles", "pmtiles":
            attempt([.tileBytes, .tiles, .maxZoom]) {
                try measureTiles(file ?? "-", needs: needs, into: &measurement)
            }
        default:
            break
        }
        return measurement
    }

    /// The zip directory's measures: entries, bytes uncompressed, the largest image, KML and
    /// KMZ files inside.
    private static func measureArchive(_ entries: [ZipEntry], into measurement: inout ProfileMeasurement) {
        let files = entries.filter { !$0.isDirectory }
        let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"]
        let images = files.filter { imageExtensions.contains(fileExtension($0.path)) }
        let largest = images.max { $0.uncompressedSize < $1.uncompressedSize }
        measurement.values[.kmzEntries] = .init(value: Int64(entries.count))
        measurement.values[.kmzBytes] = .init(value: files.reduce(0) { $0 &+ max(0, $1.uncompressedSize) })
        measurement.values[.kmzImageBytes] = .init(value: largest?.uncompressedSize ?? 0, item: largest?.path)
        let kml = files.filter { fileExtension($0.path) == "kml" }
        measurement.values[.kmzKMLFiles] = .init(value: Int64(kml.count), item: kml.dropFirst().first?.path)
        let nested = files.filter { fileExtension($0.path) == "kmz" }
        measurement.values[.kmzArchives] = .init(value: Int64(nested.count), item: nested.first?.path)
    }

    /// A KMZ's main KML (`doc.kml`, else the first `.kml`, as the reader takes it), inflated
    /// into memory or, when large, a temporary file, and counted.
    private static func measureMainKML(of zip: RandomAccessBytes, entries: [ZipEntry], file: String?,
                                       needs: [ProfileMeasure: Set<Int64>], into measurement: inout ProfileMeasurement) throws {
        let files = entries.filter { !$0.isDirectory }
        guard let main = files.first(where: { $0.path.lowercased() == "doc.kml" }) ?? files.first(where: { $0.path.lowercased().hasSuffix(".kml") })
        else {
            throw Diagnostic(.error, code: .kmzInvalid, message: "\(file ?? "<stdin>") holds no .kml file",
                             location: SourceLocation(file: file, line: 0, column: 0))
        }
        let name = "\(file ?? "<stdin>")/\(main.path)"
        measurement.values[.kmlBytes] = .init(value: main.uncompressedSize)
        let document: ByteInput
        if main.uncompressedSize <= 16 << 20 {
            var bytes: [UInt8] = []
            try KMZ.inflate(main, of: zip, limits: KMZ.Limits()) { bytes.append(contentsOf: $0) }
            document = ByteInput(bytes: bytes, name: name)
        } else {
            let spool = try TemporaryFile()
            try KMZ.inflate(main, of: zip, limits: KMZ.Limits()) { try spool.write($0) }
            document = try ByteInput(path: spool.descriptorPath)
        }
        try KMLCounter(input: document, name: name, needs: needs).count(into: &measurement)
    }

    /// A tile set's tiles: how many, the highest zoom, and the largest as stored. The archive
    /// reader hands tiles out decoded, so each is measured gzip-compressed as `overlaykit tile`
    /// stores vector tiles (`Gzip.compress`, level 6 as tippecanoe) (an image tile, which gzip
    /// cannot shrink, measures its size plus gzip's 18-byte frame).
    private static func measureTiles(_ path: String, needs: [ProfileMeasure: Set<Int64>], into measurement: inout ProfileMeasurement) throws {
        let archive = try TileArchive.open(path)
        // By runs (a PMTiles entry stands for all its identical tiles): counted, never listed.
        let runs = try archive.tileRuns()
        measurement.values[.tiles] = .init(value: runs.reduce(Int64(0)) { $0 + Int64($1.count) })
        measurement.values[.maxZoom] = .init(value: Int64(runs.compactMap { TileRun.zoom(ofID: $0.endID - 1) }.max() ?? 0))
        guard needs[.tileBytes] != nil else { return }
        var largest: (size: Int64, id: TileID?) = (0, nil)
        var measured = Set<TileRun.Content>()
        for run in runs {
            // Runs of an archive's one stored tile measure alike; the first names it.
            guard measured.insert(run.content).inserted, let id = run.firstTile,
                  let tile = try archive.storedTile(of: run)?.uncompressed(source: "\(path) (tile \(id))") else { continue }
            if measured.count >= 1 << 16 { measured.removeAll(keepingCapacity: true) }
            let size = Int64(try Gzip.compress(tile).count)
            if size > largest.size || (size == largest.size && largest.id.map { id < $0 } == true) { largest = (size, id) }
        }
        measurement.values[.tileBytes] = .init(value: largest.size, item: largest.id.map { "tile \($0.z)/\($0.x)/\($0.y)" })
    }

    /// The lowercased extension of a path's last component ("png" of "files/A.PNG").
    static func fileExtension(_ path: String) -> String {
        let name = PathName(path).lastComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
