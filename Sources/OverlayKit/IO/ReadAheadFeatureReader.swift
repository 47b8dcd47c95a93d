import Foundation
import OverlayModel

/// Reads features on a second thread while the caller works on those already read: parsing
/// overlaps writing (`convert`) or summarizing (`info`), the split that uses a second core
/// without changing a byte of the result.
///
/// The features, the warnings that came with each and any error arrive in the order the wrapped
/// reader produced them, so a caller sees exactly what it would have seen reading directly. At
/// most `depth` features wait in between, which bounds the memory read ahead. Only the reading
/// thread touches the wrapped reader after `init`.
public final class ReadAheadFeatureReader: FeatureReader {
    private let queue: Queue
    private var warnings: [Diagnostic] = []
    private var ended = false
    /// The wrapped reader's context, complete once ``next()`` has returned nil.
    public private(set) var documentContext = DocumentContext()

    /// Starts reading `reader` ahead on a thread of its own.
    /// - Parameters:
    ///   - reader: the reader to read ahead; only the reading thread uses it from now on.
    ///   - depth: how many features may wait to be taken (at least 1).
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    public init(_ reader: any FeatureReader, depth: Int = 8) throws {
        queue = Queue(reader: reader, depth: max(1, depth))
        try queue.startReading()
    }

    deinit { queue.cancel() }

    /// `reader` read ahead on a second thread when this process may run on more than one core,
    /// else `reader` itself (a second thread on one core would only add hand-over costs).
    /// - Parameter reader: the reader to wrap.
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    public static func whenUseful(_ reader: any FeatureReader) throws -> any FeatureReader {
        usableCores > 1 ? try ReadAheadFeatureReader(reader) : reader
    }

    /// The cores this process may run on: its CPU affinity on Linux (`taskset`, container
    /// cpusets), which `ProcessInfo.activeProcessorCount` ignores; the active count elsewhere.
    package static var usableCores: Int {
        #if os(Linux)
        // `Cpus_allowed:\t3` (a hex mask, comma-grouped) in /proc/self/status; Glibc's module
        // does not export sched_getaffinity.
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) {
            let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { $0 + ($1.hexDigitValue ?? 0).nonzeroBitCount }
            if count > 0 { return count }
        }
        #endif
        return ProcessInfo.processInfo.activeProcessorCount
    }

    /// The next feature, with the warnings read with it kept for ``takeWarnings()``; an error
    /// of the wrapped reader is thrown at the same point in the sequence.
    public func next() throws -> Feature? {
        guard !ended else { return nil }
        switch queue.take() {
        case .feature(let feature, let found):
            warnings += found
            return feature
        case .failure(let error, let found):
            warnings += found
            throw error
        case .end(let found, let context):
            warnings += found
            documentContext = context
            ended = true
            return nil
        }
    }

    /// Warnings that came with the features taken since the last call.
    public func takeWarnings() -> [Diagnostic] {
        defer { warnings.removeAll() }
        return warnings
    }

    /// One step of the wrapped reader, as the reading thread hands it over.
    private enum Item {
        case feature(Feature, [Diagnostic])
        case failure(any Error, [Diagnostic])
        case end([Diagnostic], DocumentContext)
    }

    /// The bounded hand-over between the reading thread and the caller. `@unchecked Sendable`:
    /// every shared field is read and written under `condition`; `reader` only by the reading thread.
    private final class Queue: @unchecked Sendable {
        private var reader: any FeatureReader
        private let depth: Int
        private let condition = NSCondition()
        /// Taken items are nil: the queue keeps no reference to a feature it handed over, so the
        /// taker may own it alone (a long line's vertices are then reused, not copied).
        private var items: [Item?] = []
        private var head = 0
        private var cancelled = false
        /// How many items the other side waits for before it is woken (half the depth).
        private var wakeAt: Int { max(1, depth / 2) }
        private var consumerWaiting = false
        private var producerWaiting = false

        init(reader: any FeatureReader, depth: Int) {
            self.reader = reader
            self.depth = depth
        }

        /// Starts the reading thread (with a main-thread-sized stack, see `WorkerThreads`).
        func startReading() throws {
            try WorkerThreads.startDetached { self.readAll() }
        }

        /// The reading thread: calls the reader as a caller would, until its end or cancellation.
        /// After an error it goes on (some callers resume past a bad feature), still bounded by
        /// `depth` and stopped by `cancel()`.
        private func readAll() {
            while true {
                let item: Item
                do {
                    if let feature = try reader.next() {
                        item = .feature(feature, reader.takeWarnings())
                    } else {
                        item = .end(reader.takeWarnings(), reader.documentContext)
                    }
                } catch {
                    item = .failure(error, reader.takeWarnings())
                }
                guard put(item) else { return }
                if case .end = item { return }
            }
        }

        /// Waits for room; false once cancelled. The taker is woken only once half the queue is
        /// ready (or at the end, or on an error): a wake-up per feature cost more than the overlap
        /// gained on files of many small features (5,784 placemarks: `info` 10 % slower).
        private func put(_ item: Item) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while items.count - head >= depth && !cancelled {
                producerWaiting = true
                condition.wait()
                producerWaiting = false
            }
            guard !cancelled else { return false }
            items.append(item)
            let terminal: Bool
            if case .feature = item { terminal = false } else { terminal = true }
            if consumerWaiting && (terminal || items.count - head >= wakeAt) { condition.broadcast() }
            return true
        }

        /// Waits for the next item; wakes the reading thread once half the queue is free.
        func take() -> Item {
            condition.lock()
            defer { condition.unlock() }
            while head == items.count {
                consumerWaiting = true
                condition.wait()
                consumerWaiting = false
            }
            guard let item = items[head].take() else { preconditionFailure("an item taken twice") }
            head += 1
            if head > 64 && head * 2 > items.count {  // drop taken items now and then, not per take
                items.removeFirst(head)
                head = 0
            }
            if producerWaiting && items.count - head <= depth - wakeAt { condition.broadcast() }
            return item
        }

        /// Stops the reading thread at its next hand-over (the caller is gone).
        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
