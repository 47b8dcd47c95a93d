import ArgumentParser
import OverlayKit

/// `overlaykit info TILESET [z/x/y]`: the per-zoom report of a tile set, or one tile decoded to
/// GeoJSON (as `tippecanoe-decode` prints it).
enum InfoTileSet {
    /// - Parameter progress: the progress line on standard error: true always, false never, nil
    ///   when it is a terminal.
    static func run(path: String, tile: String?, json: Bool, progress: Bool?) throws {
        let tileSet = try TileSet(path: path)
        let output = try ByteOutput(path: nil)
        if let tile {
            let id = try TileID(parsing: tile)
            guard let features = try tileSet.features(at: id) else {
                throw Diagnostic(.error, code: .ioNotFound, message: "\(path) has no tile \(id)")
            }
            try output.write(FeatureIO.encode(features, as: .geojson))
        } else {
            // What the header and metadata say goes out before the scan, which may take minutes.
            if !json {
                try output.write(tileSet.summary.text())
                try output.flush()
            }
            let meter = ProgressMeter(show: progress) { Report.standardError($0) }
            let report = try tileSet.inspect(onProgress: meter.enabled ? { scan in
                meter.update(stage: scan.runs == nil ? 1 : 2) { progressLine(scan) }
            } : nil)
            meter.finish("info: read \(report.tileCount) tiles in \(ProgressEstimate.duration(meter.elapsedSeconds)), 100%")
            try output.write(json ? report.json() : Array(report.scanText().utf8))
        }
        try output.commit()
    }

    /// "info: listing the tiles…", then "info: 1024 of 151064 runs of tiles read (9437184 tiles so far), 0%, about 3 s left".
    static func progressLine(_ scan: TileSetScanProgress) -> String {
        guard let runs = scan.runs else { return "info: listing the tiles…" }
        var text = "info: \(scan.runsRead) of \(runs) runs of tiles read (\(scan.tilesCounted) tiles so far)"
        if let fraction = scan.fraction, let estimate = ProgressEstimate(done: fraction, total: 1, elapsedSeconds: scan.seconds) {
            text += ", " + estimate.text
        }
        return text
    }
}
