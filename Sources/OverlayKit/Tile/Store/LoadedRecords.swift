import OverlayModel

/// A subtree's records read into memory: its features (input positions and tags as the run
/// knows them) in the run's order, and their ids and properties, decoded when a tile first asks
/// for them. One subtree is walked on one thread.
final class LoadedRecords {
    /// The attribute bytes of every feature, one after another, and where each input
    /// position's start.
    private var bytes = [UInt8]()
    private var starts = [Int: Int]()
    private var decoded = [Int: TileAttributes]()

    /// Reads every record of `runs`, in order; features without geometry are left out.
    /// - Throws: `io.read-failed` when a file cannot be read back.
    static func read(_ runs: [RecordRun]) throws -> ([ProjectedFeature], LoadedRecords) {
        let loaded = LoadedRecords()
        var features = [ProjectedFeature]()
        for run in runs {
            var reader = try RecordReader(run.file)
            while try reader.next({ (record: UnsafeRawBufferPointer) -> Void in
                var source = FeatureRecord.source(record)
                var tags = FeatureRecord.tags(record)
                if let fixup = run.fixup { (source, tags) = fixup.apply(source: source, tags: tags) }
                let (read, attributesAt) = FeatureRecord.feature(record)
                if loaded.starts[source] == nil {
                    loaded.starts[source] = loaded.bytes.count
                    loaded.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: record[attributesAt...]))
                }
                guard var feature = read else { return }
                feature.source = source
                feature.tags = tags
                features.append(feature)
            }) != nil {}
        }
        return (features, loaded)
    }

    /// The id and properties of the feature at input position `source`.
    func attributes(_ source: Int) -> TileAttributes {
        if let known = decoded[source] { return known }
        guard let start = starts[source] else { return TileAttributes(id: nil, properties: nil) }
        let attributes = bytes.withUnsafeBytes { AttributeCodec.attributes($0, at: start, source: source) }
        decoded[source] = attributes
        return attributes
    }
}
