import Foundation
import OverlayModel

/// Parses and projects a GeoJSON text sequence on several threads (tippecanoe's `-P`): the file
/// is cut at record boundaries (``SequenceRecordBoundaries``), each part is read by a reader of
/// its own and projected into a projection of its own, and the parts are joined in file order.
///
/// The result is what one thread gives, byte for byte: source indices and generated ids move
/// past the features of earlier parts, longitude extents merge exactly, and every warning's
/// line and JSON Pointer are renumbered by the newlines and records before its part. A part
/// whose reader fails (a bad record, or a cut that was not a boundary in invalid text) is read
/// again with everything after it on the calling thread, from its start, which earlier parts
/// proved to be a boundary by parsing cleanly to their end: so the first error, and the warnings
/// before it, are exactly those one reader would find. Each thread also encodes its part's
/// properties for MVT (``MVTPropertyTable``), and the tables are joined in order, numbered as
/// one table of the whole input would be.
enum ParallelSequenceProjection {
    /// The smallest part worth a thread of its own: below it the thread costs more than it saves.
    static let minimumPartBytes = 4 << 20

    /// Projects the parts `parts` (byte ranges of `file`, in order, covering it) side by side.
    /// - Parameter onWarning: every warning, in input order, once the parts before it are done.
    /// - Returns: the projection of the whole file, and its property table.
    /// - Throws: the first error in input order, with its location as one reader gives it;
    ///   `io.thread-failed` when no thread can be started.
    static func project(_ file: ByteInput, parts: [Range<Int>], options: TileOptions, diskFolder: String? = nil,
                        position: SharedReadPosition? = nil,
                        onWarning: (Diagnostic) -> Void) throws -> (FeatureProjection, MVTPropertyTable) {
        let jobs = parts.enumerated().map { index, part in
            Job(file: file, part: part, options: options, diskFolder: diskFolder, position: position.map { ($0, index) })
        }
        try WorkerThreads.runJoined(jobs.dropFirst().map { job in { job.run() } }, onCallingThread: { jobs[0].run() })
        var merged = try FeatureProjection(options: options, diskFolder: diskFolder)
        var tables = [MVTPropertyTable]()
        var newlinesBefore = 0, recordsBefore = 0
        for job in jobs {
            guard let outcome = job.outcome, outcome.error == nil else {
                // Read again, to the end of the file, from this part's proven start.
                let rest = Job(file: file, part: job.part.lowerBound..<parts[parts.count - 1].upperBound, options: options,
                               diskFolder: diskFolder)
                rest.run()
                guard let outcome = rest.outcome else { throw Self.lostPart(job.part) }
                try finish(outcome, into: &merged, newlinesBefore: newlinesBefore, recordsBefore: recordsBefore,
                           onWarning: onWarning)
                tables.append(outcome.propertyTable)
                return (merged, MVTPropertyTable(joining: tables))
            }
            try finish(outcome, into: &merged, newlinesBefore: newlinesBefore, recordsBefore: recordsBefore,
                       onWarning: onWarning)
            tables.append(outcome.propertyTable)
            newlinesBefore += outcome.newlines
            recordsBefore += outcome.records
        }
        return (merged, MVTPropertyTable(joining: tables))
    }

    /// Hands a part's warnings on renumbered, appends its features, and throws its error.
    private static func finish(_ outcome: Outcome, into merged: inout FeatureProjection, newlinesBefore: Int,
                               recordsBefore: Int, onWarning: (Diagnostic) -> Void) throws {
        for warning in outcome.warnings {
            onWarning(SequenceRecordBoundaries.renumbered(warning, newlinesBefore: newlinesBefore, recordsBefore: recordsBefore))
        }
        if let error = outcome.error {
            if let diagnostic = error as? Diagnostic {
                throw SequenceRecordBoundaries.renumbered(diagnostic, newlinesBefore: newlinesBefore, recordsBefore: recordsBefore)
            }
            throw error
        }
        merged.append(outcome.projection)
    }

    private static func lostPart(_ part: Range<Int>) -> Diagnostic {
        Diagnostic(.error, code: .ioReadFailed, message: "cannot read bytes \(part) of the input again")
    }

    /// What reading one part gave.
    struct Outcome {
        var projection: FeatureProjection
        /// The part's properties encoded for MVT (empty after an error: it is not used then).
        var propertyTable: MVTPropertyTable
        /// Warnings in input order, located within the part.
        var warnings: [Diagnostic]
        /// The reader's error, which ended the part early.
        var error: (any Error)?
        /// Newlines and records in the part (meaningful when it ended without an error).
        var newlines: Int
        var records: Int
    }

    /// One part, read and projected on whichever thread runs it. `@unchecked Sendable`: `outcome`
    /// is written by the one thread that runs the job and read only after that thread is joined.
    private final class Job: @unchecked Sendable {
        let file: ByteInput
        let part: Range<Int>
        let options: TileOptions
        let diskFolder: String?
        private(set) var outcome: Outcome?

        /// Where the part's bytes and features read are summed with the others' (for progress), and its place there.
        let position: (shared: SharedReadPosition, index: Int)?

        init(file: ByteInput, part: Range<Int>, options: TileOptions, diskFolder: String?,
             position: (shared: SharedReadPosition, index: Int)? = nil) {
            self.position = position
            self.file = file
            self.part = part
            self.options = options
            self.diskFolder = diskFolder
        }

        /// Reads the part as `TileSource.init(reading:options:onWarning:)` reads a whole input.
        func run() {
            // Options were validated before the parts were cut; the slice exists for a regular file.
            guard let input = file.slice(part),
                  var projection = try? FeatureProjection(options: options, diskFolder: diskFolder) else { return }
            var reader = part.lowerBound == 0 ? GeoJSONReader(input: input) : GeoJSONReader(continuing: input)
            reader.parsesPositionsAhead = false  // one reader per core already
            var warnings = [Diagnostic]()
            var failure: (any Error)?
            do {
                var features = 0
                while let feature = try reader.next() {
                    warnings += reader.takeWarnings()
                    if let warning = PolarLatitudes.warning(for: feature) { warnings.append(warning) }
                    try projection.add(feature)
                    features += 1
                    if features & 1023 == 0, let position {
                        position.shared.update(position.index, bytes: input.bytesRead, features: features)
                    }
                }
                warnings += reader.takeWarnings()
            } catch {
                failure = error
            }
            let table = MVTPropertyTable(failure == nil ? projection.attributes : [])
            outcome = Outcome(projection: projection, propertyTable: table, warnings: warnings, error: failure,
                              newlines: reader.newlinesRead, records: reader.recordsRead)
        }
    }
}
