/// One glyph as MapLibre GL JS draws text: a signed distance field of the glyph at 24 pixels
/// with a 3-pixel border, and the metrics that place it (the fields of a glyphs PBF's `glyph`).
public struct SDFGlyph: Hashable, Sendable {
    /// The Unicode code point.
    public var id: UInt32
    /// `(width + 6) × (height + 6)` bytes, row by row from the top (empty for a glyph that
    /// draws nothing, such as a space): one byte a pixel, TinySDF's encoding (191 on the outline; see SDFGlyphFont).
    public var bitmap: [UInt8]
    /// The drawn part's width in pixels, border excluded.
    public var width: Int
    /// The drawn part's height in pixels, border excluded.
    public var height: Int
    /// From the pen position to the drawn part's left edge, in pixels.
    public var left: Int
    /// The drawn part's top edge relative to the font's ascender line, in pixels (fontnik's
    /// convention: the top above the baseline minus the ascender, so usually negative).
    public var top: Int
    /// How far the pen moves after the glyph, in pixels.
    public var advance: Int

    /// A glyph from its parts.
    public init(id: UInt32, bitmap: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Int) {
        self.id = id
        self.bitmap = bitmap
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
    }
}
