import Foundation
import OverlayModel

/// A plan's look at a large GeoJSON text sequence or FeatureCollection without parsing all of
/// it (`Tiler.plan`): every record's first position places it in a tile at the max zoom,
/// counted (the tiles the input reaches at every zoom, exact for points and nearly so for
/// small shapes), and about one record in ``stride``, chosen by a hash of where it starts, is
/// kept whole to be parsed and cut.
///
/// Records are found by ``InputRecordScanner``: a sequence's as the parallel reader cuts it, a
/// FeatureCollection's features one by one (kept ones are written one a line). A position is
/// the first two numbers after the first `"coordinates"` (one bracket before them: a point);
/// a record without one is kept or skipped all the same, it only places no tile. Nothing here reports errors: the kept records are parsed by the reader, and a plan
/// that finds a bad one reads the whole input instead.
struct SequenceSample {
    /// About one record in this many is kept.
    let stride: Double
    /// Records in the file.
    private(set) var records = 0
    /// Records kept.
    private(set) var keptRecords = 0
    /// Whether every record placed is a point (its tile at a zoom is thinned as points are).
    var allPoints: Bool { !anchoredTiles.counts.contains { $0 >= TileCounts.shape } }
    /// The kept records, in file order, one a line.
    private(set) var kept: [UInt8] = []
    /// The tiles at the max zoom holding the first position of a record, sorted, with the
    /// points there (``TileCounts/shape`` for a line or polygon): of every record, of the kept ones.
    private(set) var anchoredTiles = TileCounts()
    private(set) var keptAnchoredTiles = TileCounts()
    /// The zoom the tile keys are at.
    let maxZoom: Int

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
    init(_ file: ByteInput, size: Int, layout: InputRecordScanner.Layout = .sequence, stride: Double, maxZoom: Int,
         threads: Int, minimumPartBytes: Int = ParallelSequenceProjection.minimumPartBytes) throws {
        self.stride = max(1, stride)
        self.maxZoom = maxZoom
        // A FeatureCollection is one value: scanned on one thread.
        let parts = layout == .featureCollection ? [0..<size]
            : try SequenceRecordBoundaries.ranges(of: file, size: size, parts: max(1, threads), minimumBytes: minimumPartBytes)
        let jobs = parts.map { Part(file: file, range: $0, layout: layout, stride: self.stride, maxZoom: maxZoom) }
        try WorkerThreads.runJoined(jobs.dropFirst().map { job in { job.run() } }, onCallingThread: { jobs[0].run() })
        for job in jobs {
            if let failure = job.failure { throw failure }
            records += job.records
            keptRecords += job.keptRecords
            kept += job.kept
            anchoredTiles.merge(job.tiles)
            keptAnchoredTiles.merge(job.keptTiles)
        }
        anchoredTiles.settle()
        keptAnchoredTiles.settle()
    }

    /// Per zoom 0…``maxZoom``, the tiles `counts` reach: each keeps a feature whatever the
    /// thinning (a tile keeps its first point along the curve, as tippecanoe's does, and any line
    /// or polygon).
    func expectedTiles(_ counts: TileCounts) -> [Double] {
        (0...maxZoom).map { zoom in
            let shift = UInt64(2 * (maxZoom - zoom))
            var total = 0.0
            var parent: UInt64?
            for key in counts.keys where key >> shift != parent {
                total += 1
                parent = key >> shift
            }
            return total
        }
    }

    /// Tile keys and how many records' first positions each holds, sorted and merged as they
    /// come, so memory follows the tiles, not the records.
    struct TileCounts {
        /// A count that marks a line or polygon: its tile is never emptied by thinning.
        static let shape: UInt32 = 1 << 31
        private(set) var keys: [UInt64] = []
        private(set) var counts: [UInt32] = []
        private var settled = 0

