import OverlayModel

/// Simplifies a shape for one zoom, in map points, keeping polygons valid: rings stay closed
/// with at least 4 points and get no self-crossing the input ring did not have (a ring that
/// would is simplified less, halving the tolerance up to four times, then kept whole). Rings
/// with less area than tolerance² and lines shorter than the tolerance are dropped and counted.
/// Kept vertices keep their source coordinates exactly.
public struct ShapeSimplifier: Sendable {
    /// The simplification algorithms, by their `--algorithm` names.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// Douglas-Peucker: no kept point strays more than the tolerance from the input.
        case douglasPeucker = "dp"
        /// Visvalingam-Whyatt: drops vertices whose effective triangle area is below tolerance².
        case visvalingamWhyatt = "vw"
    }

    /// What simplification removed or changed.
    public struct Counts: Hashable, Sendable {
        /// Rings smaller than the tolerance, dropped.
        public var droppedRings = 0
        /// Lines shorter than the tolerance, dropped.
        public var droppedLines = 0
        /// Rings simplified less than asked so they stay valid (no self-intersection).
        public var repairedRings = 0
        /// Vertices before simplification.
        public var verticesIn = 0
        /// Vertices after simplification.
        public var verticesOut = 0

        /// Zero counts.
        public init() {}
    }

    /// Tolerance in map points; ≤ 0 returns shapes unchanged.
    public var tolerance: Double
    /// Which algorithm ranks the vertices.
    public var algorithm: Algorithm

    /// A tolerance in screen points at a zoom: map points = points · 2^(20 − zoom).
    public init(screenPoints: Double, zoom: Double, algorithm: Algorithm = .douglasPeucker) {
        self.init(tolerance: screenPoints * Zoom.mapPointsPerScreenPoint(atZoom: zoom), algorithm: algorithm)
    }

    /// A simplifier with a tolerance in map points.
    public init(tolerance: Double, algorithm: Algorithm = .douglasPeucker) {
        self.tolerance = tolerance
        self.algorithm = algorithm
    }

    /// The simplified shape, or nil when every part was dropped.
    public func simplify(_ shape: Shape) -> Shape? {
        var counts = Counts()
        return simplify(shape, counts: &counts)
    }

    /// The shape simplified, counting what was dropped or repaired into `counts`; nil when
    /// nothing is left.
    public func simplify(_ shape: Shape, counts: inout Counts) -> Shape? {
        guard tolerance > 0 else { return shape }
        switch shape {
        case .annotation, .circle:
            return shape
        case .polyline(let polyline):
            return line(polyline.vertices, counts: &counts).map { .polyline(Polyline(vertices: $0)) }
        case .multiPolyline(let multi):
            let lines = multi.polylines.compactMap { line($0.vertices, counts: &counts) }.map(Polyline.init(vertices:))
            return lines.isEmpty ? nil : .multiPolyline(MultiPolyline(lines))
        case .polygon(let polygon):
            return self.polygon(polygon, counts: &counts).map(Shape.polygon)
        case .multiPolygon(let multi):
            let polygons = multi.polygons.compactMap { self.polygon($0, counts: &counts) }
            return polygons.isEmpty ? nil : .multiPolygon(MultiPolygon(polygons))
        case .collection(let collection):
            let members = collection.members.compactMap { simplify($0, counts: &counts) }
            return members.isEmpty ? nil : .collection(ShapeCollection(members: members, origin: collection.origin))
        }
    }

    /// Importance of every vertex (ends kept always), for the chosen algorithm; exact wherever
    /// it is above `keptAbove` (a threshold at or above it keeps the right vertices), which
    /// spares Douglas–Peucker the recursion below it.
    private func importance(_ points: [MapPoint], keptAbove: Double) -> [Double] {
        var flat = [Double]()
        flat.reserveCapacity(points.count * 3)
        for point in points {
            flat.append(point.x)
            flat.append(point.y)
            flat.append(0)
        }
        guard !points.isEmpty else { return [] }
        switch algorithm {
        case .douglasPeucker:
            DouglasPeucker.computeImportance(&flat, first: 0, last: points.count - 1, squaredTolerance: 0, monotone: true,
                                             keptAbove: keptAbove)
        case .visvalingamWhyatt:
            VisvalingamWhyatt.computeImportance(&flat, first: 0, last: points.count - 1)
        }
        flat[2] = .infinity
        flat[flat.count - 1] = .infinity
        return stride(from: 2, to: flat.count, by: 3).map { flat[$0] }
    }

    /// Douglas-Peucker importance is a squared distance, Visvalingam-Whyatt's an area: both
    /// compare with tolerance².
    private func threshold(_ tolerance: Double) -> Double { tolerance * tolerance }

    private func kept(_ vertices: VertexBuffer, _ importance: [Double], above threshold: Double) -> VertexBuffer {
        var points = [MapPoint](), coordinates = [Coordinate]()
        let allPoints = vertices.points, allCoordinates = vertices.coordinates
        for index in 0..<vertices.count where importance[index] > threshold {
            points.append(allPoints[index])
            coordinates.append(allCoordinates[index])
        }
        return VertexBuffer(points: points, coordinates: coordinates)
    }

    private func line(_ vertices: VertexBuffer, counts: inout Counts) -> VertexBuffer? {
        counts.verticesIn += vertices.count
        var length = 0.0
        let points = vertices.points
        for index in points.indices.dropFirst() {
            let a = points[index - 1], b = points[index]
            length += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        guard length >= tolerance else {
            counts.droppedLines += 1
            return nil
        }
        let result = kept(vertices, importance(vertices.points, keptAbove: threshold(tolerance)), above: threshold(tolerance))
        counts.verticesOut += result.count
        return result
    }

    private func polygon(_ polygon: Polygon, counts: inout Counts) -> Polygon? {
        guard let exterior = ring(polygon.vertices, counts: &counts) else {
            counts.droppedRings += polygon.interiorPolygons.count
            for hole in polygon.interiorPolygons { counts.verticesIn += hole.vertices.count }
            return nil
        }
        let holes = polygon.interiorPolygons.compactMap { ring($0.vertices, counts: &counts) }
        return Polygon(vertices: exterior, interiorPolygons: holes.map { Polygon(vertices: $0) })
    }

    /// One ring, simplified and kept valid; nil when dropped.
    private func ring(_ vertices: VertexBuffer, counts: inout Counts) -> VertexBuffer? {
        counts.verticesIn += vertices.count
        guard abs(vertices.signedDoubleArea) / 2 >= tolerance * tolerance, vertices.count >= 4 else {
            counts.droppedRings += 1
            return nil
        }
        // The repair attempts go down to a sixteenth of the tolerance.
        let importance = importance(vertices.points, keptAbove: threshold(self.tolerance / 16))
        var tolerance = self.tolerance
        for attempt in 0...5 {
            let candidate = attempt == 5 ? vertices : kept(vertices, importance, above: threshold(tolerance))
            let xy = candidate.points.flatMap { [$0.x, $0.y] }
            if attempt == 5 || (candidate.count >= 4 && !RingValidity.hasProperSelfIntersection(xy)
                                && RingValidity.doubleArea(xy) != 0) {
                if attempt > 0 { counts.repairedRings += 1 }
                counts.verticesOut += candidate.count
                return candidate
            }
            tolerance /= 2
        }
        return vertices
    }
}
