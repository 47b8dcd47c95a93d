import OverlayModel

/// What a tile set says of itself before any tile is read: its container and encoding, its
/// metadata (name, bounds, zooms, layers) and, for PMTiles, the header's counts. `info TILESET`
/// prints it at once, so a set of millions of tiles says what it is before the scan
/// (`TileSet.inspect`) has read them.
public struct TileSetSummary: Hashable, Sendable {
    /// A PMTiles header's counts (the writer's word: a damaged or hostile file may say anything).
    public struct HeaderCounts: Hashable, Sendable {
        /// Tiles the directory addresses (runs counted for each of their tiles).
        public var addressedTiles: UInt64
        /// Directory entries.
        public var tileEntries: UInt64
        /// Distinct stored tiles.
        public var tileContents: UInt64
    }

    /// The path.
    public var path: String
    /// The container.
    public var format: TileArchiveFormat
    /// What the tiles are.
    public var contentType: TileContentType
    /// The tiles' compression when the container declares it (a PMTiles header), else nil.
    public var declaredCompression: StoredTile.Compression?
    /// The metadata.
    public var metadata: TileSetMetadata
    /// A PMTiles header's counts; nil for other containers.
    public var headerCounts: HeaderCounts?

    /// The summary's lines: path, format, name, bounds, the metadata's zooms, a PMTiles header's
    /// counts, the layers.
    public func text() -> String {
        var lines = ["tileset: \(path)",
                     "format: \(format.rawValue), \(contentType.name) tiles" + (declaredCompression == .gzip ? " (gzip)" : ""),
                     "name: \(metadata.name)"]
        if let bounds = metadata.bounds {
            lines.append("bounds (west, south, east, north): \(bounds.west), \(bounds.south), \(bounds.east), \(bounds.north)")
        }
        lines.append("zooms: \(metadata.minZoom)…\(metadata.maxZoom) (metadata)")
        if let counts = headerCounts {
            lines.append("header: \(counts.addressedTiles) tiles in \(counts.tileEntries) directory entries, \(counts.tileContents) stored tiles")
        }
        for layer in metadata.vectorLayers {
            lines.append("layer \(layer.id): zooms \(layer.minZoom)…\(layer.maxZoom), fields: "
                         + (layer.fields.isEmpty ? "none" : layer.fields.map { "\($0.name) (\($0.type))" }.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension TileSet {
    /// The summary, from the header and metadata read when the set was opened: no tile is read.
    public var summary: TileSetSummary {
        var summary = TileSetSummary(path: path, format: format, contentType: contentType, declaredCompression: nil,
                                     metadata: metadata, headerCounts: nil)
        if let pmtiles = reader as? PMTilesReader {
            let header = pmtiles.header
            summary.declaredCompression = header.tileCompression == PMTiles.compressionGzip ? StoredTile.Compression.gzip : StoredTile.Compression.none
            summary.headerCounts = TileSetSummary.HeaderCounts(addressedTiles: header.addressedTiles, tileEntries: header.tileEntries,
                                                               tileContents: header.tileContents)
        }
        return summary
    }
}
