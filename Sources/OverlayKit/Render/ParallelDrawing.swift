import Foundation
import OverlayModel

/// The drawing pass over a GeoJSON text sequence file in parts, side by side: the file is cut at
/// record boundaries (`SequenceRecordBoundaries`), the calling thread reads and draws the first
/// part, and each later part is read on a thread of its own into a `SnapshotContent` of its own
/// (marks for the camera, points laid out in a layout bounded by the picture). What must keep
/// input order — overlay marks and warnings — waits in a small queue per part, which the calling
/// thread drains in order once the parts before are done; the parts' contents are then joined in
/// order (`SnapshotStream.append`), so the picture and the report are those of one reader.
///
/// No feature is handed from thread to thread: a file of points costs each thread its own
/// parsing and nothing else. A part that fails (a bad record, or a cut that was not a boundary
/// in invalid text) is read again from its start, which the parts before proved to be a boundary
/// by parsing cleanly, to the end of the file on the calling thread, past the features it had
/// already given: so the first error, and everything drawn and warned before it, are exactly
/// what one reader gives. Clustered points depend on the order of every point, so a stream
/// that clusters is not drawn in parts.
enum ParallelDrawing {
    /// Overlay marks and warnings a part hands over at a time.
    static let batchSize = 64
    /// Batches that may wait per part: with `batchSize`, what bounds the marks held in between.
    static let queuedBatches = 2

    /// Draws the parts `parts` (byte ranges of `file`, in order, covering it) into `stream`.
    /// - Parameter onWarning: every warning, in input order, located in the whole file.
    /// - Throws: the first error in input order, located as one reader locates it; the output's
    ///   write errors; `io.thread-failed` when no thread can be started.
    static func draw(_ file: ByteInput, parts: [Range<Int>], into stream: inout SnapshotStream,
                     onWarning: (Diagnostic) -> Void) throws {
        precondition(parts.count > 1 && stream.canDrawInParts, "ParallelDrawing.draw needs parts and no clustering")
        let jobs = parts.dropFirst().map { Job(file: file, part: $0, content: stream.partContent()) }
        var failure: (any Error)?
        try WorkerThreads.runJoined(jobs.map { job in { job.run() } }, onCallingThread: {
            do {
                try drawInOrder(file, parts: parts, jobs: jobs, into: &stream, onWarning: onWarning)
            } catch {
                failure = error
            }
            for job in jobs { job.queue.cancel() }
        })
        if let failure { throw failure }
    }

    /// The calling thread's share: reads and draws the first part, then takes each later part's
    /// overlays, warnings and content in order.
    private static func drawInOrder(_ file: ByteInput, parts: [Range<Int>], jobs: [Job], into stream: inout SnapshotStream,
                                    onWarning: (Diagnostic) -> Void) throws {
        let end = parts[parts.count - 1].upperBound
        var reader = try reader(file, parts[0])
        var features = 0
        while true {
            let next: Feature?
            do {
                next = try reader.next()
            } catch {
                // Perhaps a record cut short by a cut that was not a boundary: read on past it.
                try readRest(file, from: parts[0].lowerBound..<end, skipping: features, newlinesBefore: 0, recordsBefore: 0,
                             onWarning: onWarning) { feature in try stream.add(feature) }
                return
            }
            guard let feature = next else { break }
            reader.takeWarnings().forEach(onWarning)
            if let warning = PolarLatitudes.warning(for: feature) { onWarning(warning) }
            features += 1
            try stream.add(feature)
        }
        reader.takeWarnings().forEach(onWarning)
        var newlinesBefore = reader.newlinesRead, recordsBefore = reader.recordsRead
        for job in jobs {
            func located(_ diagnostic: Diagnostic) -> Diagnostic {
                SequenceRecordBoundaries.renumbered(diagnostic, newlinesBefore: newlinesBefore, recordsBefore: recordsBefore)
            }
            while true {
                let (events, ending) = job.queue.take()
                for event in events {
                    switch event {
                    case .overlays(let marks): try stream.add(partOverlays: marks)
                    case .warning(let warning): onWarning(located(warning))
                    }
                }
                guard let ending else { continue }
                switch ending {
                case .finished(let content, let newlines, let records):
                    stream.append(content)
                    newlinesBefore += newlines
                    recordsBefore += records
                case .failed(var content, let features):
                    try readRest(file, from: job.part.lowerBound..<end, skipping: features, newlinesBefore: newlinesBefore,
                                 recordsBefore: recordsBefore, onWarning: onWarning) { feature in
                        if let marks = content.take(feature) { try stream.add(partOverlays: marks) }
                    }
                    stream.append(content)
                    return
                }
                break
            }
        }
    }

