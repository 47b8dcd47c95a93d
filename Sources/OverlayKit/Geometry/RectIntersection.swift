import OverlayModel

/// Exact tests between shapes and axis-aligned rects on the map plane: do they meet, and does
/// the rect hold the whole shape. Edges are straight in map points, rect edges are closed.
///
/// Cost: O(vertices) per shape, after an O(1) reject on the shape's bounding rect.
package enum RectIntersection {
    /// True when the shape and the rect share at least one point. A path with longitudes
    /// beyond ±180° is placed by `FarLongitudes` (edges to them take the short way) and tested
    /// with its copies one world east and west, as the tiler draws it.
    package static func intersects(_ shape: Shape, _ rect: MapRect) -> Bool {
        if rect.isNull { return false }
        guard let placed = FarLongitudes.unwrapped(shape) else { return intersectsAsPlaced(shape, rect) }
        let world = MapProjection.worldSize
        return [0, -world, world].contains { intersectsAsPlaced(placed, rect.offsetBy(dx: $0, dy: 0)) }
    }

    /// `intersects` for a shape whose map points are where they are drawn.
    private static func intersectsAsPlaced(_ shape: Shape, _ rect: MapRect) -> Bool {
        switch shape {
        case .annotation(let annotation):
            return rect.contains(annotation.point)
        case .circle(let circle):
            let center = circle.centerPoint
            let dx = center.x - min(max(center.x, rect.minX), rect.maxX)
            let dy = center.y - min(max(center.y, rect.minY), rect.maxY)
            let radius = circle.mapRadius
            return dx * dx + dy * dy <= radius * radius
        case .polyline(let polyline):
            return pathIntersects(polyline.vertices, rect)
        case .polygon(let polygon):
            return polygonIntersects(polygon, rect)
        case .multiPolyline(let multi):
            return multi.polylines.contains { pathIntersects($0.vertices, rect) }
        case .multiPolygon(let multi):
            return multi.polygons.contains { polygonIntersects($0, rect) }
        case .collection(let collection):
            return collection.members.contains { intersectsAsPlaced($0, rect) }
        }
    }

    /// True when every point of the shape lies in `rect`. `rect` may run past the world's east
    /// edge (a box across the antimeridian): a point also counts when it lies there one world
    /// width further east.
    package static func isWithin(_ shape: Shape, _ rect: MapRect) -> Bool {
        switch shape {
        case .annotation(let annotation):
            return pointWithin(annotation.point, rect)
        case .circle(let circle):
            let bounds = circle.boundingMapRect
            let world = MapProjection.worldSize
            return rect.contains(bounds) || rect.contains(bounds.offsetBy(dx: world, dy: 0))
                || rect.contains(bounds.offsetBy(dx: -world, dy: 0))
        case .polyline(let polyline):
            return verticesWithin(polyline.vertices, rect)
        case .polygon(let polygon):
            return verticesWithin(polygon.vertices, rect)  // holes lie inside the exterior
        case .multiPolyline(let multi):
            return !multi.polylines.isEmpty && multi.polylines.allSatisfy { verticesWithin($0.vertices, rect) }
        case .multiPolygon(let multi):
            return !multi.polygons.isEmpty && multi.polygons.allSatisfy { verticesWithin($0.vertices, rect) }
        case .collection(let collection):
            return !collection.members.isEmpty && collection.members.allSatisfy { isWithin($0, rect) }
        }
    }

    // MARK: Pieces

    @inline(__always)
    static func pointWithin(_ point: MapPoint, _ rect: MapRect) -> Bool {
        rect.contains(point) || (rect.spans180thMeridian && rect.contains(MapPoint(x: point.x + MapProjection.worldSize, y: point.y)))
    }

    static func verticesWithin(_ vertices: VertexBuffer, _ rect: MapRect) -> Bool {
        if vertices.isEmpty { return false }
        if rect.contains(vertices.boundingMapRect) { return true }
        return vertices.points.allSatisfy { pointWithin($0, rect) }
    }

    /// A polyline (or ring) meets the rect when a vertex lies in it or a segment crosses it.
    static func pathIntersects(_ vertices: VertexBuffer, _ rect: MapRect) -> Bool {
        guard vertices.boundingMapRect.intersects(rect) else { return false }
        let points = vertices.points
        if points.count == 1 { return rect.contains(points[0]) }
        for index in 1..<points.count where segmentIntersects(points[index - 1], points[index], rect) {
            return true
        }
        return false
    }

    /// A polygon meets the rect when a ring crosses it, or when the rect lies inside the
    /// polygon (not in a hole): then the rect's center is inside.
    static func polygonIntersects(_ polygon: Polygon, _ rect: MapRect) -> Bool {
        guard polygon.boundingMapRect.intersects(rect) else { return false }
        if pathIntersects(polygon.vertices, rect) { return true }
        if polygon.interiorPolygons.contains(where: { pathIntersects($0.vertices, rect) }) { return true }
        return PointInPolygon.contains(polygon, MapPoint(x: rect.midX, y: rect.midY))
    }

    /// Segment–rect test: an end inside, or the segment's line separates the rect's corners
    /// within the segment's extent.
    @inline(__always)
    static func segmentIntersects(_ a: MapPoint, _ b: MapPoint, _ rect: MapRect) -> Bool {
        if max(a.x, b.x) < rect.minX || min(a.x, b.x) > rect.maxX || max(a.y, b.y) < rect.minY || min(a.y, b.y) > rect.maxY {
            return false
        }
        if rect.contains(a) || rect.contains(b) { return true }
        let dx = b.x - a.x, dy = b.y - a.y
        @inline(__always) func side(_ x: Double, _ y: Double) -> Double { dx * (y - a.y) - dy * (x - a.x) }
        let s1 = side(rect.minX, rect.minY), s2 = side(rect.maxX, rect.minY)
        let s3 = side(rect.maxX, rect.maxY), s4 = side(rect.minX, rect.maxY)
        if s1 > 0 && s2 > 0 && s3 > 0 && s4 > 0 { return false }
        if s1 < 0 && s2 < 0 && s3 < 0 && s4 < 0 { return false }
        return true
    }
}

/// Even–odd point-in-polygon on the map plane, holes included.
package enum PointInPolygon {
    /// True when the point lies inside the exterior ring and outside every hole (points on an
    /// edge may go either way).
    package static func contains(_ polygon: Polygon, _ point: MapPoint) -> Bool {
        guard polygon.boundingMapRect.contains(point) else { return false }
        var inside = crossings(polygon.vertices.points, point)
        for hole in polygon.interiorPolygons { inside = inside != crossings(hole.vertices.points, point) }
        return inside
    }

    /// Ray casting to the east: odd crossings mean inside. An unclosed ring is closed implicitly.
    static func crossings(_ ring: [MapPoint], _ point: MapPoint) -> Bool {
        guard ring.count > 2 else { return false }
        var inside = false
        var previous = ring[ring.count - 1]
        for current in ring {
            if (current.y > point.y) != (previous.y > point.y) {
                let x = previous.x + (point.y - previous.y) / (current.y - previous.y) * (current.x - previous.x)
                if point.x < x { inside.toggle() }
            }
            previous = current
        }
        return inside
    }
}
