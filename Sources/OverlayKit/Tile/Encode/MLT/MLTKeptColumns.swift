import Foundation

/// The property columns of MLT tiles kept by the property-table entries of their features: a
/// tile's columns are a function of its entries in feature order alone, and the same entries
/// come back tile after tile — a province alone in hundreds of tiles at z8, or the same two or
/// three provinces along their border (three in four of the admin-1 polygons' tiles of several
/// features at z8 repeat an earlier tile's). Building a tile's ~50 columns once instead of once a
/// tile saves what cost four times MVT's whole encoding of such a tile. Output is unchanged:
/// every tile's bytes are what it would write without the cache, whichever tiles came before.
///
/// Bounded: columns are kept the second time their entries are asked for (most features of a
/// point or building tile set are alone in a tile once a zoom at most, and their tiles of many
/// features never repeat); tiles of more than `maximumRows` features are never kept; keeping
/// stops once 8 MB of columns (their bytes as written and their entries) are kept. Entries
/// asked for once are remembered by a bit each (one feature) or by a hash in a table of fixed
/// size (several), where a later list may take an earlier one's place.
final class MLTKeptColumns: @unchecked Sendable {
    /// A tile's property columns, written: their count, their metadata (type and name each) and
    /// their streams, and how many values a mixed-kind column wrote as text.
    struct Columns: Sendable {
        var count = 0
        var metadata = [UInt8]()
        var data = [UInt8]()
        var convertedToText = 0
    }

    /// Tiles of more features are built every time: they seldom repeat, and a key that long
    /// costs hashing and memory for nothing.
    static let maximumRows = 256
    private static let maximumBytes = 8 << 20
    /// Slots of the table of entry lists asked for once (a hash each, 128 KB).
    private static let seenListSlots = 1 << 14

    /// Entries in feature order, with their hash (computed once, compared first).
    private struct EntryList: Hashable {
        let entries: [Int]
        let hash: UInt64

        init(_ entries: [Int]) {
            var hash: UInt64 = 0x243F_6A88_85A3_08D3
            for entry in entries {
                hash = (hash ^ UInt64(truncatingIfNeeded: entry)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            self.entries = entries
            self.hash = hash | 1                                  // 0 marks an empty slot
        }

        static func == (lhs: EntryList, rhs: EntryList) -> Bool { lhs.hash == rhs.hash && lhs.entries == rhs.entries }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private let lock = NSLock()
    private let entryCount: Int
    private var seen: [UInt64]                  // a bit per entry: asked for once alone
    private var seenLists = [UInt64]()          // hashes of lists asked for once, made on first use
    private var kept = [Int: Columns]()
    private var keptLists = [EntryList: Columns]()
    private var keptBytes = 0

    /// A cache for a table of `entryCount` entries.
    init(entryCount: Int) {
        self.entryCount = max(0, entryCount)
        seen = [UInt64](repeating: 0, count: (self.entryCount + 63) / 64)
    }

    /// The columns of a tile whose features are table entries `entries`, in order: kept ones,
    /// or `build()`'s (kept from the second time on, while the cache has room).
    func columns(entries: [Int], build: () -> Columns) -> Columns {
        if entries.count == 1 { return columns(entry: entries[0], build: build) }
        guard entries.count > 1 && entries.count <= Self.maximumRows else { return build() }
        let key = EntryList(entries)
        lock.lock()
        if let columns = keptLists[key] {
            lock.unlock()
            return columns
        }
        if seenLists.isEmpty { seenLists = [UInt64](repeating: 0, count: Self.seenListSlots) }
        let slot = Int(truncatingIfNeeded: key.hash >> 40) & (Self.seenListSlots - 1)
        let keep = seenLists[slot] == key.hash && keptBytes < Self.maximumBytes
        seenLists[slot] = key.hash
        lock.unlock()
        let columns = build()
        guard keep else { return columns }
        lock.lock()
        if keptLists[key] == nil {
            keptLists[key] = columns
            keptBytes += columns.metadata.count + columns.data.count + 8 * entries.count + 64
        }
        lock.unlock()
        return columns
    }

    /// The same for a tile of one feature, entry `entry` (entries beyond the table are not kept).
    private func columns(entry: Int, build: () -> Columns) -> Columns {
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
