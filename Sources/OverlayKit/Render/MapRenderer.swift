import OverlayModel

/// `overlaykit render` as one call: options in, a picture written and a report out.
///
/// ```swift
/// var source = FileRenderSource(path: "Examples/parks.geojson")
/// let output = try ByteOutput(path: "parks.png", replaceExisting: true)
/// let report = try MapRenderer(options: RenderOptions(width: 800, height: 500), format: .png)
///     .render(&source, to: output)
/// ```
///
/// The options are checked first (`RenderOptions.validate()`). A fitted camera reads the source
/// once to measure the extent (`FitExtent`, bounded memory) and refuses a fit that would need a
/// zoom below −1 (`RenderOptions.minimumFitZoom`; `render.view-too-small`); then the source is read again and every feature is
/// drawn as it arrives (`SnapshotStream`), so memory follows the picture, not the input — one
/// feature at a time, the kept `aboveLabels` marks and the annotation layout (bounded by the
/// picture). A GeoJSON text sequence file is read in parts on every core in both passes: the
/// extent pass reads shapes only, and the drawing pass marks each part on its own thread with
/// no feature handed between threads (`ParallelDrawing`; not when points are clustered).
/// Time follows what is drawn: features outside the view are culled by their bounds
/// before anything else, geometry is simplified for the zoom and decimated to the pixel, pins
/// of one look in one pixel are drawn once, and a label is shaped only when it may fit.
public struct MapRenderer {
    /// What the picture looks like.
    public var options: RenderOptions
    /// PNG or SVG.
    public var format: SnapshotStream.Format

    /// A renderer with these options, writing `format`.
    public init(options: RenderOptions = RenderOptions(), format: SnapshotStream.Format = .png) {
        self.options = options
        self.format = format
    }

    /// Draws the source's features into `output` and commits it (the caller abandons it on a
    /// thrown error, so no half picture is left). SVG written to standard output is kept until
    /// the end, so a bad feature half way leaves nothing half-written in a pipe.
    /// - Parameters:
    ///   - source: the features to draw (read twice when the view is fitted: once to measure, once to draw).
    ///   - output: where the picture goes.
    ///   - onWarning: the input's warnings (and `geometry.polar-latitude`), as they are
    ///     read in the drawing pass.
    /// - Returns: the camera, the size and what became of every feature and point; its
    ///   `diagnostics` hold `render.empty` for an input without features.
    /// - Throws: `Diagnostic` `render.bad-option` or `render.view-too-small` (usage, before any
    ///   drawing), the input's errors, `render.cairo-failed`, or the output's write errors.
    public func render(_ source: inout some RenderSource, to output: ByteOutput,
                       onWarning: (Diagnostic) -> Void = { _ in }) throws -> RenderReport {
        try options.validate()
        let camera = try self.camera(for: &source)
        let heldOutput = format == .svg && output.path == nil ? ByteOutput() : nil
        var stream = try SnapshotStream(camera: camera, options: options, format: format, output: heldOutput ?? output)
        if stream.canDrawInParts, var file = source as? FileRenderSource, let (input, parts) = try file.sequenceParts() {
            // A sequence file: its parts are read and marked on every core, no feature handed over.
            try ParallelDrawing.draw(input, parts: parts, into: &stream, onWarning: onWarning)
        } else {
            // Parsing (most of the time) runs on a second core while this one draws.
            var reader = try ReadAheadFeatureReader.whenUseful(try source.features(for: RenderView(camera: camera, options: options)))
            while let feature = try reader.next() {
                reader.takeWarnings().forEach(onWarning)
                if let warning = PolarLatitudes.warning(for: feature) { onWarning(warning) }
                // Handed over, not copied: the stream may then reuse a long line's vertices.
                try stream.add(consume feature)
            }
            reader.takeWarnings().forEach(onWarning)
        }
        try stream.finish()
        if let heldOutput { try output.write(heldOutput.bytes) }
        try output.commit()
        var report = RenderReport(camera: camera, pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
                                  features: stream.featureCounts, annotations: stream.annotationCounts)
        if report.features.read == 0 {
            report.diagnostics.append(Diagnostic(.warning, code: .renderEmpty, message: "the input has no features; the image is blank"))
        }
        return report
    }

    /// The camera: as given, or fitted to the source's extent (`RenderSource.extent()`).
    /// - Throws: `render.view-too-small` when the fit needs a zoom below −1; the source's errors.
    public func camera(for source: inout some RenderSource) throws -> RenderCamera {
        guard case .fit(let padding) = options.camera else { return options.resolveCamera(fitting: .null) }
        let camera = options.resolveCamera(fitting: try source.extent())
        if let problem = RenderOptions.fitProblem(camera, width: options.width, height: options.height, padding: padding) {
            throw Diagnostic(.error, code: .renderViewTooSmall, message: problem)
        }
        return camera
    }
}
