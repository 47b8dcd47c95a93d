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
            unless --center and --zoom give it (at zoom z the world is 256·2^z points wide). \
            Styles come from the file (KML styles, GeoJSON simplestyle properties), over the \
            documented defaults, under --style rules. See docs/render.md.
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

    @Option(help: "Device pixels per screen point.")
    var scale: Double = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Camera center in degrees (with --zoom).", valueName: "lat,lon"))
    var center: String?

    @Option(help: "Zoom level (0–24, fractional allowed; with --center).")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Degrees clockwise from north that point up.")
    var bearing: Double = 0

    @Flag(help: "Fit all overlays and annotations (the default without --center/--zoom).")
    var fit = false

    @Option(help: "Screen points kept free around the data when fitting.")
    var padding: Double = 64

    @Option(help: "Background color: #rrggbb, #rrggbbaa or none.")
    var background: String = "#ffffff"

    @Option(help: "Style sheet (JSON) whose rules override feature styles by property match.")
    var style: String?

    func validate() throws {
        guard let (width, height) = parsedSize else {
            throw ValidationError("--size must be WIDTHxHEIGHT in points, e.g. 1024x768")
        }
        guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale must be above 0 and at most 8") }
        guard Double(width) * scale <= 16384, Double(height) * scale <= 16384, Double(width) * scale >= 1, Double(height) * scale >= 1 else {
            throw ValidationError("--size × --scale must be 1…16384 pixels on each side")
        }
        if fit && (center != nil || zoom != nil) { throw ValidationError("--fit cannot be combined with --center or --zoom") }
        if (center == nil) != (zoom == nil) { throw ValidationError("--center and --zoom go together") }
        if center != nil && parsedCenter == nil {
            throw ValidationError("--center must be LAT,LON in degrees, latitude -90…90 and longitude -180…180")
        }
        if let zoom, !(0...24).contains(zoom) { throw ValidationError("--zoom must be 0…24") }
        guard bearing.isFinite else { throw ValidationError("--bearing must be a number of degrees") }
        guard padding.isFinite, padding >= 0 else { throw ValidationError("--padding must be 0 or more points") }
        if parsedBackground == nil { throw ValidationError("--background must be #rrggbb, #rrggbbaa or none") }
        if resolvedFormat == nil {
            throw ValidationError("cannot tell the output format of '\(output)'; name it .png or .svg, or give --format")
        }
    }

    private var parsedSize: (Int, Int)? {
        let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    private var parsedCenter: Coordinate? {
        guard let center else { return nil }
        let parts = center.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let latitude = Double(parts[0].filter { $0 != " " }),
              let longitude = Double(parts[1].filter { $0 != " " }),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// nil means invalid; .some(nil) transparent.
    private var parsedBackground: RGBAColor?? {
        if background == "none" { return .some(nil) }
        return RGBAColor(hex: background).map { .some($0) }
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
            let styleSheet = try style.map { try StyleSheet(path: $0) } ?? StyleSheet()
            let (width, height) = parsedSize!
            var options = RenderOptions(width: width, height: height, scale: scale, bearing: bearing,
                                        background: parsedBackground!, styleSheet: styleSheet)
            if let center = parsedCenter, let zoom {
                options.camera = .centered(center, zoom: zoom)
            } else {
                options.camera = .fit(padding: padding)
            }
            var (_, reader) = try inputOptions.openReader()
            var builder: SnapshotBuilder
            if case .centered = options.camera {
                // A known camera: draw each feature as it is read, keeping only its marks.
                builder = SnapshotBuilder(camera: options.resolveCamera(for: [Feature]()), options: options)
                while let feature = try reader.next() {
                    reader.takeWarnings().forEach(Report.diagnostic)
                    if let warning = PolarLatitudes.warning(for: feature) { Report.diagnostic(warning) }
                    builder.add(feature)
                }
            } else {
                // Fitting needs every feature's extent before the first is drawn.
                var features = [Feature]()
                while let feature = try reader.next() {
                    reader.takeWarnings().forEach(Report.diagnostic)
                    if let warning = PolarLatitudes.warning(for: feature) { Report.diagnostic(warning) }
                    features.append(feature)
                }
                builder = SnapshotBuilder(camera: options.resolveCamera(for: features), options: options)
                for feature in features { builder.add(feature) }
            }
            reader.takeWarnings().forEach(Report.diagnostic)
            let snapshot = builder.finish()
            let bytes = resolvedFormat! == .png ? try snapshot.png() : snapshot.svg()
            try byteOutput.write(bytes)
            try byteOutput.commit()
            let camera = snapshot.camera
            if builder.featureCount == 0 {
                Report.diagnostic(Diagnostic(.warning, code: "render.empty", message: "the input has no features; the image is blank"))
            }
            Report.standardError("rendered \(builder.drawnFeatureCount) of \(builder.featureCount) features, "
                + "\(snapshot.pixelWidth)×\(snapshot.pixelHeight) px, zoom \(rounded(camera.zoom)), "
                + "center \(rounded(camera.center.latitude)),\(rounded(camera.center.longitude)), "
                + "bearing \(rounded(camera.bearing))\n")
        }
    }

    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
