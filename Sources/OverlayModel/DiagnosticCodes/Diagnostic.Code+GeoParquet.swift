// GeoParquet input: the Parquet file, its `geo` metadata and its geometries.

extension Diagnostic.Code {
    /// `geoparquet.bad-file` (data): The file is not readable Parquet: a wrong magic, a truncated or corrupt footer, a length past the file, a page that does not decode or decompresses past its declared size, a dictionary index out of range.
    public static let geoparquetBadFile = Diagnostic.Code("geoparquet.bad-file", kind: .data)
    /// `geoparquet.bad-metadata` (data): The `geo` metadata is not valid JSON or lies: a column that is not there, an unknown encoding, no geometry column.
    public static let geoparquetBadMetadata = Diagnostic.Code("geoparquet.bad-metadata", kind: .data)
    /// `geoparquet.empty-folder` (data): A folder read as a (Hive-partitioned) GeoParquet data set holds no `.parquet` or `.geoparquet` file, or more files or deeper folders than are read.
    public static let geoparquetEmptyFolder = Diagnostic.Code("geoparquet.empty-folder", kind: .data)
    /// `geoparquet.geometry-column` (usage): `--geometry-column` names no geometry column of the file, or the input is not GeoParquet.
    public static let geoparquetGeometryColumn = Diagnostic.Code("geoparquet.geometry-column", kind: .usage)
    /// `geoparquet.invalid-geometry` (data): A geometry value is not valid WKB or GeoArrow (the message names the row group, column and row).
    public static let geoparquetInvalidGeometry = Diagnostic.Code("geoparquet.invalid-geometry", kind: .data)
    /// `geoparquet.unsupported-crs` (data): The geometry column's CRS is not longitude/latitude (OGC:CRS84, EPSG:4326); the message names it.
    public static let geoparquetUnsupportedCRS = Diagnostic.Code("geoparquet.unsupported-crs", kind: .data)

    /// The codes above, in order, for ``allDeclared``.
    static let geoparquetCodes: [Diagnostic.Code] = [
        .geoparquetBadFile,
        .geoparquetBadMetadata,
        .geoparquetEmptyFolder,
        .geoparquetGeometryColumn,
        .geoparquetInvalidGeometry,
        .geoparquetUnsupportedCRS,
    ]
}
