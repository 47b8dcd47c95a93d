import OverlayModel

/// Where projected features wait between projection (`TileSource`) and the tile pyramid
/// (`TilePyramid`): one seam, two stores. `MemoryFeatureStore` keeps them as flat buffers
/// (three doubles per vertex: fastest); `DiskFeatureStore` keeps them in temporary files (a byte
/// per feature in memory, whatever the input's size). What needs every feature at once — point
/// thinning, the zoom guesses, which polygons keep their shared borders — is decided through
/// it, and the pyramid starts from what it holds at zoom 0. Tiles do not depend on the store
/// (`TileFeatureStoreTests` compares them byte for byte).
protocol ProjectedFeatureStore: Sendable {
    /// Calls `body` with every feature's anchor (its first vertex on the map) in Z-order: key,
    /// then input position.
    func forEachAnchor(_ body: (SortedAnchors.Entry) throws -> Void) throws

    /// Calls `body` with every projected piece (wrapped copies included, with its input
    /// position), in no particular order.
    func forEachPiece(_ body: (ProjectedFeature) throws -> Void) throws

    /// By input position, the first zoom point thinning shows each feature at (empty when
    /// nothing is thinned).
    var thinnedMinZooms: [UInt8] { get }

    /// Keeps thinning's decision (by input position; empty: nothing thinned) for the tiles.
    mutating func setThinnedMinZooms(_ zooms: [UInt8])

    /// Keeps which features' polygons tiles hold back for shared borders, and to which zoom
    /// (`FeatureTags.sharedBordersThrough` by input position).
    mutating func setSharedBordersThrough(_ tags: [UInt8])

    /// What the pyramid cuts zoom 0 from.
    var zoomZero: ZoomZeroFeatures { get }

    /// The temporary files' folder, their first level's size and their use (nil in memory).
    var temporaryFiles: (folder: String, bytes: Int, usage: RecordFileUsage)? { get }
}

/// What a feature store hands the pyramid at zoom 0.
enum ZoomZeroFeatures {
    /// The wrapped features in memory, with their ids and properties.
    case features([ProjectedFeature], attributes: [TileAttributes], propertyTable: MVTPropertyTable?)
    /// Files of records in the run's order, and where the pyramid's own files go.
    case records([RecordRun], folder: String, usage: RecordFileUsage)
}
