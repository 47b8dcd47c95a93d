import OverlayModel

/// What a picture takes in, feature by feature, shared by `SnapshotBuilder` (which keeps the
/// overlay marks) and `SnapshotStream` (which draws them at once): each feature's outcome is
/// counted, its overlay marks are handed back, and its points go to the `AnnotationLayout`,
/// which decides at the end which pins, clusters and labels are drawn.
struct SnapshotContent {
    private(set) var marker: FeatureMarker
    private var layout: AnnotationLayout
    private let labelPriority: String?
    private(set) var features = RenderReport.FeatureCounts()

    init(camera: RenderCamera, options: RenderOptions) {
        marker = FeatureMarker(camera: camera, options: options)
        layout = AnnotationLayout(clusterDistance: options.clusterDistance, pixelWidth: options.pixelWidth,
                                  pixelHeight: options.pixelHeight, scale: options.scale)
        labelPriority = options.labelPriority
    }

    /// What became of the points so far (complete after `finishAnnotations`).
    var annotations: RenderReport.AnnotationCounts { layout.counts }

    /// Takes one feature: returns its overlay marks and the layer they go in, if it has any.
    mutating func add(_ feature: consuming Feature) -> (layer: Int, drawing: FeatureDrawing)? {
        guard let marks = take(feature) else { return nil }
        return (marks.overlayLayer, FeatureDrawing(title: marks.title, parts: marks.overlays))
    }

    /// Takes one feature: counts it, lays out its points and returns its marks when it has
    /// overlays to draw (their title may name the feature by its number within this content's
    /// features: `Marks.number`).
    mutating func take(_ feature: consuming Feature) -> FeatureMarker.Marks? {
        features.read += 1
        // Taken, not copied: a long line's vertices become the marker's working buffer.
        switch marker.marks(taking: &feature, number: features.read) {
        case .outside:
            features.outsideView += 1
            return nil
        case .tooSmall:
            features.tooSmall += 1
            return nil
        case .unpainted:
            features.unpainted += 1
            return nil
        case .drawn(let marks):
            features.drawn += 1
            if !marks.points.isEmpty {
                let priority = LabelPriority(of: feature, key: labelPriority)
                for point in marks.points { layout.add(point, name: marks.name, number: marks.number, priority: priority) }
            }
            return marks.overlays.isEmpty ? nil : marks
        }
    }

    /// False when the content's points cannot be joined from parts read apart (`append`):
    /// clustering takes them in input order.
    var canAppend: Bool { layout.canAppend }

    /// Takes the features of `later`, the content of the input right after this one's (its
    /// overlays already drawn), as if they had been added here one by one.
    mutating func append(_ later: SnapshotContent) {
        layout.append(later.layout, featuresBefore: features.read)
        features.read += later.features.read
        features.drawn += later.features.drawn
        features.outsideView += later.features.outsideView
        features.tooSmall += later.features.tooSmall
        features.unpainted += later.features.unpainted
    }

    /// The annotation layer's drawings (pins, then clusters) and the labels placed over them.
    mutating func finishAnnotations() -> (annotations: [FeatureDrawing], labels: [FeatureDrawing]) {
        let (drawings, labels) = layout.finish(measuring: CairoCanvas.TextMeasure())
        return (drawings, labels.isEmpty ? [] : [FeatureDrawing(title: nil, parts: labels)])
    }
}
