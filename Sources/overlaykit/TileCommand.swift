import ArgumentParser
import Foundation
import OverlayKit
import OverlayModel

/// Tile output formats.
enum TileFormat: String, ExpressibleByArgument, CaseIterable {
    case mvt, geojson
}

struct TileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile",
        abstract: "Cut overlays into vector tiles (Mapbox Vector Tile or GeoJSON) for a zoom range.",
        discussion: """
            Writes DIR/z/x/y.mvt (or .geojson) for every tile a feature reaches, clipped with a buffer
            and simplified for its zoom (full detail at --max-zoom), plus DIR/metadata.json with the
            bounds, zoom range, layer fields and, per zoom, every feature and ring that was dropped.
            Tiles left empty are not written. --tolerance is in tile units (1/extent of a tile):
            at extent 4096 the default 3 is 3/16 of a screen point. Defaults match geojson-vt's.
            """
    )

    @OptionGroup var inputOptions: InputOptions

    @Option(name: [.short, .long], help: "Output directory (created; must be empty unless --force).")
    var output: String

    @Option(help: "Lowest zoom written.")
    var minZoom = 0

    @Option(help: "Highest zoom written, with full detail (0…24).")
    var maxZoom = 14

    @Option(help: "Tile units across a tile.")
    var extent = 4096

    @Option(help: "Tile units kept beyond each edge.")
    var buffer = 64

    @Option(help: "Simplification tolerance in tile units.")
    var tolerance = 3.0

    @Option(help: "Tile format: mvt or geojson.")
    var format: TileFormat = .mvt

    @Option(help: "MVT layer name (default: the input's file name without extension).")
    var layer: String?

    @Option(help: "Decimal places for --format geojson coordinates.")
    var precision = 7

    @Option(help: "Threads to use (default: all cores).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Write into an output directory that is not empty.")
    var force = false

    func validate() throws {
        guard (0...24).contains(maxZoom) else { throw ValidationError("--max-zoom must be 0…24") }
        guard (0...maxZoom).contains(minZoom) else { throw ValidationError("--min-zoom must be 0…--max-zoom") }
        guard extent > 0 && extent <= 65536 else { throw ValidationError("--extent must be 1…65536") }
        guard buffer >= 0 && buffer <= extent else { throw ValidationError("--buffer must be 0…extent") }
        guard tolerance >= 0 && tolerance.isFinite else { throw ValidationError("--tolerance must be ≥ 0") }
        guard (0...17).contains(precision) else { throw ValidationError("--precision must be 0…17") }
        guard threads >= 1 else { throw ValidationError("--threads must be ≥ 1") }
    }

    func run() throws {
        try runReportingErrors {
            let directory = URL(fileURLWithPath: output)
            try prepare(directory)
            var (_, reader) = try inputOptions.openReader()
            let features = try reader.readAll()
            reader.takeWarnings().forEach(Report.diagnostic)

            var options = TileOptions()
            options.maxZoom = maxZoom
            options.extent = extent
            options.buffer = buffer
            options.tolerance = tolerance
            let source = try TileSource(features: features, options: options)
            let layerName = layer ?? inputOptions.input.flatMap { $0 == "-" ? nil : $0 }
                .map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "features"
            let writer = TileFileWriter(directory: directory.path, format: format, layer: layerName, precision: precision)
            let zooms = try TilePyramid.build(source, minZoom: minZoom, parallelism: threads, emit: writer.write)

            let metadata = TileMetadata(name: layerName, format: format.rawValue, layer: layerName, minZoom: minZoom,
                                        zooms: zooms, losses: writer.losses)
            let metadataOutput = try ByteOutput(path: directory.appendingPathComponent("metadata.json").path)
            defer { metadataOutput.abandon() }
            try metadataOutput.write(metadata.json(for: source))
            try metadataOutput.commit()
            report(source: source, zooms: zooms, losses: writer.losses)
        }
    }

    /// Creates the directory, or checks that it is empty.
    private func prepare(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Diagnostic(.error, code: "io.not-a-directory", message: "\(output) exists and is not a directory")
            }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            if !contents.isEmpty && !force {
                throw Diagnostic(.error, code: "io.directory-not-empty",
                                 message: "\(output) is not empty; use --force to write tiles into it")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw Diagnostic(.error, code: "io.cannot-create", message: "cannot create \(output): \(error.localizedDescription)")
            }
        }
    }

    private func report(source: TileSource, zooms: [TilePyramid.ZoomCounts], losses: MVTEncoder.Losses) {
        let tiles = zooms.reduce(0) { $0 + $1.tiles }
        let bytes = zooms.reduce(0) { $0 + $1.bytes }
        Report.standardError("tile: \(tiles) tiles, z\(minZoom)–z\(maxZoom), \(bytes) bytes in \(output)\n")
        var total = TileStatistics()
        for zoom in zooms { total += zoom.statistics }
        let dropped = total.droppedTinyRings + total.droppedTinyLines + total.droppedDegenerateRings + total.droppedDegenerateLines
        if dropped > 0 || total.droppedFeatures > 0 {
            Report.standardError("note: tile.dropped: \(total.droppedTinyRings) tiny rings, \(total.droppedTinyLines) tiny lines, "
                + "\(total.droppedDegenerateRings + total.droppedDegenerateLines) degenerate rings/lines and "
                + "\(total.droppedFeatures) feature copies left empty were not written (per zoom in metadata.json)\n")
        }
        let input = source.inputCounts
        if input.withoutGeometry + input.withoutPositions > 0 {
            Report.standardError("warning: tile.no-geometry: \(input.withoutGeometry) features without geometry and "
                + "\(input.withoutPositions) without positions have nothing to tile\n")
        }
        if losses.idsNotWritten > 0 {
            Report.standardError("warning: mvt.id-not-integer: \(losses.idsNotWritten) feature ids are not unsigned integers; "
                + "MVT cannot hold them and they were not written\n")
        }
        if losses.nullValuesNotWritten > 0 {
            Report.standardError("warning: mvt.null-value: \(losses.nullValuesNotWritten) null property values have no MVT form "
                + "and were not written\n")
        }
        if losses.valuesWrittenAsJSON > 0 {
            Report.standardError("note: mvt.json-value: \(losses.valuesWrittenAsJSON) object or array property values were "
                + "written as JSON text\n")
        }
    }
}

