import OverlayModel

/// The feature store of a run split over workers (`TileJob`): the shards' files
/// (`ShardSection`'s layout) read as one run's store is read, so the plan settles the run's
/// decisions through the same step as one run (`ProjectedFeatureStore`: anchors in Z-order,
/// whole pieces) and a partition's cut hands the pyramid zoom 0 as one run's disk store does.
///
/// Point thinning is kept as the walk's state at each partition's first point instead of a zoom
/// per point: a point's first zoom depends only on its Z-order rank and the point before it, so
/// each partition's cut resumes the walk there (`load(partition:states:lowShadows:shared:options:)`).
final class ShardFeatureStore: @unchecked Sendable {
    /// A shard's number, where its input positions start, and its layers in the run's.
    struct Shard: Codable {
        var number: Int
        var sourceOffset: Int
        var layerMap: [UInt16]
        var inputLayer: UInt16
    }

    /// The owned points of a partition, and the highest anchor key among them (nil: none).
    struct OwnedPoints {
        var points: Int
        var lastPointKey: UInt64?
    }

    let shards: [Shard]
    let partitionZoom: Int
    private let files: [SectionedFileReader]
    /// The partitions with something to cut, in Z-order.
    let partitions: [Int]
    private let owned: [Int: OwnedPoints]
    /// Where the pieces `load` copies go.
    let folder: String
    let usage = RecordFileUsage()
    /// Point thinning's walk state at each partition's first point (nil: nothing thinned).
    private(set) var thinningStates = [Int: PointThinning.Walker.State]()
    /// By input position, `FeatureTags.sharedBordersThrough` as settled (empty: none held).
    private(set) var sharedBordersThrough = [UInt8]()
    /// A loaded partition's records: clipped to its tile, and its owned features whole.
    private var clipped = [RecordRun](), whole = [RecordRun]()

    /// The shards' files at `paths` (one per shard, in order), their partitions those with a
    /// section or owned points.
    /// - Parameters:
    ///   - paths: each shard's file.
    ///   - shards: the shards' input offsets and layers, in the run's.
    ///   - partitionZoom: the zoom whose tiles are the partitions.
    ///   - owned: per partition, its owned points (the shards' summaries summed).
    ///   - folder: where a partition's records are copied to be cut.
    /// - Throws: `tile.bad-work-file` when a file is missing or damaged.
    init(paths: [String], shards: [Shard], partitionZoom: Int, owned: [Int: OwnedPoints], folder: String) throws {
        files = try paths.map { try SectionedFileReader(path: $0) }
        self.shards = shards
        self.partitionZoom = partitionZoom
        self.owned = owned
        self.folder = folder
        var reached = Set(owned.keys)
        for file in files {
            for section in file.sections where ShardSection.holdsFeatures(section) { reached.insert(ShardSection.partition(of: section)) }
        }
        partitions = reached.sorted()
    }

    /// The partition (Z-order index at the partition zoom) of an anchor key.
    static func partition(ofAnchor key: UInt64, zoom: Int) -> Int {
        zoom == 0 ? 0 : Int(key >> UInt64(64 - 2 * zoom))
    }

