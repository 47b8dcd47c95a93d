#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Removes temporary outputs when the process is interrupted (SIGINT, SIGTERM, SIGHUP), once a
/// program has asked for it with `install()`; the library itself never touches signal handling.
///
/// Outputs are built beside their target (`OUT.tmp-XXXXXX` files and tile directories, an
/// `OUT.lock`) and KMZ work files need a path, so an interrupted run would strand them.
/// `install()` blocks the three signals in the calling thread (and so in every thread started
/// after it) and starts one thread that waits for them with `sigwait`: an ordinary thread, so it
/// can remove whole directories, which a signal handler cannot do safely. It removes every
/// registered path, then restores the default action and raises the signal again, so the exit
/// status still says what ended the process. SIGKILL cannot be caught: what it strands is
/// removed by the next run on the same output (see `AtomicOutput`).
public enum InterruptCleanup {
    private struct Entry {
        let path: String
        let isDirectory: Bool
    }

    nonisolated(unsafe) private static var entries: [Int: Entry] = [:]
    nonisolated(unsafe) private static var nextToken = 0
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var watched = sigset_t()
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    /// The signals that remove temporaries: interrupt, terminate, hang-up.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Removes registered temporaries when SIGINT, SIGTERM or SIGHUP arrives, then ends the
    /// process by that signal. Call it first in `main`, before any other thread starts (threads
    /// started earlier could take the signal and end the process without cleaning up). A signal
    /// that is ignored at the time (`nohup`) stays ignored. Calling it again does nothing.
    public static func install() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !installed else { return }
        installed = true
        sigemptyset(&watched)
        for number in signals where !isIgnored(number) { sigaddset(&watched, number) }
        pthread_sigmask(SIG_BLOCK, &watched, nil)
        let thread = Thread { waitForSignal() }
        thread.name = "InterruptCleanup"
        thread.start()
    }

    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #else
        return unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #endif
    }

    private static func waitForSignal() {
        var number: Int32 = 0
        var set = watched
        while sigwait(&set, &number) != 0 {}
        // Held until the process ends: no output is committed or registered from here on.
        pthread_mutex_lock(mutex)
        for entry in entries.values {
            if entry.isDirectory { removeTree(entry.path) } else { POSIX.unlink(entry.path) }
        }
        signal(number, SIG_DFL)
        var one = sigset_t()
        sigemptyset(&one)
        sigaddset(&one, number)
        pthread_sigmask(SIG_UNBLOCK, &one, nil)
        raise(number)
        _exit(128 + number)
    }

    /// Removes a directory tree that other threads may still be adding to: writers create
    /// entries relative to the directory's descriptor, so once it is gone nothing reappears;
    /// until then, removal is repeated (a bounded number of times).
    private static func removeTree(_ path: String) {
        for _ in 0..<1000 {
            try? FileManager.default.removeItem(atPath: path)
            if POSIX.linkStatus(path) == nil { return }
        }
    }

    /// Remembers `path` for removal on a signal; returns the token for `unregister`.
    static func register(_ path: String, isDirectory: Bool = false) -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        nextToken += 1
        entries[nextToken] = Entry(path: path, isDirectory: isDirectory)
        return nextToken
    }

    /// Forgets a path (it was renamed into place or removed).
    static func unregister(_ token: Int?) {
        guard let token else { return }
        pthread_mutex_lock(mutex)
        entries[token] = nil
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with cleanup held off: a signal that arrives meanwhile is handled after it,
    /// so steps that must happen together (moving an old directory aside and the new one into
    /// place) are never cut between.
    static func withCleanupHeld<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
