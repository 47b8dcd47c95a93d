import Foundation
import OverlayModel

/// One `tile` run split over many workers (machines, processes, Spark tasks) whose joined output
/// equals the run's in one process, byte for byte, with every density option: the same tiles,
/// the same features in each tile in the same order, the same metadata and per-zoom counts.
///
/// The work happens in a folder every worker can read and write (a shared file system, or one
/// disk for GNU parallel), in four steps:
///
/// 1. ``split(shard:layer:reading:onWarning:)``, once per shard of the input (consecutive slices,
///    numbered in input order from 0 or 1, on any worker): projects the shard and files its features by
///    partition, the tiles of the partition zoom. Each piece goes, clipped down the pyramid as one
///    run clips it, to every partition it reaches; the partition holding the feature's anchor
///    owns it and also keeps its whole pieces and its anchor.
/// 2. ``plan()``, once: joins the shards' summaries as one run's projection would (input
///    positions, layers, metadata), settles guessed zooms, and gives every partition the state of
///    point thinning at its first point: the global Z-order rank of a point is its partition's
///    offset plus its rank there, and thinning depends only on the rank and the point before
///    (the last of the partitions before, by key). Returns the partitions.
/// 3. ``cut(partition:)``, once per partition (on any worker): thins its points from its
///    partition's state (and the neighbours' for their points in its tiles' buffers), cuts the
///    zooms from the partition zoom down for its tiles (budget, tiny shapes, clustering
///    included), and passes its owned features on for the zooms above.
/// 4. ``finish(onProgress:)``, once: cuts the zooms above the partitions from the features passed
///    on, and writes every tile and the metadata to the output.
///
/// Memory per worker is bounded by its partition's share (tiles too large to hold are cut while
/// read, as in one run's disk store); the driver holds only the plan.
public struct TileJob: Sendable {
    /// The work folder.
    public let work: String
    /// The run: its options, output and settings (`run`'s own inputs are not used).
    public let tiler: Tiler
    /// The zoom whose tiles are the partitions (4^z of them, the empty ones left out).
    public let partitionZoom: Int

    /// The file a step leaves in the work folder.
    enum File {
        case job, plan, sharedBorders
        case shardRecords(Int), shardSummary(Int)
        case partitionTiles(Int), partitionLow(Int), partitionReport(Int)

        func path(in work: String) -> String {
            let name: String
            switch self {
            case .job: name = "job.json"
            case .plan: name = "plan.json"
            case .sharedBorders: name = "shared-borders.bin"
            case .shardRecords(let index): name = String(format: "shard-%06d.records", index)
            case .shardSummary(let index): name = String(format: "shard-%06d.json", index)
            case .partitionTiles(let index): name = String(format: "partition-%06d.tiles", index)
            case .partitionLow(let index): name = String(format: "partition-%06d.low", index)
            case .partitionReport(let index): name = String(format: "partition-%06d.json", index)
            }
            return (work.hasSuffix("/") ? work : work + "/") + name
        }
    }

    /// Whether `name` is a file a job's step writes.
    private static func isJobFile(_ name: String) -> Bool {
        name == "job.json" || name == "plan.json" || name == "shared-borders.bin" || name.hasPrefix("shard-") || name.hasPrefix("partition-")
    }

    private struct Settings: Codable {
        var tiler: Tiler
        var partitionZoom: Int
    }

