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
    var temporaryFolder: String {
        tiler.temporaryDirectory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