    /// A reader of one part: the file's own at its start, a continuing one inside it.
    private static func reader(_ file: ByteInput, _ part: Range<Int>) throws -> GeoJSONReader {
        guard let input = file.slice(part) else {
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read bytes \(part) of the input")
        }
        var reader = part.lowerBound == 0 ? GeoJSONReader(input: input) : GeoJSONReader(continuing: input)
        reader.parsesPositionsAhead = false  // one reader per core already
        return reader
    }

    /// Reads `range` (from a proven record boundary to the end of the file) past its first
    /// `skipping` features, which were drawn already, and hands on the rest with their warnings.
    private static func readRest(_ file: ByteInput, from range: Range<Int>, skipping: Int, newlinesBefore: Int,
                                 recordsBefore: Int, onWarning: (Diagnostic) -> Void,
                                 take: (Feature) throws -> Void) throws {
        func located(_ diagnostic: Diagnostic) -> Diagnostic {
            SequenceRecordBoundaries.renumbered(diagnostic, newlinesBefore: newlinesBefore, recordsBefore: recordsBefore)
        }
        var reader = try reader(file, range)
        func next() throws -> Feature? {
            do {
                return try reader.next()
            } catch let diagnostic as Diagnostic {
                throw located(diagnostic)
            }
        }
        for _ in 0..<skipping {
            guard try next() != nil else { return }
            _ = reader.takeWarnings()
        }
        while let feature = try next() {
            reader.takeWarnings().map(located).forEach(onWarning)
            if let warning = PolarLatitudes.warning(for: feature) { onWarning(located(warning)) }
            try take(feature)
        }
        reader.takeWarnings().map(located).forEach(onWarning)
    }

    /// What a part hands over in input order.
    enum Event {
        /// A feature's overlay marks, numbered within the part.
        case overlays(FeatureMarker.Marks)
        /// A warning, located within the part.
        case warning(Diagnostic)
    }

    /// How a part ended.
    enum Ending {
        /// Read to its end: its content, and the newlines and records it held.
        case finished(SnapshotContent, newlines: Int, records: Int)
        /// Its reader threw after `features` features, which `content` holds.
        case failed(SnapshotContent, features: Int)
    }

    /// One later part, read on a thread of its own. `@unchecked Sendable`: the job's fields are
    /// used by its thread only; what it hands over goes through `queue`.
    private final class Job: @unchecked Sendable {
        let file: ByteInput
        let part: Range<Int>
        let queue = PartQueue()
        private var content: SnapshotContent

        init(file: ByteInput, part: Range<Int>, content: SnapshotContent) {
            self.file = file
            self.part = part
            self.content = content
        }

        func run() {
            var pending = [Event]()
            guard let input = file.slice(part) else {
                queue.end(pending, .failed(content, features: 0))
                return
            }
            var reader = GeoJSONReader(continuing: input)
            do {
                while let feature = try reader.next() {
                    for warning in reader.takeWarnings() { pending.append(.warning(warning)) }
                    if let warning = PolarLatitudes.warning(for: feature) { pending.append(.warning(warning)) }
                    if var marks = content.take(feature) {
                        marks.points = []
                        pending.append(.overlays(marks))
                    }
                    if pending.count >= ParallelDrawing.batchSize {
                        guard queue.put(pending) else { return }
                        pending.removeAll(keepingCapacity: true)
                    }
                }
                for warning in reader.takeWarnings() { pending.append(.warning(warning)) }
                queue.end(pending, .finished(content, newlines: reader.newlinesRead, records: reader.recordsRead))
            } catch {
                queue.end(pending, .failed(content, features: content.features.read))
            }
        }
    }

    /// The bounded hand-over of one part's events. `@unchecked Sendable`: every field is read
    /// and written under `condition`.
    private final class PartQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var batches: [[Event]] = []
        private var ending: Ending?
        private var cancelled = false

        /// Waits for room; false once cancelled (the calling thread is gone).
        func put(_ events: [Event]) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while batches.count >= ParallelDrawing.queuedBatches && !cancelled { condition.wait() }
            guard !cancelled else { return false }
            batches.append(events)
            condition.broadcast()
            return true
        }

        /// Hands over the last events and how the part ended (never waits).
        func end(_ events: [Event], _ how: Ending) {
            condition.lock()
            defer { condition.unlock() }
            if !events.isEmpty { batches.append(events) }
            ending = how
            condition.broadcast()
        }

        /// Waits for the next batch, or for the ending once every batch is taken.
        func take() -> ([Event], Ending?) {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty && ending == nil { condition.wait() }
            if !batches.isEmpty {
                let batch = batches.removeFirst()
                condition.broadcast()
                return (batch, nil)
            }
            return ([], ending)
        }

        /// Stops the part's thread at its next hand-over.
        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
