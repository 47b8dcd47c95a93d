/// An sRGB color with alpha, 8 bits per channel.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Opacity, 0 (clear) … 255 (opaque).
    public var alpha: UInt8

    /// A color from 8-bit channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses CSS-style `#rrggbb`, `#rgb`, `#rrggbbaa` (the `#` is optional).
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        if digits.count == 6 {
            self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
        } else {
            self.init(red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xff),
                      blue: UInt8(value >> 8 & 0xff), alpha: UInt8(value & 0xff))
        }
    }

    /// Parses KML's `aabbggrr` (an optional leading `#` is tolerated).
    public init?(kml: String) {
        var digits = Substring(kml.filter { !$0.isWhitespace })
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value & 0xff), green: UInt8(value >> 8 & 0xff),
                  blue: UInt8(value >> 16 & 0xff), alpha: UInt8(value >> 24))
    }

    /// `#rrggbb` (alpha left out; see `opacity`).
    public var hexRGB: String {
        "#" + [red, green, blue].map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// KML's `aabbggrr`.
    public var kmlString: String {
        [alpha, blue, green, red].map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// Alpha as 0…1.
    public var opacity: Double { Double(alpha) / 255 }

    /// The same color with alpha from an opacity 0…1 (clamped).
    public func withOpacity(_ opacity: Double) -> RGBAColor {
        var copy = self
        copy.alpha = UInt8((max(0, min(1, opacity)) * 255).rounded())
        return copy
    }

    public var description: String { hexRGB + (alpha == 255 ? "" : String(format2: alpha)) }
}

private extension String {
    init(format2 byte: UInt8) {
        let text = String(byte, radix: 16)
        self = byte < 16 ? "0" + text : text
    }
}

/// How the ends of stroked lines are drawn (`CGLineCap`).
public enum LineCap: String, Hashable, Sendable, CaseIterable {
    /// Ends flat at the last vertex.
    case butt
    /// Ends in a half circle.
    case round
    /// Ends flat half a line width past the last vertex.
    case square
}
/// How stroked corners are drawn (`CGLineJoin`).
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
    /// Sharp corners.
    case miter
    /// Rounded corners.
    case round
    /// Cut-off corners.
    case bevel
}

/// How a point is drawn: an icon (KML IconStyle) or a marker (simplestyle).
public struct IconStyle: Hashable, Sendable {
    /// The icon image's address.
    public var href: String?
    /// Icon size, as a multiple of the default.
    public var scale: Double?
    /// Rotation in degrees clockwise from north.
    public var heading: Double?
    /// The icon's anchor, as KML's hotSpot (x, y, xunits, yunits).
    public var hotSpot: HotSpot?
    /// Icon tint.
    public var color: RGBAColor?
    /// simplestyle `marker-symbol`.
    public var symbol: String?
    /// simplestyle `marker-size`: small, medium, large.
    public var size: String?

    /// An icon style.
    public init(href: String? = nil, scale: Double? = nil, heading: Double? = nil, hotSpot: HotSpot? = nil,
                color: RGBAColor? = nil, symbol: String? = nil, size: String? = nil) {
        self.href = href
        self.scale = scale
        self.heading = heading
        self.hotSpot = hotSpot
        self.color = color
        self.symbol = symbol
        self.size = size
    }

    /// The point of an icon placed on the coordinate (KML `hotSpot`).
    public struct HotSpot: Hashable, Sendable {
        /// Horizontal position, in `xUnits`.
        public var x: Double
        /// Vertical position, in `yUnits`.
        public var y: Double
        /// `fraction`, `pixels` or `insetPixels`.
        public var xUnits: String
        /// `fraction`, `pixels` or `insetPixels`.
        public var yUnits: String

        /// A hot spot; units default to fractions of the icon.
        public init(x: Double, y: Double, xUnits: String = "fraction", yUnits: String = "fraction") {
            self.x = x
            self.y = y
            self.xUnits = xUnits
            self.yUnits = yUnits
        }
    }
}

/// How a label is drawn (KML LabelStyle).
public struct LabelStyle: Hashable, Sendable {
    /// Label color.
    public var color: RGBAColor?
    /// Label size, as a multiple of the default.
    public var scale: Double?

    /// A label style.
    public init(color: RGBAColor? = nil, scale: Double? = nil) {
        self.color = color
        self.scale = scale
    }
}

/// The resolved drawing style of a feature, MapKit renderer properties in one value
/// (`MKOverlayPathRenderer` stroke/fill, plus icon and label). Nil fields mean "not set": the
/// renderer's documented default applies.
public struct Style: Hashable, Sendable {
    /// Line and outline color.
    public var strokeColor: RGBAColor?
    /// Line width in screen points.
    public var strokeWidth: Double?
    /// Dash lengths in screen points (`lineDashPattern`).
    public var lineDash: [Double]?
    /// Line end style.
    public var lineCap: LineCap?
    /// Line corner style.
    public var lineJoin: LineJoin?
    /// Fill color.
    public var fillColor: RGBAColor?
    /// KML PolyStyle `fill`: false draws no fill whatever the color.
    public var fill: Bool?
    /// KML PolyStyle `outline`: false draws no stroke around polygons.
    public var outline: Bool?
    /// How points are drawn.
    public var icon: IconStyle?
    /// How labels are drawn.
    public var label: LabelStyle?

    /// A style; nil fields fall back to the renderer's defaults.
    public init(strokeColor: RGBAColor? = nil, strokeWidth: Double? = nil, lineDash: [Double]? = nil,
                lineCap: LineCap? = nil, lineJoin: LineJoin? = nil, fillColor: RGBAColor? = nil,
                fill: Bool? = nil, outline: Bool? = nil, icon: IconStyle? = nil, label: LabelStyle? = nil) {
        self.strokeColor = strokeColor
        self.strokeWidth = strokeWidth
        self.lineDash = lineDash
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.fillColor = fillColor
        self.fill = fill
        self.outline = outline
        self.icon = icon
        self.label = label
    }

    /// True when no field is set.
    public var isEmpty: Bool { self == Style() }

    /// This style with every field that `other` sets taken from `other` (an inline KML style
    /// over a shared one).
    public func overridden(by other: Style) -> Style {
        Style(strokeColor: other.strokeColor ?? strokeColor, strokeWidth: other.strokeWidth ?? strokeWidth,
              lineDash: other.lineDash ?? lineDash, lineCap: other.lineCap ?? lineCap,
              lineJoin: other.lineJoin ?? lineJoin, fillColor: other.fillColor ?? fillColor,
              fill: other.fill ?? fill, outline: other.outline ?? outline,
              icon: other.icon ?? icon, label: other.label ?? label)
    }
}
