import OverlayModel

/// A subtree's records read into memory: its features (input positions and tags as the run
/// knows them) in the run's order, and their ids and properties as the records encode them,
/// decoded each time a tile draws the feature.
///
/// Kept encoded, a feature's attributes take a fifth of the memory their decoded form does
/// (and a subtree is most of a disk run's memory); decoding them is a small part of drawing a
/// feature. Nothing is cached, so a subtree's large tiles are cut on several threads that only
/// read it.
final class LoadedRecords: Sendable {
    /// Every feature's encoded attributes, one after another.
    private let bytes: [UInt8]
    /// By ascending input position: where its attributes start in `bytes` (they run to the
    /// next entry's start, or the end).
    private let positions: [Int]
    private let starts: [Int]

    private init(bytes: [UInt8], positions: [Int], starts: [Int]) {
        self.bytes = bytes
        self.positions = positions
        self.starts = starts
    }

    /// Reads every record of `runs`, in order; features without geometry are left out.
    /// - Throws: `io.read-failed` when a file cannot be read back.
    static func read(_ runs: [RecordRun]) throws -> ([ProjectedFeature], LoadedRecords) {
        var bytes = [UInt8]()
        var entries = [(position: Int, start: Int, end: Int)]()
        var features = [ProjectedFeature]()
        var lastPosition = Int.min
        for run in runs {
            var reader = try RecordReader(run.file)
            while try reader.next({ (record: UnsafeRawBufferPointer) -> Void in
                var source = FeatureRecord.source(record)
                var tags = FeatureRecord.tags(record)
                if let fixup = run.fixup { (source, tags) = fixup.apply(source: source, tags: tags) }
                let (read, attributesAt) = FeatureRecord.feature(record)
                // A feature's pieces and copies carry the same attributes: kept once (pieces
                // follow each other; copies across the antimeridian are found by the sort below).
                if source != lastPosition {
                    let start = bytes.count
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: record[attributesAt...]))
                    entries.append((source, start, bytes.count))
                    lastPosition = source
                }
                guard var feature = read else { return }
                feature.source = source
                feature.tags = tags
                features.append(feature)
            }) != nil {}
        }
        // Usually in order already (one run, no copies): kept as read.
        if zip(entries, entries.dropFirst()).allSatisfy({ $0.position < $1.position }) {
            return (features, LoadedRecords(bytes: bytes, positions: entries.map(\.position), starts: entries.map(\.start)))
        }
        // By position, the first of each (a copy's attributes are the feature's).
        entries.sort { $0.position != $1.position ? $0.position < $1.position : $0.start < $1.start }
        var positions = [Int](), starts = [Int](), packed = [UInt8]()
        positions.reserveCapacity(entries.count)
        starts.reserveCapacity(entries.count)
        packed.reserveCapacity(bytes.count)
        for entry in entries where positions.last != entry.position {
            positions.append(entry.position)
            starts.append(packed.count)
            packed += bytes[entry.start..<entry.end]
        }
        return (features, LoadedRecords(bytes: packed, positions: positions, starts: starts))
    }

    /// The id and properties of the feature at input position `source`.
    func attributes(_ source: Int) -> TileAttributes {
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < source { low = middle + 1 } else { high = middle }
        }
        guard low < positions.count, positions[low] == source else { return TileAttributes(id: nil, properties: nil) }
        let end = low + 1 < starts.count ? starts[low + 1] : bytes.count
        return bytes.withUnsafeBytes { buffer in
            AttributeCodec.attributes(UnsafeRawBufferPointer(rebasing: buffer[starts[low]..<end]), at: 0, source: source)
        }
    }
}
