import OverlayModel

/// How features are cut into tiles: every setting of a tile run that decides what the tiles
/// hold, in one place, checked once by ``validate()`` before any work starts (``Tiler`` holds
/// only where they are read from and written to). The defaults are geojson-vt's, so results
/// compare; `Tiler(output:layer:)` starts from tippecanoe's.
public struct TileOptions: Hashable, Sendable, Codable {
    /// The lowest zoom written (tiles above it are still cut, to reach the deeper ones); 0…``maxZoom``.
    public var minZoom: Int = 0
    /// The deepest zoom with full detail (no simplification); 0…24. With ``guessesMaxZoom`` the
    /// highest zoom the guess may choose.
    public var maxZoom: Int = 14
    /// Choose the max zoom from the features' spacing once they are read (tippecanoe's `-zg`,
    /// see `MaxZoomGuess`); ``maxZoom`` is then the highest it may choose.
    public var guessesMaxZoom = false
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
    /// Only what lies inside this box is tiled (`tile --bbox`, tippecanoe's
    /// `--clip-bounding-box`, planetiler's `--bounds`): each feature is clipped to it as
    /// `convert --clip` clips (`RectClip`, in map points; a feature that does not meet it, or
    /// has no geometry, is left out before anything counts it), no tile whose square does not
    /// overlap it is written, and the metadata's bounds lie within it. A GeoParquet input is
    /// told the box (``Tiler/readHints``), so it skips the row groups and pages outside. Nil
    /// tiles everything; a box with no area is refused.
    public var clipBox: GeographicBox?

    /// Points kept per zoom below ``baseZoom`` (tippecanoe's `-r`): each zoom out keeps one point
    /// in `pointDropRate` of the zoom below, chosen evenly along a space-filling curve so low
    /// zooms keep the data's density pattern. 1 keeps every point at every zoom (geojson-vt).
    public var pointDropRate: Double = 1
    /// The zoom from which every point is kept (tippecanoe's `-B`); nil means ``maxZoom``.
    public var baseZoom: Int?
    /// Choose ``baseZoom`` as the lowest zoom where no tile holds more than
    /// ``baseZoomGuessLimit`` points (tippecanoe's `-Bg`).
    public var guessesBaseZoom = false
    /// The most points a tile may hold at a guessed base zoom (tippecanoe's 50,000).
    public var baseZoomGuessLimit = 50_000
    /// Whether the max zoom or the base zoom is guessed from the whole input.
    var guessesZooms: Bool { guessesMaxZoom || guessesBaseZoom }
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
    /// The bytes and features each tile may hold, and what gives way (``Tiler`` writes tiles
    /// within it; `TileIndex` and `TilePyramid` alone hand tiles over as cut). No limit here by
    /// default; ``tileDefaults`` has tippecanoe's (500 KiB compressed, 200,000 features,
    /// drop densest).
    public var budget = TileBudget.unlimited

    /// geojson-vt's defaults.
    public init() {}

    /// What `tile`, `serve` and a ``Tiler`` cut with unless told otherwise, the one place these
    /// defaults are set: geojson-vt's geometry settings (max zoom 14, extent 4096, buffer 64,
    /// tolerance 3) with tippecanoe's reductions (points thinned at rate 2.5 from the max zoom,
    /// tiny shapes kept visible, 500 KiB compressed and 200,000 features a tile, the densest
    /// dropped first).
    public static let tileDefaults: TileOptions = {
        var options = TileOptions()
        options.pointDropRate = 2.5
        options.accumulatesTinyShapes = true
        options.budget = TileBudget()
        return options
    }()

    /// The zoom from which every point is kept.
    public var resolvedBaseZoom: Int { baseZoom ?? maxZoom }

    /// ``clipBox`` in map points (past the world's east edge when it crosses the antimeridian).
    var clipMapRect: MapRect? { clipBox?.mapRect }

    /// ``clipBox`` as rects inside the world (two across the antimeridian); empty without one.
    var clipWorldRects: [MapRect] { clipBox?.worldRects ?? [] }

