import OverlayModel

/// A plan's look at a large GeoJSON text sequence or FeatureCollection without parsing all of
/// it (`Tiler.plan`):
/// every record's first position places it in a tile at each zoom (the tiles the input reaches,
/// counted exactly for points and nearly so for small shapes), and about one record in
/// ``stride``, chosen by a hash of where it starts, is kept whole to be parsed and cut.
///
/// Records are found by ``InputRecordScanner``: a sequence's as the parallel reader cuts it, a
/// FeatureCollection's features one by one (kept ones are written one a line). A position is the first two numbers after the first
/// `"coordinates"`; a record without one is kept or skipped all the same, it only places no
/// tile. Nothing here reports errors: the kept records are parsed by the reader, and a plan
/// that finds a bad one reads the whole input instead.
struct SequenceSample {
    /// About one record in this many is kept.
    let stride: Int
    /// Records in the file.
    private(set) var records = 0
    /// Records kept.
    private(set) var keptRecords = 0
    /// The kept records, in file order, one a line.
    private(set) var kept: [UInt8] = []
    /// Per zoom from 0 to the max zoom: distinct tiles holding the first position of a record,
    /// of every record and of the kept ones.
    private(set) var anchoredTiles: [Int] = []
    private(set) var keptAnchoredTiles: [Int] = []

