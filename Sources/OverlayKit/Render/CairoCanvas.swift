import CCairo
import OverlayModel

/// Paints a render scene with cairo (anti-aliased, with text) and reads and writes PNG. The
/// only file that imports cairo: C types stay here.
enum CairoCanvas {
    /// The scene as PNG bytes.
    static func png(_ scene: RenderScene) throws -> [UInt8] {
        let surface = try draw(scene)
        defer { cairo_surface_destroy(surface) }
        return try png(surface: surface)
    }

    /// A finished surface as PNG bytes.
    private static func png(surface: OpaquePointer) throws -> [UInt8] {
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        try check(status, "cairo_surface_write_to_png_stream")
        return sink.bytes
    }

    /// The scene as pixels.
    static func image(_ scene: RenderScene) throws -> RasterImage {
        let surface = try draw(scene)
        defer { cairo_surface_destroy(surface) }
        return pixels(of: surface)
    }

    /// Decodes PNG bytes.
    static func decodePNG(_ bytes: [UInt8]) throws -> RasterImage {
        let source = ByteSource(bytes)
        let surface = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
            let count = Int(length)
            guard source.offset + count <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            source.bytes.withUnsafeBufferPointer { buffer in
                data.update(from: buffer.baseAddress! + source.offset, count: count)
            }
            source.offset += count
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(source).toOpaque())
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard let surface, status == CAIRO_STATUS_SUCCESS else {
            throw Diagnostic(.error, code: .renderPngDecodeFailed,
                             message: "cannot decode PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return pixels(of: surface)
    }

    // MARK: Drawing

    private static func draw(_ scene: RenderScene) throws -> OpaquePointer {
        let canvas = try Surface(scene)
        for layer in scene.layers {
            for drawing in layer.drawings { canvas.draw(drawing) }
        }
        return try canvas.finish()
    }

    /// One cairo image surface being drawn: the background and sky are painted when it is
    /// made, marks are painted as they come, and `finish` hands the surface over. Memory is
    /// the surface (4 bytes a pixel), whatever number of marks is drawn on it.
    final class Surface {
        private var surface: OpaquePointer?
        private let context: OpaquePointer

        /// A surface of the scene's size with its background and sky painted (its layers are
        /// not drawn).
        /// - Throws: `Diagnostic` `render.cairo-failed`.
        init(_ scene: RenderScene) throws {
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(scene.pixelWidth), Int32(scene.pixelHeight)) else {
                throw Diagnostic(.error, code: .renderCairoFailed, message: "cairo_image_surface_create returned nothing")
            }
            do {
                try check(cairo_surface_status(surface), "cairo_image_surface_create(\(scene.pixelWidth)×\(scene.pixelHeight))")
                guard let context = cairo_create(surface) else {
                    throw Diagnostic(.error, code: .renderCairoFailed, message: "cairo_create returned nothing")
                }
                self.context = context
            } catch {
                cairo_surface_destroy(surface)
                throw error
            }
            self.surface = surface
            // SVG's default, so the two outputs join lines alike.
            cairo_set_miter_limit(context, 4)
            if let background = scene.background {
                setSource(context, background)
                cairo_paint(context)
            }
            if let sky = scene.sky {
                setSource(context, sky.color)
                cairo_rectangle(context, 0, 0, Double(scene.pixelWidth), min(Double(scene.pixelHeight), sky.bottom))
                cairo_fill(context)
            }
        }

        deinit {
            cairo_destroy(context)
            if let surface { cairo_surface_destroy(surface) }
            pins.destroy()
        }

        /// Paints one feature's marks over what is drawn.
        func draw(_ drawing: FeatureDrawing) {
            for part in drawing.parts {
                if case .pin(let x, let y, let color, let size) = part, pins.paint(x: x, y: y, color: color, size: size, on: context) {
                    continue
                }
                CairoCanvas.draw(part, context)
            }
        }

        /// Pins drawn once per look and quarter-pixel offset, then copied.
        private var pins = PinSprites()

        /// The finished surface, owned by the caller from now on.
        /// - Throws: `Diagnostic` `render.cairo-failed` when drawing failed.
        func finish() throws -> OpaquePointer {
            try check(cairo_status(context), "drawing")
            guard let surface else { throw Diagnostic(.error, code: .renderCairoFailed, message: "the surface was finished twice") }
            cairo_surface_flush(surface)
            self.surface = nil
            return surface
        }

        /// The finished picture as PNG bytes.
        /// - Throws: `Diagnostic` `render.cairo-failed`.
        func png() throws -> [UInt8] {
            let surface = try finish()
            defer { cairo_surface_destroy(surface) }
            return try CairoCanvas.png(surface: surface)
        }
    }

