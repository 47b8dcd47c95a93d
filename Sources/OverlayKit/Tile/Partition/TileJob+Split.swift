import Foundation
import OverlayModel

// Step 1 of a split run: each shard of the input projected and filed by partition.
extension TileJob {
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
        let writer = try ShardFileWriter(path: File.shardRecords(shard).path(in: work))
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
        return ShardReport(features: projection.counts.features, partitions: writer.partitions.count)
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
}
