import OverlayModel

/// Draws features into one output, PNG or SVG, as they arrive, for a known camera
/// (`--center` with `--zoom` or `--distance`): nothing needs fitting, so a feature's marks are
/// painted (PNG) or written (SVG) at once and dropped. Memory then stays flat whatever the
/// input size: the cairo surface for PNG, a small buffer for SVG.
///
/// Bottom to top, the picture is `aboveRoads`, `aboveLabels`, annotations, then labels, each in
/// file order, so only the bottom layer can be drawn on arrival; marks of `aboveLabels` overlays
/// are kept until `finish()` paints them over it, and points go to the `AnnotationLayout` (whose
/// memory is bounded by the picture), which lays out pins, clusters and labels at the end,
/// exactly as `SnapshotBuilder` and `MapSnapshot` would (the bytes are the same). Every feature
/// is culled by its bounds before it is simplified or projected.
public struct SnapshotStream {
    /// The picture's encoding.
    public enum Format: Sendable, Hashable {
        /// A PNG drawn by cairo, written to the output by `finish()`.
        case png
        /// An SVG document, written to the output as features arrive.
        case svg
    }

    /// The camera the picture is drawn with.
    public let camera: RenderCamera
    /// The options the picture was asked for.
    public let options: RenderOptions
    /// The output's encoding.
    public let format: Format
    /// Features seen, for default titles.
    public var featureCount: Int { content.features.read }
    /// Features with at least one mark on screen.
    public var drawnFeatureCount: Int { content.features.drawn }
    /// What became of the features.
    public var featureCounts: RenderReport.FeatureCounts { content.features }
    /// What became of the point annotations (complete after `finish()`).
    public var annotationCounts: RenderReport.AnnotationCounts { content.annotations }

    private let output: ByteOutput
    private var content: SnapshotContent
    /// The upper layers' marks, kept for `finish()`; the bottom layer stays empty.
    private var scene: RenderScene
    private var canvas: CairoCanvas.Surface?
    private var svg = SVGBytes()
    private var finished = false

    /// SVG bytes are handed to the output in chunks of about this size.
    private static let svgChunk = 1 << 16

    /// A stream that paints onto a fresh picture (background and sky) for `camera`; an SVG
    /// stream writes its header to `output` at once. The caller commits (or abandons) `output`
    /// after `finish()`.
    /// - Throws: `Diagnostic` `render.cairo-failed` when the surface cannot be made, or the
    ///   output's write errors.
    public init(camera: RenderCamera, options: RenderOptions, format: Format, output: ByteOutput) throws {
        self.camera = camera
        self.options = options
        self.format = format
        self.output = output
        content = SnapshotContent(camera: camera, options: options)
        scene = content.marker.emptyScene()
        switch format {
        case .png:
            canvas = try CairoCanvas.Surface(scene)
        case .svg:
            SVGWriter.header(scene, to: &svg)
            SVGWriter.open(layer: scene.layers[0].name, to: &svg)
            try flushSVG(atLeast: 0)
        }
    }

    /// Styles and draws one feature: `aboveRoads` overlays at once, the rest kept for `finish()`.
    /// - Parameter feature: the feature, handed over: when it is one long line and this is the
    ///   only reference to it, its map points are simplified in place rather than copied.
    /// - Throws: the output's write errors (SVG).
    public mutating func add(_ feature: consuming Feature) throws {
        precondition(!finished, "SnapshotStream.add after finish")
        guard let (layer, drawing) = content.add(feature) else { return }
        if layer == RenderScene.aboveRoads {
            try draw(drawing)
        } else {
            scene.layers[layer].drawings.append(drawing)
        }
    }

    /// What a part of the input read apart takes its features into (`ParallelDrawing`): marks
    /// for this stream's camera and a layout of its own, joined by `append(_:)`.
    func partContent() -> SnapshotContent {
        SnapshotContent(camera: camera, options: options)
    }

    /// Draws (or keeps) the overlay marks of a feature of the part read apart that comes next in
    /// the input; its number counts from that part's start.
    /// - Throws: the output's write errors (SVG).
    mutating func add(partOverlays marks: FeatureMarker.Marks) throws {
        precondition(!finished, "SnapshotStream.add after finish")
        var marks = marks
        marks.number += content.features.read
        let drawing = FeatureDrawing(title: marks.title, parts: marks.overlays)
        if marks.overlayLayer == RenderScene.aboveRoads {
            try draw(drawing)
        } else {
            scene.layers[marks.overlayLayer].drawings.append(drawing)
        }
    }

    /// Takes the features and points of the part read apart that comes next in the input, once
    /// its overlays have been added (`add(partOverlays:)`).
    mutating func append(_ part: SnapshotContent) {
        precondition(!finished, "SnapshotStream.append after finish")
        content.append(part)
    }

    /// Whether the input may be drawn in parts read apart (not when points are clustered).
    var canDrawInParts: Bool { content.canAppend }

    /// Draws the kept layers over the bottom one and writes the rest of the picture to the
    /// output (PNG: all of it).
    /// - Throws: `Diagnostic` `render.cairo-failed`, or the output's write errors.
    public mutating func finish() throws {
        precondition(!finished, "SnapshotStream.finish called twice")
        finished = true
        let (annotations, labels) = content.finishAnnotations()
        scene.layers[RenderScene.annotations].drawings = annotations
        scene.layers[RenderScene.labels].drawings = labels
        switch format {
        case .png:
            guard let canvas else { return }
            for layer in scene.layers.dropFirst() {
                for drawing in layer.drawings { canvas.draw(drawing) }
            }
            try output.write(try canvas.png())
            self.canvas = nil
        case .svg:
            SVGWriter.closeLayer(to: &svg)
            for layer in scene.layers.dropFirst() {
                SVGWriter.open(layer: layer.name, to: &svg)
                for drawing in layer.drawings {
                    SVGWriter.write(drawing, to: &svg)
                    try flushSVG(atLeast: SnapshotStream.svgChunk)
                }
                SVGWriter.closeLayer(to: &svg)
            }
            SVGWriter.footer(to: &svg)
            try flushSVG(atLeast: 0)
        }
        scene = content.marker.emptyScene()
    }

    private mutating func draw(_ drawing: FeatureDrawing) throws {
        switch format {
        case .png:
            canvas?.draw(drawing)
        case .svg:
            SVGWriter.write(drawing, to: &svg)
            try flushSVG(atLeast: SnapshotStream.svgChunk)
        }
    }

    /// Hands the buffered SVG bytes to the output once there are at least `count` of them.
    private mutating func flushSVG(atLeast count: Int) throws {
        guard svg.bytes.count >= max(1, count) else { return }
        try output.write(svg.bytes)
        svg.bytes.removeAll(keepingCapacity: true)
    }
}
