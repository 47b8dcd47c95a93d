import Foundation

/// The property columns of MLT tiles that hold one feature, kept per property-table entry: a
/// tile of one feature writes that feature's columns, one value each, and those bytes are a
/// function of the entry alone. A large polygon alone in hundreds of tiles (a province at z8)
/// then builds its ~50 columns once instead of once a tile, which cost four times MVT's whole
/// encoding of such a tile. Output is unchanged: every tile's bytes are what it would write
/// without the cache, whichever tiles were encoded before.
///
/// Bounded: an entry is kept the second time it is asked for (most features of a point or
/// building tile set are alone in a tile once a zoom at most), and keeping stops once 8 MB of
/// columns (their bytes as written, not the arrays' spare capacity) are kept.
final class MLTSingleRowColumns: @unchecked Sendable {
    /// A tile's property columns, written: their count, their metadata (type and name each) and
    /// their streams, and how many values a mixed-kind column wrote as text.
    struct Columns: Sendable {
        var count = 0
        var metadata = [UInt8]()
        var data = [UInt8]()
        var convertedToText = 0
    }

    private static let maximumBytes = 8 << 20
    private let lock = NSLock()
    private let entryCount: Int
    private var seen: [UInt64]                  // a bit per entry: asked for once
    private var kept = [Int: Columns]()
    private var keptBytes = 0

    /// A cache for a table of `entryCount` entries.
    init(entryCount: Int) {
        self.entryCount = max(0, entryCount)
        seen = [UInt64](repeating: 0, count: (self.entryCount + 63) / 64)
    }

    /// The columns of a tile whose one feature is entry `entry`: kept ones, or `build()`'s
    /// (kept from the second time on, while the cache has room).
    func columns(entry: Int, build: () -> Columns) -> Columns {
        guard entry >= 0 && entry < entryCount else { return build() }
        lock.lock()
        if let columns = kept[entry] {
            lock.unlock()
            return columns
        }
        let word = entry / 64, bit = UInt64(1) << UInt64(entry % 64)
        let keep = seen[word] & bit != 0 && keptBytes < Self.maximumBytes
        seen[word] |= bit
        lock.unlock()
        let columns = build()
        guard keep else { return columns }
        lock.lock()
        if kept[entry] == nil {
            kept[entry] = columns
            keptBytes += columns.metadata.count + columns.data.count + 64
        }
        lock.unlock()
        return columns
    }
}
