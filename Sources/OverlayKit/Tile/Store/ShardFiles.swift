import OverlayModel

/// The layout of the files a distributed run's workers hand each other (`TileJob`): one
/// `SectionedFile` per shard, its sections by partition (the partition's Z-order index at the
/// partition zoom) and kind:
///
/// - `clipped` (kinds 0–2, by antimeridian group): the pieces clipped to the partition's tile;
/// - `whole` (3–5, by group): the whole pieces of the features the partition owns (for the
///   zooms above the partitions, and for the plan's shared borders);
/// - `anchors` (6): the owned features' anchors (16 bytes: key, input position with the top bit
///   set when not every piece is a point);
/// - `shadows` (7): the shadows points cast on the partition's tiles from the partition zoom
///   down (16 bytes: zoom, tile index; `PointThinning.TileShadows`).
///
/// A partition's features passed on for the zooms above the partitions go to a file of their
/// own, one section per antimeridian group.
enum ShardSection {
    /// The section kinds, by group where they have groups.
    enum Kind: Int {
        case clipped = 0
        case whole = 3
        case anchors = 6
        case shadows = 7
    }

    /// The section of partition `partition` holding `kind` (plus `group`).
    static func section(_ partition: Int, _ kind: Kind, group: Int = 0) -> Int { partition * 8 + kind.rawValue + group }

    /// The partition a section belongs to.
    static func partition(of section: Int) -> Int { section / 8 }

    /// Whether a section holds records or anchors (a partition with one has something to cut).
    static func holdsFeatures(_ section: Int) -> Bool { section % 8 != Kind.shadows.rawValue }

    /// Whether a section holds whole pieces.
    static func holdsWholePieces(_ section: Int) -> Bool {
        (Kind.whole.rawValue..<Kind.whole.rawValue + 3).contains(section % 8)
    }
}

/// Writes one shard's file (`ShardSection`'s layout) as the shard is projected.
final class ShardFileWriter {
    private let writer: SectionedFileWriter
    private var record = [UInt8]()
    /// The partitions something was filed under.
    private(set) var partitions = Set<Int>()

    /// A shard's file to be written at `path` (in place once finished).
    /// - Throws: `io.*` when it cannot be created.
    init(path: String) throws {
        writer = try SectionedFileWriter(path: path)
    }

    /// Files one piece of a feature under `partition`: clipped to the partition's `tile`, or whole
    /// (`tile` nil: filed under tile 0/0/0).
    func appendPiece(_ piece: ProjectedFeature, source: Int, tags: FeatureTags, group: Int, part: Int, anchor: UInt64,
                     tile: TileID?, attributes: [UInt8], partition: Int) throws {
        record.removeAll(keepingCapacity: true)
        FeatureRecord.append(piece, source: source, tags: tags, group: UInt8(group), part: part, anchor: anchor,
                             tile: (UInt32(tile?.x ?? 0), UInt32(tile?.y ?? 0)), attributes: attributes, to: &record)
        try writer.append(record, to: ShardSection.section(partition, tile == nil ? .whole : .clipped, group: group))
        partitions.insert(partition)
    }

    /// Files the anchor of a feature `partition` owns.
    func appendAnchor(key: UInt64, source: Int, pointsOnly: Bool, partition: Int) throws {
        try writer.append(Self.pair(key, UInt64(source) | (pointsOnly ? 0 : 1 << 63)), to: ShardSection.section(partition, .anchors))
        partitions.insert(partition)
    }

    /// Files a shadow a point casts on tile `index` at `zoom`, under the partition holding that tile.
    func appendShadow(zoom: Int, index: UInt64, partition: Int) throws {
        try writer.append(Self.pair(UInt64(zoom), index), to: ShardSection.section(partition, .shadows))
    }

    /// Writes the index and puts the file in place.
    func finish() throws { try writer.finish() }

    private static func pair(_ first: UInt64, _ second: UInt64) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        withUnsafeBytes(of: first.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: second.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// A section's framed records read a chunk at a time (a chunk never splits a record).
struct SectionRecords {
    let file: SectionedFileReader
    let section: Int
    private var chunk = [UInt8]()
    private var chunkIndex = 0
    private var position = 0

    init(file: SectionedFileReader, section: Int) {
        self.file = file
        self.section = section
    }

    /// The next record's input position and piece, loading the next chunk when needed.
    mutating func head() throws -> (source: Int, part: UInt32)? {
        while position >= chunk.count {
            guard chunkIndex < file.chunkCount(of: section) else { return nil }
            chunk = try file.chunk(chunkIndex, of: section)
            chunkIndex += 1
            position = 0
        }
        return try chunk.withUnsafeBytes { raw in
            guard position + 4 <= raw.count else { throw Self.damaged(file.path) }
            let length = Int(raw.loadUnaligned(fromByteOffset: position, as: UInt32.self))
            guard position + 4 + length <= raw.count else { throw Self.damaged(file.path) }
            let order = FeatureRecord.order(UnsafeRawBufferPointer(rebasing: raw[position + 4..<position + 4 + length]))
            return (order.source, order.part)
        }
    }

    /// The next record with its frame, moving past it (after `head()` found one).
    mutating func takeFramed() -> [UInt8] {
        let length = chunk.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: position, as: UInt32.self)) }
        defer { position += 4 + length }
        return Array(chunk[position..<position + 4 + length])
    }

    private static func damaged(_ path: String) -> Diagnostic {
        Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) ends inside a record")
    }
}
