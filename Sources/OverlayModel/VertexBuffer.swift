/// A run of vertices stored flat: the projected map points and, index for index, the source
/// coordinates they came from (so writers reproduce the input numbers exactly, even where the
/// projection clamps latitudes beyond ±85.05°).
///
/// Both arrays hold plain structs, contiguous in memory; the bounding rect is computed once.
public struct VertexBuffer: Hashable, Sendable {
    /// Map points, in order.
    public private(set) var points: [MapPoint]
    /// Source coordinates, in the same order as `points`.
    public private(set) var coordinates: [Coordinate]
    /// The smallest rect containing every point; `MapRect.null` when empty.
    public private(set) var boundingMapRect: MapRect

    /// Projects coordinates once. O(n).
    public init(coordinates: [Coordinate]) {
        var points = [MapPoint]()
        points.reserveCapacity(coordinates.count)
        for coordinate in coordinates { points.append(MapPoint(coordinate)) }
        self.init(points: points, coordinates: coordinates)
    }

    /// Unprojects map points once (for geometry made in map space, e.g. by clipping). O(n).
    public init(points: [MapPoint]) {
        self.init(points: points, coordinates: points.map { Coordinate($0) })
    }

    /// Takes both representations as given; they must have the same count.
    public init(points: [MapPoint], coordinates: [Coordinate]) {
        precondition(points.count == coordinates.count, "points and coordinates differ in count")
        self.points = points
        self.coordinates = coordinates
        self.boundingMapRect = VertexBuffer.bounds(of: points)
    }

    /// The number of vertices.
    @inlinable public var count: Int { points.count }
    /// True when there are no vertices.
    @inlinable public var isEmpty: Bool { points.isEmpty }

    /// True when the first and last vertex are the same coordinate (a closed ring).
    public var isClosed: Bool {
        guard let first = coordinates.first, let last = coordinates.last, count > 1 else { return false }
        return first.latitude == last.latitude && first.longitude == last.longitude
    }

    /// The bounding rect of map points. O(n).
    public static func bounds(of points: [MapPoint]) -> MapRect {
        guard var minX = points.first?.x, var minY = points.first?.y else { return .null }
        var maxX = minX, maxY = minY
        for point in points {
            if point.x < minX { minX = point.x } else if point.x > maxX { maxX = point.x }
            if point.y < minY { minY = point.y } else if point.y > maxY { maxY = point.y }
        }
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Twice the signed area of the ring in map points (shoelace). Positive when the ring runs
    /// counterclockwise in latitude/longitude (map y grows southward, hence the sign).
    public var signedDoubleArea: Double {
        -ringTwiceSignedArea(count: count) { (points[$0].x, points[$0].y) }
    }

    /// The same vertices in reverse order.
    public func reversed() -> VertexBuffer {
        VertexBuffer(points: points.reversed(), coordinates: coordinates.reversed())
    }
}
