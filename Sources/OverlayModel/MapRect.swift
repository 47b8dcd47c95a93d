/// A width and height in map points (`MKMapSize`).
public struct MapSize: Hashable, Sendable, Codable {
    /// Width in map points.
    public var width: Double
    /// Height in map points.
    public var height: Double

    /// A size of `width` × `height` map points.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The whole world: 2^28 × 2^28 map points (`MKMapSize.world`).
    public static let world = MapSize(width: MapProjection.worldSize, height: MapProjection.worldSize)
}

/// An axis-aligned rectangle of map points (`MKMapRect`). Edges are closed: rects that share an
/// edge intersect, and a rect contains the points on its edges.
public struct MapRect: Hashable, Sendable, Codable {
    /// The north-west corner.
    public var origin: MapPoint
    /// Width and height in map points.
    public var size: MapSize

    /// A rect at `origin` of `size`.
    @inlinable
    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    /// A rect at `x`, `y` (north-west corner) of `width` × `height`.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The rect spanning two corners, whatever their order.
    @inlinable
    public init(corner a: MapPoint, _ b: MapPoint) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The whole world (`MKMapRect.world`).
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)
    /// The empty rect that is the identity of `union` (`MKMapRect.null`).
    public static let null = MapRect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// The west edge.
    @inlinable public var minX: Double { origin.x }
    /// The north edge (map y grows southward).
    @inlinable public var minY: Double { origin.y }
    /// The east edge.
    @inlinable public var maxX: Double { origin.x + size.width }
    /// The south edge.
    @inlinable public var maxY: Double { origin.y + size.height }
    /// The x of the center.
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    /// The y of the center.
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    /// Width in map points.
    @inlinable public var width: Double { size.width }
    /// Height in map points.
    @inlinable public var height: Double { size.height }
    /// True for `MapRect.null`: no point at all.
    @inlinable public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// True when null or of zero area.
    @inlinable public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

    /// The smallest rect containing both (`MKMapRectUnion`); null is the identity.
    @inlinable
    public func union(_ other: MapRect) -> MapRect {
        if isNull { return other }
        if other.isNull { return self }
        let minX = Swift.min(self.minX, other.minX), minY = Swift.min(self.minY, other.minY)
        let maxX = Swift.max(self.maxX, other.maxX), maxY = Swift.max(self.maxY, other.maxY)
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The smallest rect containing this one and a point.
    @inlinable
    public func union(_ point: MapPoint) -> MapRect {
        union(MapRect(origin: point, size: MapSize(width: 0, height: 0)))
    }

    /// The overlap of two rects, or `null` when they do not meet (`MKMapRectIntersection`).
    @inlinable
    public func intersection(_ other: MapRect) -> MapRect {
        if isNull || other.isNull { return .null }
        let minX = Swift.max(self.minX, other.minX), minY = Swift.max(self.minY, other.minY)
        let maxX = Swift.min(self.maxX, other.maxX), maxY = Swift.min(self.maxY, other.maxY)
        if minX > maxX || minY > maxY { return .null }
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// True when the rects share at least one point (`MKMapRectIntersectsRect`).
    @inlinable
    public func intersects(_ other: MapRect) -> Bool {
        !isNull && !other.isNull
            && other.minX <= maxX && other.maxX >= minX && other.minY <= maxY && other.maxY >= minY
    }

    /// True when the point lies inside or on the edge (`MKMapRectContainsPoint`).
    @inlinable
    public func contains(_ point: MapPoint) -> Bool {
        !isNull && point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// True when every point of `other` lies in this rect (`MKMapRectContainsRect`).
    @inlinable
    public func contains(_ other: MapRect) -> Bool {
        !isNull && !other.isNull
            && other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The rect shrunk by `dx` on the left and right and `dy` on the top and bottom
    /// (`MKMapRectInset`); negative values grow it.
    @inlinable
    public func insetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return self }
        return MapRect(x: minX + dx, y: minY + dy, width: size.width - 2 * dx, height: size.height - 2 * dy)
    }

    /// The rect moved by `dx`, `dy` (`MKMapRectOffset`).
    @inlinable
    public func offsetBy(dx: Double, dy: Double) -> MapRect {
        MapRect(x: minX + dx, y: minY + dy, width: size.width, height: size.height)
    }

    /// True when the rect extends past the world's east or west edge, that is, across the
    /// 180th meridian (`MKMapRectSpans180thMeridian`).
    @inlinable
    public var spans180thMeridian: Bool {
        !isNull && (maxX > MapRect.world.maxX || minX < MapRect.world.minX)
    }

    /// The part of the rect that lies beyond the world's east (or west) edge, moved back into
    /// the world (`MKMapRectRemainder`); `null` when the rect stays inside the world.
    @inlinable
    public var remainder: MapRect {
        let world = MapRect.world
        if maxX > world.maxX {
            return offsetBy(dx: -world.width, dy: 0).intersection(world)
        }
        if minX < world.minX {
            return offsetBy(dx: world.width, dy: 0).intersection(world)
        }
        return .null
    }

    /// The rect covering a coordinate region (`MKMapRectForCoordinateRegion`). A region that
    /// crosses the antimeridian gives a rect that extends past the world's east edge.
    public init(_ region: CoordinateRegion) {
        let halfLat = region.span.latitudeDelta / 2
        let top = MapProjection.y(latitude: region.center.latitude + halfLat)
        let bottom = MapProjection.y(latitude: region.center.latitude - halfLat)
        let width = region.span.longitudeDelta / 360 * MapProjection.worldSize
        let left = MapProjection.x(longitude: region.center.longitude) - width / 2
        self.init(x: left, y: top, width: width, height: bottom - top)
    }
}
