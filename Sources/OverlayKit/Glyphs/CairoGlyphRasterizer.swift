import CCairo
import OverlayModel

/// Draws single glyphs of a system font with cairo (FreeType underneath, the font found by
/// fontconfig, as `render` finds its label font): each glyph's anti-aliased coverage, cropped to
/// the pixels it inks, with its metrics in whole pixels. Unhinted outlines and metrics, as
/// fontnik loads them (`FT_LOAD_NO_HINTING`). Besides `Render/CairoCanvas.swift` the one file
/// that imports cairo.
final class CairoGlyphRasterizer {
    /// One drawn glyph.
    struct RasterGlyph {
        /// `width × height` coverage bytes (0 empty … 255 covered), row by row from the top.
        var coverage: [UInt8]
        /// The inked box's size in pixels (0 × 0 for a glyph that draws nothing).
        var width: Int, height: Int
        /// From the pen position to the inked box's left edge.
        var left: Int
        /// From the baseline up to the inked box's top edge.
        var top: Int
        /// The pen's advance, rounded to a pixel.
        var advance: Int
    }

    private let face: OpaquePointer
    private let font: OpaquePointer
    private let options: OpaquePointer
    /// The font's ascent above the baseline, rounded up to a whole pixel (as FreeType's size
    /// metrics give it to fontnik).
    let ascender: Int

    /// The font of `family` (fontconfig's best match) at `pixelSize` pixels to the em.
    /// - Throws: `Diagnostic` `render.cairo-failed`.
    init(family: String, pixelSize: Double) throws {
        face = cairo_toy_font_face_create(family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        var size = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&size, pixelSize, pixelSize)
        cairo_matrix_init_identity(&identity)
        font = cairo_scaled_font_create(face, &size, &identity, options)
        let status = cairo_scaled_font_status(font)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_scaled_font_destroy(font)
            cairo_font_options_destroy(options)
            cairo_font_face_destroy(face)
            throw Self.failure("cairo_scaled_font_create(\(family))", status)
        }
        var extents = cairo_font_extents_t()
        cairo_scaled_font_extents(font, &extents)
        ascender = Self.whole(extents.ascent.rounded(.up)) ?? Int(pixelSize)
    }

    deinit {
        cairo_scaled_font_destroy(font)
        cairo_font_options_destroy(options)
        cairo_font_face_destroy(face)
    }

    /// The glyph the font maps `scalar` to; nil when the font has none for it.
    /// - Throws: `Diagnostic` `render.cairo-failed`.
    func glyph(_ scalar: Unicode.Scalar) throws -> RasterGlyph? {
        guard let index = try glyphIndex(scalar) else { return nil }
        var glyph = cairo_glyph_t(index: index, x: 0, y: 0)
        var extents = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(font, &glyph, 1, &extents)
        let advance = Self.whole(extents.x_advance.rounded()) ?? 0
        // The outline's control box, a pixel wider on each side; the inked pixels inside it are kept.
        guard extents.width > 0, extents.height > 0,
              let boxLeft = Self.whole(extents.x_bearing.rounded(.down)),
              let boxTop = Self.whole(extents.y_bearing.rounded(.down)),
              let boxRight = Self.whole((extents.x_bearing + extents.width).rounded(.up)),
              let boxBottom = Self.whole((extents.y_bearing + extents.height).rounded(.up)),
              boxRight - boxLeft < 4096, boxBottom - boxTop < 4096 else {
            return RasterGlyph(coverage: [], width: 0, height: 0, left: 0, top: 0, advance: advance)
        }
        let margin = 1
        let canvasWidth = boxRight - boxLeft + 2 * margin, canvasHeight = boxBottom - boxTop + 2 * margin
        // The pen sits on whole pixels, so the crop below keeps whole-pixel metrics.
        let originX = margin - boxLeft, originY = margin - boxTop
        let canvas = try draw(index, width: canvasWidth, height: canvasHeight, originX: originX, originY: originY)
        guard let ink = Self.inkedBox(canvas, width: canvasWidth, height: canvasHeight) else {
            return RasterGlyph(coverage: [], width: 0, height: 0, left: 0, top: 0, advance: advance)
        }
        var coverage = [UInt8]()
        coverage.reserveCapacity(ink.columns.count * ink.rows.count)
        for row in ink.rows { coverage += canvas[(row * canvasWidth + ink.columns.lowerBound)..<(row * canvasWidth + ink.columns.upperBound)] }
        return RasterGlyph(coverage: coverage, width: ink.columns.count, height: ink.rows.count,
                           left: ink.columns.lowerBound - originX, top: originY - ink.rows.lowerBound, advance: advance)
    }

    /// The font's glyph for `scalar`, nil for none (glyph 0, `.notdef`).
    private func glyphIndex(_ scalar: Unicode.Scalar) throws -> UInt? {
        let utf8 = Array(String(scalar).utf8)
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        let status = utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                cairo_scaled_font_text_to_glyphs(font, 0, 0, text.baseAddress, Int32(text.count), &glyphs, &count, nil, nil, nil)
            }
        }
        defer { cairo_glyph_free(glyphs) }
        guard status == CAIRO_STATUS_SUCCESS else { throw Self.failure("cairo_scaled_font_text_to_glyphs(U+\(String(scalar.value, radix: 16)))", status) }
        guard count == 1, let glyphs, glyphs[0].index != 0 else { return nil }
        return glyphs[0].index
    }

    /// Glyph `index` drawn with its pen at (originX, originY) on an A8 canvas, as row-major bytes.
    private func draw(_ index: UInt, width: Int, height: Int, originX: Int, originY: Int) throws -> [UInt8] {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else {
            throw Diagnostic(.error, code: .renderCairoFailed, message: "cairo_image_surface_create returned nothing")
        }
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_set_scaled_font(context, font)
        cairo_set_font_options(context, options)
        cairo_set_source_rgba(context, 0, 0, 0, 1)
        var glyph = cairo_glyph_t(index: index, x: Double(originX), y: Double(originY))
        cairo_show_glyphs(context, &glyph, 1)
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else { throw Self.failure("cairo_show_glyphs", status) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            throw Diagnostic(.error, code: .renderCairoFailed, message: "cairo_image_surface_get_data returned nothing")
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width { pixels[row * width + column] = data[row * stride + column] }
        }
        return pixels
    }

    /// The rows and columns holding a pixel that is not empty; nil when none is.
    private static func inkedBox(_ pixels: [UInt8], width: Int, height: Int) -> (columns: Range<Int>, rows: Range<Int>)? {
        var minColumn = width, maxColumn = -1, minRow = height, maxRow = -1
        for row in 0..<height {
            for column in 0..<width where pixels[row * width + column] != 0 {
                minColumn = min(minColumn, column)
                maxColumn = max(maxColumn, column)
                minRow = min(minRow, row)
                maxRow = max(maxRow, row)
            }
        }
        guard maxColumn >= 0 else { return nil }
        return (minColumn..<(maxColumn + 1), minRow..<(maxRow + 1))
    }

    /// A whole-valued Double as an Int; nil when it is not finite or out of range.
    private static func whole(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e9 else { return nil }
        return Int(value)
    }

    private static func failure(_ call: String, _ status: cairo_status_t) -> Diagnostic {
        Diagnostic(.error, code: .renderCairoFailed, message: "\(call) failed: \(String(cString: cairo_status_to_string(status)))")
    }
}
