// Reading finished tile sets (inspection, decoding one tile, drawing a tile set) and serving them.

extension Diagnostic.Code {
    /// `tileset.undecodable` (data): A tile set's tiles are of an encoding OverlayKit does not decode.
    public static let tilesetUndecodable = Diagnostic.Code("tileset.undecodable", kind: .data)
    /// `tileset.bad-tile-id` (usage): A tile address is not z/x/y of the tile grid (z 0…30, x and y 0…2^z−1).
    public static let tilesetBadTileID = Diagnostic.Code("tileset.bad-tile-id", kind: .usage)
    /// `tileset.no-tiles` (data): A tile set to be served holds no tiles (a folder without z/x/y tiles, an empty archive).
    public static let tilesetNoTiles = Diagnostic.Code("tileset.no-tiles", kind: .data)
    /// `io.listen-failed` (io): The server cannot listen on the host and port asked for.
    public static let ioListenFailed = Diagnostic.Code("io.listen-failed", kind: .io)

    /// Every code of this file.
    static let tileSetCodes: [Diagnostic.Code] = [
        .tilesetUndecodable,
        .tilesetBadTileID,
        .tilesetNoTiles,
        .ioListenFailed,
    ]
}
