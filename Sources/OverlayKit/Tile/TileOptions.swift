import OverlayModel

/// How features are cut into tiles. The defaults are geojson-vt's, so results compare.
public struct TileOptions: Hashable, Sendable {
    /// The deepest zoom with full detail (no simplification); 0…24.
    public var maxZoom: Int = 14
    /// `TileIndex` only: tiles are built up front down to this zoom…
    public var indexMaxZoom: Int = 5
    /// …or until a tile holds at most this many points; deeper tiles are built on demand.
    public var indexMaxPoints: Int = 100_000
    /// Simplification tolerance in tile units (1/extent of a tile): at zoom z that is
    /// `tolerance · 2^28 / (2^z · extent)` map points, i.e. `tolerance · 2^(16−z)` for extent 4096,
    /// which is `tolerance / 16` screen points of a 256-point tile.
    public var tolerance: Double = 3
    /// Tile coordinates run 0…extent.
    public var extent: Int = 4096
    /// Extra tile units kept around each tile, on every side.
    public var buffer: Int = 64
    /// Use this property as each feature's id (geojson-vt's `promoteId`).
    public var promoteID: String?
    /// Number features by their position in the input (geojson-vt's `generateId`).
    public var generateID = false
    /// Give every line (multi-lines are split) `mapbox_clip_start` / `mapbox_clip_end`
    /// properties: where its piece in a tile starts and ends along the whole line, 0…1
    /// (geojson-vt's `lineMetrics`).
    public var lineMetrics = false
    /// Keep polygon rings valid after simplification: fall back to less simplification when a
    /// ring would have fewer than 4 points or a new self-crossing, and drop rings that are
    /// degenerate even at full detail (and the holes of a dropped exterior). Off reproduces
    /// geojson-vt's output exactly.
    public var keepRingsValid = true
    /// Which properties reach the tiles (tippecanoe's `-y`/`-x`/`-X`); ids are taken before it.
    public var attributes = AttributeSelection()
    /// Properties coerced to one type each (tippecanoe's `-T`), after ``attributes``.
    public var attributeTypes = AttributeCoercion()
    /// Only features matching it are tiled (`tile --where`); nil tiles every feature.
    public var featureFilter: TileFeatureFilter?

    /// geojson-vt's defaults.
    public init() {}

    /// Checks the ranges; the message names the option.
    public func validate() throws {
        func fail(_ message: String) -> Diagnostic { Diagnostic(.error, code: "tile.bad-option", message: message) }
        guard (0...24).contains(maxZoom) else { throw fail("maxZoom must be 0…24, not \(maxZoom)") }
        guard (0...24).contains(indexMaxZoom) else { throw fail("indexMaxZoom must be 0…24, not \(indexMaxZoom)") }
        guard tolerance >= 0, tolerance.isFinite else { throw fail("tolerance must be ≥ 0, not \(tolerance)") }
        guard extent > 0, extent <= 1 << 16 else { throw fail("extent must be 1…65536, not \(extent)") }
        guard buffer >= 0, buffer <= extent else { throw fail("buffer must be 0…extent, not \(buffer)") }
        guard !(promoteID != nil && generateID) else { throw fail("promoteID and generateID cannot be used together") }
    }
}
