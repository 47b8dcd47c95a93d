/// What a feature draws: one overlay, one annotation, or a collection of them.
public indirect enum Shape: Hashable, Sendable {
    /// A point (`MKPointAnnotation`).
    case annotation(PointAnnotation)
    /// A circle in meters (`MKCircle`).
    case circle(Circle)
    /// A line (`MKPolyline`).
    case polyline(Polyline)
    /// A polygon with holes (`MKPolygon`).
    case polygon(Polygon)
    /// Several lines (`MKMultiPolyline`).
    case multiPolyline(MultiPolyline)
    /// Several polygons (`MKMultiPolygon`).
    case multiPolygon(MultiPolygon)
    /// Several shapes of mixed kinds (GeoJSON GeometryCollection, KML mixed MultiGeometry) or
    /// several points (GeoJSON MultiPoint). Never flattened.
    case collection(ShapeCollection)

    /// The kind, for filters and statistics.
    public var kind: ShapeKind {
        switch self {
        case .annotation: .annotation
        case .circle: .circle
        case .polyline: .polyline
        case .polygon: .polygon
        case .multiPolyline: .multiPolyline
        case .multiPolygon: .multiPolygon
        case .collection: .collection
        }
    }

    /// The smallest rect containing the whole shape.
    public var boundingMapRect: MapRect {
        switch self {
        case .annotation(let annotation): annotation.boundingMapRect
        case .circle(let circle): circle.boundingMapRect
        case .polyline(let polyline): polyline.boundingMapRect
        case .polygon(let polygon): polygon.boundingMapRect
        case .multiPolyline(let multi): multi.boundingMapRect
        case .multiPolygon(let multi): multi.boundingMapRect
        case .collection(let collection): collection.boundingMapRect
        }
    }

    /// The number of vertices (a circle or annotation counts one).
    public var vertexCount: Int {
        switch self {
        case .annotation, .circle: 1
        case .polyline(let polyline): polyline.pointCount
        case .polygon(let polygon): polygon.rings.reduce(0) { $0 + $1.count }
        case .multiPolyline(let multi): multi.polylines.reduce(0) { $0 + $1.pointCount }
        case .multiPolygon(let multi):
            multi.polygons.reduce(0) { $0 + Shape.polygon($1).vertexCount }
        case .collection(let collection): collection.members.reduce(0) { $0 + $1.vertexCount }
        }
    }
}

/// The kinds of `Shape`, named as on the command line (`--type polygon,annotation`).
public enum ShapeKind: String, Hashable, Sendable, CaseIterable {
    /// A point.
    case annotation
    /// A circle.
    case circle
    /// A line.
    case polyline
    /// A polygon.
    case polygon
    /// Several lines.
    case multiPolyline = "multipolyline"
    /// Several polygons.
    case multiPolygon = "multipolygon"
    /// A mixed collection (GeometryCollection, MultiPoint, KML MultiGeometry).
    case collection
}

/// Several shapes kept together.
public struct ShapeCollection: Hashable, Sendable {
    /// What the source called it, so writers give back the same type.
    public enum Origin: String, Hashable, Sendable {
        /// GeoJSON MultiPoint (or KML MultiGeometry of points): every member is an annotation.
        case multiPoint
        /// GeoJSON GeometryCollection or KML MultiGeometry of mixed kinds.
        case geometryCollection
    }

    /// The member shapes.
    public var members: [Shape]
    /// What the collection was in the source (MultiPoint, GeometryCollection…).
    public var origin: Origin

    /// A collection of `members` read from `origin`.
    public init(members: [Shape], origin: Origin) {
        self.members = members
        self.origin = origin
    }

    /// The smallest map rect holding every member.
    public var boundingMapRect: MapRect {
        members.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    }
}
