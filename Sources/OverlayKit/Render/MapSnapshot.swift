import OverlayModel

/// Collects features one at a time into a snapshot for a known camera: each feature is
/// culled, styled, projected and pixel-decimated as it arrives and only its device-space marks
/// are kept, so the snapshot can then be written as SVG, PNG or pixels. Memory grows with the
/// overlay marks drawn (point annotations are bounded by the picture, see `AnnotationLayout`);
/// `SnapshotStream` draws overlays at once instead, for one output format, and `MapRenderer`
/// does the whole render of a file in bounded memory.
public struct SnapshotBuilder {
    /// The camera the scene is drawn with.
    public let camera: RenderCamera
    /// The options the snapshot was asked for.
    public let options: RenderOptions
    private var content: SnapshotContent
    private var scene: RenderScene
    /// Features seen, for default titles.
    public var featureCount: Int { content.features.read }
    /// Features with at least one mark on screen.
    public var drawnFeatureCount: Int { content.features.drawn }

    /// A builder that draws features as they are added, with `camera`.
    public init(camera: RenderCamera, options: RenderOptions) {
        self.camera = camera
        self.options = options
        content = SnapshotContent(camera: camera, options: options)
        scene = content.marker.emptyScene()
    }

    /// Styles and draws one feature (file order is drawing order within its layer).
    public mutating func add(_ feature: Feature) {
        guard let (layer, drawing) = content.add(feature) else { return }
        scene.layers[layer].drawings.append(drawing)
    }

    /// The finished snapshot: pins (or clusters) and the labels that fit are laid out now.
    public func finish() -> MapSnapshot {
        var content = self.content, scene = self.scene
        let (annotations, labels) = content.finishAnnotations()
        scene.layers[RenderScene.annotations].drawings = annotations
        scene.layers[RenderScene.labels].drawings = labels
        let report = RenderReport(camera: camera, pixelWidth: scene.pixelWidth, pixelHeight: scene.pixelHeight,
                                  features: content.features, annotations: content.annotations)
        return MapSnapshot(camera: camera, scene: scene, report: report)
    }
}

/// A rendered view of overlays: SVG, PNG or raw pixels from the same marks.
public struct MapSnapshot: Sendable {
    /// The camera it was taken with.
    public let camera: RenderCamera
    /// What was drawn and what was left out.
    public let report: RenderReport
    let scene: RenderScene

    init(camera: RenderCamera, scene: RenderScene, report: RenderReport) {
        self.camera = camera
        self.scene = scene
        self.report = report
    }

    /// Renders features with the options' camera (fitting them by default). The options are
    /// taken as they are; `MapRenderer` checks them (`RenderOptions.validate()`) and refuses a
    /// fit that needs a zoom below −1.
    public init(features: [Feature], options: RenderOptions) {
        var builder = SnapshotBuilder(camera: options.resolveCamera(for: features), options: options)
        for feature in features { builder.add(feature) }
        self = builder.finish()
    }

    /// Output size in device pixels.
    public var pixelWidth: Int { scene.pixelWidth }
    /// Image height in device pixels.
    public var pixelHeight: Int { scene.pixelHeight }

    /// An SVG document: one `<g>` per level (and one for annotations and one for labels), one
    /// `<g>` with a `<title>` per feature (per pin or cluster among annotations).
    public func svg() -> [UInt8] { SVGWriter.document(scene) }

    /// A PNG image drawn by cairo with anti-aliasing.
    /// - Throws: `Diagnostic` `render.cairo-failed` naming the cairo status.
    public func png() throws -> [UInt8] { try CairoCanvas.png(scene) }

    /// The pixels (for comparisons).
    public func image() throws -> RasterImage { try CairoCanvas.image(scene) }
}

/// The name a feature shows as in SVG `<title>`: annotation title (and subtitle), the first string among
/// the `name`, `title`, `Name` and `NAME` properties (Natural Earth uses `NAME`), id, or its
/// position in the file.
enum FeatureTitle {
    static let keys = ["name", "title", "Name", "NAME"]

    static func of(_ feature: Feature, number: Int) -> String {
        named(feature) ?? numbered(number)
    }

    /// The title the feature gives itself (annotation title, name property or id); nil when it
    /// is known only by its position, which a reader of one part of a file does not know yet.
    static func named(_ feature: Feature) -> String? {
        if case .annotation(let annotation) = feature.shape, let title = annotation.title {
            // The subtitle is not drawn on the map; the tooltip keeps it.
            return annotation.subtitle.map { "\(title) — \($0)" } ?? title
        }
        for key in keys {
            if let name = feature.properties?[key]?.stringValue { return name }
        }
        return feature.id?.description
    }

    /// The title of the feature numbered `number` (1-based) that names itself nowhere.
    static func numbered(_ number: Int) -> String { "feature \(number)" }
}
