import OverlayModel

/// What a render drew and what it left out, feature by feature and point by point: every
/// feature read is drawn, outside the view, too small to see or unpainted, and every point in
/// view is a pin or a member of a cluster.
public struct RenderReport: Sendable {
    /// What became of the features.
    public struct FeatureCounts: Hashable, Sendable {
        /// Features read.
        public var read = 0
        /// Features with at least one mark on the picture.
        public var drawn = 0
        /// Features with no part in the view.
        public var outsideView = 0
        /// Features in the view smaller than a quarter pixel (they would not show).
        public var tooSmall = 0
        /// Features whose style paints nothing (no fill and no stroke).
        public var unpainted = 0

        /// Counts with nothing read.
        public init() {}
    }

    /// What became of the point annotations (a point shown in several world copies counts once
    /// per copy in view).
    public struct AnnotationCounts: Hashable, Sendable {
        /// Point positions in the view (with the margin a pin's head needs).
        public var points = 0
        /// Pins drawn: every point's without clustering, the single points' with it.
        public var pins = 0
        /// Points without clustering whose pin fell in the device pixel of a later pin of the
        /// same color and size, drawn once for all of them (`points == pins + coalescedPins`).
        public var coalescedPins = 0
        /// Clusters drawn (with clustering: `points == pins + clusteredPoints`).
        public var clusters = 0
        /// Points drawn as members of those clusters.
        public var clusteredPoints = 0
        /// Labels drawn (none overlaps another or a cluster).
        public var labelsPlaced = 0
        /// Labels left out because they would have overlapped a label placed before them (by
        /// priority) or a cluster, or shared a pixel with a label of higher priority, or fell off
        /// the picture. `labelsPlaced + labelsLeftOut` is the number of labeled pins.
        public var labelsLeftOut = 0

        /// Counts with no points.
        public init() {}
    }

    /// The camera the picture was drawn with (fitted or given).
    public var camera: RenderCamera
    /// The picture's width in device pixels.
    public var pixelWidth: Int
    /// The picture's height in device pixels.
    public var pixelHeight: Int
    /// What became of the features.
    public var features: FeatureCounts
    /// What became of the point annotations.
    public var annotations: AnnotationCounts
    /// Notes about the run as a whole (`render.empty` for an input without features); the
    /// input's own warnings go to the caller's `onWarning` as they are read.
    public var diagnostics: [Diagnostic]

    /// A report of a picture `pixelWidth` × `pixelHeight` drawn with `camera`.
    public init(camera: RenderCamera, pixelWidth: Int, pixelHeight: Int, features: FeatureCounts = FeatureCounts(),
                annotations: AnnotationCounts = AnnotationCounts(), diagnostics: [Diagnostic] = []) {
        self.camera = camera
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.features = features
        self.annotations = annotations
        self.diagnostics = diagnostics
    }
}
