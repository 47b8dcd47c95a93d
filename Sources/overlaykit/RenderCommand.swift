import ArgumentParser
import OverlayKit
import OverlayModel

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render overlays to a PNG or SVG snapshot.",
        discussion: """
            The camera fits every overlay and annotation with --padding points around them, at the \
            largest zoom that fits (data across the antimeridian is fitted and drawn in one piece), \
            unless --center and --zoom (or --distance) give it (at zoom z the world is 256·2^z points \
            wide). --pitch tilts the camera toward the horizon as MapLibre GL JS draws it; \
            --distance is MapKit's centerCoordinateDistance, meters from the eye to the center. \
            Styles come from the file (KML styles, GeoJSON simplestyle properties), over the \
            documented defaults, under --style rules. Point labels never overlap (--label-priority \
            decides which stay); --cluster-distance groups points into clusters with their count. \
            A fitted render reads its input twice (standard input is copied to a temporary file), \
            so memory follows the picture, not the input. See docs/render.md.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case png, svg }

    @OptionGroup var inputOptions: InputOptions

    @Option(name: [.short, .long], help: "Output file (.png or .svg); '-' writes standard output (then give --format).")
    var output: String

    @OptionGroup var overwrite: OverwriteOption

    @Option(help: "Output format (default: from -o's extension).")
    var format: OutputFormat?

    @Option(help: "Viewport size in screen points, WIDTHxHEIGHT.")
    var size: String = "1024x768"

    @Option(parsing: .unconditional, help: "Device pixels per screen point.")
    var scale: Double = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Camera center in degrees (with --zoom).", valueName: "lat,lon"))
    var center: String?

    @Option(parsing: .unconditional, help: "Zoom level (0–24, fractional allowed; with --center).")
    var zoom: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Meters from the eye to the center, MapKit's centerCoordinateDistance (with --center, instead of --zoom).",
                               valueName: "meters"))
    var distance: Double?

    @Option(name: [.customLong("bearing"), .customLong("heading")], parsing: .unconditional,
            help: "Degrees clockwise from north that point up (MapKit's heading).")
    var bearing: Double = 0

    @Option(name: [.customLong("pitch"), .customLong("tilt")], parsing: .unconditional,
            help: "Degrees from straight down toward the horizon, 0–85 (MapKit's pitch, Google's tilt).")
    var pitch: Double = 0

    @Option(help: "Sky color above the horizon of a steep pitch: #rrggbb, #rrggbbaa or none (the background shows).")
    var sky: String = "#88c6fc"

    @Flag(help: "Fit all overlays and annotations (the default without --center/--zoom).")
    var fit = false

    @Option(parsing: .unconditional, help: "Screen points kept free around the data when fitting (default: 64, or a quarter of a smaller view's shorter side).")
    var padding: Double?

    /// `--padding`, or the default for the view's size.
    private var resolvedPadding: Double {
        padding ?? parsedSize.map { RenderOptions.defaultPadding(width: $0.0, height: $0.1) } ?? RenderOptions.standardPadding
    }

    @Option(help: "Background color: #rrggbb, #rrggbbaa or none.")
    var background: String = "#ffffff"

    @Option(help: "Style sheet (JSON) whose rules override feature styles by property match.")
    var style: String?

    @Option(help: ArgumentHelp("Point labels never overlap: when they would, the one whose PROP is higher is placed "
        + "(numbers by value, strings in Unicode order; default: input order) and the other left out and counted.",
        valueName: "PROP"))
    var labelPriority: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw points closer than PX screen points as one cluster with their count, "
        + "as MapKit's MKClusterAnnotation (0: every pin).", valueName: "PX"))
    var clusterDistance: Double = 0

    func validate() throws {
        guard let (width, height) = parsedSize else {
            throw ValidationError("--size must be WIDTHxHEIGHT in points, e.g. 1024x768")
        }
        guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale must be above 0 and at most 8") }
        guard Double(width) * scale <= 16384, Double(height) * scale <= 16384, Double(width) * scale >= 1, Double(height) * scale >= 1 else {
            throw ValidationError("--size × --scale must be 1…16384 pixels on each side")
        }
        if fit && (center != nil || zoom != nil || distance != nil) {
            throw ValidationError("--fit cannot be combined with --center, --zoom or --distance")
        }
        if zoom != nil && distance != nil { throw ValidationError("give --zoom or --distance, not both") }
        if (center == nil) != (zoom == nil && distance == nil) {
            throw ValidationError("--center goes with --zoom or --distance")
        }
        if center != nil && parsedCenter == nil {
            let hint = center.flatMap(CoordinateOrder.pointHint(parsing:)).map { " (\($0))" } ?? ""
            throw ValidationError("--center must be LAT,LON in degrees, latitude -90…90 and longitude -180…180\(hint)")
        }
        if let zoom, !(0...24).contains(zoom) { throw ValidationError("--zoom must be 0…24") }
        if let distance, let center = parsedCenter, let (_, height) = parsedSize {
            let range = RenderCamera.centerCoordinateDistanceRange(latitude: center.latitude, viewportHeight: Double(height))
            guard distance.isFinite, range.contains(distance) else {
                throw ValidationError("--distance must be \(meters(range.lowerBound))…\(meters(range.upperBound)) "
                    + "meters at latitude \(center.latitude) in a \(height)-point-tall view (zoom 24…0)")
            }
        }
        guard RenderCamera.isReducible(bearing) else {
            throw ValidationError("--bearing must be a number of degrees within ±9007199254740992 (2^53) "
                + "(beyond, a double cannot tell whole degrees apart, so the angle is not the one given)")
        }
        guard pitch.isFinite, RenderCamera.pitchRange.contains(pitch) else {
            throw ValidationError("--pitch must be 0…85 degrees (0 looks straight down; MapLibre GL JS allows up to 85)")
        }
        if parsedSky == nil { throw ValidationError("--sky must be #rrggbb, #rrggbbaa or none") }
        guard resolvedPadding.isFinite, resolvedPadding >= 0 else { throw ValidationError("--padding must be 0 or more points") }
        if center == nil, let (width, height) = parsedSize,
           let problem = RenderOptions.paddingProblem(padding: resolvedPadding, width: width, height: height) {
            throw ValidationError((padding == nil ? "--size: " : "--padding: ") + problem)
        }
        guard clusterDistance.isFinite, (0...RenderOptions.maximumClusterDistance).contains(clusterDistance) else {
            throw ValidationError("--cluster-distance must be 0…\(Int(RenderOptions.maximumClusterDistance)) points")
        }
        if labelPriority?.isEmpty == true { throw ValidationError("--label-priority must name a property") }
        if parsedBackground == nil { throw ValidationError("--background must be #rrggbb, #rrggbbaa or none") }
        if resolvedFormat == nil {
            throw ValidationError("cannot tell the output format of '\(output)'; name it .png or .svg, or give --format")
        }
        if let format, let named = FileFormat(pathExtensionOf: output), named.rawValue != format.rawValue {
            throw ValidationError("'\(output)' is named as \(named.rawValue) but --format asks for \(format.rawValue): name it .\(format.rawValue)")
        }
    }

    private var parsedSize: (Int, Int)? { RenderOptions.size(parsing: size) }

    private var parsedCenter: Coordinate? { center.flatMap(CoordinateOrder.point(parsing:)) }

    /// nil means invalid; .some(nil) transparent.
    private var parsedBackground: RGBAColor?? {
        if background == "none" { return .some(nil) }
        return RGBAColor(hex: background).map { .some($0) }
    }

    /// nil means invalid; .some(nil) no sky.
    private var parsedSky: RGBAColor?? {
        if sky == "none" { return .some(nil) }
        return RGBAColor(hex: sky).map { .some($0) }
    }

    private var resolvedFormat: OutputFormat? {
        if let format { return format }
        let lowered = output.lowercased()
        if lowered.hasSuffix(".png") { return .png }
        if lowered.hasSuffix(".svg") { return .svg }
        return nil
    }

    func run() throws {
        try runReportingErrors {
            // The output and the style sheet first: an existing output or a bad sheet should
            // fail before any long read.
            let byteOutput = try ByteOutput(path: output, replaceExisting: overwrite.force)
            defer { byteOutput.abandon() }
            let (width, height) = parsedSize!
            var options = RenderOptions(width: width, height: height, scale: scale, bearing: bearing, pitch: pitch,
                                        background: parsedBackground!, sky: parsedSky!,
                                        styleSheet: try style.map { try StyleSheet(path: $0) } ?? StyleSheet(),
                                        labelPriority: labelPriority, clusterDistance: clusterDistance)
            if let center = parsedCenter, let zoom {
                options.camera = .centered(center, zoom: zoom)
            } else if let center = parsedCenter, let distance {
                options.camera = .lookingAt(center, centerCoordinateDistance: distance)
            } else {
                options.camera = .fit(padding: resolvedPadding)
            }
            let renderer = MapRenderer(options: options, format: resolvedFormat! == .png ? .png : .svg)
            let report: RenderReport
            if TileSet.isTileSet(inputOptions.input) {
                // A tile set: the tiles of the view's zoom, decoded (docs/serve.md).
                var source = TileSetRenderSource(try TileSet(path: inputOptions.input!))
                report = try renderer.render(&source, to: byteOutput, onWarning: Report.diagnostic)
            } else {
                inputOptions.format.noteIfReadingTerminal(inputOptions.input)
                var source = FileRenderSource(path: inputOptions.input, format: inputOptions.from, kmzLimits: inputOptions.format.kmzLimits)
                source.geometryColumn = inputOptions.format.geometryColumn
                report = try renderer.render(&source, to: byteOutput, onWarning: Report.diagnostic)
            }
            report.diagnostics.forEach(Report.diagnostic)
            Report.standardError(summary(of: report) + "\n")
        }
    }

    /// The status line: what was drawn, the picture and its camera, and — when something was
    /// left out — how much and why.
    private func summary(of report: RenderReport) -> String {
        let camera = report.camera, features = report.features
        var line = "rendered \(features.drawn) of \(features.read) features"
        let left = [(features.outsideView, "outside the view"), (features.tooSmall, "too small to see"),
                    (features.unpainted, "unpainted by their style")].filter { $0.0 > 0 }
        if !left.isEmpty { line += " (" + left.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")" }
        line += ", \(report.pixelWidth)×\(report.pixelHeight) px, zoom \(rounded(camera.zoom)), "
            + "center \(rounded(camera.center.latitude)),\(rounded(camera.center.longitude)), "
            + "bearing \(rounded(camera.bearing))"
            + (camera.pitch > 0 ? ", pitch \(rounded(camera.pitch))" : "")
        let points = report.annotations
        guard points.points > 0 else { return line }
        line += "; \(points.points) point\(points.points == 1 ? "" : "s") in view: "
        if clusterDistance > 0 {
            line += "\(points.clusters) cluster\(points.clusters == 1 ? "" : "s") of \(points.clusteredPoints), \(points.pins) single"
        } else {
            line += "\(points.pins) pin\(points.pins == 1 ? "" : "s")"
            if points.coalescedPins > 0 { line += " (\(points.coalescedPins) more in their pixels)" }
        }
        let labels = points.labelsPlaced + points.labelsLeftOut
        if labels > 0 {
            line += ", \(points.labelsPlaced) of \(labels) labels"
                + (points.labelsLeftOut > 0 ? " (\(points.labelsLeftOut) left out: overlapping)" : "")
        }
        return line
    }

    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// Meters to the centimeter, for messages.
    private func meters(_ value: Double) -> String { String((value * 100).rounded() / 100) }
}
