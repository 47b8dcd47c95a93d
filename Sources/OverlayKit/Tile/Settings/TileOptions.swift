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
    /// Keep borders that polygons of a layer share shared at every zoom (tippecanoe's
    /// `--detect-shared-borders`): in each tile, edges two rings have are found, cut into arcs at
    /// junctions, each arc is simplified once without crossing any other and snap-rounded to the
    /// tile grid once, and every ring is rebuilt from its arcs, so a coverage (states, parcels)
    /// has no gap and no overlap in integer tile units (`SharedBorderTile`). Rings that share
    /// nothing, far from those that do, are simplified on their own as before.
    public var sharedBorders = false
    /// Which properties reach the tiles (tippecanoe's `-y`/`-x`/`-X`); ids are taken before it.
    public var attributes = AttributeSelection()
    /// Properties coerced to one type each (tippecanoe's `-T`), after ``attributes``.
    public var attributeTypes = AttributeCoercion()
    /// Only features matching it are tiled (`tile --where`); nil tiles every feature.
    public var featureFilter: TileFeatureFilter?

    /// Points kept per zoom below ``baseZoom`` (tippecanoe's `-r`): each zoom out keeps one point
    /// in `pointDropRate` of the zoom below, chosen evenly along a space-filling curve so low
    /// zooms keep the data's density pattern. 1 keeps every point at every zoom (geojson-vt).
    public var pointDropRate: Double = 1
    /// The zoom from which every point is kept (tippecanoe's `-B`); nil means ``maxZoom``.
    public var baseZoom: Int?
    /// Polygons and lines too small to draw at a zoom (area below ``tinyPolygonSize``² or
    /// tolerance², whichever is less; length below the tolerance) are added up per tile, and each
    /// time the sum reaches that size a small square (or short line) is written in place of the
    /// one that crossed it, with its attributes, so dense small shapes stay visible at every zoom
    /// (tippecanoe's tiny-polygon reduction). Off drops rings below tolerance², as geojson-vt does.
    public var accumulatesTinyShapes = false
    /// With ``accumulatesTinyShapes``, the side in tile units of the smallest ring drawn as itself
    /// below the max zoom (tippecanoe's `--tiny-polygon-size`, 2): smaller rings are added up
    /// into stand-in squares of this side.
    public var tinyPolygonSize: Double = 2
    /// Points closer than this many screen pixels (of a 256-pixel tile) are merged into one
    /// cluster point per tile (tippecanoe's `--cluster-distance`); 0 clusters nothing.
    public var clusterDistance: Double = 0
    /// The deepest zoom at which points are clustered; nil clusters at every zoom.
    public var clusterMaxZoom: Int?
    /// How a cluster combines its members' attributes (tippecanoe's `--accumulate-attribute`);
    /// attributes not named keep the first member's value.
    public var clusterAttributes: [String: ClusterAttributeRule] = [:]

    /// geojson-vt's defaults.
    public init() {}

    /// The zoom from which every point is kept.
    public var resolvedBaseZoom: Int { baseZoom ?? maxZoom }

    /// Checks the ranges; the message names the option.
    public func validate() throws {
        func fail(_ message: String) -> Diagnostic { Diagnostic(.error, code: .tileBadOption, message: message) }
        guard (0...24).contains(maxZoom) else { throw fail("maxZoom must be 0…24, not \(maxZoom)") }
        guard (0...24).contains(indexMaxZoom) else { throw fail("indexMaxZoom must be 0…24, not \(indexMaxZoom)") }
        guard tolerance >= 0, tolerance.isFinite else { throw fail("tolerance must be ≥ 0, not \(tolerance)") }
        guard extent > 0, extent <= 1 << 16 else { throw fail("extent must be 1…65536, not \(extent)") }
        guard buffer >= 0, buffer <= extent else { throw fail("buffer must be 0…extent, not \(buffer)") }
        guard !(promoteID != nil && generateID) else { throw fail("promoteID and generateID cannot be used together") }
        guard pointDropRate >= 1, pointDropRate.isFinite else { throw fail("pointDropRate must be ≥ 1, not \(pointDropRate)") }
        if let baseZoom { guard (0...24).contains(baseZoom) else { throw fail("baseZoom must be 0…24, not \(baseZoom)") } }
        guard tinyPolygonSize > 0, tinyPolygonSize <= Double(extent) else {
            throw fail("tinyPolygonSize must be above 0 and at most the extent, not \(tinyPolygonSize)")
        }
        guard clusterDistance >= 0, clusterDistance <= 256 else { throw fail("clusterDistance must be 0…256 pixels, not \(clusterDistance)") }
        if let clusterMaxZoom { guard (0...24).contains(clusterMaxZoom) else { throw fail("clusterMaxZoom must be 0…24, not \(clusterMaxZoom)") } }
    }
}