    /// How the records of `file` are laid out and how many the first `probeBytes` hold, scaled
    /// to its size: enough to choose a stride before the file is read. Nil when the probe
    /// finds neither a text sequence nor a FeatureCollection's features.
    static func estimatedRecords(in file: ByteInput, size: Int, probeBytes: Int = 1 << 20) throws
        -> (layout: InputRecordScanner.Layout, records: Int)? {
        guard size > 0, let slice = file.slice(0..<min(size, probeBytes)) else { return nil }
        var buffer = [UInt8](repeating: 0, count: min(size, probeBytes))
        var filled = 0
        while filled < buffer.count {
            let count = try buffer.withUnsafeMutableBytes { try slice.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if count == 0 { break }
            filled += count
        }
        guard filled > 0 else { return nil }
        // Records the probe shows ended (the one it stops in is not counted), in either layout.
        var best: (layout: InputRecordScanner.Layout, records: Int)?
        for layout in [InputRecordScanner.Layout.sequence, .featureCollection] {
            var records = 0
            var scanner = InputRecordScanner(layout)
            buffer.withUnsafeBufferPointer { bytes in
                scanner.scan(UnsafeBufferPointer(rebasing: bytes[0..<filled]), at: 0) { _, _ in records += 1 }
            }
            if filled == size { scanner.finish(at: size) { _, _ in records += 1 } }
            if records >= 2, records > best?.records ?? 0 { best = (layout, records) }
        }
        return best.map { ($0.layout, Int(saturating: (Double($0.records) * Double(size) / Double(filled)).rounded())) }
    }

    /// Reads `file` (`size` bytes) on `threads` threads, keeping about one record in `stride`
    /// and placing every record in its tile at zooms 0…`maxZoom`.
    /// - Throws: `Diagnostic` `io.read-failed`, `io.thread-failed`.
    init(_ file: ByteInput, size: Int, layout: InputRecordScanner.Layout = .sequence, stride: Int, maxZoom: Int,
         threads: Int, minimumPartBytes: Int = ParallelSequenceProjection.minimumPartBytes) throws {
        self.stride = max(1, stride)
        // A FeatureCollection is one value: scanned on one thread.
        let parts = layout == .featureCollection ? [0..<size]
            : try SequenceRecordBoundaries.ranges(of: file, size: size, parts: max(1, threads), minimumBytes: minimumPartBytes)
        let jobs = parts.map { Part(file: file, range: $0, layout: layout, stride: self.stride, maxZoom: maxZoom) }
        try ReadingThreads.runJoined(jobs.dropFirst().map { job in { job.run() } }, onCallingThread: { jobs[0].run() })
        var every = [UInt64](), keptKeys = [UInt64]()
        for job in jobs {
            if let failure = job.failure { throw failure }
            records += job.records
            keptRecords += job.keptRecords
            kept += job.kept
            every += job.tiles.keys
            keptKeys += job.keptTiles.keys
        }
        anchoredTiles = Self.distinctTiles(every, maxZoom: maxZoom)
        keptAnchoredTiles = Self.distinctTiles(keptKeys, maxZoom: maxZoom)
    }

    /// Per zoom 0…`maxZoom`, the distinct tiles among Morton keys at `maxZoom` (a parent's key
    /// is its child's shifted by two bits, so the sorted keys stay sorted at every zoom).
    static func distinctTiles(_ keys: [UInt64], maxZoom: Int) -> [Int] {
        let sorted = TileKeys.uniqued(keys)
        return (0...maxZoom).map { zoom in
            let shift = UInt64(2 * (maxZoom - zoom))
            var count = 0
            var last: UInt64?
            for key in sorted where key >> shift != last {
                count += 1
                last = key >> shift
            }
            return count
        }
    }

    /// Sorted distinct tile keys, deduplicated as they come so memory follows the tiles, not the records.
    struct TileKeys {
        private(set) var keys: [UInt64] = []
        private var settled = 0

        mutating func insert(_ key: UInt64) {
            keys.append(key)
            if keys.count - settled >= 1 << 20 {
                keys = Self.uniqued(keys)
                settled = keys.count
            }
        }

        static func uniqued(_ keys: [UInt64]) -> [UInt64] {
            var sorted = keys.sorted()
            var write = 0
            for read in sorted.indices where write == 0 || sorted[read] != sorted[write - 1] {
                sorted[write] = sorted[read]
                write += 1
            }
            sorted.removeLast(sorted.count - write)
            return sorted
        }
    }

    /// One part of the file, scanned on whichever thread runs it. `@unchecked Sendable`: its
    /// results are written by that one thread and read after it is joined.
    private final class Part: @unchecked Sendable {
        let file: ByteInput
        let range: Range<Int>
        let layout: InputRecordScanner.Layout
        let stride: Int
        let maxZoom: Int
        var records = 0
        var keptRecords = 0
        var kept: [UInt8] = []
        var tiles = TileKeys()
        var keptTiles = TileKeys()
        var failure: (any Error)?

        init(file: ByteInput, range: Range<Int>, layout: InputRecordScanner.Layout, stride: Int, maxZoom: Int) {
            self.file = file
            self.range = range
            self.layout = layout
            self.stride = stride
            self.maxZoom = maxZoom
        }

        func run() {
            guard let slice = file.slice(range) else { return }
            var chunk = [UInt8](repeating: 0, count: 4 << 20)
            // The bytes from the first record not yet taken to the end of what was read.
            var window = [UInt8]()
            var windowStart = range.lowerBound
            var offset = range.lowerBound
            var scanner = InputRecordScanner(layout, start: range.lowerBound)
            let takeRecord = { (start: Int, end: Int) in
                window.withUnsafeBufferPointer {
                    self.take(UnsafeBufferPointer(rebasing: $0[(start - windowStart)..<(end - windowStart)]), at: start)
                }
            }
            do {
                while true {
                    let count = try chunk.withUnsafeMutableBytes { try slice.read(into: $0) }
                    if count == 0 { break }
                    window += chunk[0..<count]
                    var taken = windowStart
                    chunk.withUnsafeBufferPointer { bytes in
                        scanner.scan(UnsafeBufferPointer(rebasing: bytes[0..<count]), at: offset) { start, end in
                            takeRecord(start, end)
                            taken = end
                        }
                    }
                    window.removeFirst(taken - windowStart)
                    windowStart = taken
                    offset += count
                }
                scanner.finish(at: offset, record: takeRecord)
            } catch {
                failure = error
            }
        }

        /// One record, `bytes`, starting at file offset `start`.
        private func take(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
            guard bytes.contains(UInt8(ascii: "{")) else { return }
            records += 1
            let key = Self.firstPosition(bytes).flatMap { Self.tileKey($0, zoom: maxZoom) }
            if let key { tiles.insert(key) }
            guard Self.isKept(offset: start, stride: stride) else { return }
            keptRecords += 1
            kept.append(contentsOf: bytes)
            if bytes.last(where: { $0 > 0x20 }) != nil, bytes.last != 0x0A { kept.append(0x0A) }
            if let key { keptTiles.insert(key) }
        }

        /// Whether the record starting at `offset` is kept: a hash below 1/`stride` of its range,
        /// so the same records are kept on any number of threads.
        static func isKept(offset: Int, stride: Int) -> Bool {
            var value = UInt64(truncatingIfNeeded: offset) &+ 0x9E37_79B9_7F4A_7C15
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            return value < UInt64.max / UInt64(stride)
        }

        /// The first two numbers after the first `"coordinates"` of a record (longitude, latitude).
        static func firstPosition(_ bytes: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
            let key = Array("\"coordinates\"".utf8)
            guard bytes.count > key.count, let base = bytes.baseAddress else { return nil }
            var index = 0
            let last = bytes.count - key.count
            while index <= last {
                if bytes[index] == key[0] && bytes[index + 1] == key[1] && bytes[index + 2] == key[2]
                    && (0..<key.count).allSatisfy({ bytes[index + $0] == key[$0] }) { break }
                index += 1
            }
            guard index <= last else { return nil }
            index += key.count
            var numbers = [Double]()
            while numbers.count < 2 && index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    guard let number = JSONNumberParser.parsePrefix(base + index, end: base + bytes.count) else { return nil }
                    numbers.append(number.value)
                    index += number.length
                } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
                            || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    index += 1
                } else {
                    return nil
                }
            }
            return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
        }

        /// The Morton key of the tile at `zoom` holding a longitude and latitude; nil when they
        /// are not finite.
        static func tileKey(_ position: (Double, Double), zoom: Int) -> UInt64? {
            guard position.0.isFinite, position.1.isFinite else { return nil }
            let scale = Double(1 << zoom) / MapProjection.worldSize
            let last = Double((1 << zoom) - 1)
            let x = min(last, max(0, (MapProjection.x(longitude: position.0) * scale).rounded(.down)))
            let y = min(last, max(0, (MapProjection.y(latitude: position.1) * scale).rounded(.down)))
            guard x.isFinite, y.isFinite else { return nil }
            return Self.spread(UInt32(x)) | Self.spread(UInt32(y)) << 1
        }

        /// The bits of `value` at the even positions of a 64-bit word.
        static func spread(_ value: UInt32) -> UInt64 {
            var bits = UInt64(value)
            bits = (bits | bits << 16) & 0x0000_FFFF_0000_FFFF
            bits = (bits | bits << 8) & 0x00FF_00FF_00FF_00FF
            bits = (bits | bits << 4) & 0x0F0F_0F0F_0F0F_0F0F
            bits = (bits | bits << 2) & 0x3333_3333_3333_3333
            bits = (bits | bits << 1) & 0x5555_5555_5555_5555
            return bits
        }
    }
}
