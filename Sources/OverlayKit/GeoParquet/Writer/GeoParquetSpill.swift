import OverlayModel

/// Where the writer's first pass keeps features until the schema is known: records in memory
/// up to a budget, then in an anonymous temporary file. In input order, or sorted by a key
/// (the Hilbert index) with an external merge sort: each budget's worth of records is sorted in
/// memory and written as one run, and the second pass merges the runs, reading each through a
/// small window. Memory stays bounded by the budget plus one window per run; equal keys keep
/// their input order, so the output is deterministic.
final class GeoParquetSpill {
    /// Whether records come back ordered by key.
    let sorted: Bool
    /// The bytes of records held in memory before they go to the file (one run).
    let memoryBudget: Int
    private var file: TemporaryFile?
    /// Records in memory: (key, start, end) into `held`, where each starts with its key (8 bytes).
    private var index: [(key: UInt64, start: Int, end: Int)] = []
    private var held: [UInt8] = []
    /// Runs in the file (sorted mode) or the one stretch of records (input order).
    private var runs: [Range<Int>] = []
    /// Records so far.
    private(set) var count = 0

    /// A spill that keeps records in input order, or sorted by key.
    init(sorted: Bool, memoryBudget: Int = 64 << 20) {
        self.sorted = sorted
        self.memoryBudget = memoryBudget
    }

    /// Appends one record's bytes with its sort key.
    func append(_ record: [UInt8], key: UInt64) throws {
        let start = held.count
        withUnsafeBytes(of: key.littleEndian) { held.append(contentsOf: $0) }
        held += record
        index.append((key, start, held.count))
        count += 1
        if held.count >= memoryBudget { try spillHeld() }
    }

    /// Writes what is held to the file: a sorted run, or the next stretch of records.
    private func spillHeld() throws {
        guard !index.isEmpty else { return }
        let file = try self.file ?? TemporaryFile()
        self.file = file
        let runStart = file.size
        if sorted { sortHeld() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for entry in index {
            withUnsafeBytes(of: UInt32(entry.end - entry.start).littleEndian) { buffer.append(contentsOf: $0) }
            buffer += held[entry.start..<entry.end]
            if buffer.count >= 1 << 20 {
                try file.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try file.write(buffer)
        if sorted || runs.isEmpty {
            runs.append(runStart..<file.size)
        } else {
            runs[0] = runs[0].lowerBound..<file.size
        }
        index.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
    }

    private func sortHeld() {
        // Stable: equal keys keep their input order.
        index = index.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
    }

    /// Calls `body` with every record, in input or key order. Call once, after the last append.
    func forEach(_ body: (ArraySlice<UInt8>) throws -> Void) throws {
        guard let file else {
            // Everything fit in memory: no file was written.
            if sorted { sortHeld() }
            for entry in index { try body(held[(entry.start + 8)..<entry.end]) }
            return
        }
        try spillHeld()
        var cursors = try runs.map { try RunCursor(file: file, range: $0, sorted: sorted) }
        if !sorted {
            while let record = try cursors[0].current() {
                try body(record.dropFirst(8))
                try cursors[0].advance()
            }
            return
        }
        // k-way merge; ties go to the earlier run (input order).
        // Ordered by key, then run: equal keys keep their input order.
        var heap = BinaryMinHeap<(key: UInt64, run: Int)>(by: { ($0.key, $0.run) < ($1.key, $1.run) })
        for run in cursors.indices {
            if let key = try cursors[run].currentKey() { heap.push((key, run)) }
        }
        while let (_, run) = heap.pop() {
            guard let record = try cursors[run].current() else { continue }
            try body(record.dropFirst(8))
            try cursors[run].advance()
            if let key = try cursors[run].currentKey() { heap.push((key, run)) }
        }
    }

    /// Reads one run of records through a window of the file.
    private struct RunCursor {
        let file: TemporaryFile
        let range: Range<Int>
        let sorted: Bool
        /// The file offset of `window`'s first byte.
        var windowStart: Int
        var window: [UInt8] = []
        var position = 0
        static let windowBytes = 256 << 10

        init(file: TemporaryFile, range: Range<Int>, sorted: Bool) throws {
            self.file = file
            self.range = range
            self.sorted = sorted
            windowStart = range.lowerBound
        }

        /// Makes sure `count` bytes from `position` are in the window (false at the run's end).
        mutating func ensure(_ count: Int) throws -> Bool {
            if position + count <= window.count { return true }
            let offset = windowStart + position
            guard offset < range.upperBound else { return false }
            let wanted = min(range.upperBound - offset, max(count, Self.windowBytes))
            window = try file.read(at: offset, count: wanted)
            windowStart = offset
            position = 0
            guard window.count >= count else {
                throw Diagnostic(.error, code: .ioReadFailed, message: "the GeoParquet writer's temporary file ends early")
            }
            return true
        }

        mutating func length() throws -> Int? {
            guard try ensure(4) else { return nil }
            return window[position..<(position + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
        }

        /// The current record's sort key (its first 8 bytes), nil at the end.
        mutating func currentKey() throws -> UInt64? {
            guard let length = try length(), try ensure(4 + length) else { return nil }
            return window[(position + 4)..<(position + 12)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }

        /// The current record (its key and bytes, after the length), nil at the end.
        mutating func current() throws -> ArraySlice<UInt8>? {
            guard let length = try length(), try ensure(4 + length) else { return nil }
            return window[(position + 4)..<(position + 4 + length)]
        }

        mutating func advance() throws {
            guard let length = try length() else { return }
            position += 4 + length
        }
    }
}
