import Foundation

/// The last tiles a provider made (at most ``limit``, the oldest forgotten first), shared
/// between threads under one lock, so a tile that costs work to make is made once.
final class StoredTileCache: @unchecked Sendable {
    /// The most tiles kept.
    let limit: Int
    private let lock = NSLock()
    private var tiles: [TileID: StoredTile?] = [:]
    private var order: [TileID] = []

    /// An empty cache of up to `limit` tiles (at least 1).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Tile `id` from the cache (`.some(nil)`: known to be absent), or nil when not kept.
    func tile(_ id: TileID) -> StoredTile?? {
        lock.lock()
        defer { lock.unlock() }
        return tiles[id]
    }

    /// Keeps `tile` (nil: absent) as tile `id`.
    func keep(_ tile: StoredTile?, as id: TileID) {
        lock.lock()
        defer { lock.unlock() }
        if tiles.updateValue(tile, forKey: id) == nil {
            order.append(id)
            if order.count > limit {
                let evicted = order.count - limit
                for old in order.prefix(evicted) { tiles[old] = nil }
                order.removeFirst(evicted)
            }
        }
    }
}
