import OverlayKit

/// `tile --style OUT.json`: the style of the tiles just written, put in place atomically.
enum TileStyleOutput {
    static func write(_ path: String, metadata: TileSetMetadata, output: String, format: TileArchiveFormat,
                      tiles: String?, glyphs: String?, fontStack: [String], replaceExisting: Bool) throws {
        var style = try MapLibreStyle(tileSet: metadata, output: output, format: format, tiles: tiles, glyphs: glyphs)
        if !fontStack.isEmpty { style.fontStack = fontStack }
        let file = try ByteOutput(path: path, replaceExisting: replaceExisting)
        defer { file.abandon() }
        try file.write(style.bytes())
        try file.commit()
    }
}

/// `--font A,B`: the font stack's names, trimmed; nil when none is left.
enum StyleFontStack {
    static func names(_ text: String) -> [String]? {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : names
    }
}
