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
    /// Bottom to top: `aboveRoads`, `aboveLabels`, annotations (MapKit draws annotation views
    /// above all overlays: pins, then clusters), then the labels placed over them.
    var layers: [Layer]

    /// The layers' indices, bottom to top.
    static let aboveRoads = 0, aboveLabels = 1, annotations = 2, labels = 3

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

/// One feature's marks in one layer, with the title a browser shows for it (nil: marks with
/// no group of their own, such as labels).
struct FeatureDrawing: Sendable {
    var title: String?
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
    /// A pin whose tip is at x, y, `size` device pixels per pin unit.
    case pin(x: Double, y: Double, color: RGBAColor, size: Double)
    /// A placed label (see `LabelBox`).
    case label(PlacedLabel)
    /// A cluster of points (MapKit's `MKClusterAnnotation`): a disc with the member count.
    case cluster(ClusterMark)
}

/// A label placed where it collides with no other: text from `x` along the baseline `y`,
/// `width` device pixels long (cairo's advance, which SVG gets as `textLength`, so every
/// viewer draws it in the box that was placed).
struct PlacedLabel: Hashable, Sendable {
    var text: String
    var x: Double
    var y: Double
    var width: Double
    var color: RGBAColor
    var fontSize: Double
}

/// A cluster's disc at the mean device position of its members, with their count written in it.
struct ClusterMark: Hashable, Sendable {
    var x: Double
    var y: Double
    var radius: Double
    var color: RGBAColor
    /// The count as supercluster abbreviates it (`1.2k`), centered on the disc.
    var text: String
    var fontSize: Double
    /// The count's advance width (SVG's `textLength`).
    var textWidth: Double
    /// White outline width in device pixels.
    var outlineWidth: Double
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
    /// The pin's extent around its tip in pin units (minX, minY, maxX, maxY), outline included.
    static let bounds = (-9.5, -31.5, 9.5, 0.5)
    /// The halo drawn behind labels, in device pixels per font pixel.
    static let haloWidthPerFontSize = 0.25
    static let outline = RGBAColor(red: 0, green: 0, blue: 0, alpha: 90)
    static let halo = RGBAColor(red: 255, green: 255, blue: 255, alpha: 230)
}

/// A cluster disc's paint, shared by both backends.
enum ClusterShape {
    static let outline = RGBAColor(red: 255, green: 255, blue: 255)
    static let text = RGBAColor(red: 255, green: 255, blue: 255)
}
