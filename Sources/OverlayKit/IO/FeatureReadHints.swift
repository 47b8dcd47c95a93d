/// What a command will do with the features it reads, so a reader may skip work: the part of
/// the world it looks at, the properties it uses, and the threads it may decode on. Hints never
/// change a feature a reader returns, only which features and properties it may leave out; a
/// reader that cannot use a hint ignores it (GeoJSON and KML readers ignore them all).
///
/// ```swift
/// var hints = FeatureReadHints()
/// hints.extent = try GeographicBox(west: 10, south: 59, east: 11, north: 60)
/// var reader = try FeatureIO.reader(for: ByteInput(path: "buildings.parquet"), geometryColumn: nil, hints: hints)
/// // the caller still tests every feature against the box: row groups were skipped, not features
/// ```
public struct FeatureReadHints: Sendable, Equatable {
    /// Features whose geometry does not meet this box (edges count, in map points as
    /// ``GeographicBox/intersects(_:)`` tests) may be left out. The caller still tests each
    /// feature it is given: a reader skips whole blocks (GeoParquet row groups), not features.
    public var extent: GeographicBox?
    /// The only top-level properties the caller uses (nil: all). A reader may leave the others
    /// out of every feature; those it returns are unchanged and in their order.
    public var properties: Set<String>?
    /// How many threads a reader may decode on (1: the calling thread only). The features and
    /// their order are the same whatever the count.
    public var threads: Int

    /// No hint: every feature and property, read on the calling thread.
    /// - Parameters:
    ///   - extent: the box outside which features may be left out (nil: none are).
    ///   - properties: the properties the caller uses (nil: all).
    ///   - threads: the threads a reader may decode on (values below 1 count as 1).
    public init(extent: GeographicBox? = nil, properties: Set<String>? = nil, threads: Int = 1) {
        self.extent = extent
        self.properties = properties
        self.threads = max(1, threads)
    }
}
