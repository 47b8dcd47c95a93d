import OverlayModel

/// The view a render draws: its camera, its size and the map rect it shows, handed to a
/// `RenderSource` so that it can leave out what the view cannot show.
public struct RenderView: Sendable {
    /// The camera, fitted or given.
    public let camera: RenderCamera
    /// The picture's width in device pixels.
    public let pixelWidth: Int
    /// The picture's height in device pixels.
    public let pixelHeight: Int
    /// The axis-aligned map rect the picture shows (larger than the viewport when turned or
    /// pitched; it may extend past the world's edges, where copies of the world are drawn).
    public let visibleMapRect: MapRect

    /// The view of `camera` with the size and scale of `options`.
    public init(camera: RenderCamera, options: RenderOptions) {
        self.camera = camera
        pixelWidth = options.pixelWidth
        pixelHeight = options.pixelHeight
        visibleMapRect = ScreenTransform(camera: camera, pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
                                         scale: options.scale).visibleMapRect
    }
}

/// Where `MapRenderer` reads features from. A fitted render reads its source twice — once to
/// measure the extent to fit, once to draw — so that memory follows the picture, not the input;
/// a render with a given camera reads it once.
///
/// A file is `FileRenderSource`; features in memory are `FeatureArraySource`. A source of
/// another kind (a tile set, a database) conforms by returning a `FeatureReader` over its
/// features for a view — for example the decoded tiles that cover `view.visibleMapRect` at
/// the zoom nearest `view.camera.zoom` — and, when it knows its bounds without reading (a tile
/// set's metadata), by returning them from `extent()` so that fitting costs no pass.
public protocol RenderSource {
    /// The extent to fit, in map points (it may run past the world's east edge, as `FitExtent`
    /// gives it; `MapRect.null` when there is nothing). The default reads one pass of
    /// `features(for: nil)` into a `FitExtent`.
    mutating func extent() throws -> MapRect

    /// A new pass over the features, from the first. `view` is nil for the pass that measures
    /// the extent to fit (only shapes matter; its warnings are dropped, since the drawing pass
    /// reads the same features again), else the view the features are drawn in: a source may
    /// leave out what the view cannot show (the renderer culls the rest by their bounds).
    mutating func features(for view: RenderView?) throws -> any FeatureReader
}

extension RenderSource {
    /// The extent measured by one pass over the features (their warnings are dropped: the
    /// drawing pass reads the same features again and reports them).
    public mutating func extent() throws -> MapRect {
        var reader = try features(for: nil)
        return try FitExtent.measuring(&reader).mapRect
    }
}

/// A GeoJSON, GeoJSONSeq, KML or KMZ file, or standard input, read again for each pass.
/// Standard input cannot be read twice: the pass that measures the extent copies it to an
/// unnamed temporary file (in `$TMPDIR`) as it reads, and the drawing pass reads that, so a
/// fitted render of standard input needs disk for the input but memory only for the picture.
public struct FileRenderSource: RenderSource {
    /// The file; nil or "-" for standard input.
    public let path: String?
    /// The format, when the extension and the first bytes should not decide.
    public var format: FileFormat?
    /// Limits on KMZ entries (zip bombs).
    public var kmzLimits: KMZ.Limits
    /// The GeoParquet geometry column to read instead of the primary one.
    public var geometryColumn: String?
    private var spool: TemporaryFile?
    /// The smallest part of a file worth a thread of its own (smaller in tests).
    var minimumPartBytes = FileRenderSource.defaultMinimumPartBytes
    /// Parts to cut a sequence file into: the usable cores (more in tests).
    var partCount = ReadAheadFeatureReader.usableCores

    /// A source reading `path` (nil or "-": standard input).
    public init(path: String?, format: FileFormat? = nil, kmzLimits: KMZ.Limits = KMZ.Limits()) {
        self.path = path
        self.format = format
        self.kmzLimits = kmzLimits
    }

    private var isStandardInput: Bool { path == nil || path == "-" }

    /// The extent to fit. A GeoJSON text sequence file of at least two `minimumPartBytes` is
    /// measured in parts on as many threads as there are cores (each part a `FitExtent`,
    /// merged); anything else, or a part that fails, is measured by one reader, so an error is
    /// reported exactly as one reader finds it.
    /// - Throws: the reader's errors; `io.thread-failed`.
    public mutating func extent() throws -> MapRect {
        if let (file, parts) = try sequenceParts(), let extent = try ParallelExtent.measure(file, parts: parts) {
            return extent
        }
        var reader = try features(for: nil)
        return try FitExtent.measuring(&reader).mapRect
    }

    /// A GeoJSON text sequence file of at least two `minimumPartBytes` cut at record boundaries
    /// into as many parts as there are cores, for passes side by side; nil for anything else
    /// (one core, standard input, another format, a file that does not split).
    /// - Throws: `Diagnostic` `io.read-failed` looking for cuts, or the reader's errors about the
    ///   first bytes.
    mutating func sequenceParts() throws -> (file: ByteInput, parts: [Range<Int>])? {
        guard partCount > 1, !isStandardInput, let file = try features(for: nil).sliceableFile,
              let size = file.expectedSize, size >= 2 * minimumPartBytes
        else { return nil }
        let parts = try SequenceRecordBoundaries.ranges(of: file, size: size, parts: partCount, minimumBytes: minimumPartBytes)
        return parts.count > 1 ? (file, parts) : nil
    }

    /// The smallest part of a file worth a thread of its own.
    static let defaultMinimumPartBytes = 4 << 20

    /// A reader from the start of the file (or of standard input's copy).
    /// - Throws: `Diagnostic` `io.open-failed`, `io.read-failed`, `io.create-failed` (no room
    ///   for standard input's copy), or the reader's errors about the first bytes.
    public mutating func features(for view: RenderView?) throws -> any FeatureReader {
        guard isStandardInput else {
            var reader = try FeatureIO.reader(for: ByteInput(path: path), format: format, kmzLimits: kmzLimits, geometryColumn: geometryColumn)
            // Measuring: only shapes matter, and the drawing pass reads everything in full.
            if view == nil { reader.readShapesOnly() }
            return reader
        }
        if view == nil && spool == nil { spool = try FileRenderSource.copyStandardInput() }
        let input = try spool.map { try ByteInput(path: $0.descriptorPath, name: nil) } ?? ByteInput(path: nil)
        return try FeatureIO.reader(for: input, format: format, kmzLimits: kmzLimits, geometryColumn: geometryColumn)
    }

    /// Standard input, copied to an unnamed temporary file.
    private static func copyStandardInput() throws -> TemporaryFile {
        let input = try ByteInput(path: nil)
        let file = try TemporaryFile()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try input.read(into: chunk)
            if count == 0 { return file }
            try file.write(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }
}

/// Features already in memory, drawn as they are.
public struct FeatureArraySource: RenderSource {
    /// The features, in drawing order.
    public var features: [Feature]

    /// A source of `features`.
    public init(_ features: [Feature]) {
        self.features = features
    }

    /// A reader over the features (every pass sees them all).
    public mutating func features(for view: RenderView?) throws -> any FeatureReader {
        FeatureArrayReader(features: features)
    }
}
