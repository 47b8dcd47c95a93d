import Foundation
import OverlayModel

/// Decodes row groups on worker threads and hands them over in order: a worker takes the next
/// row group not yet taken, at most `window` row groups past the one the caller waits for, so
/// memory stays bounded by `window` decoded row groups whatever the file's size. The caller
/// sees exactly what decoding them one after another gives, errors included, at the same
/// point: each row group is decoded alone, by the same code. `Output` is what a worker makes of
/// one row group: its features, or less (`info`'s summary of them, so features never cross threads).
final class OrderedRowGroupDecoder<Output: Sendable>: @unchecked Sendable {
    /// One row group's output, or why it could not be decoded.
    typealias Outcome = Result<Output, any Error>

    // Every field below is read and written under `condition`.
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private let decode: @Sendable (Int) -> Outcome
    private var nextToTake = 0
    private var nextToHand = 0
    private var done: [Int: Outcome] = [:]
    private var cancelled = false

    /// Starts `threads` workers decoding tasks `0..<count` with `decode`.
    /// - Parameters:
    ///   - count: how many tasks (row groups) there are.
    ///   - threads: worker threads (at least 1; none are started for fewer than 2 tasks).
    ///   - window: how many decoded tasks may wait beyond the one handed next (at least `threads`).
    ///   - decode: decodes one task; called on a worker thread.
    /// - Throws: `Diagnostic` `io.thread-failed` when no worker can be started.
    init(count: Int, threads: Int, window: Int, decode: @escaping @Sendable (Int) -> Outcome) throws {
        self.count = count
        self.window = max(window, threads, 1)
        self.decode = decode
        for _ in 0..<max(1, min(threads, count)) {
            try WorkerThreads.startDetached { [self] in work() }
        }
    }

    /// Stops the workers after the task each is decoding (the reader is gone).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// The outcome of the next task in order, waiting for it; nil after the last.
    func next() -> Outcome? {
        condition.lock()
        defer { condition.unlock() }
        guard nextToHand < count else { return nil }
        while done[nextToHand] == nil { condition.wait() }
        let outcome = done.removeValue(forKey: nextToHand)
        nextToHand += 1
        condition.broadcast()  // a worker may wait for room in the window
        return outcome
    }

    /// A worker: takes tasks in order while there is room in the window.
    private func work() {
        while true {
            condition.lock()
            while !cancelled && nextToTake < count && nextToTake >= nextToHand + window { condition.wait() }
            guard !cancelled, nextToTake < count else {
                condition.unlock()
                return
            }
            let task = nextToTake
            nextToTake += 1
            condition.unlock()
            let outcome = decode(task)
            condition.lock()
            done[task] = outcome
            condition.broadcast()
            condition.unlock()
        }
    }
}
