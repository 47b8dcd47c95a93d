
/// Where the vertices of a path written beyond ±180° lie, for the tiler's unwrapped map x.
///
/// The rule every command follows for a far-out longitude: it names the place it names once
/// wrapped by whole turns (`MapProjection.wrappedLongitude`, exact), and an edge to or from such a
/// vertex takes the short way, as `info`'s extent and `render` take it. So a vertex beyond ±180°
/// is moved by whole turns to the copy nearest the vertex before it in its path (the vertices
/// before a path's first one within ±180°: nearest the vertex after them; a path with none
/// starts in −180 … 180). `170 … 190` stays one piece across the antimeridian, `-190 … -170` too,
/// and `[1e308, 10] → [-1e308, 20]` is the 128° line from −64° to 64° it names, not a line from
/// −∞ to +∞ that covered every tile. Vertices within ±180° are kept as written (a 340° edge
/// between two of them is drawn the long way, as geojson-vt and tippecanoe draw it); the tiler
/// keeps whole paths within ±540° as written too (``drawnAsWritten``), where geojson-vt's
/// copies across the antimeridian already draw each vertex at its wrapped place.
/// O(n); the placed longitudes stay within 180° · n of the first.
package enum FarLongitudes {
    /// True when some longitude of `coordinates` lies beyond ±`limit` (NaN is not beyond).
    package static func anyBeyond(_ coordinates: [Coordinate], limit: Double = 180) -> Bool {
        coordinates.contains { $0.longitude < -limit || $0.longitude > limit }
    }

    /// How far the tiler draws longitudes as written: one world beyond either edge, which
    /// geojson-vt's copies across the antimeridian (`AntimeridianWrap`) put back at their wrapped
    /// place, bit for bit as geojson-vt does. Beyond, geojson-vt draws nothing or, for ±1e308,
    /// infinity: there the tiler places by this rule.
    package static let drawnAsWritten = 540.0

    /// The longitudes of a path placed by the rule above.
    package static func placed(_ coordinates: [Coordinate]) -> [Double] {
        var longitudes = coordinates.map(\.longitude)
        guard anyBeyond(coordinates) else { return longitudes }
        let firstWithin = longitudes.firstIndex { !($0 < -180 || $0 > 180) }
        if let firstWithin {
            // Leading far-out vertices, walking back from the first one within ±180°.
            var index = firstWithin
            while index > 0 {
                longitudes[index - 1] = nearestCopy(of: longitudes[index - 1], to: longitudes[index])
                index -= 1
            }
        } else {
            longitudes[0] = MapProjection.wrappedLongitude(longitudes[0])
        }
        for index in longitudes.indices.dropFirst() where index > (firstWithin ?? 0) {
            let longitude = longitudes[index]
            guard longitude < -180 || longitude > 180 else { continue }
            longitudes[index] = nearestCopy(of: longitude, to: longitudes[index - 1])
        }
        return longitudes
    }

    /// `shape` with every path that has a far-out longitude placed by the rule above, its map
    /// x unwrapped (beyond the world's edges where the path runs past them; source coordinates
    /// kept), for the tests and clips that work in map points (`filter --bbox`, `convert
    /// --clip`), which then look at the shape and its copies one world east and west as the
    /// tiler does; nil when no longitude of the shape lies beyond ±180° (nothing to place).
    /// Points and circles are already where their wrapped longitude says. O(vertices).
    package static func unwrapped(_ shape: Shape) -> Shape? {
        guard hasFarPath(shape) else { return nil }
        return placedShape(shape)
    }

    /// `shape` moved `dx` map points east (source coordinates kept): a copy one world over.
    package static func shifted(_ shape: Shape, by dx: Double) -> Shape {
        mapPaths(shape) { vertices in
            VertexBuffer(points: vertices.points.map { MapPoint(x: $0.x + dx, y: $0.y) }, coordinates: vertices.coordinates)
        }
    }

    /// Whether some line or ring of `shape` has a longitude beyond ±180° (allocates nothing:
    /// `filter --bbox` asks it of every feature).
    private static func hasFarPath(_ shape: Shape) -> Bool {
        switch shape {
        case .annotation, .circle: return false
        case .polyline(let line): return anyBeyond(line.vertices.coordinates)
        case .polygon(let ring):
            return anyBeyond(ring.vertices.coordinates) || ring.interiorPolygons.contains { anyBeyond($0.vertices.coordinates) }
        case .multiPolyline(let multi): return multi.polylines.contains { anyBeyond($0.vertices.coordinates) }
        case .multiPolygon(let multi): return multi.polygons.contains { hasFarPath(.polygon($0)) }
        case .collection(let collection): return collection.members.contains(where: hasFarPath)
        }
    }

    private static func placedShape(_ shape: Shape) -> Shape {
        mapPaths(shape) { vertices in
            guard anyBeyond(vertices.coordinates) else { return vertices }
            let points = zip(placed(vertices.coordinates), vertices.points).map { longitude, point in
                MapPoint(x: (longitude / 360 + 0.5) * MapProjection.worldSize, y: point.y)
            }
            return VertexBuffer(points: points, coordinates: vertices.coordinates)
        }
    }

    /// `shape` with each line's and ring's longitudes moved by whole turns to where its map
    /// points lie: what `RectClip` gives keeps the source coordinates of a copy it moved one
    /// world over, and a vertex it made on the world's east edge unprojects to −180°, so a
    /// tiler drawing from the longitudes (unwrapped) would draw those edges the long way round.
    /// Vertices already in place keep their coordinates exactly; nothing is allocated when all are.
    package static func placedAtMapPoints(_ shape: Shape) -> Shape {
        let world = MapProjection.worldSize
        func turns(_ point: MapPoint, _ coordinate: Coordinate) -> Double {
            ((point.x - (coordinate.longitude / 360 + 0.5) * world) / world).rounded()
        }
        return mapPaths(shape) { vertices in
            guard zip(vertices.points, vertices.coordinates).contains(where: { turns($0, $1) != 0 }) else { return vertices }
            let coordinates = zip(vertices.points, vertices.coordinates).map { point, coordinate -> Coordinate in
                let shift = turns(point, coordinate)
                guard shift != 0 else { return coordinate }
                return Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude + 360 * shift, altitude: coordinate.altitude)
            }
            return VertexBuffer(points: vertices.points, coordinates: coordinates)
        }
    }

    /// `shape` with `transform` applied to every line and ring (points and circles as they are).
    private static func mapPaths(_ shape: Shape, _ transform: (VertexBuffer) -> VertexBuffer) -> Shape {
        func polygon(_ polygon: Polygon) -> Polygon {
            Polygon(vertices: transform(polygon.vertices), interiorPolygons: polygon.interiorPolygons.map { Polygon(vertices: transform($0.vertices)) })
        }
        switch shape {
        case .annotation, .circle: return shape
        case .polyline(let line): return .polyline(Polyline(vertices: transform(line.vertices)))
        case .polygon(let ring): return .polygon(polygon(ring))
        case .multiPolyline(let multi): return .multiPolyline(MultiPolyline(multi.polylines.map { Polyline(vertices: transform($0.vertices)) }))
        case .multiPolygon(let multi): return .multiPolygon(MultiPolygon(multi.polygons.map(polygon)))
        case .collection(var collection):
            collection.members = collection.members.map { mapPaths($0, transform) }
            return .collection(collection)
        }
    }

    /// `longitude` moved by whole turns to within 180° of `reference` (exact for the wrapped
    /// part; `reference` is a placed longitude, so never far from ±180°).
    package static func nearestCopy(of longitude: Double, to reference: Double) -> Double {
        let wrapped = MapProjection.wrappedLongitude(longitude)
        guard reference.isFinite else { return wrapped }
        let turns = ((reference - wrapped) / 360).rounded()
        return wrapped + 360 * turns
    }
}
