import OverlayModel

/// Turns one feature into device-space marks for one camera: culls it by its bounds, simplifies
/// it for the render zoom, resolves its style and builds its paths, circles and pins. Shared by
/// `SnapshotBuilder` (which keeps the marks) and `SnapshotStream` (which draws them at once).
struct FeatureMarker {
    /// One feature's marks, split by the layer they belong to.
    struct Marks {
        /// `RenderScene.aboveRoads` or `RenderScene.aboveLabels`.
        var overlayLayer: Int
        var overlays: [DrawPart]
        /// Its point annotations' positions and looks, for `AnnotationLayout`.
        var points: [PointMark]
        /// The feature's own title (`FeatureTitle.named`), nil when only its number names it.
        var name: String?
        /// The feature's number (1-based, within the part of the input being read).
        var number: Int
        /// The title shown for it.
        var title: String { name ?? FeatureTitle.numbered(number) }
    }

    /// What became of one feature.
    enum Outcome {
        /// It shows: these are its marks.
        case drawn(Marks)
        /// No part of it is in the view.
        case outside
        /// It is in the view but smaller than the simplification tolerance (a quarter pixel).
        case tooSmall
        /// Its style paints nothing (no fill, no stroke).
        case unpainted
    }

    let options: RenderOptions
    private(set) var paths: ScreenPathBuilder
    private let simplifier: ShapeSimplifier
    /// Drops vertices within a simplification tolerance's cell before the simplifier sees them.
    private let coalescing: SubpixelCoalescing
    /// The same two steps for one long line, in flat map points (its memory stays near the input's).
    private let longLines: LongLineSimplification
    /// Whether features are culled by their bounds before anything else (false only in tests
    /// that prove culling skips nothing that would show).
    var cullsByBounds = true
    /// Whether a long line goes through `LongLineSimplification` (false only in tests that
    /// compare it with the general path).
    var simplifiesLongLinesFlat = true

    init(camera: RenderCamera, options: RenderOptions) {
        self.options = options
        let transform = ScreenTransform(camera: camera, pixelWidth: options.pixelWidth,
                                        pixelHeight: options.pixelHeight, scale: options.scale)
        paths = ScreenPathBuilder(transform: transform)
        // A pitched camera magnifies the ground near the viewport's bottom edge.
        simplifier = ShapeSimplifier(tolerance: Zoom.mapPointsPerScreenPoint(atZoom: camera.zoom) / options.scale / 4
            / transform.viewportMagnification)
        coalescing = SubpixelCoalescing(cellSize: simplifier.tolerance)
        longLines = LongLineSimplification(tolerance: simplifier.tolerance)
    }

    /// The scene the marks go into, with no drawings yet: size, background, the sky of a steep
    /// pitch, and the four layers bottom to top.
    func emptyScene() -> RenderScene {
        let transform = paths.transform
        let sky = transform.horizonY > 0 ? options.sky.map { RenderScene.Sky(color: $0, bottom: transform.horizonY) } : nil
        return RenderScene(pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
                           background: options.background, sky: sky,
                           layers: [.init(name: OverlayLevel.aboveRoads.rawValue),
                                    .init(name: OverlayLevel.aboveLabels.rawValue),
                                    .init(name: "annotations"), .init(name: "labels")])
    }

    /// The marks of feature number `number` (1-based, for its default title), or why it has none.
    mutating func marks(of feature: Feature, number: Int) -> Outcome {
        var feature = feature
        return marks(taking: &feature, number: number)
    }

