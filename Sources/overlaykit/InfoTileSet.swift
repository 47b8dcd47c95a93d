import ArgumentParser
import OverlayKit

/// `overlaykit info TILESET [z/x/y]`: the per-zoom report of a tile set, or one tile decoded to
/// GeoJSON (as `tippecanoe-decode` prints it).
enum InfoTileSet {
    /// True when `path` names a tile set (recognised by its bytes), not a feature file.
    static func isTileSet(_ path: String?) -> Bool {
        guard let path, path != "-", !GeoParquetReader.isDataSetFolder(path) else { return false }
        return TileSet.recognizedFormat(path) != nil
    }

    static func run(path: String, tile: String?, json: Bool) throws {
        let tileSet = try TileSet(path: path)
        let output = try ByteOutput(path: nil)
        if let tile {
            let id = try TileID(parsing: tile)
            guard let features = try tileSet.features(at: id) else {
                throw Diagnostic(.error, code: .ioNotFound, message: "\(path) has no tile \(id)")
            }
            try output.write(FeatureIO.encode(features, as: .geojson))
        } else {
            let report = try tileSet.inspect()
            try output.write(json ? report.json() : Array(report.text().utf8))
        }
        try output.commit()
    }
}
