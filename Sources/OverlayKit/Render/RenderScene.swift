import OverlayModel

/// Everything a snapshot draws, in device pixels and in drawing order, ready for a backend
/// (the SVG writer or the cairo rasterizer) to paint without further decisions.
struct RenderScene: Sendable {
    var pixelWidth: Int
    var pixelHeight: Int
    /// Nil for a transparent background.
    var background: RGBAColor?
    /// The sky of a steeply pitched camera: painted over the background above the horizon.
    var sky: Sky?
    /// Bottom to top: `aboveRoads`, `aboveLabels`, then annotations (MapKit draws annotation
    /// views above all overlays).
    var layers: [Layer]

    /// A band from the top of the image down to the horizon's device y.
    struct Sky: Sendable {
        var color: RGBAColor
        var bottom: Double
    }

    struct Layer: Sendable {
        /// The SVG group id: the level's name, or `annotations`.
        var name: String
        var drawings: [FeatureDrawing] = []
    }
}

/// One feature's marks in one layer, with the title a browser shows for it.
struct FeatureDrawing: Sendable {
    var title: String
    var parts: [DrawPart]
}

/// How a line is stroked, in device pixels.
struct StrokePaint: Hashable, Sendable {
    var color: RGBAColor
    var width: Double
    var dash: [Double]
    var cap: LineCap
    var join: LineJoin
}

/// One mark.
enum DrawPart: Sendable {
    /// Polygons (closed, filled then stroked) or lines (open, stroked).
    case path(DevicePath, fill: RGBAColor?, fillRule: FillRule, stroke: StrokePaint?)
    /// A circle small enough to draw as one (larger ones become closed paths).
    case circle(x: Double, y: Double, radius: Double, fill: RGBAColor?, stroke: StrokePaint?)
    /// A pin whose tip is at x, y, `size` device pixels per pin unit, with an optional label.
    case pin(x: Double, y: Double, color: RGBAColor, size: Double, label: String?, labelColor: RGBAColor, fontSize: Double)
}

/// The pin's shape in pin units (a 1-unit pin is 31 units tall with its tip at the origin),
/// shared by both backends so SVG and PNG agree.
enum PinShape {
    /// Head circle center (x 0) and radius.
    static let headY = -22.0
    static let headRadius = 9.0
    static let dotRadius = 3.5
    /// The two Bézier curves from the tip to the head's left side and from its right side
    /// back to the tip: (control1, control2, end).
    static let leftCurve = ((-3.0, -8.0), (-9.0, -13.0), (-9.0, -22.0))
    static let rightCurve = ((9.0, -13.0), (3.0, -8.0), (0.0, 0.0))
    /// Label baseline start, relative to the tip, in pin units (the font size adds a third of
    /// itself to center the text on the head).
    static let labelX = 12.0
    /// The halo drawn behind labels, in device pixels per font pixel.
    static let haloWidthPerFontSize = 0.25
    static let outline = RGBAColor(red: 0, green: 0, blue: 0, alpha: 90)
    static let halo = RGBAColor(red: 255, green: 255, blue: 255, alpha: 230)
}