    /// The marks of feature number `number`, taking the shape out of a feature that is one long
    /// line (`LongLineSimplification`): when the caller hands over the only reference to the
    /// feature, its coordinates' memory becomes the working buffer of map points, so marking adds
    /// no copy of its vertices (else its map points stream into a copy of the coalesced ones).
    mutating func marks(taking feature: inout Feature, number: Int) -> Outcome {
        if simplifiesLongLinesFlat && drawsAsLongLine(feature) {
            // Styled while it has its shape (a style sheet may ask for its kind).
            let style = RenderStyle.resolve(feature, styleSheet: options.styleSheet)
            var vertices = FeatureMarker.takeLineVertices(&feature)
            return marks(ofLong: &vertices, style: style, feature, number: number)
        }
        guard let original = feature.shape, !cullsByBounds || paths.mayShow(original) else { return .outside }
        // Per-zoom simplification (Douglas–Peucker, the tiling pipeline's) at a quarter device
        // pixel: invisible at this zoom, and a 100 MB file draws only what shows. Vertices in
        // one quarter-pixel cell are coalesced first, in one pass, so the simplifier's cost
        // follows the pixels a shape crosses, not its vertex count.
        var counts = ShapeSimplifier.Counts()
        guard let shape = simplifier.simplify(coalescing.coalesce(original), counts: &counts) else { return .tooSmall }
        let style = RenderStyle.resolve(feature, styleSheet: options.styleSheet)
        guard FeatureMarker.paints(shape, style) else { return .unpainted }
        var overlays = [DrawPart](), points = [PointMark]()
        draw(shape, style: style, overlays: &overlays, points: &points)
        guard !overlays.isEmpty || !points.isEmpty else { return .outside }
        let level = style.level ?? feature.level
        return .drawn(Marks(overlayLayer: level == .aboveRoads ? RenderScene.aboveRoads : RenderScene.aboveLabels,
                            overlays: overlays, points: points, name: FeatureTitle.named(feature), number: number))
    }

    /// Whether the feature is one long line that may show, drawn from its map points (a
    /// function of its own, so that no reference to its vertices outlives the test).
    private func drawsAsLongLine(_ feature: Feature) -> Bool {
        guard case .polyline(let line)? = feature.shape, longLines.applies(toLineOf: line.vertices.count) else { return false }
        return (!cullsByBounds || paths.mayShow(.polyline(line))) && paths.drawsFromMapPoints(line.vertices)
    }

    /// The vertices of a feature that is one line, its shape taken out (a function of its own,
    /// so that nothing here outlives the call: the buffer returned is the feature's only copy
    /// when the feature was).
    private static func takeLineVertices(_ feature: inout Feature) -> VertexBuffer {
        guard case .polyline(let line) = feature.shape else { return VertexBuffer(coordinates: []) }
        feature.shape = nil
        return line.vertices
    }

    /// The marks of a feature whose shape was one long line (`LongLineSimplification`), given
    /// its vertices (let go while drawn): the same as the general path gives.
    private mutating func marks(ofLong vertices: inout VertexBuffer, style: RenderStyle, _ feature: Feature, number: Int) -> Outcome {
        let stroke = strokePaint(style)
        let clip = guardClip(stroke)
        var path = DevicePath(closed: false)
        let longLines = self.longLines
        let simplified = longLines.simplify(taking: &vertices) { points in
            guard stroke != nil else { return }
            self.paths.append(linePoints: points, to: &path, guardClip: clip)
        }
        guard simplified else { return .tooSmall }
        guard let stroke else { return .unpainted }
        guard let overlay = lineOverlay(path, stroke: stroke, fillRule: style.fillRule) else { return .outside }
        let level = style.level ?? feature.level
        return .drawn(Marks(overlayLayer: level == .aboveRoads ? RenderScene.aboveRoads : RenderScene.aboveLabels,
                            overlays: [overlay], points: [], name: FeatureTitle.named(feature), number: number))
    }

    /// The stroke of a style, in device pixels; nil when it paints nothing.
    private func strokePaint(_ style: RenderStyle) -> StrokePaint? {
        let scale = options.scale
        return style.strokeColor.alpha > 0 && style.strokeWidth > 0
            ? StrokePaint(color: style.strokeColor, width: style.strokeWidth * scale,
                          dash: style.lineDash.map { $0 * scale }, cap: style.lineCap, join: style.lineJoin)
            : nil
    }

    /// Generous enough that joins and caps of clipped-away edges stay off screen.
    private func guardClip(_ stroke: StrokePaint?) -> GuardClip {
        paths.guardClip(margin: 64 + 6 * (stroke?.width ?? 0))
    }

    /// A line path stroked; nil when nothing of it is on screen.
    private func lineOverlay(_ path: DevicePath, stroke: StrokePaint, fillRule: FillRule) -> DrawPart? {
        guard !path.isEmpty else { return nil }
        var path = path
        if RepeatedPixelEdges.applies(to: path, stroke) {
            // A long line crossing its own pixels again and again: each pixel-to-pixel segment once.
            path = RepeatedPixelEdges(pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight).filtered(path)
        }
        return .path(path, fill: nil, fillRule: fillRule, stroke: stroke)
    }

