import OverlayModel

/// What a snapshot looks like: size, display scale, camera, background and style overrides.
public struct RenderOptions: Sendable {
    /// How the camera is chosen.
    public enum CameraChoice: Sendable, Hashable {
        /// Show every overlay and annotation with `padding` screen points on each side, at the
        /// largest zoom that fits (`showAnnotations`, `fitBounds`).
        case fit(padding: Double)
        /// A fixed center and zoom.
        case centered(Coordinate, zoom: Double)
        /// A fixed center seen from `centerCoordinateDistance` meters (MapKit's
        /// `MKMapCamera.centerCoordinateDistance`); the zoom follows from the viewport's height
        /// (`RenderCamera.zoom(centerCoordinateDistance:latitude:viewportHeight:)`).
        case lookingAt(Coordinate, centerCoordinateDistance: Double)
    }

    /// Viewport size in screen points.
    public var width: Int
    /// Viewport height in screen points.
    public var height: Int
    /// Device pixels per screen point (2 for a retina snapshot).
    public var scale: Double
    /// Where the camera looks: fitted to the data or given.
    public var camera: CameraChoice
    /// Degrees clockwise from north that point up (MapKit's `heading`).
    public var bearing: Double
    /// Degrees from straight down toward the horizon (MapKit's `pitch`, Google's `tilt`),
    /// 0…`RenderCamera.maximumPitch`.
    public var pitch: Double
    /// What fills the sky above the horizon of a steeply pitched camera; nil leaves it to the
    /// background.
    public var sky: RGBAColor?
    /// Nil for transparent.
    public var background: RGBAColor?
    /// Style rules over the features' own styles.
    public var styleSheet: StyleSheet

    /// Options with the documented defaults for whatever is not given.
    public init(width: Int = 1024, height: Int = 768, scale: Double = 1, camera: CameraChoice = .fit(padding: 64),
                bearing: Double = 0, pitch: Double = 0, background: RGBAColor? = RGBAColor(red: 255, green: 255, blue: 255),
                sky: RGBAColor? = RenderOptions.defaultSky, styleSheet: StyleSheet = StyleSheet()) {
        self.width = width
        self.height = height
        self.scale = scale
        self.camera = camera
        self.bearing = bearing
        self.pitch = pitch
        self.sky = sky
        self.background = background
        self.styleSheet = styleSheet
    }

    /// MapLibre GL JS's default `sky-color`, #88c6fc.
    public static let defaultSky = RGBAColor(red: 0x88, green: 0xc6, blue: 0xfc)

    /// The output size in device pixels.
    public var pixelWidth: Int { max(1, Int(saturating: (Double(width) * scale).rounded())) }
    /// Image height in device pixels (at least 1).
    public var pixelHeight: Int { max(1, Int(saturating: (Double(height) * scale).rounded())) }

    /// The camera for these options and features: the centered one as given, or the one that
    /// fits the features (antimeridian-aware, see `FitExtent`).
    public func resolveCamera<S: Sequence>(for features: S) -> RenderCamera where S.Element == Feature {
        switch camera {
        case .centered(let center, let zoom):
            return RenderCamera(center: center, zoom: zoom, bearing: bearing, pitch: pitch)
        case .lookingAt(let center, let distance):
            return RenderCamera(lookingAt: center, centerCoordinateDistance: distance, heading: bearing, pitch: pitch,
                                viewportHeight: Double(height))
        case .fit(let padding):
            var extent = FitExtent()
            for feature in features { if let shape = feature.shape { extent.add(shape) } }
            return RenderCamera.fitting(extent.mapRect, width: Double(width), height: Double(height),
                                        padding: padding, bearing: bearing, pitch: pitch)
        }
    }
}

/// Collects features one at a time into a snapshot for a known camera, so a large input
/// streams through: each feature is styled, projected and pixel-decimated as it arrives and
/// only its device-space marks are kept.
public struct SnapshotBuilder {
    /// The camera the scene is drawn with.
    public let camera: RenderCamera
    /// The options the snapshot was asked for.
    public let options: RenderOptions
    private var paths: ScreenPathBuilder
    private var scene: RenderScene
    private let simplifier: ShapeSimplifier
    /// Features seen, for default titles.
    public private(set) var featureCount = 0
    /// Features with at least one mark on screen.
    public private(set) var drawnFeatureCount = 0

