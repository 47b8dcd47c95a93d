/// The decisions of a tile run that need every feature at once, settled from a feature store
/// after projection: the guessed max and base zooms (tippecanoe's `-zg` and `-Bg`:
/// `GuessedZooms`, from the anchors in Z-order), point thinning (from the anchors with the
/// settled zooms), and which polygons tiles hold back for shared borders
/// (`SharedBorderCandidates`, from the pieces). One step for a run in one process
/// (`TileSource`, its features in memory or on disk) and for a split run's plan (`TileJob`, the
/// shards' files), so the two cannot decide differently.
enum FeatureSettling {
    /// Settles `options`' guessed zooms and `store`'s thinning and shared-border tags.
    /// - Parameters:
    ///   - options: the run's options; a guessed zoom is settled in them (and no longer guessed).
    ///   - store: the projected features; it keeps the thinning and the tags.
    ///   - vertexSpacing: the lines' and polygons' vertex spacing (for a guessed max zoom).
    ///   - sketch: the polygon pieces' vertices, when counted as they were projected (else
    ///     counted here from the store's polygons).
    ///   - featureCount: the input features (input positions run from 0 to this).
    /// - Throws: the store's read errors.
    static func settle<Store: ProjectedFeatureStore>(_ options: inout TileOptions, store: inout Store,
                                                     vertexSpacing: MaxZoomGuess.VertexSpacing, sketch: SharedVertexSketch?,
                                                     featureCount: Int) throws {
        if options.guessesZooms {
            try GuessedZooms.settle(&options, vertexSpacing: vertexSpacing) { add in
                try store.forEachAnchor { add($0.key, $0.pointsOnly) }
            }
            // Settled: copies of these options (a plan's sample, an explanation) do not guess again.
            options.guessesMaxZoom = false
            options.guessesBaseZoom = false
        }
        try store.thinPoints(with: PointThinning.walker(for: options), featureCount: featureCount)
        if options.sharedBorders {
            var candidates = SharedBorderCandidates(featureCount: featureCount, options: options)
            var counted = sketch ?? SharedVertexSketch()
            if sketch == nil {
                try store.forEachPolygon { feature in
                    for ring in feature.rings { counted.addRing(feature.coordinates, start: ring.start, count: ring.count, stride: 3) }
                }
            }
            try store.forEachPolygon { candidates.add($0, sketch: counted) }
            candidates.finish()
            store.setSharedBordersThrough(candidates.tags)
        }
    }
}
