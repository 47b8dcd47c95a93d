import OverlayModel

/// One stored feature (or piece of one) as the pyramid reads it while it cuts a tile too big to
/// hold: what a record says without being decoded (type and bounds, input position, tags, place
/// in the run's order, anchor), the feature decoded when it is drawn or clipped, and its id and
/// properties kept as stored bytes until a tile needs them. The record's bytes are valid only
/// inside the call that hands it over (`RecordRun.forEachRecord`).
struct StoredRecord {
    /// The record's bytes (after its length).
    let bytes: UnsafeRawBufferPointer

    /// The geometry type (nil: a feature without geometry, kept for its attributes) and bounds.
    @inline(__always)
    var header: (type: TileGeometryType?, bounds: FeatureBounds) { FeatureRecord.header(bytes) }

    /// The input position the record was written with.
    @inline(__always)
    var source: Int { FeatureRecord.source(bytes) }

    /// The tags the record was written with.
    @inline(__always)
    var tags: FeatureTags { FeatureRecord.tags(bytes) }

    /// Antimeridian group, input position and piece: the run's order.
    @inline(__always)
    var order: (group: UInt8, source: Int, part: UInt32) { FeatureRecord.order(bytes) }

    /// The feature's anchor key (0 without one).
    @inline(__always)
    var anchor: UInt64 { FeatureRecord.anchor(bytes) }

    /// The feature decoded (nil without geometry) and where its attributes start.
    func feature() -> (feature: ProjectedFeature?, attributesAt: Int) { FeatureRecord.feature(bytes) }

    /// The stored attributes from `offset` (where `feature()` says they start).
    func attributeBytes(from offset: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[offset...]) }

    /// The id and properties stored from `offset`, decoded, of input position `source`.
    func attributes(at offset: Int, source: Int) -> TileAttributes {
        AttributeCodec.attributes(bytes, at: offset, source: source)
    }

    /// The id and properties in stored attribute bytes (`attributeBytes(from:)`), decoded, of
    /// input position `source`.
    static func attributes(_ stored: UnsafeRawBufferPointer, source: Int) -> TileAttributes {
        AttributeCodec.attributes(stored, at: 0, source: source)
    }

    /// Appends `attributes` as a record stores them; with `generatedID` the id is not stored
    /// but read back as the input position.
    static func appendAttributes(_ attributes: TileAttributes, generatedID: Bool, to out: inout [UInt8]) {
        AttributeCodec.append(attributes, generatedID: generatedID, to: &out)
    }
}

extension RecordRun {
    /// Bytes of records in the run.
    var size: Int { file.size }

    /// Calls `body` with each record of the run, in order.
    /// - Throws: `io.read-failed` when the file cannot be read back; `body`'s errors.
    @inline(__always)
    func forEachRecord(_ body: (StoredRecord) throws -> Void) throws {
        var reader = try RecordReader(file)
        while try reader.next({ try body(StoredRecord(bytes: $0)) }) != nil {}
    }

    /// Reads every record of `runs` into memory, in order (features without geometry left out),
    /// with their ids and properties kept encoded and decoded when asked for (`LoadedRecords`).
    /// - Throws: `io.read-failed` when a file cannot be read back.
    static func load(_ runs: [RecordRun]) throws -> (features: [ProjectedFeature], attributes: (Int) -> TileAttributes) {
        let (features, loaded) = try LoadedRecords.read(runs)
        return (features, loaded.attributes)
    }
}

/// The four children's records of a tile cut while its records are read, in memory or flushed
/// to the next level's files as they grow; a solid tile takes them all back.
struct ChildRecords {
    /// The children's files in `TileSplit.children(of:)`'s order; nil at the deepest zoom.
    private let files: [RecordFile]?
    private var buffers: [[UInt8]] = [[], [], [], []]
    private let marks: [Int]
    private static let flushBytes = 4 << 20

    /// Four new files in `folder`, their bytes counted in `usage` (nil folder: no children).
    /// - Throws: `io.create-failed` when the folder cannot hold them.
    init(folder: String?, usage: RecordFileUsage) throws {
        files = try folder.map { folder in try (0..<4).map { _ in try RecordFile(in: folder, usage: usage) } }
        marks = files?.map(\.size) ?? []
    }

    /// Whether the children are written (not the deepest zoom).
    var splits: Bool { files != nil }

    /// Each child's records as a run (after `finish()`); nil at the deepest zoom.
    var runs: [RecordRun]? { files?.map { RecordRun(file: $0) } }

    /// Appends a piece of a feature, filed under `child` (tile `tile`) with the feature's stored attributes.
    mutating func append(_ feature: ProjectedFeature, group: UInt8, part: Int, anchor: UInt64, child: Int, tile: TileID,
                         attributes: UnsafeRawBufferPointer) throws {
        FeatureRecord.append(feature, source: feature.source, tags: feature.tags, group: group, part: part, anchor: anchor,
                             tile: (UInt32(tile.x), UInt32(tile.y)), attributes: attributes, to: &buffers[child])
        try flushIfFull(child)
    }

    /// Appends a copy of a whole record, filed under the child (with the run's input position
    /// and tags when they differ from the record's).
    mutating func appendCopy(_ record: StoredRecord, child: Int, tile: TileID, fixed: (source: Int, tags: FeatureTags)?) throws {
        FeatureRecord.appendCopy(record.bytes, tile: (UInt32(tile.x), UInt32(tile.y)), fixed: fixed, to: &buffers[child])
        try flushIfFull(child)
    }

    private mutating func flushIfFull(_ child: Int) throws {
        if let files, buffers[child].count >= Self.flushBytes {
            try files[child].append(buffers[child])
            buffers[child].removeAll(keepingCapacity: true)
        }
    }

    /// Forgets every record (the tile was solid: no child is cut one by one).
    mutating func discard() throws {
        buffers = [[], [], [], []]
        if let files { for (file, mark) in zip(files, marks) { try file.truncate(to: mark) } }
    }

    /// Writes what is buffered.
    mutating func finish() throws {
        guard let files else { return }
        for (file, bytes) in zip(files, buffers) where !bytes.isEmpty { try file.append(bytes) }
        buffers = [[], [], [], []]
        for file in files { try file.flush() }
    }
}
