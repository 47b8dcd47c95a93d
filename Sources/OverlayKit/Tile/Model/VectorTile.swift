import OverlayModel

/// One feature of a tile, geometry in integer tile units (0…extent, plus the buffer).
public struct TileFeature: Hashable, Sendable {
    /// Point, line or polygon.
    public var type: TileGeometryType
    /// x, y pairs of every ring, line or point, one after another.
    public var xy: [Int32]
    /// The number of points in each ring (polygons: exteriors clockwise, holes counterclockwise
    /// with y down, each closed), line, or, for points, one run with all of them.
    public var ringLengths: [Int]
    /// The feature's id (or the promoted property, or its input position).
    public var id: JSONValue?
    /// The feature's properties; nil when the source had none.
    public var properties: JSONObject?

    /// A feature of `type` with tile coordinates `xy` (x, y pairs), split into rings or lines by `ringLengths`.
    public init(type: TileGeometryType, xy: [Int32], ringLengths: [Int], id: JSONValue?, properties: JSONObject?) {
        self.type = type
        self.xy = xy
        self.ringLengths = ringLengths
        self.id = id
        self.properties = properties
    }

    /// The geometry as nested points, `[ring][point] = (x, y)`, for tests and small callers.
    public var rings: [[(x: Int32, y: Int32)]] {
        var result = [[(x: Int32, y: Int32)]]()
        var index = 0
        for length in ringLengths {
            result.append((0..<length).map { (xy[2 * (index + $0)], xy[2 * (index + $0) + 1]) })
            index += length
        }
        return result
    }
}

/// One tile's features, ready to encode.
public struct VectorTile: Sendable {
    /// The tile's z/x/y.
    public var id: TileID
    /// Tile units across the tile.
    public var extent: Int
    /// The features in the tile, in input order.
    public var features: [TileFeature]
    /// What was dropped or kept while cutting this tile.
    public var statistics: TileStatistics
    /// Source points the tile's input held (geojson-vt's `numPoints`), dropped ones included.
    public var sourcePointCount: Int
    /// Points written.
    public var pointCount: Int
    /// Every input feature's properties encoded for MVT once (nil: encode `properties` here).
    var propertyTable: MVTPropertyTable? = nil
    /// For each feature, its input position in `propertyTable`, or -1 when its properties were
    /// changed for this tile (line metrics).
    var propertySources: [Int] = []
    /// For each feature, the input position it came from (empty for tiles built elsewhere).
    package var sources: [Int] = []
    /// For each feature, its vector layer (index into the run's layer names; empty for tiles
    /// built elsewhere: every feature in the first).
    package var layers: [UInt16] = []
    /// Ids and properties not decoded yet (dense tiles of the disk store); the encoders read
    /// each feature through `feature(at:)`.
    var deferred: DeferredTileAttributes? = nil

    /// Keeps the features at `indices` (ascending), with their parallel per-feature lists.
    package mutating func keepFeatures(at indices: [Int]) {
        features = indices.map { features[$0] }
        if !propertySources.isEmpty { propertySources = indices.map { propertySources[$0] } }
        if !sources.isEmpty { sources = indices.map { sources[$0] } }
        if !layers.isEmpty { layers = indices.map { layers[$0] } }
        if let slots = deferred?.slots { deferred!.slots = indices.map { slots[$0] } }
        statistics.features = features.count
    }
}