        mutating func insert(_ key: UInt64, point: Bool) {
            keys.append(key)
            counts.append(point ? 1 : Self.shape)
            if keys.count - settled >= 1 << 20 { settle() }
        }

        mutating func merge(_ other: TileCounts) {
            keys += other.keys
            counts += other.counts
        }

        /// Sorts the keys and adds up the counts of equal ones.
        mutating func settle() {
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            var mergedKeys = [UInt64](), mergedCounts = [UInt32]()
            mergedKeys.reserveCapacity(keys.count)
            mergedCounts.reserveCapacity(keys.count)
            for index in order {
                if let last = mergedKeys.last, last == keys[index] {
                    let sum = mergedCounts[mergedCounts.count - 1].addingReportingOverflow(counts[index])
                    mergedCounts[mergedCounts.count - 1] = sum.overflow ? UInt32.max : min(UInt32.max, sum.partialValue)
                } else {
                    mergedKeys.append(keys[index])
                    mergedCounts.append(counts[index])
                }
            }
            keys = mergedKeys
            counts = mergedCounts
            settled = keys.count
        }
    }

    /// One part of the file, scanned on whichever thread runs it. `@unchecked Sendable`: its
    /// results are written by that one thread and read after it is joined.
    private final class Part: @unchecked Sendable {
        let file: ByteInput
        let range: Range<Int>
        let layout: InputRecordScanner.Layout
        let stride: Double
        let maxZoom: Int
        var records = 0
        var keptRecords = 0
        var kept: [UInt8] = []
        var tiles = TileCounts()
        var keptTiles = TileCounts()
        var failure: (any Error)?

        init(file: ByteInput, range: Range<Int>, layout: InputRecordScanner.Layout, stride: Double, maxZoom: Int) {
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
            let position = Self.firstPosition(bytes)
            let key = position.flatMap { Self.tileKey(($0.longitude, $0.latitude), zoom: maxZoom) }
            let point = position?.brackets == 1
            if let key { tiles.insert(key, point: point) }
            guard Self.isKept(offset: start, stride: stride) else { return }
            keptRecords += 1
            kept.append(contentsOf: bytes)
            if bytes.last(where: { $0 > 0x20 }) != nil, bytes.last != 0x0A { kept.append(0x0A) }
            if let key { keptTiles.insert(key, point: point) }
        }

        /// Whether the record starting at `offset` is kept: a hash below 1/`stride` of its range,
        /// so the same records are kept on any number of threads.
        static func isKept(offset: Int, stride: Double) -> Bool {
            SplitMix64.unit(UInt64(truncatingIfNeeded: offset) &+ 0x9E37_79B9_7F4A_7C15) < 1 / stride
        }

        /// The first two numbers after the first `"coordinates"` of a record, and the brackets
        /// opened before them (1: a point).
        static func firstPosition(_ bytes: UnsafeBufferPointer<UInt8>) -> (longitude: Double, latitude: Double, brackets: Int)? {
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
            var brackets = 0
            while numbers.count < 2 && index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    guard let number = JSONNumberParser.parsePrefix(base + index, end: base + bytes.count) else { return nil }
                    numbers.append(number.value)
                    index += number.length
                } else if byte == UInt8(ascii: "[") {
                    brackets += 1
                    index += 1
                } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
                            || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    index += 1
                } else {
                    return nil
                }
            }
            return numbers.count == 2 ? (numbers[0], numbers[1], brackets) : nil
        }

        /// The Morton key of the tile at `zoom` holding a longitude and latitude (the prefix of
        /// the thinning order's key, `SpatialOrder`); nil when they are not finite.
        static func tileKey(_ position: (Double, Double), zoom: Int) -> UInt64? {
            guard position.0.isFinite, position.1.isFinite else { return nil }
            let key = SpatialOrder.key(x: MapProjection.x(longitude: position.0), y: MapProjection.y(latitude: position.1))
            return key >> UInt64(64 - 2 * zoom)
        }
    }
}