    /// The buffer as a fraction of a tile's side: how far point thinning looks past a tile's
    /// edge for an earlier tile's point (`PointThinning.TileShadows`).
    var thinningBuffer: Double { Double(buffer) / Double(extent) }

    /// Every setting out of its range, each naming the setting, what it must be and what it
    /// is (empty when all are fine).
    public var problems: [TileSettingProblem] {
        var found = [TileSettingProblem]()
        func check(_ condition: Bool, _ setting: String, _ requirement: String, _ value: Any) {
            if !condition { found.append(TileSettingProblem(setting: setting, requirement: requirement, value: "\(value)")) }
        }
        check((0...24).contains(maxZoom), "maxZoom", "must be 0…24", maxZoom)
        check((0...max(0, maxZoom)).contains(minZoom), "minZoom", "must be 0…maxZoom", minZoom)
        check((0...24).contains(indexMaxZoom), "indexMaxZoom", "must be 0…24", indexMaxZoom)
        check(tolerance >= 0 && tolerance.isFinite, "tolerance", "must be ≥ 0", tolerance)
        check(extent > 0 && extent <= 1 << 16, "extent", "must be 1…65536", extent)
        check(buffer >= 0 && buffer <= extent, "buffer", "must be 0…extent", buffer)
        check(!(promoteID != nil && generateID), "generateID", "cannot be used with promoteID", generateID)
        check(pointDropRate >= 1 && pointDropRate.isFinite, "pointDropRate", "must be ≥ 1", pointDropRate)
        if let baseZoom { check((0...24).contains(baseZoom), "baseZoom", "must be 0…24", baseZoom) }
        check(baseZoomGuessLimit >= 1, "baseZoomGuessLimit", "must be ≥ 1", baseZoomGuessLimit)
        check(tinyPolygonSize > 0 && tinyPolygonSize <= Double(extent), "tinyPolygonSize",
              "must be above 0 and at most the extent", tinyPolygonSize)
        check(clusterDistance >= 0 && clusterDistance <= 256, "clusterDistance", "must be 0…256 pixels", clusterDistance)
        if let clusterMaxZoom { check((0...24).contains(clusterMaxZoom), "clusterMaxZoom", "must be 0…24", clusterMaxZoom) }
        if let maxBytes = budget.maxBytes { check(maxBytes >= 1, "budget.maxBytes", "must be ≥ 1", maxBytes) }
        if let maxFeatures = budget.maxFeatures { check(maxFeatures >= 1, "budget.maxFeatures", "must be ≥ 1", maxFeatures) }
        if let clipBox {
            // Decoded from a job file the box was never parsed: its ranges are checked here too.
            let valid = (try? GeographicBox(west: clipBox.west, south: clipBox.south, east: clipBox.east, north: clipBox.north)) != nil
            check(valid && clipBox.south < clipBox.north && clipBox.west != clipBox.east, "clipBox",
                  "must be a box with area (west ≠ east, south < north, within ±180° and ±90°)",
                  "\(clipBox.west),\(clipBox.south),\(clipBox.east),\(clipBox.north)")
        }
        return found
    }

    /// Checks every setting; the error names the first one out of range (``problems`` has all).
    /// - Throws: `Diagnostic` `tile.bad-option`.
    public func validate() throws {
        if let first = problems.first { throw first.diagnostic }
    }
}

/// A tile setting out of its range: which one (by its name in ``TileOptions`` or ``Tiler``),
/// what it must be, and what it is. A command line maps ``setting`` to its own option name.
public struct TileSettingProblem: Hashable, Sendable, CustomStringConvertible {
    /// The setting's name in the library (`maxZoom`, `budget.maxBytes`, `threads`).
    public var setting: String
    /// What it must be ("must be 0…24").
    public var requirement: String
    /// Its value, as text.
    public var value: String

    /// A problem with `setting`.
    public init(setting: String, requirement: String, value: String) {
        self.setting = setting
        self.requirement = requirement
        self.value = value
    }

    /// "maxZoom must be 0…24, not 30".
    public var description: String { "\(setting) \(requirement), not \(value)" }

    /// The problem as the `tile.bad-option` error the library throws.
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .tileBadOption, message: description) }
}
