import OverlayKit

/// `tile --style OUT.json`: the style of the tiles just written, put in place atomically.
enum TileStyleOutput {
    static func write(_ path: String, metadata: TileSetMetadata, output: String, format: TileArchiveFormat,
                      tiles: String?, replaceExisting: Bool) throws {
        let style = try MapLibreStyle(tileSet: metadata, output: output, format: format, tiles: tiles)
        let file = try ByteOutput(path: path, replaceExisting: replaceExisting)
        defer { file.abandon() }
        try file.write(style.bytes())
        try file.commit()
    }
}