    /// A partition's owned anchors from every shard, input positions in the run's, sorted as
    /// `SortedAnchors` sorts (key, then input position).
    func anchors(of partition: Int) throws -> [FeatureAnchor] {
        var entries = [FeatureAnchor]()
        for (shard, file) in files.enumerated() {
            try forEachPair(file, section: ShardSection.section(partition, .anchors), what: "anchor") { key, marked in
                entries.append(FeatureAnchor(key: key, source: Int(marked & ~(1 << 63)) + shards[shard].sourceOffset,
                                             pointsOnly: marked >> 63 == 0))
            }
        }
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.source < $1.source }
        return entries
    }

    /// The shadows every point casts on partition `partition`'s tiles (its section of every
    /// shard's file) and on the tiles above the partition zoom (`lowShadows`, the plan's).
    func shadows(on partition: Int, lowShadows: [[UInt64]], options: TileOptions) throws -> PointThinning.TileShadows {
        var shadows = PointThinning.TileShadows(buffer: options.thinningBuffer, zooms: min(options.resolvedBaseZoom, options.maxZoom))
        for (zoom, tiles) in lowShadows.enumerated() {
            for index in tiles { shadows.insert(zoom: zoom, index: index) }
        }
        for file in files {
            try forEachPair(file, section: ShardSection.section(partition, .shadows), what: "shadow") { zoom, index in
                if zoom < 32 { shadows.insert(zoom: Int(zoom), index: index) }
            }
        }
        return shadows
    }

    /// Calls `body` with each 16-byte pair of `section` (two little-endian u64).
    private func forEachPair(_ file: SectionedFileReader, section: Int, what: String,
                             _ body: (UInt64, UInt64) -> Void) throws {
        try file.forEachChunk(of: section) { bytes in
            guard bytes.count % 16 == 0 else {
                throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(file.path) holds a damaged \(what)")
            }
            bytes.withUnsafeBytes { raw in
                for at in stride(from: 0, to: raw.count, by: 16) {
                    body(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
                         UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
                }
            }
        }
    }

    /// Calls `body` with every whole piece of `type` (every type: nil) the partitions own, input
    /// positions in the run's; pieces of other types are not decoded.
    private func forEachWholePiece(ofType type: TileGeometryType?, _ body: (ProjectedFeature) throws -> Void) throws {
        for (shard, file) in zip(shards, files) {
            for section in file.sections where ShardSection.holdsWholePieces(section) {
                var records = SectionRecords(file: file, section: section)
                while try records.head() != nil {
                    try records.takeFramed().withUnsafeBytes { framed in
                        let bytes = UnsafeRawBufferPointer(rebasing: framed[4...])
                        let pieceType = FeatureRecord.header(bytes).type
                        guard pieceType != nil, type == nil || pieceType == type, var feature = FeatureRecord.feature(bytes).feature
                        else { return }
                        feature.source += shard.sourceOffset
                        try body(feature)
                    }
                }
            }
        }
    }

    /// Copies partition `partition`'s records out of the shards' files to be cut, with what they
    /// need from the plan: thinning resumed from each owner's `states` (its own points, and its
    /// neighbours' that reach its tiles), and the settled shared-border tags `shared`.
    /// - Throws: `tile.bad-work-file` for a damaged file; `io.*`.
    func load(partition: Int, states: [Int: PointThinning.Walker.State], lowShadows: [[UInt64]], shared: [UInt8],
              options: TileOptions) throws {
        var clipped = [RecordRun](), whole = [RecordRun]()
        // Points whose thinning this partition needs: its own, and its neighbours' that reach its tiles.
        var foreign = [Int: Set<Int>]()
        let thins = PointThinning.thins(options)
        for kind in [ShardSection.Kind.clipped, .whole] {
            for group in 0..<3 {
                for (shard, file) in files.enumerated() {
                    let section = ShardSection.section(partition, kind, group: group)
                    guard file.size(of: section) > 0 else { continue }
                    let run = try RecordFile(in: folder, usage: usage)
                    try file.forEachChunk(of: section) { try run.append($0) }
                    try run.flush()
                    let offset = shards[shard].sourceOffset
                    if kind == .clipped && thins {
                        var reader = try RecordReader(run)
                        while try reader.next({ (bytes: UnsafeRawBufferPointer) -> Void in
                            let owner = Self.partition(ofAnchor: FeatureRecord.anchor(bytes), zoom: partitionZoom)
                            if owner != partition { foreign[owner, default: []].insert(FeatureRecord.source(bytes) + offset) }
                        }) != nil {}
                    }
                    let fixup = RecordRun.Fixup(sourceOffset: offset, layerMap: shards[shard].layerMap,
                                                inputLayer: shards[shard].inputLayer, thinned: [], shared: shared)
                    (kind == .clipped ? { clipped.append($0) } : { whole.append($0) })(RecordRun(file: run, fixup: fixup))
                }
            }
        }
        var thinned = [Int: UInt8]()
        if thins {
            for owner in [partition] + foreign.keys.sorted() {
                guard let state = states[owner],
                      var walker = PointThinning.walker(for: options, resumedFrom: state,
                                                        shadows: try shadows(on: owner, lowShadows: lowShadows, options: options))
                else { continue }
                let needed = foreign[owner]
                for anchor in try anchors(of: owner) where anchor.pointsOnly {
                    let zoom = walker.next(key: anchor.key)
                    if needed?.contains(anchor.source) ?? true { thinned[anchor.source] = zoom }
                }
            }
        }
        self.clipped = clipped.map { RecordRun(file: $0.file, fixup: $0.fixup!.thinning(thinned)) }
        self.whole = whole.map { RecordRun(file: $0.file, fixup: $0.fixup!.thinning(thinned)) }
    }

    /// Writes the loaded partition's owned features, whole and fixed up, to `path` (a section per
    /// antimeridian group, in the run's order): what it passes on for the zooms above.
    /// - Throws: `io.*`.
    func passOn(to path: String) throws {
        let low = try SectionedFileWriter(path: path)
        var copy = [UInt8]()
        for run in whole {
            var reader = try RecordReader(run.file)
            while try reader.next({ (bytes: UnsafeRawBufferPointer) -> Void in
                copy.removeAll(keepingCapacity: true)
                let (source, tags) = run.fixup!.apply(source: FeatureRecord.source(bytes), tags: FeatureRecord.tags(bytes))
                FeatureRecord.appendCopy(bytes, tile: (0, 0), fixed: (source, tags), to: &copy)
                try low.append(copy, to: Int(FeatureRecord.order(bytes).group))
            }) != nil {}
        }
        try low.finish()
    }

    /// Zoom 0 of the zooms above the partitions: every partition's passed-on features (`paths`,
    /// written by `passOn(to:)`) merged in the run's order (antimeridian group, input position,
    /// piece) into one temporary file per group in `folder`. Each partition's records are in
    /// order already; a heap merges them, a chunk of each in memory at a time.
    /// - Throws: `tile.bad-work-file` for a damaged file; `io.*`.
    static func passedOn(_ paths: [String], folder: String) throws -> ZoomZeroFeatures {
        let usage = RecordFileUsage()
        let files = try paths.map { try SectionedFileReader(path: $0) }
        var runs = [RecordRun]()
        for group in 0..<3 {
            var streams = files.map { SectionRecords(file: $0, section: group) }
            // (input position, piece, stream): the run's order, ties by stream.
            var heap = BinaryMinHeap<(Int, UInt32, Int)>(by: <)
            for index in streams.indices {
                if let head = try streams[index].head() { heap.push((head.source, head.part, index)) }
            }
            let merged = try RecordFile(in: folder, usage: usage)
            while let (_, _, index) = heap.pop() {
                try merged.append(streams[index].takeFramed())
                if let head = try streams[index].head() { heap.push((head.source, head.part, index)) }
            }
            try merged.flush()
            runs.append(RecordRun(file: merged))
        }
        return .records(runs, folder: folder, usage: usage)
    }
}

