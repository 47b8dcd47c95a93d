import Foundation
import OverlayModel

// Step 3 of a split run: one partition's tiles cut from its features.
extension TileJob {
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
        // With shared borders, the plan's decision of which features tiles hold back.
        let shared = options.sharedBorders ? try Self.loadBytes(from: File.sharedBorders.path(in: work)) : []
        var states = [Int: PointThinning.Walker.State]()
        for entry in plan.partitions { states[entry.index] = entry.thinning }
        let store = try ShardFeatureStore(paths: plan.shards.map { File.shardRecords($0.number).path(in: work) }, shards: plan.shards,
                                          partitionZoom: plan.partitionZoom, owned: [:], folder: temporaryFolder)
        try store.load(partition: partition, states: states, lowShadows: plan.thinningShadows, shared: shared, options: options)
        // The partition's tiles, logged for the finish.
        var sinkTiler = tiler
        sinkTiler.options = options
        let log = try TileLogWriter(path: File.partitionTiles(partition).path(in: work),
                                    storesBlocksOnce: sinkTiler.outputStoresBlocksOnce())
        let sink = sinkTiler.makeSink(writer: log, layers: plan.facts.layers)
        let root = PartitionRouter.tile(ofIndex: partition, zoom: plan.partitionZoom)
        let zooms = try TilePyramid.build(store.zoomZero, root: root, options: options, minZoom: options.minZoom,
                                          lastZoom: options.maxZoom, parallelism: tiler.threads, readsDeferred: true,
                                          emit: sink.write, emitBlock: sink.writeBlock)
        try log.commit()
        // Its owned features, whole, for the zooms above the partitions.
        if plan.partitionZoom > 0 { try store.passOn(to: File.partitionLow(partition).path(in: work)) }
        let report = PartitionReport(zooms: zooms)
        try save(report, to: .partitionReport(partition))
        return report
    }

    /// Where temporary record files go: the run's `temporaryDirectory`, `$TMPDIR`, else /tmp.
    var temporaryFolder: String {
        tiler.temporaryDirectory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
