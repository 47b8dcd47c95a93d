import Foundation
import OverlayModel

/// libxml2's parse on a thread of its own: the `Source` pushes the next chunks and fills
/// batches of SAX events while the reader's thread walks the batches already filled (issue 50:
/// the push parse with its callbacks was ~250 M of the 12 MB KML's ~620 M instructions on the
/// reading thread). The reader takes batches in order, so the nodes, their text and every
/// diagnostic are those of the same batches pushed on the reader's own thread.
///
/// `depth` batches circulate besides the one being filled: at most that many chunks are
/// parsed ahead. Either side that has to wait is woken only once half the depth is ready for
/// it (or the other side is about to wait, or the document ended): with one batch per 64 KB
/// chunk, a wake-up per batch was ~1,500 waits on the scheduler for a 98 MB KML.
/// `@unchecked Sendable`: the shared fields are read and written under `condition`; the
/// source only by the thread, from its start on.
final class SAXReadAhead: @unchecked Sendable {
    /// Batches in circulation besides the one being filled (at least 2).
    static let depth = 16
    private let condition = NSCondition()
    /// Filled batches, oldest first, from `readyHead` on.
    private var ready: [SAXBatch?] = []
    private var readyHead = 0
    /// Batches the reader has read, to be filled again.
    private var free: [SAXBatch]
    private var cancelled = false
    private var readerWaiting = false
    private var fillerWaiting = false
    /// How many batches the waiting side is woken for.
    private var wakeAt: Int { max(1, SAXReadAhead.depth / 2) }
    /// How many times each side waited (tests: the hand-overs stay few).
    private(set) var readerWaits = 0
    private(set) var fillerWaits = 0

    /// Starts filling batches from `source`, which only the new thread uses from now on.
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    init(source: XMLStreamReader.Source) throws {
        free = (0..<max(2, SAXReadAhead.depth)).map { _ in SAXBatch() }
        try WorkerThreads.startDetached { [self] in run(source) }
    }

    /// The thread: fills batches until the document's last one or cancellation.
    private func run(_ source: XMLStreamReader.Source) {
        while let spare = takeFree() {
            let done = source.complete(recycling: spare)
            guard put(done) else { return }
            if done.isLast { return }
        }
    }

    private var readyCount: Int { ready.count - readyHead }

    private func takeFree() -> SAXBatch? {
        condition.lock()
        defer { condition.unlock() }
        if free.isEmpty && !cancelled {
            fillerWaits += 1
            fillerWaiting = true
            while free.isEmpty && !cancelled { condition.wait() }
            fillerWaiting = false
        }
        return cancelled ? nil : free.removeLast()
    }

    private func put(_ batch: SAXBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled else { return false }
        ready.append(batch)
        // Wake the reader once half the depth is ready, at the end, or before waiting here.
        if readerWaiting && (readyCount >= wakeAt || batch.isLast || free.isEmpty) { condition.broadcast() }
        return true
    }

    /// The next filled batch, waiting for it; `read` (the batch the reader is done with) is
    /// filled again.
    func take(returning read: SAXBatch) -> SAXBatch {
        condition.lock()
        defer { condition.unlock() }
        free.append(read)
        // Wake the filler once half the depth is free, or before waiting here.
        if fillerWaiting && (free.count >= wakeAt || readyCount == 0) { condition.broadcast() }
        if readyCount == 0 {
            readerWaits += 1
            readerWaiting = true
            while readyCount == 0 { condition.wait() }
            readerWaiting = false
        }
        let batch = ready[readyHead]!
        ready[readyHead] = nil
        readyHead += 1
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        return batch
    }

    /// Stops the thread at its next hand-over (the reader is gone).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
