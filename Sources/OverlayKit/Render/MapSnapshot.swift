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

/// Collects features one at a time into a snapshot for a known camera: each feature is
/// culled, styled, projected and pixel-decimated as it arrives and only its device-space marks
/// are kept, so the snapshot can then be written as SVG, PNG or pixels. Memory grows with the
/// marks drawn; `SnapshotStream` draws them at once instead, for one output format.
public struct SnapshotBuilder {
    /// The camera the scene is drawn with.
    public let camera: RenderCamera
    /// The options the snapshot was asked for.
    public let options: RenderOptions
    private var marker: FeatureMarker
    private var scene: RenderScene
    /// Features seen, for default titles.
    public private(set) var featureCount = 0
    /// Features with at least one mark on screen.
    public private(set) var drawnFeatureCount = 0

    /// A builder that draws features as they are added, with `camera`.
    public init(camera: RenderCamera, options: RenderOptions) {
        self.camera = camera
        self.options = options
        marker = FeatureMarker(camera: camera, options: options)
        scene = marker.emptyScene()
    }

    /// Styles and draws one feature (file order is drawing order within its layer).
    public mutating func add(_ feature: Feature) {
        featureCount += 1
        guard let marks = marker.marks(of: feature, number: featureCount) else { return }
        drawnFeatureCount += 1
        if !marks.overlays.isEmpty {
            scene.layers[marks.overlayLayer].drawings.append(FeatureDrawing(title: marks.title, parts: marks.overlays))
        }
        if !marks.annotations.isEmpty {
            scene.layers[2].drawings.append(FeatureDrawing(title: marks.title, parts: marks.annotations))
        }
    }

    /// The finished snapshot.
    public func finish() -> MapSnapshot { MapSnapshot(camera: camera, scene: scene) }
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
