import Dispatch
import Foundation

/// Runs work items side by side on up to a given number of threads: the in-memory pyramid's
/// subtrees (the disk walk, whose tasks make tasks, uses `TaskStack`).
enum Parallel {
    /// `body` of every index of `indices` on at most `parallelism` threads (the calling thread
    /// alone when 1), results in index order.
    /// - Throws: the error of the lowest index that failed (the others still finish).
    static func map<Result>(_ indices: Range<Int>, parallelism: Int,
                            _ body: @escaping @Sendable (Int) throws -> Result) throws -> [Result] {
        if parallelism <= 1 || indices.count <= 1 { return try indices.map(body) }
        let box = Box<Result>(count: indices.count)
        let workers = min(parallelism, indices.count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = box.claim() {
                let outcome = Swift.Result { try body(indices.lowerBound + index) }
                box.store(outcome, at: index)
            }
        }
        return try box.results.map { try $0!.get() }
    }

    private final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private let count: Int
        private(set) var results: [Swift.Result<Value, Error>?]

        init(count: Int) {
            self.count = count
            results = Array(repeating: nil, count: count)
        }

        func claim() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }

        func store(_ result: Swift.Result<Value, Error>, at index: Int) {
            lock.lock()
            results[index] = result
            lock.unlock()
        }
    }
}
