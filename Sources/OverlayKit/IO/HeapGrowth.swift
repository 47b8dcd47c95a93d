#if os(Linux)
import CMalloc
#endif

/// How the C allocator grows its heaps: set once by a program, before its threads start.
package enum HeapGrowth {
    /// The address space a heap grows by, and keeps free at its top, beyond what is asked for.
    package static let topPad = 64 << 20

    /// Asks glibc's malloc to grow each heap by ``topPad`` more than it needs and to leave that
    /// much free at its top instead of handing it back (`M_TOP_PAD`).
    ///
    /// Threads other than the first get heaps of their own, which glibc otherwise grows 128 KB at
    /// a time (an `mprotect` each) and shrinks as soon as their top is free, so the next growth
    /// faults the same pages in again: reading `ne_10m_land` on the read-ahead thread made 1,582
    /// `mprotect` calls and 13,250 page faults, and spent a sixth of its time doing so. Room that
    /// is never touched costs address space, not memory; `FreedMemoryTrimmer`'s `malloc_trim`
    /// still hands back every free page. Setting it also fixes glibc's threshold for allocating
    /// large blocks by `mmap` at its default, as any `mallopt` call does.
    package static func growInLargeSteps() {
        #if os(Linux)
        _ = mallopt(M_TOP_PAD, Int32(topPad))
        #endif
    }
}
