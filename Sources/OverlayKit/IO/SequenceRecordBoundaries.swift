/// Where a GeoJSON text sequence file can be cut into parts that parse on their own: just after
/// a newline that follows a `}` and precedes a `{` or an RS (0x1E), ignoring blanks between.
///
/// In valid JSON two values inside an array or object are always separated by a comma, so a
/// `}` followed by `{` or RS can only sit between two top-level records. A cut found in
/// invalid text may be wrong; the caller must check (a part that parses cleanly to its end
/// proves the cut after it). Cutting after a newline keeps each part starting at column 1.
enum SequenceRecordBoundaries {
    /// Offsets that split `file` (of `size` bytes) into at most `parts` parts of about equal
    /// size, none smaller than `minimumBytes`: the byte ranges of the parts, in order, covering
    /// the whole file. A single range when the file is too small or no cut is found.
    ///
    /// Each cut looks at most `searchLimit` bytes past its target: a file of enormous records
    /// gets fewer parts rather than a scan of the whole file.
    /// - Throws: `Diagnostic` `io.read-failed`.
    static func ranges(of file: ByteInput, size: Int, parts: Int, minimumBytes: Int,
                       searchLimit: Int = 16 << 20) throws -> [Range<Int>] {
        let parts = max(1, min(parts, size / max(1, minimumBytes)))
        var cuts = [0]
        for part in 1..<max(1, parts) {
            let target = Int((Double(size) * Double(part) / Double(parts)).rounded(.down))
            guard target > cuts[cuts.count - 1] else { continue }
            if let cut = try boundary(in: file, from: target, to: min(size, target + searchLimit)),
               cut > cuts[cuts.count - 1], cut < size {
                cuts.append(cut)
            }
        }
        cuts.append(size)
        return (0..<cuts.count - 1).map { cuts[$0]..<cuts[$0 + 1] }
    }

    /// The first cut in `start..<end`: the offset just after a newline that follows a `}`
    /// (blanks between allowed) and precedes a `{` or RS (blanks between allowed), both seen
    /// within the range. Nil when there is none.
    static func boundary(in file: ByteInput, from start: Int, to end: Int) throws -> Int? {
        guard start < end, let slice = file.slice(start..<end) else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset = start
        var scanner = Scanner(start: start)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try slice.read(into: $0) }
            guard count > 0 else { return nil }
            var cut: Int?
            chunk.withUnsafeBufferPointer { bytes in
                scanner.scan(UnsafeBufferPointer(rebasing: bytes[0..<count]), at: offset) { _, end in cut = cut ?? end }
            }
            if let cut { return cut }
            offset += count
        }
    }

    /// Finds records in a stream of chunks where ``SequenceRecordBoundaries`` would cut: after
    /// a newline that follows a `}` and precedes a `{` or RS (blanks between allowed), so the
    /// inside of a pretty-printed record or collection is never cut.
    struct Scanner {
        private var lastSignificant: UInt8 = 0
        private var candidate: Int?
        private var start: Int

        /// A scanner of a stream whose first record starts at `start`.
        init(start: Int = 0) { self.start = start }

        /// Calls `record` with the start and end offsets of every record that `bytes`, which
        /// sit at `offset` of the stream, show to have ended (a record is known to end when the
        /// next one begins).
        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, record: (Int, Int) -> Void) {
            for index in 0..<bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A:
                    if candidate == nil && lastSignificant == UInt8(ascii: "}") { candidate = offset + index + 1 }
                case 0x20, 0x09, 0x0D:
                    continue
                default:
                    if let cut = candidate, byte == UInt8(ascii: "{") || byte == 0x1E {
                        record(start, cut)
                        start = cut
                    }
                    candidate = nil
                    lastSignificant = byte
                }
            }
        }

        /// Calls `record` for the last record, which the stream's end (`end`) ends.
        mutating func finish(at end: Int, record: (Int, Int) -> Void) {
            if start < end { record(start, end) }
            start = end
        }
    }

    /// A part's diagnostic placed in the whole file: its line moves down by the newlines before
    /// the part, and a JSON Pointer's leading record index (a continuing reader writes one for
    /// every record) moves past the records before it. The first part is the file's start and
    /// keeps its locations.
    static func renumbered(_ diagnostic: Diagnostic, newlinesBefore: Int, recordsBefore: Int) -> Diagnostic {
        guard newlinesBefore > 0 || recordsBefore > 0, var location = diagnostic.location else { return diagnostic }
        location.line += newlinesBefore
        if let pointer = location.jsonPointer, recordsBefore > 0 {
            let digits = pointer.utf8.dropFirst().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if pointer.utf8.first == UInt8(ascii: "/"), !digits.isEmpty, digits.count <= 18,
               let index = Int(String(decoding: digits, as: UTF8.self)) {
                let rest = pointer.utf8.dropFirst(1 + digits.count)
                location.jsonPointer = "/\(index + recordsBefore)" + String(decoding: rest, as: UTF8.self)
            }
        }
        var moved = diagnostic
        moved.location = location
        return moved
    }
}
