/// Where an overlay is drawn relative to the map's own content (`MKOverlayLevel`).
public enum OverlayLevel: String, Hashable, Sendable, CaseIterable {
    /// Drawn above roads, below labels (MapKit's default).
    case aboveRoads
    /// Drawn above roads and labels.
    case aboveLabels
}

/// A circle of `radius` meters around a center (`MKCircle`). GeoJSON and KML have no circles:
/// see the conventions in DESIGN.md for how they are written.
public struct Circle: Hashable, Sendable {
    /// The center.
    public var center: Coordinate
    /// Radius in meters.
    public var radius: Double

    /// A circle of `radius` meters around `center`.
    public init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius
    }

    /// The center as a map point.
    public var centerPoint: MapPoint { MapPoint(center) }

    /// The radius in map points at the center's latitude, at most the world's width: a larger
    /// circle covers every point of the world already, and drawing or tiling it larger would only
    /// repeat the world (a radius of 1e12 m once meant 26,000 copies).
    public var mapRadius: Double {
        min(radius * mapPointsPerMeter(atLatitude: center.latitude), MapProjection.worldSize)
    }

    /// The square of map points around the circle, using the Mercator scale at its center
    /// (`MKCircle.boundingMapRect`), held to the world's height; a circle as wide as the world
    /// or wider covers its whole width, so its rect is the world's width, as MapKit clamps it
    /// (not a square running a world past either edge).
    public var boundingMapRect: MapRect {
        let halfSide = mapRadius
        let center = centerPoint
        let world = MapProjection.worldSize
        let minY = max(0, center.y - halfSide), maxY = min(world, center.y + halfSide)
        if 2 * halfSide >= world { return MapRect(x: 0, y: minY, width: world, height: maxY - minY) }
        return MapRect(x: center.x - halfSide, y: minY, width: 2 * halfSide, height: maxY - minY)
    }
}

/// An open path of connected segments (`MKPolyline`).
public struct Polyline: Hashable, Sendable {
    /// The vertices, as map points and coordinates.
    public var vertices: VertexBuffer

    /// A line through these vertices.
    public init(vertices: VertexBuffer) { self.vertices = vertices }
    /// A line through these coordinates.
    public init(coordinates: [Coordinate]) { self.init(vertices: VertexBuffer(coordinates: coordinates)) }

    /// The vertices in map points.
    @inlinable public var points: [MapPoint] { vertices.points }
    /// The vertices in degrees.
    @inlinable public var coordinates: [Coordinate] { vertices.coordinates }
    /// The number of vertices.
    @inlinable public var pointCount: Int { vertices.count }
    /// The smallest map rect holding the line.
    @inlinable public var boundingMapRect: MapRect { vertices.boundingMapRect }
}

/// A closed shape with optional holes (`MKPolygon`). The exterior ring is stored as given
/// (closed, first vertex repeated last, when the source closed it); holes are polygons in
/// `interiorPolygons`, without holes of their own.
public struct Polygon: Hashable, Sendable {
    /// The exterior ring.
    public var vertices: VertexBuffer
    /// Holes cut out of the exterior.
    public var interiorPolygons: [Polygon]

    /// A polygon with this exterior ring and holes.
    public init(vertices: VertexBuffer, interiorPolygons: [Polygon] = []) {
        self.vertices = vertices
        self.interiorPolygons = interiorPolygons
    }

    /// A polygon with this exterior ring (in degrees) and holes.
    public init(coordinates: [Coordinate], interiorPolygons: [Polygon] = []) {
        self.init(vertices: VertexBuffer(coordinates: coordinates), interiorPolygons: interiorPolygons)
    }

    /// The exterior ring in map points.
    @inlinable public var points: [MapPoint] { vertices.points }
    /// The exterior ring in degrees.
    @inlinable public var coordinates: [Coordinate] { vertices.coordinates }
    /// The number of exterior ring vertices.
    @inlinable public var pointCount: Int { vertices.count }
    /// The exterior's bounds (holes lie inside it).
    @inlinable public var boundingMapRect: MapRect { vertices.boundingMapRect }

    /// Every ring: the exterior first, then each hole.
    public var rings: [VertexBuffer] { [vertices] + interiorPolygons.map(\.vertices) }
}

/// Several polygons drawn as one overlay (`MKMultiPolygon`).
public struct MultiPolygon: Hashable, Sendable {
    /// The polygons.
    public var polygons: [Polygon]

    /// A shape of these polygons.
    public init(_ polygons: [Polygon]) { self.polygons = polygons }

    /// The smallest map rect holding every polygon.
    public var boundingMapRect: MapRect {
        polygons.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    }
}

/// Several polylines drawn as one overlay (`MKMultiPolyline`).
public struct MultiPolyline: Hashable, Sendable {
    /// The lines.
    public var polylines: [Polyline]

    /// A shape of these lines.
    public init(_ polylines: [Polyline]) { self.polylines = polylines }

    /// The smallest map rect holding every line.
    public var boundingMapRect: MapRect {
        polylines.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    }
}

/// A titled point on the map (`MKPointAnnotation`).
public struct PointAnnotation: Hashable, Sendable {
    /// Where the point is.
    public var coordinate: Coordinate
    /// The callout title (the feature's name).
    public var title: String?
    /// The callout subtitle (the feature's description).
    public var subtitle: String?

    /// A point with an optional title and subtitle.
    public init(coordinate: Coordinate, title: String? = nil, subtitle: String? = nil) {
        self.coordinate = coordinate
        self.title = title
        self.subtitle = subtitle
    }

    /// The point in map points.
    public var point: MapPoint { MapPoint(coordinate) }
    /// A zero-size rect at the point.
    public var boundingMapRect: MapRect { MapRect(origin: point, size: MapSize(width: 0, height: 0)) }
}
