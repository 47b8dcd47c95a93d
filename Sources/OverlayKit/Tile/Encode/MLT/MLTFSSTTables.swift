import Foundation

/// FSST tables already trained, by the sample they were trained on: a table is a function of
/// its sample alone (`MLTFSST.sample`), and the same texts come back in tile after tile that
/// are not the same features — a state's polygon alone in one tile and with its label point
/// in the next, or two states' descriptions in either order's first tile. Output is unchanged:
/// a table kept is the table training would make again.
///
/// Bounded: keeping stops once 4 MB of samples and tables are kept (a building tile set's
/// names differ in every tile, so its tables fill the cache and are never asked for again).
final class MLTFSSTTables: @unchecked Sendable {
    private static let maximumBytes = 4 << 20
    /// A sample with its hash, computed once, eight bytes at a time (`Hasher` over the bytes
    /// cost a fifth of a training per look-up).
    private struct Sample: Hashable {
        let strings: [[UInt8]]
        let hash: UInt64

        init(_ strings: [[UInt8]]) {
            var hash = 0x243F_6A88_85A3_08D3 ^ UInt64(strings.count)
            @inline(__always) func mix(_ word: UInt64) {
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            for string in strings {
                string.withUnsafeBytes { bytes in
                    var at = 0
                    while at + 8 <= bytes.count {
                        mix(bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                        at += 8
                    }
                    var tail = UInt64(bytes.count)                 // the length, then the last bytes
                    while at < bytes.count {
                        tail = tail << 8 | UInt64(bytes[at])
                        at += 1
                    }
                    mix(tail)
                }
            }
            self.strings = strings
            self.hash = hash
        }

        static func == (lhs: Sample, rhs: Sample) -> Bool { lhs.hash == rhs.hash && lhs.strings == rhs.strings }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private let lock = NSLock()
    private var kept = [Sample: MLTFSST]()
    private var keptBytes = 0

    init() {}

    /// The table trained on `strings`: a kept one, or a new one (kept while there is room).
    func table(training strings: [[UInt8]]) -> MLTFSST {
        let sample = Sample(MLTFSST.sample(strings))
        lock.lock()
        if let table = kept[sample] {
            lock.unlock()
            return table
        }
        let keep = keptBytes < Self.maximumBytes
        lock.unlock()
        let table = MLTFSST(trainingSample: sample.strings)
        guard keep else { return table }
        lock.lock()
        if kept[sample] == nil {
            kept[sample] = table
            keptBytes += sample.strings.reduce(0) { $0 + $1.count + 32 } + 32 * table.symbolLengths.count + 640
        }
        lock.unlock()
        return table
    }
}
