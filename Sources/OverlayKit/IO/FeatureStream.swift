import OverlayModel

/// A parser that hands out one feature at a time, so inputs of any size stream through.
public protocol FeatureReader {
    /// The next feature, or nil at the end of input.
    /// - Throws: a `Diagnostic` with the location of the first error.
    mutating func next() throws -> Feature?
    /// Warnings found since the last call; the caller decides where they go.
    mutating func takeWarnings() -> [Diagnostic]
    /// What the document holds besides features (a KMZ's files, a collection's members);
    /// complete once ``next()`` has returned nil.
    var documentContext: DocumentContext { get }
    /// How far the reader is through its input's bytes, for progress lines; nil when it does not
    /// say (a default).
    var readPosition: ReadPosition? { get }
    /// The input file, while nothing of it has been read, when its records can be read in byte
    /// slices by readers of their own (`ByteInput.slice(_:)`, cut at record boundaries by
    /// `SequenceRecordBoundaries`): GeoJSON text sequences, for reading on several threads,
    /// sampling and sizing temporary space. Nil for every other reader (a default).
    var sliceableFile: ByteInput? { get }
    /// About how many bytes the features still to be read would take as GeoJSON text, known
    /// before they are read; nil when it cannot be known (standard input). `tile` compares it
    /// with its automatic feature store's threshold and sizes temporary space by it, so the same
    /// features take the same store whatever format carries them (a compressed columnar file is
    /// a fraction of its features' text). By default the input's size (``readPosition``'s total).
    var featureTextBytes: Int? { get }
    /// Whether the reader decodes parts of its input side by side itself (GeoParquet row groups
    /// on worker threads), so a read-ahead thread around it adds nothing; false by default.
    var decodesPartsInParallel: Bool { get }
    /// Reads only what each feature's shape needs from here on (no properties), where the
    /// format lets it skip them: for passes that only measure. A no-op by default.
    mutating func readShapesOnly()
    /// Reads what ``next()`` has not yet returned in parts: `transform` makes something of each
    /// part's features (on the reader's worker threads where ``decodesPartsInParallel``, so
    /// features never cross threads), and `consume` takes each result in input order on the
    /// caller's thread. The results are what transforming the features ``next()`` returns,
    /// part by part, would give. The default hands parts of 1,024 features read by ``next()``.
    /// - Throws: what reading throws (where ``next()`` would), or what `consume` throws.
    mutating func forEachPart<Part: Sendable>(_ transform: @escaping @Sendable ([Feature]) -> Part,
                                              consume: (Part) throws -> Void) throws
}

/// A serializer that takes one feature at a time.
public protocol FeatureWriter {
    /// Writes one feature (or warns, through ``takeWarnings()``, about what the format cannot hold).
    mutating func write(_ feature: Feature) throws
    /// Writes whatever closes the document (e.g. `]}` or `</kml>`) and flushes.
    mutating func finish() throws
    /// Warnings about what the format could not hold, since the last call.
    mutating func takeWarnings() -> [Diagnostic]
    /// Keeps what a reader's ``FeatureReader/documentContext`` holds where the format has a
    /// place for it; call once, before ``finish()``. Returns a warning naming each part it
    /// drops (a KMZ file, a collection member): every writer must say, there is no default.
    mutating func carry(_ context: DocumentContext) -> [Diagnostic]
}

extension FeatureReader {
    /// By default the reader does not say.
    public var readPosition: ReadPosition? { nil }

    /// By default the input cannot be read in slices.
    public var sliceableFile: ByteInput? { nil }

    /// By default the input's size, as its text is about its features' text.
    public var featureTextBytes: Int? { readPosition?.totalBytes }

    /// By default a reader decodes on the caller's thread.
    public var decodesPartsInParallel: Bool { false }

    /// By default every feature is read whole.
    public mutating func readShapesOnly() {}

    /// Parts of 1,024 features read by ``next()`` (fewer once they hold 65,536 vertices, so that
    /// a file of a few huge features is transformed while the later ones are read, not after),
    /// transformed and consumed on the caller's thread.
    public mutating func forEachPart<Part: Sendable>(_ transform: @escaping @Sendable ([Feature]) -> Part,
                                                     consume: (Part) throws -> Void) throws {
        var part = [Feature]()
        part.reserveCapacity(1024)
        var vertices = 0
        while let feature = try next() {
            part.append(feature)
            vertices += feature.shape?.vertexCount ?? 0
            if part.count == 1024 || vertices >= 1 << 16 {
                try consume(transform(part))
                part.removeAll(keepingCapacity: true)
                vertices = 0
            }
        }
        if !part.isEmpty { try consume(transform(part)) }
    }

    /// Reads every remaining feature into an array (for stages that need them all).
    public mutating func readAll() throws -> [Feature] {
        var features = [Feature]()
        while let feature = try next() { features.append(feature) }
        return features
    }
}

/// Options every writer understands.
public struct WriterOptions: Sendable {
    /// Decimal places for coordinates (degrees). Numbers are written with the fewest digits that
    /// round-trip, capped at this many decimals.
    public var precision: Int
    /// A name for the document or layer (KML `Document/name`, MVT layer).
    public var name: String?
    /// How a GeoParquet file is laid out (other writers ignore it).
    public var geoParquet: GeoParquetWriteOptions

    /// Options with the given precision and name.
    /// - Parameters:
    ///   - precision: decimal places for coordinates in text formats.
    ///   - name: a name for the document or layer.
    ///   - geoParquet: how a GeoParquet file is laid out.
    public init(precision: Int = 7, name: String? = nil, geoParquet: GeoParquetWriteOptions = GeoParquetWriteOptions()) {
        self.precision = precision
        self.name = name
        self.geoParquet = geoParquet
    }
}
