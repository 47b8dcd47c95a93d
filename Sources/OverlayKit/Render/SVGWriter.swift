import OverlayModel

/// Writes a render scene as SVG 1.1, directly as bytes: one `<g id="…">` per layer
/// (`aboveRoads`, `aboveLabels`, `annotations`, `labels`) and one `<g>` with a `<title>` per
/// feature (per pin or cluster among annotations),
/// so hovering in a browser names it. Coordinates are device pixels with two decimals; the
/// document is `pixelWidth` × `pixelHeight` so it lines up with the PNG. O(path vertices).
enum SVGWriter {
    static func document(_ scene: RenderScene) -> [UInt8] {
        var out = SVGBytes()
        header(scene, to: &out)
        for layer in scene.layers {
            open(layer: layer.name, to: &out)
            for drawing in layer.drawings { write(drawing, to: &out) }
            closeLayer(to: &out)
        }
        footer(to: &out)
        return out.bytes
    }

    /// The XML declaration, the `<svg>` element's start, the background and the sky.
    static func header(_ scene: RenderScene, to out: inout SVGBytes) {
        let width = scene.pixelWidth, height = scene.pixelHeight
        out.text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.text("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n")
        if let background = scene.background, background.alpha > 0 {
            out.text("<rect width=\"\(width)\" height=\"\(height)\"")
            out.paint("fill", background)
            out.text("/>\n")
        }
        if let sky = scene.sky {
            out.text("<rect id=\"sky\" width=\"\(width)\" height=\"")
            out.number(min(Double(height), sky.bottom))
            out.text("\"")
            out.paint("fill", sky.color)
            out.text("/>\n")
        }
    }

    /// The start of a layer's group.
    static func open(layer name: String, to out: inout SVGBytes) {
        out.text("<g id=\"\(name)\">\n")
    }

    /// One feature's group: its title, then its marks (marks without a title go in no group).
    static func write(_ drawing: FeatureDrawing, to out: inout SVGBytes) {
        guard let title = drawing.title else {
            for part in drawing.parts { write(part, to: &out) }
            return
        }
        out.text("<g><title>")
        out.escaped(title)
        out.text("</title>\n")
        for part in drawing.parts { write(part, to: &out) }
        out.text("</g>\n")
    }

    /// The end of a layer's group.
    static func closeLayer(to out: inout SVGBytes) { out.text("</g>\n") }

    /// The end of the document.
    static func footer(to out: inout SVGBytes) { out.text("</svg>\n") }

    private static func write(_ part: DrawPart, to out: inout SVGBytes) {
        switch part {
        case .path(let path, let fill, let fillRule, let stroke):
            out.text("<path d=\"")
            for index in 0..<path.starts.count {
                let range = path.subpath(index)
                for point in range {
                    out.byte(point == range.lowerBound ? UInt8(ascii: "M") : UInt8(ascii: "L"))
                    out.number(path.xy[2 * point])
                    out.byte(UInt8(ascii: " "))
                    out.number(path.xy[2 * point + 1])
                }
                if path.closed { out.byte(UInt8(ascii: "Z")) }
            }
            out.text("\"")
            if let fill {
                out.paint("fill", fill)
                out.text(" fill-rule=\"\(fillRule.rawValue)\"")
            } else {
                out.text(" fill=\"none\"")
            }
            out.stroke(stroke)
            out.text("/>\n")
        case .circle(let x, let y, let radius, let fill, let stroke):
            out.text("<circle cx=\"")
            out.number(x)
            out.text("\" cy=\"")
            out.number(y)
            out.text("\" r=\"")
            out.number(radius)
            out.text("\"")
            if let fill { out.paint("fill", fill) } else { out.text(" fill=\"none\"") }
            out.stroke(stroke)
            out.text("/>\n")
        case .pin(let x, let y, let color, let size):
            func point(_ p: (Double, Double)) {
                out.number(x + p.0 * size)
                out.byte(UInt8(ascii: " "))
                out.number(y + p.1 * size)
            }
            let (l1, l2, l3) = PinShape.leftCurve, (r1, r2, r3) = PinShape.rightCurve
            out.text("<path d=\"M")
            point((0, 0))
            out.text("C")
            point(l1); out.byte(UInt8(ascii: " ")); point(l2); out.byte(UInt8(ascii: " ")); point(l3)
            out.text("A")
            out.number(PinShape.headRadius * size)
            out.byte(UInt8(ascii: " "))
            out.number(PinShape.headRadius * size)
            out.text(" 0 0 1 ")
            point((PinShape.headRadius, PinShape.headY))
            out.text("C")
            point(r1); out.byte(UInt8(ascii: " ")); point(r2); out.byte(UInt8(ascii: " ")); point(r3)
            out.text("Z\"")
            out.paint("fill", color)
            out.stroke(StrokePaint(color: PinShape.outline, width: size, dash: [], cap: .butt, join: .round))
            out.text("/>\n<circle cx=\"")
            out.number(x)
            out.text("\" cy=\"")
            out.number(y + PinShape.headY * size)
            out.text("\" r=\"")
            out.number(PinShape.dotRadius * size)
            out.text("\" fill=\"#ffffff\"/>\n")
        case .label(let label):
            // textLength holds every viewer to the box that was placed, whatever font it has.
            text(label.text, x: label.x, y: label.y, width: label.width, fontSize: label.fontSize, bold: false,
                 color: label.color, halo: PinShape.halo, to: &out)
        case .cluster(let cluster):
            out.text("<circle cx=\"")
            out.number(cluster.x)
            out.text("\" cy=\"")
            out.number(cluster.y)
            out.text("\" r=\"")
            out.number(cluster.radius)
            out.text("\"")
            out.paint("fill", cluster.color)
            out.stroke(StrokePaint(color: ClusterShape.outline, width: cluster.outlineWidth, dash: [], cap: .butt, join: .round))
            out.text("/>\n")
            text(cluster.text, x: cluster.x - cluster.textWidth / 2, y: cluster.y + cluster.fontSize / 3,
                 width: cluster.textWidth, fontSize: cluster.fontSize, bold: true, color: ClusterShape.text, halo: nil, to: &out)
        }
    }

