import OverlayModel

/// A tile set as a feature stream for `render` (and any other reader of features): the tiles
/// of one zoom that cover an area, decoded, each feature clipped to its own tile (so the
/// buffer every tile repeats of its neighbours is drawn once) and given in degrees. The zoom
/// for a view is the one MapLibre GL JS loads for it (``tileZoom(forRenderZoom:minZoom:maxZoom:)``),
/// so a render of the tiles shows what a map of them shows.
public struct TileSetFeatureReader: FeatureReader {
    /// The zoom whose tiles are read.
    public let zoom: Int
    /// The tiles read, in z/x/y order.
    public let tiles: [TileID]
    private let tileSet: TileSet
    private var tileIndex = 0
    private var pending = [Feature]()
    private var pendingIndex = 0

    /// The most tiles one reader decodes (a view at a zoom far above the set's highest needs
    /// many of its tiles; past this the area is refused).
    public static let maximumTiles = 4096

    /// Reads the tiles of `zoom` that `area` (map points; it may extend past the world's
    /// left and right edges, where the world repeats) touches.
    /// - Throws: `Diagnostic` `tileset.undecodable` for tiles with no decoder, `tile.bad-option`
    ///   when the area needs more than ``maximumTiles`` tiles.
    public init(tileSet: TileSet, zoom: Int, area: MapRect) throws {
        _ = try TileDecoders.require(tileSet.contentType, source: tileSet.path)
        self.tileSet = tileSet
        self.zoom = zoom
        let count = 1 << zoom, size = MapProjection.worldSize / Double(count)
        let columns = Int(saturating: (area.minX / size).rounded(.down))...Int(saturating: (area.maxX / size).rounded(.down))
        let rows = max(0, Int(saturating: (area.minY / size).rounded(.down)))...min(count - 1, Int(saturating: (area.maxY / size).rounded(.down)))
        let width = min(columns.count, count)
        guard rows.count >= 0, width.multipliedSaturating(by: rows.count) <= Self.maximumTiles else {
            throw Diagnostic(.error, code: .tileBadOption,
                             message: "the view needs more than \(Self.maximumTiles) tiles of zoom \(zoom) of \(tileSet.path)")
        }
        var ids = Set<TileID>()
        for column in columns.lowerBound..<(columns.lowerBound + width) {
            for row in rows { ids.insert(TileID(z: zoom, x: ((column % count) + count) % count, y: row)) }
        }
        tiles = ids.sorted()
    }

    /// The tile zoom MapLibre GL JS loads for a view at `renderZoom` (OverlayKit's zoom of
    /// 256-point tiles, one more than MapLibre's zoom of 512-pixel tiles): its whole part,
    /// held within the set's zooms.
    public static func tileZoom(forRenderZoom renderZoom: Double, minZoom: Int, maxZoom: Int) -> Int {
        let whole = Int(saturating: (renderZoom - 1).rounded(.down))
        return min(max(whole, minZoom), maxZoom)
    }

    public mutating func next() throws -> Feature? {
        while pendingIndex == pending.count {
            guard tileIndex < tiles.count else { return nil }
            let id = tiles[tileIndex]
            tileIndex += 1
            let clip = RectClip(rect: id.mapRect)
            let layers = try tileSet.layers(at: id) ?? []
            pending = DecodedTileGeography.features(of: layers, tile: id, clampingLongitudes: true).compactMap { feature in
                guard let shape = feature.shape, let clipped = clip.clip(shape) else { return nil }
                var result = feature
                result.shape = clipped
                return result
            }
            pendingIndex = 0
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    public mutating func takeWarnings() -> [Diagnostic] { [] }

    public var documentContext: DocumentContext { DocumentContext() }
}
