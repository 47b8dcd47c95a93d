#if os(Linux)
import CMalloc
#endif
import Foundation

/// Gives memory the process has freed back to the system every so often.
///
/// glibc's allocator keeps what a thread frees in that thread's arena for its next allocations,
/// and each thread that allocates has an arena of its own (up to 8 a core): after a task that
/// built a large tile or subtree finishes, its memory stays resident, and as tasks move between
/// threads every arena grows to its own peak. The process's resident memory then follows the
/// sum of those peaks, which grows with the input's size, instead of what is live (6M
/// clustered points z0–10: a 940 MB peak, 734 MB with `MALLOC_ARENA_MAX=2`, 843 MB trimmed).
/// `malloc_trim` hands the free pages of every arena back; it is called once per ``interval``
/// bytes of work reported, so its cost (a walk over the arenas) stays negligible.
final class FreedMemoryTrimmer: @unchecked Sendable {
    /// Bytes of work (records read into memory or cut) between two trims.
    static let interval = 64 << 20

    /// Bytes of work between two trims for this trimmer.
    let bytesPerTrim: Int
    private let lock = NSLock()
    private var sinceTrim = 0
    private var trims = 0

    /// How many times this trimmer has trimmed (what tests check, not timing).
    var trimCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return trims
    }

    /// A trimmer that trims once per `bytesPerTrim` bytes of work reported.
    /// - Parameter bytesPerTrim: the work between two trims (at least 1).
    init(bytesPerTrim: Int = FreedMemoryTrimmer.interval) {
        self.bytesPerTrim = max(1, bytesPerTrim)
    }

    /// Counts `bytes` of work just finished (its memory freed), and trims once enough have been.
    func finished(bytes: Int) {
        lock.lock()
        sinceTrim = sinceTrim.addingSaturating(bytes)
        let due = sinceTrim >= bytesPerTrim
        if due {
            sinceTrim = 0
            trims += 1
        }
        lock.unlock()
        if due { Self.trim() }
    }

    /// Hands every arena's free pages back to the system (nothing where the allocator has no such call).
    static func trim() {
        #if os(Linux)
        _ = malloc_trim(0)
        #endif
    }
}
