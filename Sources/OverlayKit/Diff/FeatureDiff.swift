import OverlayModel

/// `overlaykit diff` on feature files as one call: which features were added, removed,
/// modified or moved between an old and a new version, in any mix of GeoJSON, GeoJSONSeq, KML
/// and KMZ.
///
/// Streamed in three passes: the old version is indexed by identity and part hashes only
/// (`OldVersionIndex`); the new version is read and matched against it, keeping only the new
/// features that differ; the old version is read once more for the removed features and the
/// old side of the differing ones. Memory is the index plus the changed features, whatever the
/// file size; the old input must be a file (it is read twice).
public enum FeatureDiff {
    /// Compares the files at `oldPath` and `newPath` (`newPath` may be "-", standard input).
    /// - Parameters:
    ///   - oldPath: the old version: a file (it is read twice).
    ///   - newPath: the new version, or "-" for standard input.
    ///   - options: identity, rounding, tolerance and the formats to read.
    ///   - warning: receives each reader warning of the first read of either input.
    /// - Throws: `Diagnostic`: `diff.bad-option` (64) for an option out of range or the old
    ///   version on standard input, the readers' errors (65 bad data, 74 I/O).
    public static func compare(oldPath: String, newPath: String, options: DiffOptions = DiffOptions(),
                               warning: (Diagnostic) -> Void = { _ in }) throws -> DiffResult {
        let options = try options.validated()
        guard oldPath != "-" else {
            throw Diagnostic(.error, code: .diffBadOption,
                             message: "the old version must be a file (it is read twice); only the new one may be standard input")
        }
        var index = OldVersionIndex()
        var summary = DiffSummary()
        var reader = try openReader(oldPath, format: options.oldFormat, options: options)
        while let feature = try reader.next() {
            reader.takeWarnings().forEach(warning)
            index.add(ComparableFeature(feature, options: options))
        }
        reader.takeWarnings().forEach(warning)
        summary.oldFeatures = index.count

        // The new version: matched one by one; only features that differ are kept.
        var located: [(ordinal: Int, change: FeatureChange)] = []
        var pending: [Int: (feature: Feature, ordinal: Int, label: String?)] = [:]
        var newReader = try openReader(newPath, format: options.newFormat, options: options)
        var newOrdinal = 0
        while let feature = try newReader.next() {
            newReader.takeWarnings().forEach(warning)
            let comparable = ComparableFeature(feature, options: options)
            switch index.match(comparable) {
            case .none:
                located.append((newOrdinal, FeatureChange(kind: .added, label: comparable.identity.label, old: nil, new: feature)))
            case .same:
                summary.unchanged += 1
            case .different(let oldOrdinal):
                pending[oldOrdinal] = (feature, newOrdinal, comparable.identity.label)
            }
            newOrdinal += 1
        }
        newReader.takeWarnings().forEach(warning)
        summary.newFeatures = newOrdinal

        // A new feature without id or key that matched nothing may be an old one edited: paired
        // by the same geometry or the same attributes, it is a modification.
        located.removeAll { entry in
            guard let feature = entry.change.new else { return false }
            guard let oldOrdinal = index.matchEdited(ComparableFeature(feature, options: options)) else { return false }
            pending[oldOrdinal] = (feature, entry.ordinal, nil)
            return true
        }

        // The old version again, for what was removed and the old side of what differs.
        var removed: [FeatureChange] = []
        let removedCount = index.matched.lazy.filter { !$0 }.count
        if removedCount > 0 || !pending.isEmpty {
            var again = try openReader(oldPath, format: options.oldFormat, options: options)
            var oldOrdinal = 0
            while oldOrdinal < index.count, let old = try again.next() {
                _ = again.takeWarnings()
                if !index.matched[oldOrdinal] {
                    removed.append(FeatureChange(kind: .removed, label: ComparableFeature(old, options: options).identity.label,
                                                 old: old, new: nil))
                } else if let counterpart = pending[oldOrdinal] {
                    if let change = FeatureComparison.change(label: counterpart.label, old: old, new: counterpart.feature, options: options) {
                        located.append((counterpart.ordinal, change))
                    } else {
                        summary.unchanged += 1  // moved no farther than the tolerance
                    }
                }
                oldOrdinal += 1
            }
        }
        located.sort { $0.ordinal < $1.ordinal }
        let changes = located.map(\.change) + removed
        for change in changes { summary.add(change.kind) }
        return DiffResult(oldName: oldPath, newName: newPath == "-" ? nil : newPath, changes: changes, summary: summary)
    }

    private static func openReader(_ path: String, format: FileFormat?, options: DiffOptions) throws -> any FeatureReader {
        // By path, so a folder of GeoParquet files reads as one data set.
        try FeatureIO.reader(atPath: path, format: format, kmzLimits: options.kmzLimits, geometryColumn: nil, hints: FeatureReadHints()).1
    }
}
