import OverlayModel

/// What a tile may hold, and what gives way when it holds more (tippecanoe's `-M`, `-O` and its
/// `--*-as-needed` strategies). Every tile written fits, or the run stops with an error that
/// names the tile: never a silently incomplete tile set.
public struct TileBudget: Hashable, Sendable, Codable {
    /// How a tile over budget is reduced.
    public enum Strategy: String, Hashable, Sendable, CaseIterable, Codable {
        /// Drop the features closest to their neighbour along the spatial order, so sparse areas
        /// keep theirs (tippecanoe's `--drop-densest-as-needed`). The default.
        case dropDensest = "drop-densest"
        /// Drop an even share of the features along the spatial order (`--drop-fraction-as-needed`).
        case dropFraction = "drop-fraction"
        /// Drop the smallest lines and polygons first, then points (`--drop-smallest-as-needed`).
        case dropSmallest = "drop-smallest"
        /// As drop-densest, but merge each such feature's geometry into its kept neighbour of
        /// the same type (`--coalesce-densest-as-needed`); falls back to dropping when merging
        /// no longer shrinks the tile.
        case coalesceDensest = "coalesce-densest"
        /// As drop-smallest, merging instead of dropping (`--coalesce-smallest-as-needed`).
        case coalesceSmallest = "coalesce-smallest"
    }

    /// The most bytes a tile may take gzip-compressed, as it is stored and served; nil: no limit.
    public var maxBytes: Int? = 500 * 1024
    /// The most features a tile may hold; nil: no limit.
    public var maxFeatures: Int? = 200_000
    /// What gives way.
    public var strategy = Strategy.dropDensest

    /// tippecanoe's limits (500 KiB, 200,000 features) with drop-densest.
    public init() {}

    /// No limits: every tile is written as cut.
    public static var unlimited: TileBudget {
        var budget = TileBudget()
        budget.maxBytes = nil
        budget.maxFeatures = nil
        return budget
    }
}