/// Writes tiles as files from several threads; collects what MVT could not hold.
final class TileFileWriter: @unchecked Sendable {
    let directory: String
    let format: TileFormat
    let encoder: MVTEncoder
    let geoJSON: TileGeoJSONEncoder
    private let lock = NSLock()
    private var lossTotal = MVTEncoder.Losses()
    private var createdDirectories = Set<String>()

    init(directory: String, format: TileFormat, layer: String, precision: Int) {
        self.directory = directory
        self.format = format
        self.encoder = MVTEncoder(layerName: layer)
        self.geoJSON = TileGeoJSONEncoder(precision: precision)
    }

    var losses: MVTEncoder.Losses {
        lock.lock()
        defer { lock.unlock() }
        return lossTotal
    }

    func write(_ tile: VectorTile) throws -> Int {
        let bytes: [UInt8]
        switch format {
        case .mvt:
            let (encoded, losses) = encoder.encode(tile)
            bytes = encoded
            lock.lock()
            lossTotal += losses
            lock.unlock()
        case .geojson:
            bytes = try geoJSON.encode(tile)
        }
        let folder = "\(directory)/\(tile.id.z)/\(tile.id.x)"
        lock.lock()
        let known = createdDirectories.contains(folder)
        lock.unlock()
        if !known {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Diagnostic(.error, code: "io.cannot-create", message: "cannot create \(folder): \(error.localizedDescription)")
            }
            lock.lock()
            createdDirectories.insert(folder)
            lock.unlock()
        }
        let file = try ByteOutput(path: "\(folder)/\(tile.id.y).\(format.rawValue)")
        defer { file.abandon() }
        try file.write(bytes)
        try file.commit()
        return bytes.count
    }
}
