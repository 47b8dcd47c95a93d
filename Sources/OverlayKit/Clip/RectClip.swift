import OverlayModel

/// Clips shapes to a map rect (plus a buffer) with `AxisClip`, x then y: points outside are
/// dropped, lines split into parts, polygon rings clipped and closed (rings left with fewer
/// than 4 points dropped and counted), circles kept whole when their bounding rect is inside
/// and otherwise clipped as a polygon. Vertices that survive keep their source coordinates
/// exactly; new vertices on the rect's edges are unprojected.
///
/// Works in map points as `MapPoint` gives them (longitudes wrapped into ±180°): a shape that
/// crosses the antimeridian is clipped as the map draws it, not as one piece; a path written
/// beyond ±180° is placed first (`FarLongitudes`, see `clip(_:counts:)`).
public struct RectClip: Sendable {
    /// What clipping removed.
    public struct Counts: Hashable, Sendable {
        /// Shapes entirely outside (nothing written).
        public var shapesOutside = 0
        /// Rings that degenerated (< 4 points) after clipping.
        public var droppedRings = 0
        /// Circles cut by the rect, written as polygons.
        public var circlesAsPolygons = 0

        /// No shapes counted yet.
        public init() {}
    }

    /// The rect plus the buffer on every side.
    public let bounds: MapRect
    /// For a rect that runs past the world's edge (a box across the antimeridian, e.g.
    /// `MapRect(west: 170, …, east: -170, …)`): clips of its part inside the world and of the
    /// part beyond, moved back into the world; empty otherwise.
    private let wrappedParts: [RectClip]

    /// A clip to `rect`, grown by `buffer` map points on every side. A rect that runs past
    /// the world's east or west edge clips its two parts, as the map draws them, and joins
    /// the pieces.
    public init(rect: MapRect, buffer: Double = 0) {
        bounds = rect.insetBy(dx: -buffer, dy: -buffer)
        if bounds.spans180thMeridian {
            wrappedParts = [bounds.intersection(.world), bounds.remainder].filter { !$0.isNull }.map { RectClip(rect: $0) }
        } else {
            wrappedParts = []
        }
    }

    /// The part of the shape inside the bounds, or nil when none is.
    public func clip(_ shape: Shape) -> Shape? {
        var counts = Counts()
        return clip(shape, counts: &counts)
    }

    /// The part of the shape inside the rect, counting what was cut away into `counts`; nil
    /// when nothing is inside.
    /// A path with longitudes beyond ±180° is placed by the rule every command shares (edges
    /// to them take the short way: `FarLongitudes`) and clipped with its copies one world east
    /// and west, as the tiler draws it: `170 … 190` is the 20° line across the antimeridian.
    public func clip(_ shape: Shape, counts: inout Counts) -> Shape? {
        let result: Shape?
        if let placed = FarLongitudes.unwrapped(shape) {
            let world = MapProjection.worldSize
            var pieces: [Shape] = []
            for dx in [0, world, -world] {
                let copy = dx == 0 ? placed : FarLongitudes.shifted(placed, by: dx)
                if let piece = wrappedParts.isEmpty ? clipped(copy, counts: &counts) : clippedInParts(copy, counts: &counts) {
                    pieces.append(piece)
                }
            }
            result = RectClip.join(pieces)
        } else {
            result = wrappedParts.isEmpty ? clipped(shape, counts: &counts) : clippedInParts(shape, counts: &counts)
        }
        if result == nil { counts.shapesOutside += 1 }
        return result
    }

    /// The pieces of the shape in each part of a rect across the antimeridian, joined.
    private func clippedInParts(_ shape: Shape, counts: inout Counts) -> Shape? {
        var pieces: [Shape] = []
        for part in wrappedParts {
            if let piece = part.clipped(shape, counts: &counts) { pieces.append(piece) }
        }
        return RectClip.join(pieces)
    }

    /// One shape of several pieces: polygons into a multipolygon, lines into a multipolyline,
    /// points into a MultiPoint collection, anything else into a geometry collection.
    static func join(_ pieces: [Shape]) -> Shape? {
        guard pieces.count > 1 else { return pieces.first }
        var polygons: [Polygon] = [], polylines: [Polyline] = [], points: [Shape] = []
        for piece in pieces {
            switch piece {
            case .polygon(let polygon): polygons.append(polygon)
            case .multiPolygon(let multi): polygons += multi.polygons
            case .polyline(let polyline): polylines.append(polyline)
            case .multiPolyline(let multi): polylines += multi.polylines
            case .annotation: points.append(piece)
            case .collection(let collection) where collection.origin == .multiPoint: points += collection.members
            default: break
            }
        }
        if polygons.count > 0 && polylines.isEmpty && points.isEmpty { return .multiPolygon(MultiPolygon(polygons)) }
        if polylines.count > 0 && polygons.isEmpty && points.isEmpty { return .multiPolyline(MultiPolyline(polylines)) }
        if points.count > 0 && polygons.isEmpty && polylines.isEmpty {
            return .collection(ShapeCollection(members: points, origin: .multiPoint))
        }
        return .collection(ShapeCollection(members: pieces, origin: .geometryCollection))
    }