    /// A `<text>` of `width` device pixels (`textLength`) from `x` along the baseline `y`, with
    /// a halo stroked under it when given.
    private static func text(_ value: String, x: Double, y: Double, width: Double, fontSize: Double, bold: Bool,
                             color: RGBAColor, halo: RGBAColor?, to out: inout SVGBytes) {
        out.text("<text x=\"")
        out.number(x)
        out.text("\" y=\"")
        out.number(y)
        out.text("\" font-family=\"sans-serif\" font-size=\"")
        out.number(fontSize)
        out.text(bold ? "\" font-weight=\"bold\"" : "\"")
        out.text(" textLength=\"")
        out.number(width)
        out.text("\" lengthAdjust=\"spacingAndGlyphs\"")
        out.paint("fill", color)
        if let halo {
            out.paint("stroke", halo)
            out.text(" stroke-width=\"")
            out.number(fontSize * PinShape.haloWidthPerFontSize)
            out.text("\" stroke-linejoin=\"round\" paint-order=\"stroke\"")
        }
        out.text(">")
        out.escaped(value)
        out.text("</text>\n")
    }
}

/// A byte buffer with the few SVG tokens the writer needs.
struct SVGBytes {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 16) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func text(_ value: String) { bytes.append(contentsOf: value.utf8) }

    /// A number with at most two decimals and no trailing zeros (device pixels: 1/100 px is
    /// below anything a rasterizer shows).
    mutating func number(_ value: Double) {
        guard value.isFinite else { return byte(UInt8(ascii: "0")) }
        var hundredths = Int64(saturating: (value * 100).rounded())
        if hundredths < 0 {
            bytes.append(UInt8(ascii: "-"))
            hundredths = -hundredths
        }
        integer(hundredths / 100)
        let fraction = Int(hundredths % 100)
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
            if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
        }
    }

    private mutating func integer(_ value: Int64) {
        if value >= 10 { integer(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// ` name="#rrggbb"` plus ` name-opacity="…"` when not opaque.
    mutating func paint(_ name: String, _ color: RGBAColor) {
        text(" \(name)=\"\(color.hexRGB)\"")
        if color.alpha != 255 {
            // Three decimals: 8-bit alpha needs them to come back the same.
            let thousandths = Int((Double(color.alpha) / 255 * 1000).rounded())
            text(" \(name)-opacity=\"" + (thousandths == 1000 ? "1" : "0.") )
            if thousandths < 1000 {
                for digit in [thousandths / 100, thousandths / 10 % 10, thousandths % 10] {
                    byte(UInt8(ascii: "0") + UInt8(digit))
                }
            }
            text("\"")
        }
    }

    mutating func stroke(_ stroke: StrokePaint?) {
        guard let stroke else { return }
        paint("stroke", stroke.color)
        text(" stroke-width=\"")
        number(stroke.width)
        text("\" stroke-linecap=\"\(stroke.cap.rawValue)\" stroke-linejoin=\"\(stroke.join.rawValue)\"")
        if !stroke.dash.isEmpty && stroke.dash.contains(where: { $0 > 0 }) {
            text(" stroke-dasharray=\"")
            for (index, length) in stroke.dash.enumerated() {
                if index > 0 { byte(UInt8(ascii: " ")) }
                number(length)
            }
            text("\"")
        }
    }

    /// Text content or attribute value with XML's special characters escaped and control
    /// characters (not allowed in XML 1.0) left out.
    mutating func escaped(_ value: String) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": text("&amp;")
            case "<": text("&lt;")
            case ">": text("&gt;")
            case "\"": text("&quot;")
            case "\t", "\n", "\r": text(" ")
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                text(String(scalar))
            }
        }
    }
}
