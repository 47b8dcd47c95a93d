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
        typealias Shard = ShardFeatureStore.Shard

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
        // Owned points per partition, and the key of its last point.
        var owned = [Int: ShardFeatureStore.OwnedPoints]()
        for summary in summaries {
            for entry in summary.owned {
                var sum = owned[entry.partition, default: .init(points: 0, lastPointKey: nil)]
                sum.points += entry.points
                if let key = entry.lastPointKey { sum.lastPointKey = max(sum.lastPointKey ?? key, key) }
                owned[entry.partition] = sum
            }
        }
        var store = try ShardFeatureStore(paths: shards.map { File.shardRecords($0.number).path(in: work) }, shards: shards,
                                          partitionZoom: partitionZoom, owned: owned, folder: temporaryFolder)
        // The decisions one run settles from its store, settled by the same step from the shards'.
        try FeatureSettling.settle(&options, store: &store, vertexSpacing: merged.vertexSpacing, sketch: nil,
                                   featureCount: merged.counts.features)
        let partitions = store.partitions.map { Plan.Partition(index: $0, thinning: store.thinningStates[$0]) }
        var shadows = [Set<UInt64>]()
        for summary in summaries {
            for (zoom, tiles) in summary.shadows.enumerated() {
                while shadows.count <= zoom { shadows.append([]) }
                shadows[zoom].formUnion(tiles)
            }
        }
        if options.sharedBorders { try save(bytes: store.sharedBordersThrough, to: .sharedBorders) }
        let facts = TileSetFacts(options: options, boundingMapRect: merged.bounds, layers: merged.layers,
                                 layerSummaries: merged.layerSummaries, losses: merged.losses, inputCounts: merged.counts)
        let plan = Plan(facts: facts, partitionZoom: partitionZoom, shards: shards, partitions: partitions,
                        uncoercible: merged.uncoercible, filteredOut: merged.filteredOut,
                        invalidZoomMembers: merged.invalidZoomMembers,
                        unmatchedPropertyNames: merged.namedProperties.subtracting(merged.namesSeen).sorted(),
                        longitudeExtent: merged.longitudeExtent, reach: merged.reach,
                        thinningShadows: shadows.map { $0.sorted() })
        try save(plan, to: .plan)
        return store.partitions
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
}