    private func clipped(_ shape: Shape, counts: inout Counts) -> Shape? {
        let box = shape.boundingMapRect
        if box.isNull { return nil }
        if box.minX >= bounds.minX && box.maxX <= bounds.maxX && box.minY >= bounds.minY && box.maxY <= bounds.maxY {
            return shape
        }
        if box.maxX < bounds.minX || box.minX > bounds.maxX || box.maxY < bounds.minY || box.minY > bounds.maxY { return nil }
        switch shape {
        case .annotation(let annotation):
            return bounds.contains(annotation.point) ? shape : nil
        case .circle(let circle):
            counts.circlesAsPolygons += 1
            let radius = circle.mapRadius
            let ring = CirclePolygon.ring(circle, tolerance: max(radius / 1000, 1e-6))
            return clipped(.polygon(Polygon(vertices: VertexBuffer(points: ring))), counts: &counts)
        case .polyline(let polyline):
            let lines = clipLines([polyline.vertices])
            if lines.isEmpty { return nil }
            return lines.count == 1 ? .polyline(Polyline(vertices: lines[0])) : .multiPolyline(MultiPolyline(lines.map(Polyline.init)))
        case .multiPolyline(let multi):
            let lines = clipLines(multi.polylines.map(\.vertices))
            return lines.isEmpty ? nil : .multiPolyline(MultiPolyline(lines.map(Polyline.init)))
        case .polygon(let polygon):
            let polygons = clipPolygons([polygon], counts: &counts)
            if polygons.isEmpty { return nil }
            return polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(MultiPolygon(polygons))
        case .multiPolygon(let multi):
            let polygons = clipPolygons(multi.polygons, counts: &counts)
            return polygons.isEmpty ? nil : .multiPolygon(MultiPolygon(polygons))
        case .collection(let collection):
            let members = collection.members.compactMap { clipped($0, counts: &counts) }
            return members.isEmpty ? nil : .collection(ShapeCollection(members: members, origin: collection.origin))
        }
    }

    /// Flat triples whose third slot is the vertex's index in `coordinates` (−1 for new ones).
    private struct Flattened {
        var feature: ProjectedFeature
        var coordinates: [Coordinate]
    }

    private func flatten(_ rings: [(VertexBuffer, Bool)], type: TileGeometryType) -> Flattened {
        var flat = [Double](), coordinates = [Coordinate](), projected = [ProjectedRing]()
        for (ring, isOuter) in rings where !ring.isEmpty {
            projected.append(ProjectedRing(start: coordinates.count, count: ring.count, size: 0, isOuter: isOuter))
            for (point, coordinate) in zip(ring.points, ring.coordinates) {
                flat += [point.x, point.y, Double(coordinates.count)]
                coordinates.append(coordinate)
            }
        }
        return Flattened(feature: ProjectedFeature(type: type, coordinates: flat, rings: projected, source: 0),
                         coordinates: coordinates)
    }

    /// Clips on x, then on y, with the one primitive.
    private func clipFlat(_ feature: ProjectedFeature) -> ProjectedFeature? {
        guard let alongX = AxisClip.clip(feature, bounds.minX, bounds.maxX, axis: 0, intersectionValue: -1) else { return nil }
        return AxisClip.clip(alongX, bounds.minY, bounds.maxY, axis: 1, intersectionValue: -1)
    }

    private func rebuild(_ feature: ProjectedFeature, _ ring: ProjectedRing, _ source: [Coordinate]) -> VertexBuffer {
        var points = [MapPoint](), coordinates = [Coordinate]()
        for vertex in ring.start..<(ring.start + ring.count) {
            let point = MapPoint(x: feature.coordinates[3 * vertex], y: feature.coordinates[3 * vertex + 1])
            let origin = Int(feature.coordinates[3 * vertex + 2])
            points.append(point)
            coordinates.append(origin >= 0 ? source[origin] : Coordinate(point))
        }
        return VertexBuffer(points: points, coordinates: coordinates)
    }

    private func clipLines(_ lines: [VertexBuffer]) -> [VertexBuffer] {
        let flat = flatten(lines.map { ($0, false) }, type: .line)
        guard let result = clipFlat(flat.feature) else { return [] }
        return result.rings.filter { $0.count >= 2 }.map { rebuild(result, $0, flat.coordinates) }
    }

    private func clipPolygons(_ polygons: [Polygon], counts: inout Counts) -> [Polygon] {
        var rings = [(VertexBuffer, Bool)]()
        for polygon in polygons {
            rings.append((polygon.vertices, true))
            for hole in polygon.interiorPolygons { rings.append((hole.vertices, false)) }
        }
        let flat = flatten(rings, type: .polygon)
        guard let result = clipFlat(flat.feature) else { return [] }
        var output = [Polygon]()
        var exteriorKept = false
        for ring in result.rings {
            if ring.count < 4 || (!ring.isOuter && !exteriorKept) {
                counts.droppedRings += 1
                if ring.isOuter { exteriorKept = false }
                continue
            }
            let vertices = rebuild(result, ring, flat.coordinates)
            if ring.isOuter {
                output.append(Polygon(vertices: vertices))
                exteriorKept = true
            } else {
                output[output.count - 1].interiorPolygons.append(Polygon(vertices: vertices))
            }
        }
        return output
    }
}
