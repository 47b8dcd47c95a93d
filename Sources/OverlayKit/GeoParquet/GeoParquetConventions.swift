/// What overlaykit adds to a GeoParquet file beyond the specification, shared by the writer and
/// the reader: a key-value metadata entry naming the columns that hold each feature's id and
/// KML folder path, so KML → GeoParquet → KML keeps them (docs/geoparquet.md, "Writing").
enum GeoParquetConventions {
    /// The file metadata key: a JSON object with `id_column` and `folders_column`, each present
    /// when the file has that column, and `collection_members` (a FeatureCollection's members
    /// besides its features) when there are any, and `absent_when_null`: the property columns
    /// whose nulls stand for a key the feature did not have (no feature gave it an explicit
    /// null), which the reader leaves out instead of reading `null`.
    static let metadataKey = "overlaykit"
}
