/// What a tile encoding could not hold (MVT: ids that are not unsigned integers, null values,
/// objects and arrays), counted so the caller can say so.
public struct TileEncodingLosses: Hashable, Sendable, Codable {
    /// Feature ids that are not unsigned integers (MVT ids are uint64): not written.
    public var idsNotWritten = 0
    /// Properties whose value is null (MVT has no null): not written.
    public var nullValuesNotWritten = 0
    /// Properties whose value is an object or array, written as JSON text.
    public var valuesWrittenAsJSON = 0

    /// Nothing lost yet.
    public init() {}

    /// Adds another tile's losses.
    public static func += (a: inout TileEncodingLosses, b: TileEncodingLosses) {
        a.idsNotWritten += b.idsNotWritten
        a.nullValuesNotWritten += b.nullValuesNotWritten
        a.valuesWrittenAsJSON += b.valuesWrittenAsJSON
    }
}
