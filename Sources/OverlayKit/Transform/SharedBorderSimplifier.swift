import OverlayModel

/// Simplifies the polygons of a whole set of features together for one tolerance, keeping the
/// borders they share shared (what `convert --zoom --detect-shared-borders` runs): the rings'
/// shared edges are cut into arcs (`SharedArcs`), each arc is simplified once without crossing
/// another or swallowing a ring (`CoverageSimplifier`), and every ring is rebuilt from its arcs.
/// Kept vertices keep their source coordinates exactly (at a point several features share, the
/// first one's), so a coverage stays a coverage: GEOS's `CoverageValidator` finds it valid.
///
/// Lines, points and circles are simplified one by one by `ShapeSimplifier`. An exterior that
/// shares no border and has less area than tolerance² is dropped with its holes, as
/// `ShapeSimplifier` drops it; holes are kept (an island may lie in one).
///
/// Memory: every feature at once (the caller reads them all). O(n log n) typical for n vertices.
public struct SharedBorderSimplifier: Sendable {
    /// Tolerance in map points; ≤ 0 returns the features unchanged.
    public var tolerance: Double

    /// A simplifier with a tolerance in map points.
    public init(tolerance: Double) {
        self.tolerance = tolerance
    }

    /// A tolerance in screen points at a zoom: map points = points · 2^(20 − zoom).
    public init(screenPoints: Double, zoom: Double) {
        self.init(tolerance: screenPoints * Zoom.mapPointsPerScreenPoint(atZoom: zoom))
    }

    /// Where a ring came from: its feature, the path to its polygon among the feature's shapes,
    /// and its place in the polygon (0 the exterior, then the holes).
    private struct RingOwner {
        var feature: Int
        var polygon: Int
        var ring: Int
    }

    /// The features simplified (nil where nothing of a feature's shape is left), counting what
    /// was dropped into `counts`.
    public func simplify(_ features: [Feature], counts: inout ShapeSimplifier.Counts) -> [Feature?] {
        guard tolerance > 0 else { return features }
        // Every polygon of every feature, numbered in order (a collection's members included).
        var polygons = [Polygon](), polygonOwners = [Int]()
        for (index, feature) in features.enumerated() {
            guard let shape = feature.shape else { continue }
            for polygon in Self.polygons(of: shape) {
                polygons.append(polygon)
                polygonOwners.append(index)
            }
        }
        var xy = [Double](), coordinates = [Coordinate](), ringStarts = [0]
        var owners = [RingOwner]()
        for (index, polygon) in polygons.enumerated() {
            for (ringIndex, ring) in ([polygon.vertices] + polygon.interiorPolygons.map(\.vertices)).enumerated() {
                for (point, coordinate) in zip(ring.points, ring.coordinates) {
                    xy.append(point.x)
                    xy.append(point.y)
                    coordinates.append(coordinate)
                }
                ringStarts.append(xy.count / 2)
                owners.append(RingOwner(feature: polygonOwners[index], polygon: index, ring: ringIndex))
            }
        }
        let simplifier = ShapeSimplifier(tolerance: tolerance)
        guard let topology = SharedArcs.find(xy: xy, ringStarts: ringStarts) else {
            return features.map { feature in
                guard let shape = feature.shape else { return feature }
                guard let simplified = simplifier.simplify(shape, counts: &counts) else { return nil }
                var result = feature
                result.shape = simplified
                return result
            }
        }
        let kept = CoverageSimplifier.kept(topology, squaredTolerance: tolerance * tolerance)
        // Each polygon's rings rebuilt; nil where a ring is dropped.
        var rebuilt = polygons.map { [VertexBuffer?](repeating: nil, count: 1 + $0.interiorPolygons.count) }
        for (ring, owner) in owners.enumerated() {
            let inputCount = ringStarts[ring + 1] - ringStarts[ring]
            counts.verticesIn += inputCount
            let entries = topology.ringArcs[topology.ringStarts[ring]..<topology.ringStarts[ring + 1]]
            let shares = entries.contains { topology.arcUses[Int($0 >> 1)] > 1 }
            let source = polygons[owner.polygon]
            let vertices = owner.ring == 0 ? source.vertices : source.interiorPolygons[owner.ring - 1].vertices
            if owner.ring == 0 && !shares && abs(vertices.signedDoubleArea) / 2 < tolerance * tolerance {
                counts.droppedRings += 1
                continue
            }
            var points = [MapPoint](), ringCoordinates = [Coordinate]()
            for entry in entries {
                let arc = Int(entry >> 1)
                let positions = Array(topology.arcStarts[arc]..<topology.arcStarts[arc + 1])
                for position in (entry & 1 == 0 ? positions : positions.reversed()).dropLast() where kept[position] {
                    let point = Int(topology.arcPoints[position])
                    points.append(MapPoint(x: topology.points[2 * point], y: topology.points[2 * point + 1]))
                    ringCoordinates.append(coordinates[Int(topology.firstVertex[point])])
                }
            }
            guard points.count >= 3 else {
                counts.droppedRings += 1
                continue
            }
            points.append(points[0])
            ringCoordinates.append(ringCoordinates[0])
            counts.verticesOut += points.count
            rebuilt[owner.polygon][owner.ring] = VertexBuffer(points: points, coordinates: ringCoordinates)
        }
        var result = [Feature?]()
        var next = 0
        for feature in features {
            guard let shape = feature.shape else {
                result.append(feature)
                continue
            }
            let simplified = Self.replacingPolygons(in: shape) { _ in
                defer { next += 1 }
                let rings = rebuilt[next]
                guard let exterior = rings[0] else {
                    counts.droppedRings += rings.dropFirst().compactMap { $0 }.count
                    return nil
                }
                return Polygon(vertices: exterior, interiorPolygons: rings.dropFirst().compactMap { $0 }.map { Polygon(vertices: $0) })
            } others: { simplifier.simplify($0, counts: &counts) }
            guard let simplified else {
                result.append(nil)
                continue
            }
            var copy = feature
            copy.shape = simplified
            result.append(copy)
        }
        return result
    }

    /// The polygons of a shape in order (a multipolygon's, a collection's members').
    private static func polygons(of shape: Shape) -> [Polygon] {
        switch shape {
        case .polygon(let polygon): [polygon]
        case .multiPolygon(let multi): multi.polygons
        case .collection(let collection): collection.members.flatMap(polygons(of:))
        case .annotation, .circle, .polyline, .multiPolyline: []
        }
    }

    /// The shape with each polygon replaced by `polygon` (in `polygons(of:)`'s order; nil drops
    /// it) and every other member by `others`; nil when nothing is left.
    private static func replacingPolygons(in shape: Shape, _ polygon: (Polygon) -> Polygon?,
                                          others: (Shape) -> Shape?) -> Shape? {
        switch shape {
        case .polygon(let original):
            return polygon(original).map(Shape.polygon)
        case .multiPolygon(let multi):
            let kept = multi.polygons.compactMap(polygon)
            return kept.isEmpty ? nil : .multiPolygon(MultiPolygon(kept))
        case .collection(let collection):
            let members = collection.members.compactMap { replacingPolygons(in: $0, polygon, others: others) }
            return members.isEmpty ? nil : .collection(ShapeCollection(members: members, origin: collection.origin))
        case .annotation, .circle, .polyline, .multiPolyline:
            return others(shape)
        }
    }
}
