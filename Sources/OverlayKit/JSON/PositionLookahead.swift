#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// The positions of a long `coordinates` array parsed ahead on the second core, while the
/// scanner reads the part before them: one huge feature (`ne_10m_land` holds two thirds of its
/// vertices in one) is otherwise parsed on one core while the other waits for it.
///
/// A helper thread reads window bytes `[from, to)` and, at every `[` followed by a number,
/// parses one position of two or three numbers exactly as `readPosition` does (the same
/// whitespace, the same `JSONNumberParser.parsePrefix`), recording where it starts, its
/// coordinate and the offset after its `]`. It knows nothing of nesting or of what the bytes
/// belong to: it is a memo keyed by absolute offset. The scanner takes an entry only when its own
/// walk of the array, which checks every bracket and comma, reaches a position starting at that
/// very offset, so the bytes are the same bytes and the coordinate is the one it would have
/// computed. Anything else (four or more numbers, a number the fast parser declines, a syntax
/// error) is not recorded, and the scanner reads that position itself and reports it as without
/// the helper: outputs and diagnostics do not change.
///
/// The helper reads its own copy of the region, so the scanner never waits for it: the window
/// may move on, and a helper that has not finished when the scanner reaches its region (its core
/// taken by other work) is simply not used; the scanner reads those positions itself. At most one
/// helper runs at a time. Work and memory are linear in the bytes of the region.
final class PositionLookahead {
    /// The absolute offsets of the region the helper reads.
    let regionStart: Int
    let regionEnd: Int
    private let shared: Shared
    /// The helper's entries, moved here once it has finished.
    private var entries = Entries()
    private var ready = false
    /// Wait for the helper instead of reading on without it (tests: the same result every run).
    private let waits: Bool
    private var polls = 0
    private var cursor = 0

    /// True when this process may run on more than one core: only then does a helper pay.
    static let isUseful = ReadAheadFeatureReader.usableCores > 1

    /// What the helper found, parallel arrays in offset order.
    fileprivate struct Entries {
        var starts: [Int] = []
        var ends: [Int] = []
        var coordinates: [Coordinate] = []
        /// Whether only whitespace and one comma lie between the previous entry's `]` and this
        /// entry's `[`: neighbours in one array, which the scanner takes as one run.
        var chained: [Bool] = []
    }

    /// The helper's side: its result behind a mutex, handed over once.
    private final class Shared: @unchecked Sendable {
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private var finished = false
        private var entries: Entries?

        init() {
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        }

        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }

        func finish(_ found: Entries) {
            pthread_mutex_lock(lock)
            entries = found
            finished = true
            pthread_mutex_unlock(lock)
        }

        var isFinished: Bool {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return finished
        }

