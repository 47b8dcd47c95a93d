import OverlayModel

/// Measures the extent of a GeoJSON text sequence file in parts, side by side: the file is cut
/// at record boundaries (`SequenceRecordBoundaries`), each part is read by a reader of its own
/// on a thread of its own into a `FitExtent`, and the extents are merged (the merge does not
/// depend on the order, so the rect is what one reader gives).
enum ParallelExtent {
    /// The extent of the file cut into `parts` (byte ranges, in order, covering it), or nil when
    /// a part fails to read (a bad record, or a cut that was not a boundary in invalid text):
    /// then one reader measures it and finds the first error as it is.
    /// - Throws: `Diagnostic` `io.thread-failed`.
    static func measure(_ file: ByteInput, parts: [Range<Int>]) throws -> MapRect? {
        let jobs = parts.map { Job(file: file, part: $0) }
        try WorkerThreads.runJoined(jobs.dropFirst().map { job in { job.run() } }, onCallingThread: { jobs[0].run() })
        var merged = FitExtent()
        for job in jobs {
            guard let extent = job.extent else { return nil }
            merged.merge(extent)
        }
        return merged.mapRect
    }

    /// One part, measured on whichever thread runs it. `@unchecked Sendable`: `extent` is
    /// written by the one thread that runs the job and read only after that thread is joined.
    private final class Job: @unchecked Sendable {
        let file: ByteInput
        let part: Range<Int>
        private(set) var extent: FitExtent?

        init(file: ByteInput, part: Range<Int>) {
            self.file = file
            self.part = part
        }

        func run() {
            guard let input = file.slice(part) else { return }
            var reader = part.lowerBound == 0 ? GeoJSONReader(input: input) : GeoJSONReader(continuing: input)
            reader.parsesPositionsAhead = false  // one reader per core already
            reader.readsShapesOnly = true
            extent = try? FitExtent.measuring(&reader)
        }
    }
}
