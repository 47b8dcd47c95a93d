/// One leaf column as the writer lays it out: where it sits in the schema, its physical type
/// and its level bounds.
struct ParquetLeafColumn: Sendable {
    /// The names from the root's child to the leaf (`["bbox", "xmin"]`).
    var path: [String]
    /// The physical type of its values.
    var physicalType: ParquetPhysicalType
    /// The highest definition level (0 for a required column at the top).
    var maxDefinition: Int
    /// The highest repetition level (0 outside lists).
    var maxRepetition: Int
    /// Whether the chunk's statistics carry min/max (numbers only: readers skip row groups by them).
    var hasMinMax: Bool
}
