import Foundation
import OverlayModel

/// MapLibre's text glyphs made from a system font, so labels draw without a glyph server on
/// the internet: each glyph is drawn at 24 pixels with a 3-pixel border (fontnik's sizes) and
/// turned into a signed distance field with radius 8 and cutoff 0.25 (TinySDF's), then a
/// range of 256 code points is encoded as the glyphs PBF MapLibre requests
/// (`{fontstack}/{range}.pbf`). The font is the one `render` draws labels with: DejaVu Sans
/// (Debian `fonts-dejavu-core`), found through fontconfig.
///
/// Ranges are made when first asked for and kept (a range is about 30 KB), so a server can
/// call ``pbf(fontStack:range:)`` for every request; safe to use from any thread.
///
/// ```swift
/// let font = try SDFGlyphFont()
/// let bytes = try font.pbf(fontStack: "DejaVu Sans", range: GlyphRange(start: 0)!)
/// ```
public final class SDFGlyphFont: @unchecked Sendable {
    /// The font family asked of fontconfig.
    public let family: String
    /// The size glyphs are drawn at, in pixels to the em (MapLibre's `ONE_EM`).
    public static let pixelSize = 24
    /// The border around each glyph's drawn part, in pixels (MapLibre's `GLYPH_PBF_BORDER`).
    public static let border = 3
    /// How far from the edge, in pixels, the field reaches 0.
    public static let radius = 8.0
    /// The share of the radius used inside the edge.
    public static let cutoff = 0.25
    /// The family `render` draws labels with.
    public static let defaultFamily = "DejaVu Sans"

    private let rasterizer: CairoGlyphRasterizer
    private let lock = NSLock()
    private var ranges: [GlyphRange: [SDFGlyph]] = [:]

    /// The font `family` (fontconfig's best match for it).
    /// - Throws: `Diagnostic` `render.cairo-failed` when cairo cannot make the font.
    public init(family: String = SDFGlyphFont.defaultFamily) throws {
        self.family = family
        rasterizer = try CairoGlyphRasterizer(family: family, pixelSize: Double(Self.pixelSize))
    }

    /// The glyphs PBF of `range`, named `fontStack` (the name MapLibre asked for).
    /// - Throws: `Diagnostic` `render.cairo-failed`.
    public func pbf(fontStack: String, range: GlyphRange) throws -> [UInt8] {
        GlyphsPBF.encode(fontStack: fontStack, range: range, glyphs: try glyphs(in: range))
    }

    /// The glyphs the font has in `range`, in code point order (made once, then kept).
    /// - Throws: `Diagnostic` `render.cairo-failed`.
    public func glyphs(in range: GlyphRange) throws -> [SDFGlyph] {
        lock.lock()
        defer { lock.unlock() }
        if let made = ranges[range] { return made }
        var glyphs = [SDFGlyph]()
        for value in range.start...range.end {
            // Surrogate code points and Unicode's noncharacters (U+FDD0…U+FDEF, U+xxFFFE and
            // U+xxFFFF) are not characters: no font has a glyph for them (cairo refuses them).
            guard !Self.isNoncharacter(value), let scalar = Unicode.Scalar(value),
                  let drawn = try rasterizer.glyph(scalar) else { continue }
            glyphs.append(sdfGlyph(drawn, id: value))
        }
        ranges[range] = glyphs
        return glyphs
    }

    /// True for Unicode's 66 noncharacters.
    static func isNoncharacter(_ value: UInt32) -> Bool {
        (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// A drawn glyph as MapLibre's glyph: the border added, the field computed, `top` measured
    /// from the ascender line.
    private func sdfGlyph(_ drawn: CairoGlyphRasterizer.RasterGlyph, id: UInt32) -> SDFGlyph {
        let top = (drawn.width > 0 ? drawn.top : 0) - rasterizer.ascender
        guard drawn.width > 0 && drawn.height > 0 else {
            return SDFGlyph(id: id, bitmap: [], width: 0, height: 0, left: 0, top: top, advance: drawn.advance)
        }
        let border = Self.border
        let width = drawn.width + 2 * border, height = drawn.height + 2 * border
        var mask = [UInt8](repeating: 0, count: width * height)
        for row in 0..<drawn.height {
            let from = row * drawn.width
            mask.replaceSubrange(((row + border) * width + border)..<((row + border) * width + border + drawn.width),
                                 with: drawn.coverage[from..<(from + drawn.width)])
        }
        let field = SignedDistanceField.encode(coverage: mask, width: width, height: height, radius: Self.radius, cutoff: Self.cutoff)
        return SDFGlyph(id: id, bitmap: field, width: drawn.width, height: drawn.height, left: drawn.left, top: top, advance: drawn.advance)
    }
}
