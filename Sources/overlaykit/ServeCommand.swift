#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import Foundation
import OverlayKit
import OverlayKitServer

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview tile sets and GeoJSON/KML files in a browser: MapLibre GL JS with a style built from the data.",
        discussion: """
            Each PATH is a tile set (a .pmtiles or .mbtiles file or a directory of z/x/y tiles, \
            recognised by its bytes) or a GeoJSON, GeoJSONSeq, KML or KMZ file, tiled on the fly. \
            Open the printed address: / is the map with a layer list, a tile-boundary switch and a \
            feature inspector (click a feature); /style.json is the style; /tilesets/ID.json each \
            set's TileJSON, whose tiles are /tiles/ID/{z}/{x}/{y}.EXT; /catalog lists the sets. \
            Listens on 127.0.0.1 unless --host says otherwise; a preview server for a trusted network. \
            Each request is logged on standard error (--quiet: none). Ctrl-C (SIGINT) or SIGTERM \
            stops it. See docs/serve.md (its limits too).
            """
    )

    @Argument(help: "Tile sets (.pmtiles, .mbtiles, directories) and GeoJSON, GeoJSONSeq, KML or KMZ files.")
    var paths: [String]

    @Option(help: "Port to listen on (0: any free port; the address is printed).")
    var port: Int = 8080

    @Option(help: "Address to listen on: 127.0.0.1 (this machine only), ::1, or 0.0.0.0 to let other machines in.")
    var host = "127.0.0.1"

    @Option(name: .customLong("maplibre-js"), help: ArgumentHelp("MapLibre GL JS script to serve (maplibre-gl.css beside it is served too); without it the page loads MapLibre \(PreviewSite.mapLibreVersion) from the unpkg CDN. A release before 5.12 reads no MLT: MLT tile sets are then served as MVT.", valueName: "path"))
    var mapLibreJS: String?

    @Option(help: ArgumentHelp("Glyphs URL template ({fontstack}, {range}) on another host for the point labels; without it serve makes them from DejaVu Sans at /fonts/{fontstack}/{range}.pbf.", valueName: "url"))
    var glyphs: String?

    @Option(help: ArgumentHelp("The labels' font stack on the --glyphs host, comma-separated (default: \(SDFGlyphFont.defaultFamily)).", valueName: "names"))
    var font: String?

    @Option(name: .customLong("max-zoom"), help: "Highest zoom feature files are tiled to (0…24), as by tile.")
    var maxZoom = TileOptions.tileDefaults.maxZoom

    @Option(name: .customLong("bbox"), parsing: .unconditional,
            help: ArgumentHelp("Feature files: tile only what lies inside this box, as tile --bbox does (a GeoParquet file skips the row groups outside it).", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(name: .customLong("cache-size"), help: ArgumentHelp("MiB of tiles transcoded from MLT to MVT kept in memory, shared by the sets served; the oldest are forgotten first.", valueName: "MiB"))
    var cacheSize = 256

    @Option(name: .customLong("header-timeout"), help: ArgumentHelp("Seconds a client has to send a request's head (408 after).", valueName: "s"))
    var headerTimeout: Int64 = ServerLimits().headerSeconds

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a connection may be idle before it is closed.", valueName: "s"))
    var idleTimeout: Int64 = ServerLimits().idleSeconds

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("Most connections open at once (default: the descriptor limit less 64); at the cap the one idle longest is closed.", valueName: "n"))
    var maxConnections: Int?

    @Flag(help: "Print no line per request on standard error.")
    var quiet = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one tile set or GeoJSON/KML file") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        _ = try TileCommand.clipBox(bbox)
        if let problem = tiler(layer: "served").problems.first { throw ValidationError(problem.description.replacingOccurrences(of: "maxZoom", with: "--max-zoom")) }
        guard (1...1_048_576).contains(cacheSize) else { throw ValidationError("--cache-size must be 1…1048576 (MiB)") }
        guard (1...3600).contains(headerTimeout), (1...86400).contains(idleTimeout) else {
            throw ValidationError("--header-timeout must be 1…3600 and --idle-timeout 1…86400 seconds")
        }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) { throw ValidationError("--max-connections must be 1…1000000") }
        if let font {
            guard glyphs != nil else { throw ValidationError("--font names a font on the --glyphs host; serve's own glyphs are \(SDFGlyphFont.defaultFamily)") }
            guard StyleFontStack.names(font) != nil else { throw ValidationError("--font needs at least one font name") }
        }
    }

    /// The run a feature file is tiled with: `tile`'s defaults, `--max-zoom` and `--bbox`
    /// (checked in `validate()`).
    private func tiler(layer: String) -> Tiler {
        var tiler = Tiler(output: "", layer: layer)
        tiler.options.maxZoom = maxZoom
        tiler.options.clipBox = try? TileCommand.clipBox(bbox)
        return tiler
    }

    func run() throws {
        try runReportingErrors {
            var tileSets = [ServedTileSet]()
            let ids = ServedTileSet.ids(for: paths.map { PathName($0).stem })
            let cacheBytes = (cacheSize << 20) / max(1, paths.count)
            for (path, id) in zip(paths, ids) {
                let provider: any TileProvider
                if let format = TileSet.recognizedFormat(path) {
                    let tileSet = try TileSet(path: path)
                    // A folder with no tiles is a wrong path far more often than a set to show.
                    let empty = format == .directory ? try tileSet.reader.tileIDs().isEmpty : false
                    if empty {
                        throw Diagnostic(.error, code: .tilesetNoTiles,
                                         message: "\(path) holds no tiles (no z/x/y.mvt, .pbf, .mlt or .geojson files): nothing to serve")
                    }
                    provider = LockedTileSet(tileSet)
                } else {
                    // Tiled as `tile` tiles it, with the same defaults: a served tile is the tile `tile` writes.
                    Report.standardError("serve: tiling \(path) to z\(maxZoom)…\n")
                    provider = try FeatureTileSet(path: path, layer: id, tiler: tiler(layer: id), onWarning: Report.diagnostic)
                }
                tileSets.append(ServedTileSet(id: id, title: PathName(path).lastComponent, provider: provider))
            }
            var siteOptions = PreviewSite.Options(mapLibreScript: mapLibreJS, glyphs: glyphs,
                                                  fontStack: font.flatMap(StyleFontStack.names) ?? [SDFGlyphFont.defaultFamily])
            siteOptions.transcodedCacheBytes = cacheBytes
            let site = try PreviewSite(tileSets: tileSets, options: siteOptions)
            for note in site.notes { Report.standardError("serve: note: \(note)\n") }
            ServerLimits.raiseDescriptorLimit()
            var log: (@Sendable (RequestLogEntry) -> Void)?
            if !quiet {
                log = { entry in Report.standardError("serve: \(entry.line)\n") }
            }
            var limits = ServerLimits()
            limits.headerSeconds = headerTimeout
            limits.idleSeconds = idleTimeout
            limits.maxConnections = maxConnections
            let server = try PreviewServer(site: site, host: host, port: UInt16(port), limits: limits, onClientEvent: { event in
                // PreviewSite escaped and capped both.
                Report.standardError("serve: browser \(event.type)" + (event.message.isEmpty ? "" : ": \(event.message)") + "\n")
            }, onRequest: log)
            try ServeLoop.run(server)
        }
    }
}

/// Runs the server until SIGINT or SIGTERM, then stops it and returns (exit 0).
enum ServeLoop {
    static func run(_ server: PreviewServer) throws {
        // The signals arrive as dispatch events instead of killing the process.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stopped = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        Task {
            do {
                let port = try await server.start()
                let host = server.host.contains(":") ? "[\(server.host)]" : server.host
                Report.standardError("serve: http://\(host):\(port)/ (Ctrl-C stops)\n")
            } catch {
                failure.set(error)
                stopped.signal()
                return
            }
            await server.wait()
            stopped.signal()
        }
        for source in sources {
            source.setEventHandler {
                Task {
                    await server.stop()
                    stopped.signal()
                }
            }
            source.resume()
        }
        // The sources must outlive the wait: an optimised build releases them after their last
        // use above, which cancels them, and the signals (ignored) would then do nothing.
        withExtendedLifetime(sources) { stopped.wait() }
        if let error = failure.error { throw error }
        Report.standardError("serve: stopped\n")
    }

    private final class FailureBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (any Error)?
        var error: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }

        func set(_ error: any Error) {
            lock.lock()
            stored = error
            lock.unlock()
        }
    }
}
