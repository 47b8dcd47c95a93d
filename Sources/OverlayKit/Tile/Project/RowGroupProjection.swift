import OverlayModel

/// Projects an input whose reader decodes its parts side by side (GeoParquet row groups, on the
/// reader's worker threads: ``FeatureReader/forEachPart(_:consume:)``): each part's features are decoded, projected into
/// a projection of their own and encoded for MVT (``MVTPropertyTable``) on the thread that
/// decoded them, and the parts are joined in row-group order, as `ParallelSequenceProjection`
/// joins a GeoJSON text sequence's parts. The calling thread then only appends: reading a
/// GeoParquet file no longer projects every feature on one thread while the others wait.
///
/// The result is what one thread gives, byte for byte (`FeatureProjection.append` moves source
/// indices and generated ids past the earlier parts, the tables join as one table of the whole
/// input would be numbered); warnings come in input order, and the first error is thrown after
/// the warnings of the features before it.
enum RowGroupProjection {
    /// What one row group gave. `@unchecked Sendable`: made on the worker that decoded the row
    /// group, handed over once through the reader's ordered queue, then used by the caller alone.
    final class Part: @unchecked Sendable {
        var projection: FeatureProjection?
        var table = MVTPropertyTable([])
        var warnings = [Diagnostic]()
        var features = 0
        var error: (any Error)?
    }

    /// Reads and projects the rest of `reader`.
    /// - Parameters:
    ///   - onFeatures: the features read so far, after each row group.
    ///   - onWarning: every warning, in input order.
    /// - Returns: the projection of the whole input, and its property table.
    /// - Throws: the first error in input order (the reader's, or projecting a feature's).
    static func project(_ reader: inout some FeatureReader, options: TileOptions, diskFolder: String?,
                        onFeatures: ((Int) -> Void)? = nil,
                        onWarning: (Diagnostic) -> Void) throws -> (FeatureProjection, MVTPropertyTable) {
        var merged = try FeatureProjection(options: options, diskFolder: diskFolder)
        var tables = [MVTPropertyTable]()
        var features = 0
        try reader.forEachPart({ rowGroup -> Part in
            let part = Part()
            do {
                var projection = try FeatureProjection(options: options, diskFolder: diskFolder)
                for feature in rowGroup {
                    if let warning = PolarLatitudes.warning(for: feature) { part.warnings.append(warning) }
                    try projection.add(feature)
                }
                part.features = rowGroup.count
                part.table = MVTPropertyTable(projection.attributes)
                part.projection = projection
            } catch {
                part.error = error
            }
            return part
        }, consume: { part in
            part.warnings.forEach(onWarning)
            if let error = part.error { throw error }
            guard let projection = part.projection else { return }
            merged.append(projection)
            tables.append(part.table)
            features += part.features
            onFeatures?(features)
        })
        reader.takeWarnings().forEach(onWarning)
        return (merged, MVTPropertyTable(joining: tables))
    }
}
