import OverlayModel

/// Drops the vertices of lines and rings that fall in the same cell of a map-point grid as the
/// vertex kept before them, before the render-zoom simplification: with cells a quarter of a
/// device pixel wide the picture cannot tell, and Douglas–Peucker (O(n log n)) then sees at most
/// a few vertices per pixel the geometry passes through instead of the whole input — a
/// 2-million-vertex GPS track of 10 m steps shrinks to the pixels it crosses in one O(n) pass.
///
/// Lines keep their first and last vertex; rings keep their closing vertex, and a ring that
/// would keep fewer than four is left as it is (the simplifier decides whether it shows).
/// Source coordinates of kept vertices are kept; runs that lose nothing are returned as they are.
struct SubpixelCoalescing {
    /// The grid's cell width in map points.
    let cellSize: Double

    /// The shape with its same-cell runs coalesced.
    func coalesce(_ shape: Shape) -> Shape {
        switch shape {
        case .annotation, .circle:
            return shape
        case .polyline(let line):
            return .polyline(Polyline(vertices: coalesce(line.vertices, ring: false)))
        case .multiPolyline(let multi):
            return .multiPolyline(MultiPolyline(multi.polylines.map { Polyline(vertices: coalesce($0.vertices, ring: false)) }))
        case .polygon(let polygon):
            return .polygon(coalesce(polygon))
        case .multiPolygon(let multi):
            return .multiPolygon(MultiPolygon(multi.polygons.map(coalesce)))
        case .collection(var collection):
            collection.members = collection.members.map(coalesce)
            return .collection(collection)
        }
    }

    private func coalesce(_ polygon: Polygon) -> Polygon {
        Polygon(vertices: coalesce(polygon.vertices, ring: true),
                interiorPolygons: polygon.interiorPolygons.map { Polygon(vertices: coalesce($0.vertices, ring: true)) })
    }

    /// The vertices whose cell differs from the last kept one's (and the last vertex). O(n).
    private func coalesce(_ vertices: VertexBuffer, ring: Bool) -> VertexBuffer {
        let count = vertices.count
        guard count > 4, cellSize > 0, cellSize.isFinite else { return vertices }
        var kept = [Int]()
        vertices.points.withUnsafeBufferPointer { points in
            var lastX = Double.nan, lastY = Double.nan
            for index in 0..<(count - 1) {
                let cellX = (points[index].x / cellSize).rounded(.down), cellY = (points[index].y / cellSize).rounded(.down)
                if cellX == lastX && cellY == lastY { continue }
                lastX = cellX
                lastY = cellY
                kept.append(index)
            }
        }
        // The last vertex always stays: a line's true end, a ring's closing vertex (which may
        // share its cell with the vertex before it).
        kept.append(count - 1)
        guard kept.count < count, !ring || kept.count >= 4 else { return vertices }
        var points = [MapPoint](), coordinates = [Coordinate]()
        points.reserveCapacity(kept.count)
        coordinates.reserveCapacity(kept.count)
        let allPoints = vertices.points, allCoordinates = vertices.coordinates
        for index in kept {
            points.append(allPoints[index])
            coordinates.append(allCoordinates[index])
        }
        return VertexBuffer(points: points, coordinates: coordinates)
    }
}
