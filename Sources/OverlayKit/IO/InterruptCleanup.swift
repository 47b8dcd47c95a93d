/// Temporary paths that must not outlive the process when it is interrupted.
///
/// Output is written beside its target and renamed into place, and KMZ work files need a path
/// for the zip library, so a SIGINT, SIGTERM or SIGHUP once left `out.geojson.tmp-*` and
/// `overlaykit-*` files behind (3.1 GB when killed while inflating a KMZ). Registered paths are
/// kept as C strings in a fixed table that the signal handler walks with `unlink` alone (both
/// async-signal-safe); the handler then restores the default action and raises the signal again,
/// so the exit status still says what ended the process. SIGKILL cannot be caught: a temporary
/// output file can survive it, but the target is never half-written (see `ByteOutput`).
enum InterruptCleanup {
    /// Paths registered at once; more are still written and removed, just not on a signal.
    static let capacity = 64

    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    nonisolated(unsafe) private static var mutex = pthread_mutex_t()
    nonisolated(unsafe) private static var installed = false
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Remembers `path` for removal on a signal; returns the token for `unregister`.
    static func register(_ path: String) -> Int? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if !installed {
            installed = true
            for signal in signals { installHandler(signal) }
        }
        for index in 0..<capacity where slots[index] == nil {
            slots[index] = strdup(path)
            return index
        }
        return nil
    }

    /// Forgets a path (it was renamed into place or removed).
    static func unregister(_ token: Int?) {
        guard let token else { return }
        pthread_mutex_lock(&mutex)
        let path = slots[token]
        slots[token] = nil
        pthread_mutex_unlock(&mutex)
        free(path)
    }

    private static func installHandler(_ number: Int32) {
        // A signal ignored on purpose (nohup) stays ignored.
        let previous = signal(number, InterruptCleanup.handler)
        if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            signal(number, SIG_IGN)
        }
    }

    private static let handler: @convention(c) (Int32) -> Void = { number in
        for index in 0..<InterruptCleanup.capacity {
            if let path = InterruptCleanup.slots[index] { unlink(path) }
        }
        signal(number, SIG_DFL)
        raise(number)
    }
}
