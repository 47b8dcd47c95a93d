import OverlayModel

/// How overlapping rings of one polygon fill (SVG `fill-rule`, cairo's fill rule). Rings are
/// drawn with the exterior clockwise and holes counterclockwise on screen whatever the
/// source's winding, so holes are empty under both rules; they differ only where parts of a
/// multipolygon overlap (nonzero fills the overlap, even-odd leaves it empty).
public enum FillRule: String, Hashable, Sendable, CaseIterable {
    /// Fill wherever the winding number is not zero (holes must run the other way).
    case nonzero
    /// Fill where an odd number of rings overlap (holes by overlap alone).
    case evenodd
}

/// The paint for one feature with every field decided: the renderer's defaults, then the
/// feature's own style (KML Style/StyleMap normal, GeoJSON simplestyle), then `--style` rules.
/// A color with alpha 0 paints nothing.
public struct RenderStyle: Hashable, Sendable {
    /// Color of lines and outlines.
    public var strokeColor: RGBAColor
    /// Line width in screen points.
    public var strokeWidth: Double
    /// Dash and gap lengths in screen points; empty for a solid line.
    public var lineDash: [Double]
    /// How line ends are drawn.
    public var lineCap: LineCap
    /// How line corners are drawn.
    public var lineJoin: LineJoin
    /// False leaves polygon and circle outlines unstroked (KML PolyStyle `outline`); lines are
    /// always stroked.
    public var outline: Bool
    /// Color inside polygons and circles.
    public var fillColor: RGBAColor
    /// Which parts of overlapping rings are filled.
    public var fillRule: FillRule
    /// The pin color of point annotations.
    public var markerColor: RGBAColor
    /// Pin size relative to the standard 30-point pin.
    public var markerScale: Double
    /// Color of point labels.
    public var labelColor: RGBAColor
    /// Label font size in screen points.
    public var labelSize: Double
    /// The level the feature draws in, when a style says so (else the feature's own).
    public var level: OverlayLevel?

    /// The documented default (docs/render.md): a 2-point #3366cc line with round caps and
    /// joins, polygons and circles filled with #3366cc at 25% opacity (nonzero rule), red
    /// #e0413a pins and 12-point #1a1a1a labels.
    public static let standard = RenderStyle(
        strokeColor: RGBAColor(red: 0x33, green: 0x66, blue: 0xcc), strokeWidth: 2, lineDash: [],
        lineCap: .round, lineJoin: .round, outline: true,
        fillColor: RGBAColor(red: 0x33, green: 0x66, blue: 0xcc, alpha: 64), fillRule: .nonzero,
        markerColor: RGBAColor(red: 0xe0, green: 0x41, blue: 0x3a), markerScale: 1,
        labelColor: RGBAColor(red: 0x1a, green: 0x1a, blue: 0x1a), labelSize: 12, level: nil)

    /// This style with the fields a model `Style` sets taken from it.
    public func applying(_ style: Style) -> RenderStyle {
        var result = self
        if let color = style.strokeColor { result.strokeColor = color }
        if let width = style.strokeWidth { result.strokeWidth = max(0, width) }
        if let dash = style.lineDash { result.lineDash = dash }
        if let cap = style.lineCap { result.lineCap = cap }
        if let join = style.lineJoin { result.lineJoin = join }
        if let color = style.fillColor { result.fillColor = color }
        if style.fill == false { result.fillColor.alpha = 0 }
        if let outline = style.outline { result.outline = outline }
        if let icon = style.icon {
            if let color = icon.color { result.markerColor = color }
            if let scale = icon.scale, scale > 0 { result.markerScale = scale }
            if let size = icon.size.flatMap(StyleSheet.markerScale(forSize:)) { result.markerScale = size }
        }
        if let label = style.label {
            if let color = label.color { result.labelColor = color }
            if let scale = label.scale, scale >= 0 { result.labelSize = RenderStyle.standard.labelSize * scale }
        }
        return result
    }

    /// The style a feature draws with: `base`, then the feature's style — or, for features
    /// whose reader did not resolve one, the simplestyle properties they carry — then the
    /// style sheet's matching rules.
    public static func resolve(_ feature: Feature, base: RenderStyle = .standard,
                               styleSheet: StyleSheet = StyleSheet()) -> RenderStyle {
        var style = styleSheet.defaults?.apply(to: base) ?? base
        if let own = feature.style ?? SimpleStyle.style(from: feature.properties) {
            style = style.applying(own)
        }
        return styleSheet.apply(to: style, for: feature)
    }
}
