/// The glyphs protocol buffer MapLibre GL JS loads for text (fontnik's `glyphs.proto`):
/// `glyphs { repeated fontstack stacks = 1 }`, `fontstack { name = 1; range = 2; repeated glyph
/// glyphs = 3 }`, `glyph { id = 1; bitmap = 2; width = 3; height = 4; left = 5 (sint32); top = 6
/// (sint32); advance = 7 }`.
public enum GlyphsPBF {
    /// One font stack's glyphs for one range, as the bytes of a `glyphs` message.
    public static func encode(fontStack: String, range: GlyphRange, glyphs: [SDFGlyph]) -> [UInt8] {
        var stack = ProtobufWriter()
        stack.stringField(1, fontStack)
        stack.stringField(2, range.description)
        for glyph in glyphs {
            var entry = ProtobufWriter()
            entry.varintField(1, UInt64(glyph.id))
            if !glyph.bitmap.isEmpty { entry.bytesField(2, glyph.bitmap) }
            entry.varintField(3, UInt64(clamping: glyph.width))
            entry.varintField(4, UInt64(clamping: glyph.height))
            entry.varintField(5, ProtobufWriter.zigzag(Int64(glyph.left)))
            entry.varintField(6, ProtobufWriter.zigzag(Int64(glyph.top)))
            entry.varintField(7, UInt64(clamping: glyph.advance))
            stack.bytesField(3, entry.bytes)
        }
        var message = ProtobufWriter()
        message.bytesField(1, stack.bytes)
        return message.bytes
    }
}

/// A block of 256 code points, as MapLibre asks for glyphs: `0-255`, `256-511`, ….
public struct GlyphRange: Hashable, Sendable, CustomStringConvertible {
    /// The first code point (a multiple of 256).
    public let start: UInt32

    /// The last code point.
    public var end: UInt32 { start + 255 }

    /// The highest range start: Unicode ends at U+10FFFF.
    public static let lastStart: UInt32 = 0x10_FF00

    /// The range starting at `start`; nil unless it is a multiple of 256 within Unicode.
    public init?(start: UInt32) {
        guard start % 256 == 0, start <= Self.lastStart else { return nil }
        self.start = start
    }

    /// A range as MapLibre writes it in a URL (`256-511`); nil for anything else.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 7 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let start = UInt32(parts[0]), let end = UInt32(parts[1]), let range = GlyphRange(start: start), range.end == end else {
            return nil
        }
        self = range
    }

    /// `start-end`.
    public var description: String { "\(start)-\(end)" }
}
