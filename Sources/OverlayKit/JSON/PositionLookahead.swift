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
/// The window bytes must not move while the helper reads them: the scanner joins it before any
/// refill and before freeing the window. Work and memory are linear in the bytes of the region.
final class PositionLookahead: @unchecked Sendable {
    /// The absolute offsets of the region the helper reads.
    let regionStart: Int
    let regionEnd: Int
    private var starts: [Int] = []
    private var ends: [Int] = []
    private var coordinates: [Coordinate] = []
    private var points: [MapPoint] = []
    /// Whether only whitespace and one comma lie between the previous entry's `]` and this
    /// entry's `[`: the two are neighbours in one array, so the scanner takes runs of them at once.
    private var chained: [Bool] = []
    private var thread: ReadingThreads.Joinable?
    private var cursor = 0

    /// True when this process may run on more than one core: only then does a helper pay.
    static let isUseful = ReadAheadFeatureReader.usableCores > 1

    /// Starts a helper over `window[from ..< to]`, window offset 0 being absolute offset `base`.
    /// - Throws: `Diagnostic` `io.thread-failed` when no thread can be started.
    init(window: UnsafePointer<UInt8>, base: Int, from: Int, to: Int) throws {
        regionStart = base + from
        regionEnd = base + to
        let region = UnsafeBufferPointer(start: window + from, count: to - from)
        let offset = base + from
        let sendable = SendableBuffer(buffer: region)
        thread = try ReadingThreads.startJoinable(stackBytes: 256 << 10) { [self] in
            parse(sendable.buffer, offset: offset)
        }
    }

    deinit { join() }

    /// Waits for the helper (once; later calls return at once).
    func join() {
        guard let running = thread else { return }
        running.join()
        thread = nil
    }

    /// The position whose `[` is followed by the number at absolute offset `numberStart`, when
    /// the helper parsed it: its coordinate, its map point (`MapPoint(_:)`, projected on the
    /// helper's core too) and the absolute offset just after its `]`. Offsets
    /// asked for must not decrease (an earlier one is then not found, and read the slow way).
    @inline(__always)
    func take(numberAt numberStart: Int) -> (coordinate: Coordinate, point: MapPoint, end: Int)? {
        guard numberStart >= regionStart, numberStart < regionEnd else { return nil }
        join()
        while cursor < starts.count && starts[cursor] < numberStart { cursor += 1 }
        guard cursor < starts.count, starts[cursor] == numberStart else { return nil }
        defer { cursor += 1 }
        return (coordinates[cursor], points[cursor], ends[cursor])
    }

    /// After the scanner took an entry and stands at its end (`end`, just after its `]`): the next
    /// entry when it is that position's neighbour in the same array (`, [` between them, with
    /// whitespace). The scanner would have read exactly these bytes as the array's next element.
    @inline(__always)
    func takeChained(after end: Int) -> (coordinate: Coordinate, point: MapPoint, end: Int)? {
        guard cursor > 0, cursor < starts.count, chained[cursor], ends[cursor - 1] == end else { return nil }
        defer { cursor += 1 }
        return (coordinates[cursor], points[cursor], ends[cursor])
    }

    private struct SendableBuffer: @unchecked Sendable {
        let buffer: UnsafeBufferPointer<UInt8>
    }

    /// The helper's work: every `[` followed by whitespace and two or three numbers and `]`.
    /// Positions are at least ~14 bytes of text (`[1.5,2.5],\n  `): room for a sixteenth of the
    /// region's bytes is reserved.
    /// Entries are keyed by the offset of the first number (the scanner is there when it asks).
    private func parse(_ region: UnsafeBufferPointer<UInt8>, offset: Int) {
        // Local arrays, stored once at the end: no exclusivity check per append on the class.
        var starts = [Int](), ends = [Int](), coordinates = [Coordinate](), points = [MapPoint](), chained = [Bool]()
        let capacity = region.count / 16
        starts.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
        coordinates.reserveCapacity(capacity)
        points.reserveCapacity(capacity)
        chained.reserveCapacity(capacity)
        defer { (self.starts, self.ends, self.coordinates, self.points, self.chained) = (starts, ends, coordinates, points, chained) }
        guard let bytes = region.baseAddress else { return }
        let count = region.count
        var index = 0
        /// Where the last entry ended (region index just after its `]`), -1 before the first.
        var lastEnd = -1
        // Each step moves past at least one byte: linear in the region.
        while index < count {
            guard let hit = memchr(bytes + index, Int32(UInt8(ascii: "[")), count - index) else { return }
            let open = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - bytes
            var cursor = open + 1
            index = cursor
            while cursor < count && Self.isWhitespace(bytes[cursor]) { cursor += 1 }
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
                while cursor < count && Self.isWhitespace(bytes[cursor]) { cursor += 1 }
                guard cursor < count, numbers < 4 else { break }
                if bytes[cursor] == UInt8(ascii: "]") {
                    cursor += 1
                    closed = true
                    break
                }
                guard bytes[cursor] == UInt8(ascii: ",") else { break }
                cursor += 1
                while cursor < count && Self.isWhitespace(bytes[cursor]) { cursor += 1 }
            }
            guard closed, numbers == 2 || numbers == 3 else { continue }
            starts.append(offset + numberStart)
            ends.append(offset + cursor)
            chained.append(lastEnd >= 0 && Self.isSeparator(bytes + lastEnd, count: open - lastEnd))
            lastEnd = cursor
            let coordinate = Coordinate(latitude: values.1, longitude: values.0, altitude: numbers == 3 ? values.2 : nil)
            coordinates.append(coordinate)
            points.append(MapPoint(coordinate))
            index = cursor
        }
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
