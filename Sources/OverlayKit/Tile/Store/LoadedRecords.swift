import OverlayModel

/// A subtree's records read into memory: its features (input positions and tags as the run
/// knows them) in the run's order, and their ids and properties, decoded once as they are read
/// (a subtree's large tiles are cut on several threads, which then only read them).
final class LoadedRecords: Sendable {
    private let decoded: [Int: TileAttributes]

    private init(decoded: [Int: TileAttributes]) { self.decoded = decoded }

    /// Reads every record of `runs`, in order; features without geometry are left out.
    /// - Throws: `io.read-failed` when a file cannot be read back.
    static func read(_ runs: [RecordRun]) throws -> ([ProjectedFeature], LoadedRecords) {
        var decoded = [Int: TileAttributes]()
        var features = [ProjectedFeature]()
        for run in runs {
            var reader = try RecordReader(run.file)
            while try reader.next({ (record: UnsafeRawBufferPointer) -> Void in
                var source = FeatureRecord.source(record)
                var tags = FeatureRecord.tags(record)
                if let fixup = run.fixup { (source, tags) = fixup.apply(source: source, tags: tags) }
                let (read, attributesAt) = FeatureRecord.feature(record)
                if decoded[source] == nil {
                    decoded[source] = AttributeCodec.attributes(record, at: attributesAt, source: source)
                }
                guard var feature = read else { return }
                feature.source = source
                feature.tags = tags
                features.append(feature)
            }) != nil {}
        }
        return (features, LoadedRecords(decoded: decoded))
    }

    /// The id and properties of the feature at input position `source`.
    func attributes(_ source: Int) -> TileAttributes {
        decoded[source] ?? TileAttributes(id: nil, properties: nil)
    }
}
