/// How ``GeoParquetWriter`` lays out a file: the GeoParquet version, the page codec, the row
/// group bounds and the row order.
public struct GeoParquetWriteOptions: Sendable, Equatable {
    /// The GeoParquet version written.
    public enum Version: String, CaseIterable, Sendable {
        /// GeoParquet 1.1: WKB in a plain binary column, the `geo` metadata, a `bbox` covering column.
        case v1_1 = "1.1"
        /// As 1.1, plus Parquet's own GEOMETRY logical type and geospatial statistics
        /// (parquet-format 2.11), with `geo` metadata of version 2.0.0 as DuckDB writes it.
        case v2_0 = "2.0"
    }

    /// The page codec.
    public enum Compression: String, CaseIterable, Sendable {
        /// ZSTD at level 3.
        case zstd
        /// SNAPPY.
        case snappy
        /// GZIP (libdeflate, level 6).
        case gzip
        /// UNCOMPRESSED.
        case none
    }

    /// The order rows are written in.
    public enum Order: String, CaseIterable, Sendable {
        /// As the features came.
        case input
        /// By the Hilbert index of each geometry's box centre, so row groups are spatially
        /// compact (features without geometry last, ties in input order).
        case hilbert
    }

    /// The GeoParquet version (default 1.1).
    public var version: Version
    /// The page codec (default ZSTD).
    public var compression: Compression
    /// The most rows in one row group (default 65,536).
    public var rowGroupRows: Int
    /// The most bytes (values before compression) one row group holds before it is written
    /// (default 128 MiB): with ``rowGroupRows``, what bounds the writer's memory.
    public var rowGroupBytes: Int
    /// The row order (default input order).
    public var order: Order

    /// Options with the given settings.
    /// - Parameters:
    ///   - version: the GeoParquet version.
    ///   - compression: the page codec.
    ///   - rowGroupRows: the most rows in one row group (at least 1).
    ///   - rowGroupBytes: the most value bytes one row group holds before it is written.
    ///   - order: the row order.
    public init(version: Version = .v1_1, compression: Compression = .zstd, rowGroupRows: Int = 65_536,
                rowGroupBytes: Int = 128 << 20, order: Order = .input) {
        self.version = version
        self.compression = compression
        self.rowGroupRows = max(1, rowGroupRows)
        self.rowGroupBytes = max(1, rowGroupBytes)
        self.order = order
    }

    /// Parquet's codec for ``compression``.
    var codec: ParquetCodec {
        switch compression {
        case .zstd: .zstd
        case .snappy: .snappy
        case .gzip: .gzip
        case .none: .uncompressed
        }
    }
}