    /// Starts a job in `work` (made when missing; its parent must exist): saves `tiler`'s
    /// settings, so every step runs with the same ones. A folder holding an earlier job's files
    /// is refused unless `tiler.replaceExisting`, which removes them (shards of two inputs must
    /// never mix).
    /// - Parameters:
    ///   - work: the job's folder, shared by every step.
    ///   - tiler: the run's settings.
    ///   - partitionZoom: the zoom whose tiles are the partitions (at most the max zoom,
    ///     and 8): 4^z tasks, the empty ones skipped. The output does not depend on it.
    /// - Throws: `tile.bad-option` for settings out of range; `io.*` when the folder cannot be written.
    public static func create(work: String, tiler: Tiler, partitionZoom: Int) throws -> TileJob {
        if let first = settingProblems(tiler: tiler, partitionZoom: partitionZoom).first { throw first.diagnostic }
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: work, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
            } catch {
                throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot make the job's folder \(work): \(error.localizedDescription)")
            }
        } else if !isDirectory.boolValue {
            throw Diagnostic(.error, code: .ioCreateFailed, message: "\(work) is not a folder")
        }
        let earlier = ((try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []).filter(Self.isJobFile)
        if !earlier.isEmpty {
            guard tiler.replaceExisting else {
                throw Diagnostic(.error, code: .ioOutputExists,
                                 message: "\(work) holds another job's files (\(earlier.sorted()[0]), …); use --force to start over")
            }
            for name in earlier { try? FileManager.default.removeItem(atPath: (work.hasSuffix("/") ? work : work + "/") + name) }
        }
        let job = TileJob(work: work, tiler: tiler, partitionZoom: partitionZoom)
        try job.save(Settings(tiler: tiler, partitionZoom: partitionZoom), to: .job)
        return job
    }

    /// Every setting of a job out of its range: the run's (``Tiler/problems``, what the command
    /// line refuses) and the partition zoom. `create` refuses them and so does reading `job.json`
    /// back, by this one list.
    static func settingProblems(tiler: Tiler, partitionZoom: Int) -> [TileSettingProblem] {
        var found = tiler.problems
        let highest = min(8, tiler.options.maxZoom)
        if partitionZoom < 0 || partitionZoom > highest {
            found.append(TileSettingProblem(setting: "partitionZoom", requirement: "must be 0…\(max(0, highest)) (at most the max zoom and 8)",
                                            value: "\(partitionZoom)"))
        }
        return found
    }

    /// The job begun in `work`.
    /// - Throws: `tile.bad-work-file` when `work` holds no job, or a `job.json` whose settings
    ///   `create` would refuse (an edited or foreign file).
    public init(work: String) throws {
        self.work = work
        let path = File.job.path(in: work)
        let settings = try Self.load(Settings.self, from: path)
        if let first = Self.settingProblems(tiler: settings.tiler, partitionZoom: settings.partitionZoom).first {
            throw Diagnostic(.error, code: .tileBadWorkFile,
                             message: "\(path) holds a setting the job cannot run with: \(first); start the job again with tile-job create")
        }
        tiler = settings.tiler
        partitionZoom = settings.partitionZoom
    }

    private init(work: String, tiler: Tiler, partitionZoom: Int) {
        self.work = work
        self.tiler = tiler
        self.partitionZoom = partitionZoom
    }

    // MARK: Step 1: split

    /// What a shard held.
    public struct ShardReport: Sendable {
        /// Features read (those `--where` kept).
        public var features: Int
        /// Partitions its features reach.
        public var partitions: Int
    }

    /// Projects shard `shard` (the `shard`-th slice of the input, numbered from 0 in input order)
    /// and files its features by partition.
    /// - Parameters:
    ///   - shard: the slice's number, from 0 in input order.
    ///   - layer: the layer of the input this shard belongs to (nil: the run's layer).
    ///   - reader: the slice's features.
    ///   - onWarning: the reader's warnings (located in the shard).
    /// - Throws: the reader's errors; `io.*` when the files cannot be written.
    @discardableResult
    public func split(shard: Int, layer: String? = nil, reading reader: inout some FeatureReader,
                      onWarning: (Diagnostic) -> Void = { _ in }) throws -> ShardReport {
        let options = tiler.options
        let writer = try SectionedFileWriter(path: File.shardRecords(shard).path(in: work))
        let router = PartitionRouter(options: options, partitionZoom: partitionZoom, writer: writer)
        var projection = FeatureProjection(options: options, sink: router)
        while let feature = try reader.next() {
            reader.takeWarnings().forEach(onWarning)
            if let warning = PolarLatitudes.warning(for: feature) { onWarning(warning) }
            try projection.add(feature)
        }
        reader.takeWarnings().forEach(onWarning)
        try writer.finish()
        let summary = ShardSummary(inputLayer: layer ?? tiler.layer, projection: projection.summary,
                                   owned: router.owned.map { .init(partition: $0.key, features: $0.value.features, points: $0.value.points,
                                                                                lastPointKey: $0.value.lastPointKey) }
                                       .sorted { $0.partition < $1.partition },
                                   shadows: router.lowShadows.map { $0.sorted() })
        try save(summary, to: .shardSummary(shard))
        return ShardReport(features: projection.counts.features, partitions: try SectionedFileReader(path: File.shardRecords(shard).path(in: work))
                                                                                     .sections.filter { $0 % 8 != PartitionRouter.Kind.shadows.rawValue }
                                                                                     .map { $0 / 8 }.reduce(into: Set<Int>()) { $0.insert($1) }.count)
    }

    /// What a shard hands to the plan.
    struct ShardSummary: Codable {
        var inputLayer: String
        var projection: FeatureProjection.Summary
        var owned: [Owned]
        /// Per zoom above the partition zoom, the tiles the shard's points shadow (point thinning's
        /// `TileShadows`; empty when points are not thinned).
        var shadows: [[UInt64]]

        /// Features a partition owns, those of them whose pieces are all points, and the highest
        /// key of those points (nil: none).
        struct Owned: Codable {
            var partition: Int
            var features: Int
            var points: Int
            var lastPointKey: UInt64?
        }
    }

    // MARK: Step 2: plan

    /// What every partition's cut and the finish need: the run as one projection of the whole
    /// input would have it.
    struct Plan: Codable {
        /// The metadata's facts (options with guessed zooms settled).
        var facts: TileSetFacts
        var partitionZoom: Int
        var shards: [Shard]
        var partitions: [Partition]
        var uncoercible: [String: Int]
        var filteredOut: Int
        var invalidZoomMembers: Int
        var unmatchedPropertyNames: [String]
        var longitudeExtent: LongitudeExtent
        var reach: FeatureReach
        /// Per zoom above the partition zoom, the tiles every shard's points shadow (point thinning's
        /// `TileShadows`); below, each partition's own section of the shards' files holds them.
        var thinningShadows: [[UInt64]]

        /// A shard's number, where its input positions start, and its layers in the run's.
        struct Shard: Codable {
            var number: Int
            var sourceOffset: Int
            var layerMap: [UInt16]
            var inputLayer: UInt16
        }

        /// A partition with something to cut, and thinning's state at its first point.
        struct Partition: Codable {
            var index: Int
            var thinning: PointThinning.Walker.State?
        }
    }

    /// Joins the shards' summaries into the plan (saved in the work folder) and returns the
    /// partitions to cut, by index (`cut(partition:)` takes them).
    /// - Throws: `tile.bad-work-file` when a shard is missing (shards must be numbered 0, 1, 2, … with
    ///   no gap) or incomplete.
    @discardableResult
    public func plan() throws -> [Int] {
        let numbered = try shardSummaries()
        let summaries = numbered.map(\.summary)
        var options = tiler.options
        var merged = FeatureProjection(options: options, summary: FeatureProjection.Summary(
            counts: TileInputCounts(), longitudeExtent: LongitudeExtent(), layers: TileLayers(), layerSummaries: [TileLayerSummary()],
            losses: TileEncodingLosses(), uncoercible: [:], filteredOut: 0, invalidZoomMembers: 0, namesSeen: [], bounds: .null,
            vertexSpacing: MaxZoomGuess.VertexSpacing(), reach: FeatureReach()))
        var shards = [Plan.Shard]()
        for (number, summary) in numbered {
            let offset = merged.counts.features
            merged.layers.register(summary.inputLayer)
            let later = FeatureProjection(options: options, summary: summary.projection)
            let remap = merged.append(later)
            let input = merged.assignInputLayer(summary.inputLayer)
            let identity = (0..<summary.projection.layers.names.count).map(UInt16.init)
            shards.append(Plan.Shard(number: number, sourceOffset: offset, layerMap: remap.isEmpty ? identity : remap,
                                     inputLayer: input))
        }
        if let compaction = merged.removeUnusedLayers() {
            func compacted(_ layer: UInt16) -> UInt16 {
                layer == TileLayers.inputLayer || Int(layer) >= compaction.count ? layer : compaction[Int(layer)]
            }
            for index in shards.indices {
                shards[index].layerMap = shards[index].layerMap.map(compacted)
                shards[index].inputLayer = compacted(shards[index].inputLayer)
            }
        }
        // Owned points and features per partition, in Z-order, and the key of its last point.
        var owned = [Int: (features: Int, points: Int, lastPointKey: UInt64?)]()
        for summary in summaries {
            for entry in summary.owned {
                var sum = owned[entry.partition, default: (0, 0, nil)]
                sum.features += entry.features
                sum.points += entry.points
                if let key = entry.lastPointKey { sum.lastPointKey = max(sum.lastPointKey ?? key, key) }
                owned[entry.partition] = sum
            }
        }
        var reached = Set(owned.keys)
        for shard in shards {
            let file = try SectionedFileReader(path: File.shardRecords(shard.number).path(in: work))
            for section in file.sections where section % 8 != PartitionRouter.Kind.shadows.rawValue { reached.insert(section / 8) }
        }
        let ordered = reached.sorted()
        if options.guessesZooms {
            try settleGuessedZooms(&options, partitions: ordered, shards: shards, vertexSpacing: merged.vertexSpacing)
        }
        // Thinning's state at each partition's first point: its owned points come after every
        // point of the partitions before it in Z-order, the last of them the one with the
        // highest key (`Walker.next(key:)` needs only that one's key).
        var partitions = [Plan.Partition]()
        var walker = PointThinning.walker(for: options)
        var shadows = [Set<UInt64>]()
        for summary in summaries {
            for (zoom, tiles) in summary.shadows.enumerated() {
                while shadows.count <= zoom { shadows.append([]) }
                shadows[zoom].formUnion(tiles)
            }
        }
        for index in ordered {
            partitions.append(Plan.Partition(index: index, thinning: walker?.state))
            if let last = owned[index]?.lastPointKey { walker?.skip(owned[index]?.points ?? 0, lastKey: last) }
        }
        if options.sharedBorders {
            try save(bytes: try sharedBorderTags(options: options, shards: shards, featureCount: merged.counts.features),
                     to: .sharedBorders)
        }
        var facts = TileSetFacts(options: options, boundingMapRect: merged.bounds, layers: merged.layers,
                                 layerSummaries: merged.layerSummaries, losses: merged.losses, inputCounts: merged.counts)
        facts.options.guessesMaxZoom = false
        facts.options.guessesBaseZoom = false
        let plan = Plan(facts: facts, partitionZoom: partitionZoom, shards: shards, partitions: partitions,
                        uncoercible: merged.uncoercible, filteredOut: merged.filteredOut,
                        invalidZoomMembers: merged.invalidZoomMembers,
                        unmatchedPropertyNames: merged.namedProperties.subtracting(merged.namesSeen).sorted(),
                        longitudeExtent: merged.longitudeExtent, reach: merged.reach,
                        thinningShadows: shadows.map { $0.sorted() })
        try save(plan, to: .plan)
        return ordered
    }

    /// With shared borders: which features tiles hold back, and to which zoom, decided once from
    /// every feature's whole pieces (the owners' sections of the shards' files) as one run decides
    /// it (`SharedBorderCandidates`): `FeatureTags.sharedBordersThrough` by input position.
    private func sharedBorderTags(options: TileOptions, shards: [Plan.Shard], featureCount: Int) throws -> [UInt8] {
        let files = try shards.map { try SectionedFileReader(path: File.shardRecords($0.number).path(in: work)) }
        let whole = PartitionRouter.Kind.whole.rawValue
        func forEachPolygon(_ body: (ProjectedFeature) throws -> Void) throws {
            for (shard, file) in zip(shards, files) {
                for section in file.sections where (whole..<whole + 3).contains(section % 8) {
                    var records = SectionRecords(file: file, section: section)
                    while try records.head() != nil {
                        try records.takeFramed().withUnsafeBytes { framed in
                            let bytes = UnsafeRawBufferPointer(rebasing: framed[4...])
                            guard FeatureRecord.header(bytes).type == .polygon, var feature = FeatureRecord.feature(bytes).feature
                            else { return }
                            feature.source += shard.sourceOffset
                            try body(feature)
                        }
                    }
                }
            }
        }
        var sketch = SharedVertexSketch()
        try forEachPolygon { feature in
            for ring in feature.rings { sketch.addRing(feature.coordinates, start: ring.start, count: ring.count, stride: 3) }
        }
        var candidates = SharedBorderCandidates(featureCount: featureCount, options: options)
        try forEachPolygon { candidates.add($0, sketch: sketch) }
        candidates.finish()
        return candidates.tags
    }

    /// The shards' summaries by number, in order: numbered from 0 or 1 (GNU parallel's `{#}`)
    /// with no gap, so no shard is missed.
    private func shardSummaries() throws -> [(number: Int, summary: ShardSummary)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []
        let numbers = names.compactMap { name -> Int? in
            guard name.hasPrefix("shard-"), name.hasSuffix(".json") else { return nil }
            return Int(name.dropFirst(6).dropLast(5))
        }.sorted()
        guard let first = numbers.first else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(work) holds no split shard: split the input first")
        }
        guard first <= 1, numbers.last! - first == numbers.count - 1 else {
            let missing = (first...numbers.last!).filter { !numbers.contains($0) }
            throw Diagnostic(.error, code: .tileBadWorkFile,
                             message: "the shards in \(work) must be numbered from 0 or 1 with no gap; "
                                 + (first > 1 ? "the first is \(first)" : "missing: \(missing.prefix(10).map(String.init).joined(separator: ", "))"))
        }
        guard numbers.count <= ReadBackLimits.shards else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(work) holds \(numbers.count) shards, more than a plan joins (2^20)")
        }
        return try numbers.map { number in
            let path = File.shardSummary(number).path(in: work)
            let summary = try Self.load(ShardSummary.self, from: path)
            if let problem = summary.readBackProblem(partitionZoom: partitionZoom) {
                throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is damaged: \(problem); split the shard again")
            }
            return (number, summary)
        }
    }

    /// -zg and -Bg as one run guesses them: the anchors in Z-order (partition by partition, each
    /// sorted) for the features' spacing and the densest tiles.
    private func settleGuessedZooms(_ options: inout TileOptions, partitions: [Int], shards: [Plan.Shard],
                                    vertexSpacing: MaxZoomGuess.VertexSpacing) throws {
        let files = try shards.map { try SectionedFileReader(path: File.shardRecords($0.number).path(in: work)) }
        try GuessedZooms.settle(&options, vertexSpacing: vertexSpacing) { add in
            for partition in partitions {
                for entry in try anchors(of: partition, files: files, shards: shards) { add(entry.key, entry.pointsOnly) }
            }
        }
    }

    /// The shadows every point casts on partition `partition`'s tiles (its section of every shard's
    /// file) and on the tiles above the partition zoom (the plan's), for thinning's walk there.
    private func shadows(on partition: Int, plan: Plan, files: [SectionedFileReader]) throws -> PointThinning.TileShadows {
        let options = plan.facts.options
        var shadows = PointThinning.TileShadows(buffer: options.thinningBuffer, zooms: min(options.resolvedBaseZoom, options.maxZoom))
        for (zoom, tiles) in plan.thinningShadows.enumerated() {
            for index in tiles { shadows.insert(zoom: zoom, index: index) }
        }
        for file in files {
            try file.forEachChunk(of: PartitionRouter.section(partition, .shadows)) { bytes in
                guard bytes.count % 16 == 0 else {
                    throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(file.path) holds a damaged shadow")
                }
                bytes.withUnsafeBytes { raw in
                    for at in stride(from: 0, to: raw.count, by: 16) {
                        let zoom = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                        let index = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
                        if zoom < 32 { shadows.insert(zoom: Int(zoom), index: index) }
                    }
                }
            }
        }
        return shadows
    }

    /// A partition's owned anchors from every shard, input positions in the run's, sorted as
    /// `SortedAnchors` sorts (key, then input position).
    private func anchors(of partition: Int, files: [SectionedFileReader], shards: [Plan.Shard]) throws -> [SortedAnchors.Entry] {
        var entries = [SortedAnchors.Entry]()
        for (shard, file) in files.enumerated() {
            try file.forEachChunk(of: PartitionRouter.section(partition, .anchors)) { bytes in
                guard bytes.count % 16 == 0 else {
                    throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(file.path) holds a damaged anchor")
                }
                bytes.withUnsafeBytes { raw in
                    for at in stride(from: 0, to: raw.count, by: 16) {
                        let key = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                        let marked = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
                        entries.append(SortedAnchors.Entry(key: key, source: Int(marked & ~(1 << 63)) + shards[shard].sourceOffset,
                                                           pointsOnly: marked >> 63 == 0))
                    }
                }
            }
        }
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.source < $1.source }
        return entries
    }

    // MARK: Step 3: cut

    /// What cutting a partition wrote, and the counts the finish adds up.
    public struct PartitionReport: Sendable, Codable {
        /// Per zoom from 0 to the max zoom: tiles, bytes, features and what was dropped.
        public var zooms: [TileZoomCounts]
    }

    /// Cuts partition `partition` (an index `plan()` returned): its tiles from the partition zoom
    /// down, logged in the work folder, and its owned features passed on for the zooms above.
    /// - Throws: `tile.bad-work-file` without a plan; `tile.too-large` for a tile that cannot fit
    ///   its budget; `io.*`.
    @discardableResult
    public func cut(partition: Int) throws -> PartitionReport {
        let plan = try loadPlan()
        guard plan.partitions.contains(where: { $0.index == partition }) else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "the plan in \(work) has no partition \(partition)")
        }
        let options = plan.facts.options
        let files = try plan.shards.map { try SectionedFileReader(path: File.shardRecords($0.number).path(in: work)) }
        let folder = temporaryFolder
        let usage = RecordFileUsage()
        // With shared borders, the plan's decision of which features tiles hold back.
        let shared = options.sharedBorders ? try Self.loadBytes(from: File.sharedBorders.path(in: work)) : []
        // The partition's records, and which features' thinning they need (owned and neighbours').
        var clipped = [RecordRun](), whole = [RecordRun]()
        // Points whose thinning this partition needs: its own, and its neighbours' that reach its tiles.
        var foreign = [Int: Set<Int>]()
        for kind in [PartitionRouter.Kind.clipped, .whole] {
            for group in 0..<3 {
                for (shard, file) in files.enumerated() {
                    let section = PartitionRouter.section(partition, kind, group: group)
                    guard file.size(of: section) > 0 else { continue }
                    let run = try RecordFile(in: folder, usage: usage)
                    try file.forEachChunk(of: section) { try run.append($0) }
                    try run.flush()
                    let offset = plan.shards[shard].sourceOffset
                    if kind == .clipped && PointThinning.thins(options) {
                        var reader = try RecordReader(run)
                        while try reader.next({ (bytes: UnsafeRawBufferPointer) -> Void in
                            let owner = PartitionRouter.partition(ofAnchor: FeatureRecord.anchor(bytes), zoom: plan.partitionZoom)
                            if owner != partition { foreign[owner, default: []].insert(FeatureRecord.source(bytes) + offset) }
                        }) != nil {}
                    }
                    let fixup = RecordRun.Fixup(sourceOffset: offset, layerMap: plan.shards[shard].layerMap,
                                                inputLayer: plan.shards[shard].inputLayer, thinned: [], shared: shared)
                    (kind == .clipped ? { clipped.append($0) } : { whole.append($0) })(RecordRun(file: run, fixup: fixup))
                }
            }
        }
        var thinned = [Int: UInt8]()
        if PointThinning.thins(options) {
            for owner in [partition] + foreign.keys.sorted() {
                guard let state = plan.partitions.first(where: { $0.index == owner })?.thinning,
                      var walker = PointThinning.walker(for: options, resumedFrom: state,
                                                        shadows: try shadows(on: owner, plan: plan, files: files)) else { continue }
                let needed = foreign[owner]
                for anchor in try anchors(of: owner, files: files, shards: plan.shards) where anchor.pointsOnly {
                    let zoom = walker.next(key: anchor.key)
                    if needed?.contains(anchor.source) ?? true { thinned[anchor.source] = zoom }
                }
            }
        }
        clipped = clipped.map { RecordRun(file: $0.file, fixup: $0.fixup!.thinning(thinned)) }
        whole = whole.map { RecordRun(file: $0.file, fixup: $0.fixup!.thinning(thinned)) }
        // The partition's tiles, logged for the finish.
        var sinkTiler = tiler
        sinkTiler.options = options
        let log = try TileLogWriter(path: File.partitionTiles(partition).path(in: work),
                                    storesBlocksOnce: sinkTiler.outputStoresBlocksOnce())
        let sink = sinkTiler.makeSink(writer: log, layers: plan.facts.layers)
        let root = PartitionRouter.tile(ofIndex: partition, zoom: plan.partitionZoom)
        let zooms = try TilePyramid.build(records: clipped, root: root, options: options, minZoom: options.minZoom,
                                          lastZoom: options.maxZoom, parallelism: tiler.threads, folder: folder, usage: usage,
                                          readsDeferred: true, emit: sink.write, emitBlock: sink.writeBlock)
        try log.commit()
        // Its owned features, whole, for the zooms above the partitions.
        if plan.partitionZoom > 0 {
            let low = try SectionedFileWriter(path: File.partitionLow(partition).path(in: work))
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
        let report = PartitionReport(zooms: zooms)
        try save(report, to: .partitionReport(partition))
        return report
    }

    /// Where temporary record files go: the run's `temporaryDirectory`, `$TMPDIR`, else /tmp.
    private var temporaryFolder: String {
        tiler.temporaryDirectory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    // MARK: Step 4: finish

    /// Cuts the zooms above the partitions from the features they passed on, writes every tile
    /// into the run's output with the metadata, and reports as one run does.
    /// - Throws: `tile.bad-work-file` when a partition was not cut; `io.*`.
    public func finish(onProgress: (@Sendable (TileArchiveSink.Progress) -> Void)? = nil) throws -> Tiler.Report {
        let plan = try loadPlan()
        let options = plan.facts.options
        var finalTiler = tiler
        finalTiler.options = options
        let writer = try finalTiler.createWriter()
        do {
            let sink = finalTiler.makeSink(writer: writer, layers: plan.facts.layers, onProgress: onProgress)
            var counts = TileZoomCounts.zooms(through: options.maxZoom)
            for partition in plan.partitions {
                let reportPath = File.partitionReport(partition.index).path(in: work)
                let report = try Self.load(PartitionReport.self, from: reportPath)
                if let problem = WorkFileCheck.integerOutOfRange(in: report) {
                    throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(reportPath) is damaged: \(problem); cut partition \(partition.index) again")
                }
                guard report.zooms.count == counts.count else {
                    throw Diagnostic(.error, code: .tileBadWorkFile, message: "partition \(partition.index)'s report is of another plan")
                }
                TilePyramid.Walk.add(report.zooms, to: &counts)
                try TileLogWriter.replay(File.partitionTiles(partition.index).path(in: work), maxZoom: options.maxZoom, into: writer)
            }
            if plan.partitionZoom > 0 {
                let low = try lowRecords(plan)
                let zooms = try TilePyramid.build(records: low.runs, root: TileID(z: 0, x: 0, y: 0), options: options,
                                                  minZoom: options.minZoom, lastZoom: plan.partitionZoom - 1,
                                                  parallelism: tiler.threads, folder: temporaryFolder, usage: low.usage,
                                                  readsDeferred: true, emit: sink.write, emitBlock: sink.writeBlock)
                TilePyramid.Walk.add(zooms, to: &counts)
            }
            let zooms = Array(counts[min(options.minZoom, options.maxZoom)...])
            var metadata = sink.metadata(for: plan.facts, minZoom: options.minZoom, zooms: zooms, name: tiler.name,
                                         description: tiler.description)
            metadata.attribution = tiler.attribution
            try writer.finish(metadata: metadata)
            return Tiler.Report(metadata: metadata, zooms: zooms, input: plan.facts.inputCounts,
                                losses: metadata.dropReport?.notWritten ?? TileEncodingLosses(),
                                fileBytes: finalTiler.resolvedArchiveFormat == .directory ? nil : Self.fileSize(tiler.output),
                                tippecanoeMembersIgnored: (finalTiler.layersIgnored(plan.facts.layers), plan.invalidZoomMembers))
        } catch {
            writer.abort()
            throw error
        }
    }

    /// Every partition's passed-on features merged in the run's order (antimeridian group,
    /// input position, piece) into one temporary file per group: zoom 0 of the zooms above the
    /// partitions. Each partition's records are in order already; a heap merges them, a chunk of
    /// each in memory at a time.
    private func lowRecords(_ plan: Plan) throws -> (runs: [RecordRun], usage: RecordFileUsage) {
        let usage = RecordFileUsage()
        let files = try plan.partitions.map { try SectionedFileReader(path: File.partitionLow($0.index).path(in: work)) }
        var runs = [RecordRun]()
        for group in 0..<3 {
            var streams = files.map { SectionRecords(file: $0, section: group) }
            // (input position, piece, stream): the run's order, ties by stream.
            var heap = BinaryMinHeap<(Int, UInt32, Int)>(by: <)
            for index in streams.indices {
                if let head = try streams[index].head() { heap.push((head.source, head.part, index)) }
            }
            let merged = try RecordFile(in: temporaryFolder, usage: usage)
            while let (_, _, index) = heap.pop() {
                try merged.append(streams[index].takeFramed())
                if let head = try streams[index].head() { heap.push((head.source, head.part, index)) }
            }
            try merged.flush()
            runs.append(RecordRun(file: merged))
        }
        return (runs, usage)
    }

    /// A section's framed records read a chunk at a time (a chunk never splits a record).
    private struct SectionRecords {
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

    private static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    // MARK: Files

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    private func save(_ value: some Encodable, to file: File) throws {
        try save(bytes: Array(try Self.encoder.encode(value)), to: file)
    }

    private func save(bytes: [UInt8], to file: File) throws {
        let output = try AtomicOutput(path: file.path(in: work), kind: .stream, replaceExisting: true)
        let descriptor = try output.openStream()
        do {
            try POSIX.writeAll(descriptor, bytes, at: 0, what: output.path)
            try output.commit(descriptor: descriptor)
        } catch {
            output.abort()
            throw error
        }
    }

    /// `plan.json`, checked as `job.json` is: its settled options in range (the settings the
    /// command line would accept), the job's partition zoom, partitions inside its grid.
    /// - Throws: `tile.bad-work-file` naming the file.
    private func loadPlan() throws -> Plan {
        let path = File.plan.path(in: work)
        let plan = try Self.load(Plan.self, from: path)
        if let first = plan.facts.options.problems.first {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) holds a setting out of range: \(first); run the plan again")
        }
        if let problem = plan.readBackProblem {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is damaged: \(problem); run the plan again")
        }
        let partitions = 1 << (2 * partitionZoom)
        guard plan.partitionZoom == partitionZoom, plan.partitions.allSatisfy({ (0..<partitions).contains($0.index) }) else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is not the plan of this job (partition zoom \(partitionZoom)); run the plan again")
        }
        return plan
    }

    private static func loadBytes(from path: String) throws -> [UInt8] {
        guard POSIX.regularFileSize(path) != nil else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is missing: run the step that writes it first")
        }
        // Read through the POSIX layer: Foundation's `FileManager.contents(atPath:)` leaked its
        // 4 KiB read buffer on a work file the tile-job fuzz target made.
        return try ArchiveFiles.readFile(path, limit: .max)
    }

    private static func load<Value: Decodable>(_ type: Value.Type, from path: String) throws -> Value {
        let bytes = try loadBytes(from: path)
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) cannot be read: \(error)")
        }
    }
}
