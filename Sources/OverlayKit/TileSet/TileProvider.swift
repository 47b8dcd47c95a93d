import Foundation
import OverlayModel

/// Anything that hands out stored tiles by z/x/y with a tile set's metadata: a finished
/// `TileSet`, or a `FeatureTileSet` cutting tiles from features on demand. What `serve`
/// serves; calls may come from several threads (conformers lock what needs it).
public protocol TileProvider: AnyObject, Sendable {
    /// The tile set's metadata (name, zooms, bounds, `vector_layers`).
    var metadata: TileSetMetadata { get }
    /// What the tiles are.
    var contentType: TileContentType { get }
    /// Tile `id` as stored (gzip or plain), or nil when there is no such tile.
    /// - Throws: `Diagnostic` for a damaged set or a tile that cannot be built.
    func storedTile(_ id: TileID) throws -> StoredTile?
}

/// A finished tile set shared between threads: every read goes through one lock (SQLite
/// statements and the directory reader are not to be used by two threads at once). A read that
/// fails (the file was cut short or rewritten under the server) reopens the set from its path
/// and tries once more, so a set replaced while served is served anew; the error stands when
/// the reopened set fails too.
public final class LockedTileSet: TileProvider, @unchecked Sendable {
    private var tileSet: TileSet
    private let lock = NSLock()
    /// The metadata, read once.
    public let metadata: TileSetMetadata
    /// The tiles' content type, read once.
    public let contentType: TileContentType

    /// Wraps `tileSet`, which must not be used elsewhere afterwards.
    public init(_ tileSet: TileSet) {
        self.tileSet = tileSet
        metadata = tileSet.metadata
        contentType = tileSet.contentType
    }

    /// The path the set was opened from.
    public var path: String { tileSet.path }

    public func storedTile(_ id: TileID) throws -> StoredTile? {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try tileSet.reader.storedTile(id)
        } catch {
            guard let reopened = try? TileSet(path: tileSet.path) else { throw error }
            tileSet = reopened
            return try tileSet.reader.storedTile(id)
        }
    }
}
