import OverlayModel

/// What building one tile left out or changed, so every dropped ring can be explained.
public struct TileStatistics: Hashable, Sendable, Codable {
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
