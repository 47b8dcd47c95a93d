import OverlayModel

/// A tile set (PMTiles, MBTiles, a directory of tiles) as what `MapRenderer` draws: its extent
/// is the set's bounds from its metadata (the whole world without them), so fitting reads no
/// tile, and the features of a view are the tiles MapLibre GL JS would load for it
/// (``TileSetFeatureReader/tileZoom(forRenderZoom:minZoom:maxZoom:)``) over the area the view
/// sees, decoded (``TileSetFeatureReader``).
public struct TileSetRenderSource: RenderSource {
    /// The tile set.
    public let tileSet: TileSet

    /// A source of `tileSet`'s features.
    public init(_ tileSet: TileSet) {
        self.tileSet = tileSet
    }

    /// The set's bounds (it may cross the antimeridian: west > east), or the world's.
    public mutating func extent() throws -> MapRect {
        let bounds = tileSet.metadata.bounds ?? TileSetMetadata.Bounds(west: -180, south: -85, east: 180, north: 85)
        return MapRect(west: bounds.west, south: bounds.south, east: bounds.east, north: bounds.north)
    }

    /// The decoded tiles of the view's zoom that cover what it sees; `view` nil (a pass to
    /// measure the extent, which this source never needs) reads the set's lowest zoom.
    /// - Throws: as ``TileSetFeatureReader/init(tileSet:zoom:area:)``.
    public mutating func features(for view: RenderView?) throws -> any FeatureReader {
        let metadata = tileSet.metadata
        guard let view else {
            return try TileSetFeatureReader(tileSet: tileSet, zoom: metadata.minZoom, area: .world)
        }
        let zoom = TileSetFeatureReader.tileZoom(forRenderZoom: view.camera.zoom, minZoom: metadata.minZoom, maxZoom: metadata.maxZoom)
        return try TileSetFeatureReader(tileSet: tileSet, zoom: zoom, area: view.visibleMapRect)
    }
}
