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
    func lowRecords(_ plan: Plan) throws -> (runs: [RecordRun], usage: RecordFileUsage) {
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

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }
}