extension ShardFeatureStore: ProjectedFeatureStore {
    /// Partition by partition in Z-order, each one's anchors sorted: the run's Z-order.
    func forEachAnchor(_ body: (FeatureAnchor) throws -> Void) throws {
        for partition in partitions {
            for entry in try anchors(of: partition) { try body(entry) }
        }
    }

    /// The owned features' whole pieces, shard by shard.
    func forEachPiece(_ body: (ProjectedFeature) throws -> Void) throws {
        try forEachWholePiece(ofType: nil, body)
    }

    func forEachPolygon(_ body: (ProjectedFeature) throws -> Void) throws {
        try forEachWholePiece(ofType: .polygon, body)
    }

    /// Keeps the walk's state at each partition's first point: its owned points come after every
    /// point of the partitions before it in Z-order, the last of them the one with the highest
    /// key (`Walker.skip(_:lastKey:)` needs only that one's key).
    func thinPoints(with walker: PointThinning.Walker?, featureCount: Int) throws {
        thinningStates = [:]
        guard var walker else { return }
        for partition in partitions {
            thinningStates[partition] = walker.state
            if let points = owned[partition], let last = points.lastPointKey { walker.skip(points.points, lastKey: last) }
        }
    }

    /// Empty: the store keeps thinning's state per partition (`thinningStates`), not a zoom per point.
    var thinnedMinZooms: [UInt8] { [] }

    func setSharedBordersThrough(_ tags: [UInt8]) { sharedBordersThrough = tags }

    /// The loaded partition's clipped records (none before `load`).
    var zoomZero: ZoomZeroFeatures { .records(clipped, folder: folder, usage: usage) }

    var temporaryFiles: (folder: String, bytes: Int, usage: RecordFileUsage)? {
        (folder, clipped.reduce(0) { $0 + $1.file.size } + whole.reduce(0) { $0 + $1.file.size }, usage)
    }
}
