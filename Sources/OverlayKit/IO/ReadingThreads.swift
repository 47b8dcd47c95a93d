import Foundation
import OverlayModel

/// Starts the threads readers run on, with a main-thread-sized stack: the readers' nesting
/// limits (512 GeoJSON, 1,000 KML levels) assume 8 MiB, and a secondary thread gets less.
/// `ReadAheadFeatureReader`, the parallel extent of `FileRenderSource` and the parallel
/// projection of a GeoJSON text sequence (`ParallelSequenceProjection`) start theirs here.
package enum ReadingThreads {
    /// The stack every reading thread gets.
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
            throw Diagnostic(.error, code: .ioThreadFailed, message: "cannot start a reading thread (error \(status))")
        }
        #if canImport(Glibc)
        return thread
        #else
        return thread!
        #endif
    }
}