    /// A builder that draws features as they are added, with `camera`.
    public init(camera: RenderCamera, options: RenderOptions) {
        self.camera = camera
        self.options = options
        let transform = ScreenTransform(camera: camera, pixelWidth: options.pixelWidth,
                                        pixelHeight: options.pixelHeight, scale: options.scale)
        paths = ScreenPathBuilder(transform: transform)
        // A pitched camera magnifies the ground near the viewport's bottom edge.
        simplifier = ShapeSimplifier(tolerance: Zoom.mapPointsPerScreenPoint(atZoom: camera.zoom) / options.scale / 4
            / transform.viewportMagnification)
        let sky = transform.horizonY > 0 ? options.sky.map { RenderScene.Sky(color: $0, bottom: transform.horizonY) } : nil
        scene = RenderScene(pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
                            background: options.background, sky: sky,
                            layers: [.init(name: OverlayLevel.aboveRoads.rawValue),
                                     .init(name: OverlayLevel.aboveLabels.rawValue),
                                     .init(name: "annotations")])
    }

    /// Styles and draws one feature (file order is drawing order within its layer).
    public mutating func add(_ feature: Feature) {
        featureCount += 1
        guard let original = feature.shape else { return }
        // Per-zoom simplification (Douglas–Peucker, the tiling pipeline's) at a quarter device
        // pixel: invisible at this zoom, and a 100 MB file draws only what shows.
        var counts = ShapeSimplifier.Counts()
        guard let shape = simplifier.simplify(original, counts: &counts) else { return }
        let style = RenderStyle.resolve(feature, styleSheet: options.styleSheet)
        var overlays = [DrawPart](), annotations = [DrawPart]()
        draw(shape, style: style, overlays: &overlays, annotations: &annotations)
        let title = FeatureTitle.of(feature, number: featureCount)
        if !overlays.isEmpty {
            let level = style.level ?? feature.level
            scene.layers[level == .aboveRoads ? 0 : 1].drawings.append(FeatureDrawing(title: title, parts: overlays))
        }
        if !annotations.isEmpty {
            scene.layers[2].drawings.append(FeatureDrawing(title: title, parts: annotations))
        }
        if !overlays.isEmpty || !annotations.isEmpty { drawnFeatureCount += 1 }
    }

    /// The finished snapshot.
    public func finish() -> MapSnapshot { MapSnapshot(camera: camera, scene: scene) }

    private mutating func draw(_ shape: Shape, style: RenderStyle, overlays: inout [DrawPart], annotations: inout [DrawPart]) {
        let scale = options.scale
        let stroke = style.strokeColor.alpha > 0 && style.strokeWidth > 0
            ? StrokePaint(color: style.strokeColor, width: style.strokeWidth * scale,
                          dash: style.lineDash.map { $0 * scale }, cap: style.lineCap, join: style.lineJoin)
            : nil
        let outline = style.outline ? stroke : nil
        let fill = style.fillColor.alpha > 0 ? style.fillColor : nil
        // Generous enough that joins and caps of clipped-away edges stay off screen.
        let guardClip = paths.guardClip(margin: 64 + 6 * (stroke?.width ?? 0))
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
            if !path.isEmpty { overlays.append(.path(path, fill: nil, fillRule: style.fillRule, stroke: stroke)) }
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
                annotations.append(.pin(x: position.x, y: position.y, color: style.markerColor, size: size,
                                        label: annotation.title, labelColor: style.labelColor,
                                        fontSize: style.labelSize * scale))
            }
        case .collection(let collection):
            for member in collection.members { draw(member, style: style, overlays: &overlays, annotations: &annotations) }
        }
    }
}

/// A rendered view of overlays: SVG, PNG or raw pixels from the same marks.
public struct MapSnapshot: Sendable {
    /// The camera it was taken with.
    public let camera: RenderCamera
    let scene: RenderScene

    init(camera: RenderCamera, scene: RenderScene) {
        self.camera = camera
        self.scene = scene
    }

    /// Renders features with the options' camera (fitting them by default).
    public init(features: [Feature], options: RenderOptions) {
        var builder = SnapshotBuilder(camera: options.resolveCamera(for: features), options: options)
        for feature in features { builder.add(feature) }
        self = builder.finish()
    }

    /// Output size in device pixels.
    public var pixelWidth: Int { scene.pixelWidth }
    /// Image height in device pixels.
    public var pixelHeight: Int { scene.pixelHeight }

    /// An SVG document: one `<g>` per level (and one for annotations), one `<g>` with a
    /// `<title>` per feature.
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
        if case .annotation(let annotation) = feature.shape, let title = annotation.title {
            // The subtitle is not drawn on the map; the tooltip keeps it.
            return annotation.subtitle.map { "\(title) — \($0)" } ?? title
        }
        for key in keys {
            if let name = feature.properties?[key]?.stringValue { return name }
        }
        if let id = feature.id { return id.description }
        return "feature \(number)"
    }
}
