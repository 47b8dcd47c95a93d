import Foundation
import OverlayModel

/// The one place the library starts threads, each with a main-thread-sized stack: the readers'
/// nesting limits (512 GeoJSON, 1,000 KML levels) assume 8 MiB, and a secondary thread gets
/// less. Readers ahead of their consumer (`ReadAheadFeatureReader`, GeoParquet's row groups),
/// jobs joined at the end (the parallel extent and drawing of `render`, the parallel projection
/// of a GeoJSON text sequence), work items side by side (`map`: the in-memory pyramid's
/// subtrees) and tasks that push tasks (`TaskStack`: the disk walk) all start theirs here.
package enum WorkerThreads {
    /// The stack every thread gets.
    static let stackBytes = 16 << 20

    /// Runs `body` on a detached thread of its own.
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    package static func startDetached(_ body: @escaping @Sendable () -> Void) throws {
        let thread = try start(body)
        pthread_detach(thread)
    }

    /// Runs `jobs` on threads of their own and `onCallingThread` here, and returns when all are
    /// done.
    /// - Throws: `Diagnostic` `io.thread-failed` when a thread cannot be started (those started
    ///   are still joined first, and `onCallingThread` is not run).
    package static func runJoined(_ jobs: [@Sendable () -> Void], onCallingThread: () -> Void) throws {
        var threads = [pthread_t]()
        var failure: Error?
        for job in jobs {
            do {
                threads.append(try start(job))
            } catch {
                failure = error
                break
            }
        }
        if failure == nil { onCallingThread() }
        for thread in threads { pthread_join(thread, nil) }
        if let failure { throw failure }
    }

    /// `body` of every index of `indices` on at most `parallelism` threads (the calling thread
    /// one of them; alone when 1), results in index order. Each thread takes the next index
    /// when it is done with one, so a slow item does not hold up a batch.
    /// - Throws: the error of the lowest index that failed (the others still finish), or
    ///   `Diagnostic` `io.thread-failed` when a thread cannot be started.
    static func map<Result>(_ indices: Range<Int>, parallelism: Int,
                            _ body: @escaping @Sendable (Int) throws -> Result) throws -> [Result] {
        if parallelism <= 1 || indices.count <= 1 { return try indices.map(body) }
        let box = ResultBox<Result>(count: indices.count)
        let work: @Sendable () -> Void = {
            while let index = box.claim() {
                box.store(Swift.Result { try body(indices.lowerBound + index) }, at: index)
            }
        }
        let workers = min(parallelism, indices.count)
        try runJoined(Array(repeating: work, count: workers - 1), onCallingThread: work)
        return try box.results.map { try $0!.get() }
    }

    /// The results of `map`, claimed and stored under one lock.
    private final class ResultBox<Value>: @unchecked Sendable {
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

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static func start(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw Diagnostic(.error, code: .ioThreadFailed, message: "cannot start a worker thread (error \(status))")
        }
        #if canImport(Glibc)
        return thread
        #else
        return thread!
        #endif
    }
}
