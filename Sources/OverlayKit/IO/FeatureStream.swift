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