    /// False when the style gives the shape neither fill nor stroke (pins are always drawn).
    private static func paints(_ shape: Shape, _ style: RenderStyle) -> Bool {
        let stroke = style.strokeColor.alpha > 0 && style.strokeWidth > 0
        switch shape {
        case .polygon, .multiPolygon, .circle: return style.fillColor.alpha > 0 || (style.outline && stroke)
        case .polyline, .multiPolyline: return stroke
        case .annotation: return true
        case .collection(let collection): return collection.members.contains { paints($0, style) }
        }
    }

    private mutating func draw(_ shape: Shape, style: RenderStyle, overlays: inout [DrawPart], points: inout [PointMark]) {
        let scale = options.scale
        let stroke = strokePaint(style)
        let outline = style.outline ? stroke : nil
        let fill = style.fillColor.alpha > 0 ? style.fillColor : nil
        let guardClip = guardClip(stroke)
        switch shape {
        case .polygon, .multiPolygon:
            var path = DevicePath(closed: true)
            if case .polygon(let polygon) = shape { paths.append(polygon, to: &path, guardClip: guardClip) }
            if case .multiPolygon(let multi) = shape {
                for polygon in multi.polygons { paths.append(polygon, to: &path, guardClip: guardClip) }
            }
            if !path.isEmpty && (fill != nil || outline != nil) {
                overlays.append(.path(path, fill: fill, fillRule: style.fillRule, stroke: outline))
            }
        case .polyline, .multiPolyline:
            guard let stroke else { return }
            var path = DevicePath(closed: false)
            if case .polyline(let line) = shape { paths.append(line: line.vertices, to: &path, guardClip: guardClip) }
            if case .multiPolyline(let multi) = shape {
                for line in multi.polylines { paths.append(line: line.vertices, to: &path, guardClip: guardClip) }
            }
            if let overlay = lineOverlay(path, stroke: stroke, fillRule: style.fillRule) { overlays.append(overlay) }
        case .circle(let circle):
            guard fill != nil || outline != nil, circle.radius > 0 else { return }
            let center = circle.centerPoint
            let mapRadius = circle.mapRadius
            if paths.transform.isPitched {
                var path = DevicePath(closed: true)
                paths.append(circleAt: center, mapRadius: mapRadius, to: &path, guardClip: guardClip)
                if !path.isEmpty { overlays.append(.path(path, fill: fill, fillRule: style.fillRule, stroke: outline)) }
                return
            }
            let radius = mapRadius * paths.transform.pixelsPerMapPoint
            for position in paths.devicePositions(of: center, radius: mapRadius) {
                let bounds = (position.x - radius, position.y - radius, position.x + radius, position.y + radius)
                if guardClip.misses(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) { continue }
                if guardClip.contains(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) {
                    overlays.append(.circle(x: position.x, y: position.y, radius: radius, fill: fill, stroke: outline))
                } else {
                    // Too large for the rasterizer's range: a polygon within a quarter pixel.
                    let ring = guardClip.clipRing(CircleRing.points(x: position.x, y: position.y, radius: radius))
                    guard ring.count >= 6 else { continue }
                    var path = DevicePath(closed: true)
                    path.append(subpath: ring)
                    overlays.append(.path(path, fill: fill, fillRule: style.fillRule, stroke: outline))
                }
            }
        case .annotation(let annotation):
            let size = style.markerScale * scale
            let viewport = GuardClip(minX: -48 * size, minY: -8 * size,
                                     maxX: Double(options.pixelWidth) + 48 * size, maxY: Double(options.pixelHeight) + 40 * size)
            for position in paths.devicePositions(of: annotation.point)
            where viewport.contains(minX: position.x, minY: position.y, maxX: position.x, maxY: position.y) {
                points.append(PointMark(x: position.x, y: position.y, color: style.markerColor, size: size,
                                        label: annotation.title, labelColor: style.labelColor,
                                        fontSize: style.labelSize * scale))
            }
        case .collection(let collection):
            for member in collection.members { draw(member, style: style, overlays: &overlays, points: &points) }
        }
    }
}
