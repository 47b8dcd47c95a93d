#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// The property whose value decides which point labels are placed first when they would
    /// overlap (MapKit's `displayPriority`; see `docs/render.md`); nil places them in input
    /// order. Labels never overlap: the ones that would are left out and counted.
    public var labelPriority: String?
    /// Points closer than this many screen points on the picture are drawn as one cluster with
    /// their count (MapKit's `MKClusterAnnotation`); 0 draws every pin.
    public var clusterDistance: Double

    /// Options with the documented defaults for whatever is not given.
    /// A nil camera fits the data with `defaultPadding(width:height:)`.
    public init(width: Int = 1024, height: Int = 768, scale: Double = 1, camera: CameraChoice? = nil,
                bearing: Double = 0, pitch: Double = 0, background: RGBAColor? = RGBAColor(red: 255, green: 255, blue: 255),
                sky: RGBAColor? = RenderOptions.defaultSky, styleSheet: StyleSheet = StyleSheet(),
                labelPriority: String? = nil, clusterDistance: Double = 0) {
        self.width = width
        self.height = height
        self.scale = scale
        self.camera = camera ?? .fit(padding: RenderOptions.defaultPadding(width: width, height: height))
        self.bearing = bearing
        self.pitch = pitch
        self.sky = sky
        self.background = background
        self.styleSheet = styleSheet
        self.labelPriority = labelPriority
        self.clusterDistance = clusterDistance
    }

    /// The padding a fit keeps by default, in screen points (as `showAnnotations` leaves room).
    public static let standardPadding = 64.0

    /// The default padding of a fit in a `width` × `height` view: `standardPadding`, or a quarter
    /// of the shorter side when that is less, so a small view keeps half of itself for the data.
    public static func defaultPadding(width: Int, height: Int) -> Double {
        min(standardPadding, Double(min(width, height)) / 4)
    }

    /// The largest picture side in device pixels (cairo's limit is 32,767; a 16,384² picture
    /// is already 1 GiB of pixels).
    public static let maximumPixelSide = 16_384

    /// `WIDTHxHEIGHT` in screen points, both positive (`1024x768`, `x` in either case), or nil.
    public static func size(parsing text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }
    /// The greatest display scale.
    public static let maximumScale = 8.0
    /// The zooms a camera may have, given or fitted: at zoom 0 the world is 256 points wide;
    /// at 24 a point is about 1 cm.
    public static let zoomRange = 0.0...24.0
    /// The greatest cluster distance in screen points (as `tile --cluster-distance`).
    public static let maximumClusterDistance = 256.0

    /// Checks every option against its range before anything is read, so no camera is
    /// impossible: a picture of 1…`maximumPixelSide` pixels a side, a zoom in `zoomRange`, a
    /// fit whose padding leaves room, angles `RenderCamera` can reduce, and so on.
    /// - Throws: `Diagnostic` `render.bad-option` naming the option, its value and its range,
    ///   or `render.view-too-small` for padding that leaves no room to fit into.
    public func validate() throws {
        func bad(_ message: String) -> Diagnostic { Diagnostic(.error, code: .renderBadOption, message: message) }
        guard scale.isFinite, scale > 0, scale <= RenderOptions.maximumScale else {
            throw bad("the scale must be above 0 and at most \(RenderOptions.maximumScale), not \(scale)")
        }
        let side = 1...Double(RenderOptions.maximumPixelSide)
        guard width > 0, height > 0, side.contains(Double(width) * scale), side.contains(Double(height) * scale) else {
            throw bad("the size × scale must be 1…\(RenderOptions.maximumPixelSide) pixels on each side, not \(width)×\(height) × \(scale)")
        }
        guard RenderCamera.isReducible(bearing) else {
            throw bad("the bearing must be finite and within ±\(Int64(RenderCamera.largestReducibleAngle)) degrees, not \(bearing)")
        }
        guard pitch.isFinite, RenderCamera.pitchRange.contains(pitch) else {
            throw bad("the pitch must be 0…\(RenderCamera.maximumPitch) degrees, not \(pitch)")
        }
        guard clusterDistance.isFinite, (0...RenderOptions.maximumClusterDistance).contains(clusterDistance) else {
            throw bad("the cluster distance must be 0…\(RenderOptions.maximumClusterDistance) points, not \(clusterDistance)")
        }
        if let labelPriority, labelPriority.isEmpty { throw bad("the label priority must name a property") }
        switch camera {
        case .centered(let center, let zoom):
            try RenderOptions.validate(center)
            guard zoom.isFinite, RenderOptions.zoomRange.contains(zoom) else {
                throw bad("the zoom must be \(RenderOptions.zoomRange.lowerBound)…\(RenderOptions.zoomRange.upperBound), not \(zoom)")
            }
        case .lookingAt(let center, let distance):
            try RenderOptions.validate(center)
            let range = RenderCamera.centerCoordinateDistanceRange(latitude: center.latitude, viewportHeight: Double(height))
            guard distance.isFinite, range.contains(distance) else {
                throw bad("the center coordinate distance must be \(range.lowerBound)…\(range.upperBound) meters "
                    + "at latitude \(center.latitude) in a \(height)-point-tall view (zoom 24…0), not \(distance)")
            }
        case .fit(let padding):
            guard padding.isFinite, padding >= 0 else { throw bad("the padding must be 0 or more points, not \(padding)") }
            if let message = RenderOptions.paddingProblem(padding: padding, width: width, height: height) {
                throw Diagnostic(.error, code: .renderViewTooSmall, message: message)
            }
        }
    }

    /// A number for messages, to two decimals.
    private static func shown(_ value: Double) -> String {
        value.isFinite ? String((value * 100).rounded() / 100) : String(value)
    }

    private static func validate(_ center: Coordinate) throws {
        guard center.latitude.isFinite, center.longitude.isFinite,
              (-90...90).contains(center.latitude), (-180...180).contains(center.longitude) else {
            throw Diagnostic(.error, code: .renderBadOption,
                             message: "the center must be latitude -90…90 and longitude -180…180, not \(center.latitude),\(center.longitude)")
        }
    }

    /// Why `padding` points on every side leave no room to fit data into a `width` × `height`
    /// view (less than one point across or down), or nil when they leave some.
    public static func paddingProblem(padding: Double, width: Int, height: Int) -> String? {
        let room = min(Double(width), Double(height)) - 2 * padding
        guard room < 1 else { return nil }
        return "a padding of \(shown(padding)) points leaves no room to fit the data into a \(width)×\(height)-point view "
            + "(it needs less than \(shown((Double(min(width, height)) - 1) / 2)) points, or a larger size)"
    }

    /// The smallest zoom a fit may choose: −1, where the world is 128 points wide — MapLibre GL
    /// JS's smallest zoom (−2 of its 512-pixel tiles), so a small view can still show the whole
    /// world. Below it a view is too small for its data: everything would be drawn in a smudge of
    /// a few pixels (a view one point tall would need zoom −5.46).
    public static let minimumFitZoom = -1.0

    /// Why the fitted camera is impossible (a zoom below `minimumFitZoom`), or nil.
    static func fitProblem(_ camera: RenderCamera, width: Int, height: Int, padding: Double) -> String? {
        guard camera.zoom < minimumFitZoom || camera.zoom.isNaN else { return nil }
        let needed = (Double(max(width, height)) * pow(2, minimumFitZoom - camera.zoom)).rounded(.up)
        return "the data does not fit a \(width)×\(height)-point view with \(shown(padding)) points of padding: "
            + "it would need zoom \(shown(camera.zoom)), below the smallest a fit may take, \(shown(minimumFitZoom)) (the world 128 points wide); "
            + "give a larger size (about \(Int(min(needed, 1e9))) points on the long side; a scale below 1 keeps the image small), "
            + "less padding, or a center and zoom"
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
        guard case .fit = camera else { return resolveCamera(fitting: .null) }
        var extent = FitExtent()
        for feature in features { if let shape = feature.shape { extent.add(shape) } }
        return resolveCamera(fitting: extent.mapRect)
    }

    /// The camera for these options: the given one, or the one that fits `extent` (a rect from
    /// `FitExtent`, which may run past the world's east edge; null fits the world).
    public func resolveCamera(fitting extent: MapRect) -> RenderCamera {
        switch camera {
        case .centered(let center, let zoom):
            return RenderCamera(center: center, zoom: zoom, bearing: bearing, pitch: pitch)
        case .lookingAt(let center, let distance):
            return RenderCamera(lookingAt: center, centerCoordinateDistance: distance, heading: bearing, pitch: pitch,
                                viewportHeight: Double(height))
        case .fit(let padding):
            return RenderCamera.fitting(extent, width: Double(width), height: Double(height),
                                        padding: padding, bearing: bearing, pitch: pitch)
        }
    }
}

