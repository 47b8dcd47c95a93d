import OverlayModel

/// Where projected features wait between projection (`TileSource`) and the tile pyramid
/// (`TilePyramid`): one seam, three stores. `MemoryFeatureStore` keeps them as flat buffers
/// (three doubles per vertex: fastest); `DiskFeatureStore` keeps them in temporary files (a byte
/// per feature in memory, whatever the input's size); `ShardFeatureStore` reads the shards' files
/// of a run split over workers (`TileJob`). What needs every feature at once — point thinning,
/// the zoom guesses, which polygons keep their shared borders — is decided through it, by one
/// step (`FeatureSettling`), and the pyramid starts from what it holds at zoom 0. Tiles do not
/// depend on the store (`TileFeatureStoreTests` and `TileJobTests` compare them byte for byte).
protocol ProjectedFeatureStore: Sendable {
    /// Calls `body` with every feature's anchor (its first vertex on the map) in Z-order: key,
    /// then input position.
    func forEachAnchor(_ body: (FeatureAnchor) throws -> Void) throws

    /// Calls `body` with every projected piece (wrapped copies included, with its input
    /// position), in no particular order.
    func forEachPiece(_ body: (ProjectedFeature) throws -> Void) throws

    /// Calls `body` with every polygon piece, as `forEachPiece` (a store on disk decodes no other).
    func forEachPolygon(_ body: (ProjectedFeature) throws -> Void) throws

    /// By input position, the first zoom point thinning shows each feature at (empty when
    /// nothing is thinned, or when the store keeps thinning's state instead).
    var thinnedMinZooms: [UInt8] { get }

    /// Thins the points with `walker` (nil: nothing thinned) in the anchors' order and keeps the
    /// decision for the tiles; `featureCount` input features.
    mutating func thinPoints(with walker: PointThinning.Walker?, featureCount: Int) throws

    /// Keeps which features' polygons tiles hold back for shared borders, and to which zoom
    /// (`FeatureTags.sharedBordersThrough` by input position).
    mutating func setSharedBordersThrough(_ tags: [UInt8])

    /// What the pyramid cuts zoom 0 from.
    var zoomZero: ZoomZeroFeatures { get }

    /// The temporary files' folder, their first level's size and their use (nil in memory).
    var temporaryFiles: (folder: String, bytes: Int, usage: RecordFileUsage)? { get }
}

/// A feature's anchor (its first vertex on the map) as a store hands it over: its Z-order key,
/// input position, and whether all its pieces are points.
typealias FeatureAnchor = SortedAnchors.Entry

extension ProjectedFeatureStore {
    func forEachPolygon(_ body: (ProjectedFeature) throws -> Void) throws {
        try forEachPiece { feature in
            if feature.type == .polygon { try body(feature) }
        }
    }

    /// By input position, the first zoom `walker` shows each point at, walking the anchors in
    /// Z-order (empty without a walker).
    func thinnedZooms(with walker: PointThinning.Walker?, featureCount: Int) throws -> [UInt8] {
        guard var walker else { return [] }
        var minZooms = [UInt8](repeating: 0, count: featureCount)
        try forEachAnchor { entry in
            if entry.pointsOnly { minZooms[entry.source] = walker.next(key: entry.key) }
        }
        return minZooms
    }
}

/// What a feature store hands the pyramid at zoom 0.
enum ZoomZeroFeatures {
    /// The wrapped features in memory, with their ids and properties.
    case features([ProjectedFeature], attributes: [TileAttributes], propertyTable: MVTPropertyTable?)
    /// Files of records in the run's order, and where the pyramid's own files go.
    case records([RecordRun], folder: String, usage: RecordFileUsage)
}
