import Foundation

/// The last tiles a provider made, shared between threads under one lock, so a tile that costs
/// work to make is made once. Bounded by bytes (``byteLimit``): each tile counts its bytes plus
/// ``entryOverhead`` (an absent tile only the overhead), and the tiles kept longest are forgotten
/// first when a new one would pass the limit.
final class StoredTileCache: @unchecked Sendable {
    /// The most bytes kept.
    let byteLimit: Int
    /// What one entry costs beyond its bytes (the key, the dictionary's slot, the array).
    static let entryOverhead = 96
    private let lock = NSLock()
    private var tiles: [TileID: StoredTile?] = [:]
    /// Kept tiles, oldest first from `head` on (entries before `head` are forgotten).
    private var order: [TileID] = []
    private var head = 0
    private(set) var bytesKept = 0

    /// An empty cache of up to `byteLimit` bytes (at least one entry's overhead).
    init(byteLimit: Int) {
        self.byteLimit = max(Self.entryOverhead, byteLimit)
    }

    /// The tiles kept now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return tiles.count
    }

    /// Tile `id` from the cache (`.some(nil)`: known to be absent), or nil when not kept.
    func tile(_ id: TileID) -> StoredTile?? {
        lock.lock()
        defer { lock.unlock() }
        return tiles[id]
    }

    private static func cost(_ tile: StoredTile?) -> Int { (tile?.bytes.count ?? 0) + entryOverhead }

    /// Keeps `tile` (nil: absent) as tile `id`; a tile larger than the whole limit is not kept.
    func keep(_ tile: StoredTile?, as id: TileID) {
        let cost = Self.cost(tile)
        guard cost <= byteLimit else { return }
        lock.lock()
        defer { lock.unlock() }
        if let previous = tiles.updateValue(tile, forKey: id) {
            bytesKept -= Self.cost(previous)
        } else {
            order.append(id)
        }
        bytesKept += cost
        // Each pass forgets one entry, and the new one is never forgotten (it alone fits).
        while bytesKept > byteLimit && head < order.count - 1 {
            let old = order[head]
            head += 1
            if let forgotten = tiles.removeValue(forKey: old) { bytesKept -= Self.cost(forgotten) }
        }
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
