import OverlayModel

/// Draws features into one output, PNG or SVG, as they arrive, for a known camera
/// (`--center` with `--zoom` or `--distance`): nothing needs fitting, so a feature's marks are
/// painted (PNG) or written (SVG) at once and dropped. Memory then stays flat whatever the
/// input size: the cairo surface for PNG, a small buffer for SVG.
///
/// Bottom to top, the picture is `aboveRoads`, `aboveLabels`, then annotations, each in file
/// order, so only the bottom layer can be drawn on arrival; marks of `aboveLabels` overlays and
/// of annotations are kept until `finish()` paints them over it, exactly as `SnapshotBuilder`
/// and `MapSnapshot` would (the bytes are the same). Every feature is culled by its bounds
/// before it is simplified or projected.
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
    public private(set) var featureCount = 0
    /// Features with at least one mark on screen.
    public private(set) var drawnFeatureCount = 0

    private let output: ByteOutput
    private var marker: FeatureMarker
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
        marker = FeatureMarker(camera: camera, options: options)
        scene = marker.emptyScene()
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
    /// - Throws: the output's write errors (SVG).
    public mutating func add(_ feature: Feature) throws {
        precondition(!finished, "SnapshotStream.add after finish")
        featureCount += 1
        guard let marks = marker.marks(of: feature, number: featureCount) else { return }
        drawnFeatureCount += 1
        if !marks.overlays.isEmpty {
            let drawing = FeatureDrawing(title: marks.title, parts: marks.overlays)
            if marks.overlayLayer == 0 {
                try draw(drawing)
            } else {
                scene.layers[marks.overlayLayer].drawings.append(drawing)
            }
        }
        if !marks.annotations.isEmpty {
            scene.layers[2].drawings.append(FeatureDrawing(title: marks.title, parts: marks.annotations))
        }
    }

    /// Draws the kept layers over the bottom one and writes the rest of the picture to the
    /// output (PNG: all of it).
    /// - Throws: `Diagnostic` `render.cairo-failed`, or the output's write errors.
    public mutating func finish() throws {
        precondition(!finished, "SnapshotStream.finish called twice")
        finished = true
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
        scene = marker.emptyScene()
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
