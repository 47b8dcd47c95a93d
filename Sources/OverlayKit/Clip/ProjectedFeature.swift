import OverlayModel

/// The geometry types of a vector tile (Mapbox Vector Tile `GeomType`).
public enum TileGeometryType: Int, Hashable, Sendable {
    /// Points (MVT `POINT`).
    case point = 1
    /// Lines (MVT `LINESTRING`).
    case line = 2
    /// Polygons (MVT `POLYGON`).
    case polygon = 3
}

/// One ring or line of a `ProjectedFeature`: where its vertices are in the flat buffer and how
/// big the whole source ring or line was (so tiny ones can be dropped per zoom, even after
/// clipping has cut them into pieces).
package struct ProjectedRing: Hashable, Sendable {
    /// Index of the first vertex (a triple) in `ProjectedFeature.coordinates`.
    package var start: Int
    /// Number of vertices.
    package var count: Int
    /// For lines: the length of the source line; for polygon rings: the absolute area of the
    /// source ring (map points²). Carried unchanged through clipping.
    package var size: Double
    /// True for the first ring of each polygon (its exterior).
    package var isOuter: Bool

    @inlinable
    package init(start: Int, count: Int, size: Double, isOuter: Bool) {
        self.start = start
        self.count = count
        self.size = size
        self.isOuter = isOuter
    }
}

/// Where a line (or a clipped piece of it) lies along its source line, for geojson-vt's
/// `lineMetrics`: start and end as distances from the source's first point, and its length.
package struct LineMetrics: Hashable, Sendable {
    package var start: Double
    package var end: Double
    package var size: Double

    package init(start: Double, end: Double, size: Double) {
        self.start = start
        self.end = end
        self.size = size
    }
}

/// What a tile run knows of a feature besides its geometry, carried by every piece clipping and
/// wrapping make of it, so a piece can say by itself at which zooms and in which layer it is
/// drawn (no table by input position is needed, in memory or on disk).
package struct FeatureTags: Hashable, Sendable {
    /// The first and last zoom its `"tippecanoe": {"minzoom", "maxzoom"}` member allows (0 and
    /// 255 without one).
    package var memberMinZoom: UInt8 = 0
    package var memberMaxZoom: UInt8 = 255
    /// The first zoom point thinning shows it at (0: every zoom).
    package var thinnedMinZoom: UInt8 = 0
    /// The zooms a `--where` naming `$zoom` holds at (bit z); every bit without one.
    package var whereZooms: UInt32 = .max
    /// Its vector layer: an index into the run's layer names.
    package var layer: UInt16 = 0
    /// With shared borders (`TileOptions.sharedBorders`): 0 when tiles build its polygons as
    /// they arrive, z + 1 when tiles up to zoom z hold them back to build them with the borders
    /// they share (`SharedBorderCandidates`).
    package var sharedBordersThrough: UInt8 = 0

    /// Every zoom, the first layer.
    package init() {}
}

/// A feature projected once into a flat buffer of `[x, y, importance]` triples in map points,
/// as geojson-vt keeps them: every later stage (wrap, clip, per-zoom simplification) reads and
/// writes these buffers and never goes back to coordinates.
///
/// `importance` is the squared Douglas-Peucker distance (map points²) at which the vertex stops
/// being needed; ring ends and clip intersections carry `ProjectedFeature.keep`.
package struct ProjectedFeature: Hashable, Sendable {
    /// Importance of vertices every zoom keeps (ring ends, clip intersections).
    package static let keep = Double.infinity

    package var type: TileGeometryType
    /// `x, y, importance` for every vertex of every ring, ring after ring.
    package var coordinates: [Double]
    /// The rings (polygons), lines, or, for points, one run holding every point.
    package var rings: [ProjectedRing]
    /// Bounds of the exteriors (polygons) or of every vertex (lines, points).
    package var minX: Double
    package var minY: Double
    package var maxX: Double
    package var maxY: Double
    /// Index of the feature's id and properties in the owner's attribute table.
    package var source: Int
    /// Set on single lines when line metrics are asked for; clipping then makes every piece
    /// its own feature with its own start and end.
    package var metrics: LineMetrics?
    /// Its zooms and layer, the same on every piece.
    package var tags = FeatureTags()

    package init(type: TileGeometryType, coordinates: [Double], rings: [ProjectedRing], source: Int,
                metrics: LineMetrics? = nil, tags: FeatureTags = FeatureTags()) {
        self.metrics = metrics
        self.tags = tags
        self.type = type
        self.coordinates = coordinates
        self.rings = rings
        self.source = source
        minX = .infinity
        minY = .infinity
        maxX = -.infinity
        maxY = -.infinity
        computeBounds()
    }

    /// Recomputes the bounds from the buffer: exteriors only for polygons (holes lie inside).
    package mutating func computeBounds() {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for ring in rings where type != .polygon || ring.isOuter {
            var index = ring.start * 3
            let end = (ring.start + ring.count) * 3
            while index < end {
                let x = coordinates[index], y = coordinates[index + 1]
                if x < minX { minX = x }
                if x > maxX { maxX = x }
                if y < minY { minY = y }
                if y > maxY { maxY = y }
                index += 3
            }
        }
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The bounds as a map rectangle.
    package var mapRect: MapRect {
        MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The number of vertices in the buffer.
    @inlinable package var vertexCount: Int { coordinates.count / 3 }
}
