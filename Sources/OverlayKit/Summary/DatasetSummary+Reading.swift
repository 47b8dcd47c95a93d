import OverlayModel

extension DatasetSummary {
    /// The summary of everything `reader` has left, as `overlaykit info` prints it: each part of
    /// the input summarized where the reader decodes it (GeoParquet row groups on their worker
    /// threads, or parts read ahead on a second core) and the parts merged in order, which gives
    /// exactly the summary of one pass (``merge(_:)``).
    /// - Parameters:
    ///   - reader: any feature reader, not yet read or part-read.
    ///   - onWarning: each warning, in input order: features beyond the Mercator latitudes,
    ///     then what the reader itself reports.
    /// - Throws: what reading throws, as ``FeatureReader/next()`` would; `Diagnostic`
    ///   `io.thread-failed` when no thread can be started.
    public static func summarizing(_ reader: any FeatureReader, onWarning: (Diagnostic) -> Void) throws -> DatasetSummary {
        var reader = reader.decodesPartsInParallel ? reader : try ReadAheadFeatureReader.whenUseful(reader)
        var summary = DatasetSummary()
        try reader.forEachPart({ (features: [Feature]) -> (summary: DatasetSummary, warnings: [Diagnostic]) in
            var part = DatasetSummary()
            var warnings: [Diagnostic] = []
            for feature in features {
                if let warning = PolarLatitudes.warning(for: feature) { warnings.append(warning) }
                part.add(feature)
            }
            return (part, warnings)
        }, consume: { (part: (summary: DatasetSummary, warnings: [Diagnostic])) in
            part.warnings.forEach(onWarning)
            summary.merge(part.summary)
        })
        reader.takeWarnings().forEach(onWarning)
        return summary
    }
}
