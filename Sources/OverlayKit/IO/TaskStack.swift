import Foundation

/// Tasks that may push more tasks, run on a fixed number of threads until none is left: the
/// disk store's pyramid walk, where cutting a tile while its records are read yields its
/// children's cuts and an in-memory subtree is a task of its own, so a core never waits for a
/// batch's slowest subtree or for the tile being cut from disk.
///
/// Tasks are taken last in, first out, so the walk stays depth-first: the records on disk are
/// about one path of tiles deep, as a one-thread walk leaves them.
final class TaskStack: @unchecked Sendable {
    /// One unit of work; it may push more onto the stack it is given.
    typealias Task = @Sendable (TaskStack) throws -> Void

    private let condition = NSCondition()
    private var tasks = [Task]()
    private var running = 0
    private var failure: Error?

    private init() {}

    /// Runs `first` and every task pushed from then on, on `threads` threads (the calling
    /// thread alone when 1), and returns when all have run.
    /// - Throws: the first error a task threw; no task starts after it (those running finish);
    ///   `Diagnostic` `io.thread-failed` when a thread cannot be started.
    static func run(threads: Int, _ first: @escaping Task) throws {
        let stack = TaskStack()
        stack.tasks.append(first)
        if threads <= 1 {
            stack.work()
        } else {
            let work: @Sendable () -> Void = { stack.work() }
            try WorkerThreads.runJoined(Array(repeating: work, count: threads - 1), onCallingThread: work)
        }
        if let failure = stack.failure { throw failure }
    }

    /// Adds a task; an idle thread takes it.
    func push(_ task: @escaping Task) {
        condition.lock()
        tasks.append(task)
        condition.signal()
        condition.unlock()
    }

    /// Takes tasks until the stack is empty and no running task can push more, or one failed.
    private func work() {
        condition.lock()
        while true {
            while tasks.isEmpty && running > 0 && failure == nil { condition.wait() }
            if failure != nil || tasks.isEmpty { break }
            let task = tasks.removeLast()
            running += 1
            condition.unlock()
            let outcome = Result { try task(self) }
            condition.lock()
            running -= 1
            if case .failure(let error) = outcome, failure == nil { failure = error }
            condition.broadcast()
        }
        condition.broadcast()
        condition.unlock()
    }
}
