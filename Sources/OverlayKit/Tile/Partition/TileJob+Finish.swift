import Foundation
import OverlayModel

// Step 4 of a split run: the zooms above the partitions, and the output written.
extension TileJob {
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
                let low = try ShardFeatureStore.passedOn(plan.partitions.map { File.partitionLow($0.index).path(in: work) },
                                                         folder: temporaryFolder)
                let zooms = try TilePyramid.build(low, root: TileID(z: 0, x: 0, y: 0), options: options,
                                                  minZoom: options.minZoom, lastZoom: plan.partitionZoom - 1,
                                                  parallelism: tiler.threads, readsDeferred: true,
                                                  emit: sink.write, emitBlock: sink.writeBlock)
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

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }
}
