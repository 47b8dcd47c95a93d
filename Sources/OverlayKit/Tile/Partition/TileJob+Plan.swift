import Foundation
import OverlayModel

// Step 2 of a split run: the shards joined into one plan, point thinning's state at each partition.
extension TileJob {
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
    func sharedBorderTags(options: TileOptions, shards: [Plan.Shard], featureCount: Int) throws -> [UInt8] {
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
    func shardSummaries() throws -> [(number: Int, summary: ShardSummary)] {
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
    func settleGuessedZooms(_ options: inout TileOptions, partitions: [Int], shards: [Plan.Shard],
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
    func shadows(on partition: Int, plan: Plan, files: [SectionedFileReader]) throws -> PointThinning.TileShadows {
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
    func anchors(of partition: Int, files: [SectionedFileReader], shards: [Plan.Shard]) throws -> [SortedAnchors.Entry] {
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
}
