import OverlayModel

/// Files one shard's features by partition, for a run split over machines (`TileJob`): the
/// tiles of the partition zoom are the partitions, and each feature's pieces go, clipped down
/// the tile pyramid exactly as one run clips them, to every partition they reach. The partition
/// whose tile holds the feature's anchor owns it and also gets its whole pieces (for the zooms
/// above the partitions) and its anchor (for thinning).
///
/// The shard's file (`ShardFileWriter`) holds them by partition; the shadows on the tiles above
/// the partition zoom go to the shard's summary (``lowShadows``).
final class PartitionRouter: ProjectedFeatureSink {
    let options: TileOptions
    let partitionZoom: Int
    private let writer: ShardFileWriter
    /// Per partition: its owned features, those whose pieces are all points, and the highest
    /// anchor key of those points (point thinning's walk resumes after it).
    private(set) var owned = [Int: (features: Int, points: Int, lastPointKey: UInt64?)]()
    /// Per zoom below the partition zoom, the tiles the shard's points shadow (when points are thinned).
    private(set) var lowShadows: [Set<UInt64>]
    /// The zooms whose shadows are kept: below the base zoom, or every zoom a guess may choose.
    private let shadowZooms: Int

    init(options: TileOptions, partitionZoom: Int, writer: ShardFileWriter) {
        self.options = options
        self.partitionZoom = partitionZoom
        self.writer = writer
        // With a guessed zoom the base is settled by the plan, after the shards: every zoom then.
        shadowZooms = options.pointDropRate > 1 && options.clusterDistance == 0
            ? (options.guessesZooms ? Self.guessedZoomLimit : options.resolvedBaseZoom) : 0
        lowShadows = Array(repeating: [], count: min(partitionZoom, shadowZooms))
    }

    /// The deepest base zoom a guess may choose (`TileOptions.validate`'s limit).
    static let guessedZoomLimit = 24

    /// The Z-order index of a tile at its zoom (x in the odd bits, as `SpatialOrder` keys).
    static func index(of tile: TileID) -> Int {
        Int(SpatialOrder.key(column: UInt32(tile.x), row: UInt32(tile.y)))
    }

    /// The tile of a partition index at `zoom`.
    static func tile(ofIndex index: Int, zoom: Int) -> TileID {
        var x = 0, y = 0
        for bit in 0..<zoom {
            y |= ((index >> (2 * bit)) & 1) << bit
            x |= ((index >> (2 * bit + 1)) & 1) << bit
        }
        return TileID(z: zoom, x: x, y: y)
    }

    func write(_ pieces: AntimeridianWrap.Pieces, source: Int, tags: FeatureTags, attributes: [UInt8],
               anchor: (key: UInt64, pointsOnly: Bool)?) throws {
        // A feature with nothing to tile reaches no tile; the shard's summary counts it.
        guard let anchor else { return }
        let owner = ShardFeatureStore.partition(ofAnchor: anchor.key, zoom: partitionZoom)
        var part = 0
        for (group, features) in [pieces.west, pieces.center, pieces.east].enumerated() {
            for feature in features {
                try descend(feature, tile: TileID(z: 0, x: 0, y: 0)) { piece, tile in
                    try writer.appendPiece(piece, source: source, tags: tags, group: group, part: part, anchor: anchor.key,
                                           tile: tile, attributes: attributes, partition: Self.index(of: tile))
                }
                try writer.appendPiece(feature, source: source, tags: tags, group: group, part: part, anchor: anchor.key,
                                       tile: nil, attributes: attributes, partition: owner)
                part += 1
            }
        }
        try writer.appendAnchor(key: anchor.key, source: source, pointsOnly: anchor.pointsOnly, partition: owner)
        owned[owner, default: (0, 0, nil)].features += 1
        if anchor.pointsOnly { try castShadows(anchor.key) }
        if anchor.pointsOnly {
            owned[owner]!.points += 1
            owned[owner]!.lastPointKey = max(owned[owner]!.lastPointKey ?? anchor.key, anchor.key)
        }
    }

    /// Files the shadows a point casts (`PointThinning.TileShadows`): above the partition zoom in
    /// the summary's sets, from it down in the section of the partition holding the tile.
    private func castShadows(_ key: UInt64) throws {
        for zoom in 0..<shadowZooms {
            for index in PointThinning.TileShadows.shadowed(by: key, zoom: zoom, buffer: options.thinningBuffer) {
                if zoom < partitionZoom {
                    lowShadows[zoom].insert(index)
                    continue
                }
                try writer.appendShadow(zoom: zoom, index: index, partition: Int(index >> UInt64(2 * (zoom - partitionZoom))))
            }
        }
    }

    /// Clips `feature` down the pyramid from `tile` to the partition zoom, as one run's tiles
    /// clip it (each zoom's split, the buffer included), and hands over each piece that reaches
    /// a partition's tile.
    private func descend(_ feature: ProjectedFeature, tile: TileID,
                         _ body: (ProjectedFeature, TileID) throws -> Void) throws {
        if tile.z == partitionZoom {
            try body(feature, tile)
            return
        }
        let parts = TileSplit.split([feature], tile: tile, bounds: FeatureBounds(feature), options: options)
        for (pieces, child) in zip(parts, TileSplit.children(of: tile)) {
            for piece in pieces { try descend(piece, tile: child, body) }
        }
    }
}