        /// The entries when the helper has finished (once), else nil.
        func take() -> Entries? {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            defer { entries = nil }
            return finished ? entries : nil
        }
    }

    private struct Copy: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<UInt8>
    }

    /// Starts a helper over a copy of `window[from ..< to]`, window offset 0 being absolute
    /// offset `base`; with `waits`, ``take(numberAt:)`` waits for it to finish.
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    init(window: UnsafePointer<UInt8>, base: Int, from: Int, to: Int, waits: Bool = false) throws {
        regionStart = base + from
        regionEnd = base + to
        self.waits = waits
        let copy = Copy(buffer: .allocate(capacity: to - from))
        _ = copy.buffer.initialize(from: UnsafeBufferPointer(start: window + from, count: to - from))
        let shared = Shared()
        self.shared = shared
        let offset = base + from
        do {
            try WorkerThreads.startDetached {
                let found = PositionLookahead.parse(UnsafeBufferPointer(copy.buffer), offset: offset)
                copy.buffer.deallocate()
                shared.finish(found)
            }
        } catch {
            copy.buffer.deallocate()
            throw error
        }
    }

    /// Whether the helper is done (a scanner starts no second one before).
    var isFinished: Bool { ready || shared.isFinished }

    /// True once the helper's entries are here; asks the helper's side only every 32nd time
    /// while it runs (a mutex per position would cost more than it saves).
    @inline(__always)
    private func poll() -> Bool {
        if ready { return true }
        if waits {
            // Bounded: the helper's parse is linear in its region and always finishes.
            while !shared.isFinished { usleep(50) }
        } else {
            polls += 1
            guard polls & 31 == 1 else { return false }
        }
        guard let found = shared.take() else { return false }
        entries = found
        ready = true
        return true
    }

    /// The position whose `[` is followed by the number at absolute offset `numberStart`, when
    /// the helper has finished and parsed it: its coordinate, its map point (`MapPoint(_:)`,
    /// projected on the helper's core too) and the absolute offset just after its `]`. Offsets
    /// asked for must not decrease (an earlier one is then not found, and read the slow way).
    @inline(__always)
    func take(numberAt numberStart: Int) -> (coordinate: Coordinate, end: Int)? {
        guard numberStart >= regionStart, numberStart < regionEnd, poll() else { return nil }
        while cursor < entries.starts.count && entries.starts[cursor] < numberStart { cursor += 1 }
        guard cursor < entries.starts.count, entries.starts[cursor] == numberStart else { return nil }
        defer { cursor += 1 }
        return (entries.coordinates[cursor], entries.ends[cursor])
    }

    /// After the scanner took an entry and stands at its end (`end`, just after its `]`): the
    /// entries that follow it as neighbours in the same array (`, [` between each two, with
    /// whitespace), handed to `body` as one buffer, and the offset after the last one's `]`; nil
    /// when the next entry is not a neighbour. The scanner would have read exactly these bytes
    /// as the array's next elements.
    @inline(__always)
    func takeChainedRun(after end: Int, _ body: (UnsafeBufferPointer<Coordinate>) -> Void) -> (count: Int, end: Int)? {
        let count = entries.starts.count
        guard ready, cursor > 0, cursor < count, entries.chained[cursor], entries.ends[cursor - 1] == end else {
            return nil
        }
        // Bounded by the entries: each step moves `last` on by one.
        var last = cursor + 1
        while last < count && entries.chained[last] { last += 1 }
        let first = cursor
        cursor = last
        entries.coordinates.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[first ..< last])) }
        return (last - first, entries.ends[last - 1])
    }

    /// The helper's work: every `[` followed by whitespace and two or three numbers and `]`.
    /// Positions are at least ~14 bytes of text (`[1.5,2.5],\n  `): room for a sixteenth of the
    /// region's bytes is reserved.
    /// Entries are keyed by the offset of the first number (the scanner is there when it asks).
    private static func parse(_ region: UnsafeBufferPointer<UInt8>, offset: Int) -> Entries {
        var starts = [Int](), ends = [Int](), coordinates = [Coordinate](), chained = [Bool]()
        let capacity = region.count / 16
        starts.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
        coordinates.reserveCapacity(capacity)
        chained.reserveCapacity(capacity)
        func entries() -> Entries {
            Entries(starts: starts, ends: ends, coordinates: coordinates, chained: chained)
        }
        guard let bytes = region.baseAddress else { return entries() }
        let count = region.count
        var index = 0
        /// Where the last entry ended (region index just after its `]`), -1 before the first.
        var lastEnd = -1
        // Each step moves past at least one byte: linear in the region.
        while index < count {
            guard let hit = memchr(bytes + index, Int32(UInt8(ascii: "[")), count - index) else { return entries() }
            let open = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - bytes
            var cursor = open + 1
            index = cursor
            while cursor < count && isWhitespace(bytes[cursor]) { cursor += 1 }
            let numberStart = cursor
            var values = (0.0, 0.0, 0.0)
            var numbers = 0
            var closed = false
            while cursor < count {
                let first = bytes[cursor]
                guard first == UInt8(ascii: "-") || first &- 0x30 < 10 else { break }
                guard let found = JSONNumberParser.parsePrefix(bytes + cursor, end: bytes + count), found.value.isFinite else { break }
                switch numbers {
                case 0: values.0 = found.value
                case 1: values.1 = found.value
                default: values.2 = found.value
                }
                numbers += 1
                cursor += found.length
                while cursor < count && isWhitespace(bytes[cursor]) { cursor += 1 }
                guard cursor < count, numbers < 4 else { break }
                if bytes[cursor] == UInt8(ascii: "]") {
                    cursor += 1
                    closed = true
                    break
                }
                guard bytes[cursor] == UInt8(ascii: ",") else { break }
                cursor += 1
                while cursor < count && isWhitespace(bytes[cursor]) { cursor += 1 }
            }
            guard closed, numbers == 2 || numbers == 3 else { continue }
            starts.append(offset + numberStart)
            ends.append(offset + cursor)
            chained.append(lastEnd >= 0 && isSeparator(bytes + lastEnd, count: open - lastEnd))
            lastEnd = cursor
            let coordinate = Coordinate(latitude: values.1, longitude: values.0, altitude: numbers == 3 ? values.2 : nil)
            coordinates.append(coordinate)
            index = cursor
        }
        return entries()
    }

    /// True when the bytes are whitespace around exactly one comma (what `commaOrClose` and
    /// `peekSignificant` pass over between two elements of an array).
    private static func isSeparator(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        var commas = 0
        for index in 0..<count {
            let byte = start[index]
            if byte == UInt8(ascii: ",") {
                commas += 1
            } else if !isWhitespace(byte) {
                return false
            }
        }
        return commas == 1
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
