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

/// What building one tile left out or changed, so every dropped ring can be explained.
public struct TileStatistics: Hashable, Sendable {
    /// Features written.
    public var features = 0
    /// Features in the tile's input that lost every part to the rules below.
    public var droppedFeatures = 0
    /// Polygon rings whose area is below tolerance² (geojson-vt drops them too).
    public var droppedTinyRings = 0
    /// Lines shorter than the tolerance (geojson-vt drops them too).
    public var droppedTinyLines = 0
    /// Rings with fewer than 4 points or no area even at full detail, and holes of dropped
    /// exteriors (only with `keepRingsValid`).
    public var droppedDegenerateRings = 0
    /// Lines left with a single point.
    public var droppedDegenerateLines = 0
    /// Rings simplified less than asked because the asked-for ring had fewer than 4 points or a
    /// self-crossing.
    public var repairedRings = 0
    /// Rings that still cross themselves at the least simplification tried (the crossing comes
    /// from the input, clipping or rounding to the tile grid); kept as simplified.
    public var selfCrossingRings = 0
    /// Features not drawn at this zoom by point thinning (``TileOptions/pointDropRate``).
    public var thinnedFeatures = 0
    /// Features outside their own `"tippecanoe": {"minzoom", "maxzoom"}` at this zoom.
    public var outsideZoomRange = 0
    /// Squares and short lines written in place of tiny rings and lines (``TileOptions/accumulatesTinyShapes``).
    public var tinyStandIns = 0
    /// Points merged into clusters (``TileOptions/clusterDistance``).
    public var clusteredPoints = 0
    /// Cluster features written, each standing for two or more points.
    public var clusters = 0
    /// Features dropped to bring a tile within its byte or feature budget.
    public var droppedForBudget = 0
    /// Features merged into a neighbour to bring a tile within its budget.
    public var coalescedForBudget = 0
    /// Features a `--where` naming `$zoom` leaves out at this zoom.
    public var filteredAtZoom = 0
    /// Cluster attributes left out because their `sum` is beyond the largest double
    /// (``TileOptions/clusterAttributes``).
    public var overflowedSums = 0

    /// Zero counts.
    public init() {}

    /// Every count with its name in the metadata's drop report, in the report's order.
    public static let counters: [(name: String, keyPath: WritableKeyPath<TileStatistics, Int> & Sendable)] = [
        ("features", \.features), ("droppedFeatures", \.droppedFeatures), ("droppedTinyRings", \.droppedTinyRings),
        ("droppedTinyLines", \.droppedTinyLines), ("droppedDegenerateRings", \.droppedDegenerateRings),
        ("droppedDegenerateLines", \.droppedDegenerateLines), ("repairedRings", \.repairedRings),
        ("selfCrossingRings", \.selfCrossingRings), ("thinnedFeatures", \.thinnedFeatures),
        ("outsideZoomRange", \.outsideZoomRange), ("tinyStandIns", \.tinyStandIns),
        ("clusteredPoints", \.clusteredPoints), ("clusters", \.clusters), ("droppedForBudget", \.droppedForBudget),
        ("coalescedForBudget", \.coalescedForBudget), ("filteredAtZoom", \.filteredAtZoom),
        ("overflowedSums", \.overflowedSums),
    ]

    /// The counts of `copies` identical tiles (saturating: a solid block can hold 4^24 tiles).
    public func repeated(_ copies: Int) -> TileStatistics {
        var result = TileStatistics()
        for counter in Self.counters { result[keyPath: counter.keyPath] = self[keyPath: counter.keyPath].multipliedSaturating(by: copies) }
        return result
    }

    /// The counts in `self` beyond those in `earlier` (what happened in between).
    public func subtracting(_ earlier: TileStatistics) -> TileStatistics {
        var result = TileStatistics()
        for counter in Self.counters { result[keyPath: counter.keyPath] = self[keyPath: counter.keyPath] - earlier[keyPath: counter.keyPath] }
        return result
    }

    /// Adds another tile's counts (saturating).
    public static func += (a: inout TileStatistics, b: TileStatistics) {
        for counter in counters { a[keyPath: counter.keyPath] = a[keyPath: counter.keyPath].addingSaturating(b[keyPath: counter.keyPath]) }
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

    /// Keeps the features at `indices` (ascending), with their parallel per-feature lists.
    package mutating func keepFeatures(at indices: [Int]) {
        features = indices.map { features[$0] }
        if !propertySources.isEmpty { propertySources = indices.map { propertySources[$0] } }
        if !sources.isEmpty { sources = indices.map { sources[$0] } }
        statistics.features = features.count
    }
}
