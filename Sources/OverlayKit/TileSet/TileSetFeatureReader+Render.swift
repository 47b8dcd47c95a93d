import OverlayModel

extension TileSetFeatureReader {
    /// The features `render` needs for a view of `tileSet`: the tiles MapLibre GL JS would load
    /// for `options`' camera (fitted to the set's bounds when the options fit) over the area
    /// the viewport sees. Returns the reader and the camera to draw with.
    /// - Throws: as ``init(tileSet:zoom:area:)``.
    public static func forRender(_ tileSet: TileSet, options: RenderOptions) throws -> (reader: TileSetFeatureReader, camera: RenderCamera) {
        let metadata = tileSet.metadata
        var camera: RenderCamera
        if case .fit(let padding) = options.camera {
            let bounds = metadata.bounds ?? TileSetMetadata.Bounds(west: -180, south: -85, east: 180, north: 85)
            camera = RenderCamera.fitting(MapRect(west: bounds.west, south: bounds.south, east: bounds.east, north: bounds.north),
                                          width: Double(options.width), height: Double(options.height), padding: padding,
                                          bearing: options.bearing, pitch: options.pitch)
        } else {
            camera = options.resolveCamera(for: [Feature]())
        }
        let zoom = tileZoom(forRenderZoom: camera.zoom, minZoom: metadata.minZoom, maxZoom: metadata.maxZoom)
        let area = ScreenTransform(camera: camera, pixelWidth: options.pixelWidth, pixelHeight: options.pixelHeight,
                                   scale: options.scale).visibleMapRect
        return (try TileSetFeatureReader(tileSet: tileSet, zoom: zoom, area: area), camera)
    }
}