    private static func draw(_ part: DrawPart, _ context: OpaquePointer) {
        cairo_new_path(context)
        switch part {
        case .path(let path, let fill, let fillRule, let stroke):
            if fill == nil, let stroke, LongStroke.applies(to: path, stroke) {
                LongStroke.draw(path, stroke, context)
                return
            }
            path.xy.withUnsafeBufferPointer { xy in
                for index in 0..<path.starts.count {
                    let range = path.subpath(index)
                    cairo_move_to(context, xy[2 * range.lowerBound], xy[2 * range.lowerBound + 1])
                    for point in range.dropFirst() { cairo_line_to(context, xy[2 * point], xy[2 * point + 1]) }
                    if path.closed { cairo_close_path(context) }
                }
            }
            if let fill {
                cairo_set_fill_rule(context, fillRule == .evenodd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                setSource(context, fill)
                cairo_fill_preserve(context)
            }
            if let stroke { self.stroke(stroke, context) }
        case .circle(let x, let y, let radius, let fill, let stroke):
            cairo_arc(context, x, y, radius, 0, 2 * Double.pi)
            cairo_close_path(context)
            if let fill {
                setSource(context, fill)
                cairo_fill_preserve(context)
            }
            if let stroke { self.stroke(stroke, context) }
        case .pin(let x, let y, let color, let size):
            func at(_ p: (Double, Double)) -> (Double, Double) { (x + p.0 * size, y + p.1 * size) }
            let (l1, l2, l3) = (at(PinShape.leftCurve.0), at(PinShape.leftCurve.1), at(PinShape.leftCurve.2))
            let (r1, r2, r3) = (at(PinShape.rightCurve.0), at(PinShape.rightCurve.1), at(PinShape.rightCurve.2))
            cairo_move_to(context, x, y)
            cairo_curve_to(context, l1.0, l1.1, l2.0, l2.1, l3.0, l3.1)
            cairo_arc(context, x, y + PinShape.headY * size, PinShape.headRadius * size, Double.pi, 2 * Double.pi)
            cairo_curve_to(context, r1.0, r1.1, r2.0, r2.1, r3.0, r3.1)
            cairo_close_path(context)
            setSource(context, color)
            cairo_fill_preserve(context)
            stroke(StrokePaint(color: PinShape.outline, width: size, dash: [], cap: .butt, join: .round), context)
            cairo_arc(context, x, y + PinShape.headY * size, PinShape.dotRadius * size, 0, 2 * Double.pi)
            cairo_set_source_rgba(context, 1, 1, 1, 1)
            cairo_fill(context)
        case .label(let label):
            setFont(context, size: label.fontSize, bold: false)
            cairo_move_to(context, label.x, label.y)
            label.text.withCString { cairo_text_path(context, $0) }
            stroke(StrokePaint(color: PinShape.halo, width: label.fontSize * PinShape.haloWidthPerFontSize,
                               dash: [], cap: .round, join: .round), context, keepPath: true)
            setSource(context, label.color)
            cairo_fill(context)
        case .cluster(let cluster):
            cairo_arc(context, cluster.x, cluster.y, cluster.radius, 0, 2 * Double.pi)
            cairo_close_path(context)
            setSource(context, cluster.color)
            cairo_fill_preserve(context)
            stroke(StrokePaint(color: ClusterShape.outline, width: cluster.outlineWidth, dash: [], cap: .butt, join: .round), context)
            setFont(context, size: cluster.fontSize, bold: true)
            cairo_move_to(context, cluster.x - cluster.textWidth / 2, cluster.y + cluster.fontSize / 3)
            cluster.text.withCString { cairo_text_path(context, $0) }
            setSource(context, ClusterShape.text)
            cairo_fill(context)
        }
        cairo_new_path(context)
    }

    /// A line of very many segments stroked in pieces. cairo builds the outline of a whole
    /// stroke before it draws: 600 bytes a segment, so a 2-million-vertex GPS track took over a
    /// gigabyte. The pieces (`segmentsPerPiece` segments, each overlapping the next by one
    /// segment, so every inner vertex is drawn with its join by one piece) go into an opaque
    /// group that is painted once with the stroke's alpha: where pieces overlap each pixel is
    /// painted once, as one stroke paints it. Dashed strokes (whose pattern runs along the whole
    /// line) and filled paths are drawn whole.
    enum LongStroke {
        static let segmentsPerPiece = 16384

        static func applies(to path: DevicePath, _ stroke: StrokePaint) -> Bool {
            !path.closed && !stroke.dash.contains(where: { $0 > 0 }) && path.xy.count / 2 - path.starts.count > segmentsPerPiece
        }

        static func draw(_ path: DevicePath, _ paint: StrokePaint, _ context: OpaquePointer) {
            var opaque = paint
            opaque.color.alpha = 255
            cairo_push_group(context)
            // Subpaths share a piece until it holds `segmentsPerPiece` segments (a filtered
            // track is many short runs: one stroke each would cost cairo's setup every time).
            var pending = 0
            path.xy.withUnsafeBufferPointer { xy in
                for index in 0..<path.starts.count {
                    let range = path.subpath(index)
                    guard range.count > 1 else { continue }
                    var start = range.lowerBound
                    while true {
                        let end = min(start + segmentsPerPiece - pending, range.upperBound - 1)
                        cairo_move_to(context, xy[2 * start], xy[2 * start + 1])
                        for point in start + 1...end { cairo_line_to(context, xy[2 * point], xy[2 * point + 1]) }
                        pending += end - start
                        if pending >= segmentsPerPiece {
                            stroke(opaque, context)
                            pending = 0
                        }
                        if end == range.upperBound - 1 { break }
                        start = end - 1
                    }
                }
            }
            if pending > 0 { stroke(opaque, context) }
            cairo_pop_group_to_source(context)
            cairo_paint_with_alpha(context, Double(paint.color.alpha) / 255)
        }
    }

    private static func stroke(_ stroke: StrokePaint, _ context: OpaquePointer, keepPath: Bool = false) {
        setSource(context, stroke.color)
        cairo_set_line_width(context, stroke.width)
        cairo_set_line_cap(context, stroke.cap == .butt ? CAIRO_LINE_CAP_BUTT : stroke.cap == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE)
        cairo_set_line_join(context, stroke.join == .miter ? CAIRO_LINE_JOIN_MITER : stroke.join == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL)
        if stroke.dash.contains(where: { $0 > 0 }) {
            // SVG repeats an odd-length pattern to make it even; cairo does the same.
            stroke.dash.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), 0) }
        } else {
            cairo_set_dash(context, nil, 0, 0)
        }
        if keepPath { cairo_stroke_preserve(context) } else { cairo_stroke(context) }
    }

    /// Pins are the marks drawn most often (a million points give tens of thousands of pins on a
    /// world map), and a pin's curved outline costs cairo hundreds of thousands of instructions
    /// to stroke. Each look (color, size) is drawn once per quarter-pixel offset into a small
    /// sprite and then composited at whole-pixel positions, a plain copy. Compositing a sprite
    /// drawn on transparency gives what drawing on the picture gives (Porter–Duff "over" is
    /// associative), so only the tip's position moves, by at most an eighth of a pixel.
    ///
    /// Bounded: at most `maximumSprites` sprites, each of a pin at most `maximumSize` device
    /// pixels per pin unit (a 78×130-pixel sprite); other pins are drawn as paths.
    struct PinSprites {
        static let maximumSprites = 512
        static let maximumSize = 4.0

        private struct Key: Hashable {
            var color: RGBAColor
            var size: Double
            var quarterX: Int
            var quarterY: Int
        }

        private var sprites: [Key: OpaquePointer] = [:]

        /// Composites the pin whose tip is at x, y; false when it must be drawn as a path.
        mutating func paint(x: Double, y: Double, color: RGBAColor, size: Double, on context: OpaquePointer) -> Bool {
            guard size > 0, size <= PinSprites.maximumSize, x.isFinite, y.isFinite,
                  abs(x) < 1e6, abs(y) < 1e6 else { return false }
            let quarterX = (x * 4).rounded(.down), quarterY = (y * 4).rounded(.down)
            let pixelX = (quarterX / 4).rounded(.down), pixelY = (quarterY / 4).rounded(.down)
            let key = Key(color: color, size: size, quarterX: Int(quarterX - pixelX * 4), quarterY: Int(quarterY - pixelY * 4))
            let (left, top) = PinSprites.tipOffset(size: size)
            guard let sprite = sprites[key] ?? makeSprite(key, tip: (left, top)) else { return false }
            cairo_set_source_surface(context, sprite, pixelX - left, pixelY - top)
            cairo_paint(context)
            return true
        }

        /// Whole pixels from a sprite's top-left corner to the pixel holding the tip.
        private static func tipOffset(size: Double) -> (Double, Double) {
            ((-PinShape.bounds.0 * size).rounded(.up) + 1, (-PinShape.bounds.1 * size).rounded(.up) + 1)
        }

        private mutating func makeSprite(_ key: Key, tip: (Double, Double)) -> OpaquePointer? {
            guard sprites.count < PinSprites.maximumSprites else { return nil }
            let width = Int32(tip.0 + (PinShape.bounds.2 * key.size).rounded(.up) + 2)
            let height = Int32(tip.1 + (PinShape.bounds.3 * key.size).rounded(.up) + 2)
            guard let sprite = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return nil }
            guard cairo_surface_status(sprite) == CAIRO_STATUS_SUCCESS, let context = cairo_create(sprite) else {
                cairo_surface_destroy(sprite)
                return nil
            }
            cairo_set_miter_limit(context, 4)
            CairoCanvas.draw(.pin(x: tip.0 + Double(key.quarterX) / 4, y: tip.1 + Double(key.quarterY) / 4,
                                  color: key.color, size: key.size), context)
            let status = cairo_status(context)
            cairo_destroy(context)
            cairo_surface_flush(sprite)
            guard status == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(sprite)
                return nil
            }
            sprites[key] = sprite
            return sprite
        }

        /// Releases the sprites.
        mutating func destroy() {
            for sprite in sprites.values { cairo_surface_destroy(sprite) }
            sprites = [:]
        }
    }

    /// The toy text API's sans-serif face (fontconfig picks the font: DejaVu Sans on Debian).
    private static func setFont(_ context: OpaquePointer, size: Double, bold: Bool) {
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
    }

    /// Measures text with the font the labels are drawn with, on a surface of its own (one
    /// pixel), so SVG output places labels exactly as PNG output does.
    final class TextMeasure: TextMeasuring {
        private let surface: OpaquePointer?
        private let context: OpaquePointer?

        /// A measuring context; if cairo cannot make one, every advance is an estimate of 0.6 em
        /// a character (the picture then fails on drawing, with cairo's error).
        init() {
            surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
            context = surface.flatMap { cairo_create($0) }
        }

        deinit {
            if let context { cairo_destroy(context) }
            if let surface { cairo_surface_destroy(surface) }
        }

        func advance(of text: String, fontSize: Double, bold: Bool) -> Double {
            guard let context, cairo_status(context) == CAIRO_STATUS_SUCCESS else {
                return 0.6 * fontSize * Double(text.unicodeScalars.count)
            }
            CairoCanvas.setFont(context, size: fontSize, bold: bold)
            var extents = cairo_text_extents_t()
            text.withCString { cairo_text_extents(context, $0, &extents) }
            return extents.x_advance.isFinite ? max(0, extents.x_advance) : 0
        }
    }

    private static func setSource(_ context: OpaquePointer, _ color: RGBAColor) {
        cairo_set_source_rgba(context, Double(color.red) / 255, Double(color.green) / 255,
                              Double(color.blue) / 255, Double(color.alpha) / 255)
    }

    // MARK: Pixels

    /// Converts cairo's premultiplied native-endian ARGB32 to straight RGBA bytes.
    private static func pixels(of surface: OpaquePointer) -> RasterImage {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let format = cairo_image_surface_get_format(surface)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        guard let data = cairo_image_surface_get_data(surface) else { return RasterImage(width: width, height: height, rgba: rgba) }
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                let value = line[column]
                let alpha = format == CAIRO_FORMAT_RGB24 ? 255 : Int(value >> 24)
                let offset = (row * width + column) * 4
                rgba[offset + 3] = UInt8(alpha)
                guard alpha > 0 else { continue }
                for (channel, shift) in [(0, 16), (1, 8), (2, 0)] {
                    let premultiplied = Int((value >> UInt32(shift)) & 0xff)
                    rgba[offset + channel] = UInt8(min(255, (premultiplied * 255 + alpha / 2) / alpha))
                }
            }
        }
        return RasterImage(width: width, height: height, rgba: rgba)
    }

    private static func check(_ status: cairo_status_t, _ call: String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw Diagnostic(.error, code: .renderCairoFailed,
                         message: "\(call) failed: \(String(cString: cairo_status_to_string(status)))")
    }
}

/// Collects PNG bytes from cairo's write callback.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// Feeds PNG bytes to cairo's read callback.
private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
