import OverlayModel

/// tippecanoe's `-zg` and `-Bg` settled into the run's options: the max zoom from the features'
/// and the vertices' spacing (`MaxZoomGuess`: at most the zoom projected for, at least
/// `minZoom`), and the base zoom as the lowest zoom whose densest tile holds at most
/// `baseZoomGuessLimit` points. One run (`TileSource`) and a run split over workers (`TileJob`'s
/// plan) settle them here, from the same anchors in the same order.
enum GuessedZooms {
    /// Settles `options`' guessed zooms from every feature's anchor, which `anchors` hands to its
    /// argument in Z-order (key, then input position), with whether the feature is points only.
    /// The guessing flags stay as they are: the caller decides when the options are settled.
    static func settle(_ options: inout TileOptions, vertexSpacing: MaxZoomGuess.VertexSpacing,
                       anchors: ((_ key: UInt64, _ pointsOnly: Bool) -> Void) throws -> Void) rethrows {
        var spacing = MaxZoomGuess.FeatureSpacing()
        var densest = PointThinning.DensestTiles(maxZoom: options.maxZoom)
        try anchors { key, pointsOnly in
            spacing.add(key)
            if pointsOnly { densest.add(key) }
        }
        var maxZoom = options.maxZoom
        if options.guessesMaxZoom {
            let features = spacing.zoom(extent: options.extent)
            let guess = vertexSpacing.zoom(extent: options.extent).map { max(features ?? 0, $0) } ?? features ?? 14
            maxZoom = max(options.minZoom, min(options.maxZoom, guess))
        }
        let baseZoom = options.guessesBaseZoom
            ? PointThinning.DensestTiles.baseZoom(densest.best, limit: options.baseZoomGuessLimit, maxZoom: maxZoom)
            : options.baseZoom
        options.maxZoom = maxZoom
        options.baseZoom = baseZoom.map { min($0, maxZoom) }
    }
}
