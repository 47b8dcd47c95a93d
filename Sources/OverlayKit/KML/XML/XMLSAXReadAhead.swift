import Foundation
import OverlayModel

/// libxml2's parse on a thread of its own: the `Source` pushes the next chunks and fills
/// batches of SAX events while the reader's thread walks the batches already filled (issue 50:
/// the push parse with its callbacks was ~250 M of the 12 MB KML's ~620 M instructions on the
/// reading thread). The reader takes batches in order, so the nodes, their text and every
/// diagnostic are those of the same batches pushed on the reader's own thread.
///
/// Three batches circulate besides the one being filled: at most two chunks are parsed ahead.
/// `@unchecked Sendable`: the shared fields are read and written under `condition`; the
/// source only by the thread, from its start on.
final class SAXReadAhead: @unchecked Sendable {
    private let condition = NSCondition()
    /// Filled batches, oldest first.
    private var ready: [SAXBatch] = []
    /// Batches the reader has read, to be filled again.
    private var free: [SAXBatch] = [SAXBatch(), SAXBatch()]
    private var cancelled = false

    /// Starts filling batches from `source`, which only the new thread uses from now on.
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    init(source: XMLStreamReader.Source) throws {
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

    private func takeFree() -> SAXBatch? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !cancelled { condition.wait() }
        return cancelled ? nil : free.removeLast()
    }

    private func put(_ batch: SAXBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }

    /// The next filled batch, waiting for it; `read` (the batch the reader is done with) is
    /// filled again.
    func take(returning read: SAXBatch) -> SAXBatch {
        condition.lock()
        defer { condition.unlock() }
        free.append(read)
        condition.broadcast()
        while ready.isEmpty { condition.wait() }
        return ready.removeFirst()
    }

    /// Stops the thread at its next hand-over (the reader is gone).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
