import XCTest
import OverlayKit
import OverlayModel

/// A small deterministic generator so property tests repeat exactly.
struct TileTestRandom {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func next(_ range: ClosedRange<Double>) -> Double { range.lowerBound + next() * (range.upperBound - range.lowerBound) }
}

/// A random star-shaped (so simple) ring around a center, closed, in degrees.
func tileStarRing(_ random: inout TileTestRandom, center: Coordinate, radius: Double, count: Int) -> [Coordinate] {
    var ring = (0..<count).map { index -> Coordinate in
        let angle = 2 * Double.pi * Double(index) / Double(count)
        let r = radius * random.next(0.3...1)
        return Coordinate(latitude: center.latitude + r * sin(angle), longitude: center.longitude + r * cos(angle))
    }
    ring.append(ring[0])
    return ring
}

final class ClipTests: XCTestCase {
    /// Property: whatever the shape, clipped output lies inside the buffered rect, rings are
    /// closed with ≥ 4 points, and vertices that survive keep their source coordinates.
    func testClippedOutputLiesInsideBufferedRect() {
        var random = TileTestRandom(state: 42)
        let rect = MapRect(corner: MapPoint(Coordinate(latitude: 20, longitude: -10)), MapPoint(Coordinate(latitude: -5, longitude: 15)))
        let buffer = rect.width / 16
        let clip = RectClip(rect: rect, buffer: buffer)
        let bounds = rect.insetBy(dx: -buffer, dy: -buffer)
        var counts = RectClip.Counts()
        var clippedShapes = 0
        for _ in 0..<300 {
            let center = Coordinate(latitude: random.next(-20...35), longitude: random.next(-25...30))
            let ring = tileStarRing(&random, center: center, radius: random.next(1...20), count: Int(random.next(3...60)))
            let sources = Set(ring.map { "\($0.latitude),\($0.longitude)" })
            let shapes: [Shape] = [.polygon(Polygon(coordinates: ring)), .polyline(Polyline(coordinates: Array(ring.dropLast())))]
            for shape in shapes {
                guard let result = clip.clip(shape, counts: &counts) else { continue }
                clippedShapes += 1
                for vertices in tileVertexBuffers(result) {
                    for (point, coordinate) in zip(vertices.points, vertices.coordinates) {
                        XCTAssertTrue(point.x >= bounds.minX - 1e-6 && point.x <= bounds.maxX + 1e-6
                                      && point.y >= bounds.minY - 1e-6 && point.y <= bounds.maxY + 1e-6, "\(point) outside \(bounds)")
                        let onEdge = abs(point.x - bounds.minX) < 1e-6 || abs(point.x - bounds.maxX) < 1e-6
                            || abs(point.y - bounds.minY) < 1e-6 || abs(point.y - bounds.maxY) < 1e-6
                        XCTAssertTrue(onEdge || sources.contains("\(coordinate.latitude),\(coordinate.longitude)"),
                                      "interior vertex lost its source coordinate")
                    }
                }
                if case .polygon(let polygon) = result {
                    for ring in polygon.rings {
                        XCTAssertGreaterThanOrEqual(ring.count, 4)
                        XCTAssertEqual(ring.points.first, ring.points.last)
                    }
                }
                if case .multiPolygon(let multi) = result {
                    for ring in multi.polygons.flatMap(\.rings) {
                        XCTAssertGreaterThanOrEqual(ring.count, 4)
                        XCTAssertEqual(ring.points.first, ring.points.last)
                    }
                }
            }
        }
        XCTAssertGreaterThan(clippedShapes, 100, "the generator should produce many shapes that reach the rect")
        XCTAssertGreaterThan(counts.shapesOutside, 0)
    }

    func testLineCrossingTheRectTwiceSplitsIntoTwoParts() {
        let rect = MapRect(x: 100, y: 100, width: 100, height: 100)
        let points = [MapPoint(x: 50, y: 150), MapPoint(x: 150, y: 150), MapPoint(x: 150, y: 250),
                      MapPoint(x: 170, y: 250), MapPoint(x: 170, y: 150), MapPoint(x: 250, y: 150)]
        var counts = RectClip.Counts()
        let result = RectClip(rect: rect).clip(.polyline(Polyline(vertices: VertexBuffer(points: points))), counts: &counts)
        guard case .multiPolyline(let multi)? = result else { return XCTFail("expected two parts, got \(String(describing: result))") }
        XCTAssertEqual(multi.polylines.map(\.points), [
            [MapPoint(x: 100, y: 150), MapPoint(x: 150, y: 150), MapPoint(x: 150, y: 200)],
            [MapPoint(x: 170, y: 200), MapPoint(x: 170, y: 150), MapPoint(x: 200, y: 150)],
        ])
    }

    func testPolygonClippedToSquareIsClosed() {
        let rect = MapRect(x: 0, y: 0, width: 10, height: 10)
        let square = [MapPoint(x: -5, y: -5), MapPoint(x: 5, y: -5), MapPoint(x: 5, y: 5), MapPoint(x: -5, y: 5), MapPoint(x: -5, y: -5)]
        var counts = RectClip.Counts()
        guard case .polygon(let polygon)? = RectClip(rect: rect).clip(.polygon(Polygon(vertices: VertexBuffer(points: square))), counts: &counts)
        else { return XCTFail("polygon expected") }
        XCTAssertEqual(Set(polygon.points.map { "\($0.x),\($0.y)" }), ["0.0,0.0", "5.0,0.0", "5.0,5.0", "0.0,5.0"])
        XCTAssertEqual(polygon.points.first, polygon.points.last)
        XCTAssertEqual(abs(polygon.vertices.signedDoubleArea), 50)
    }

    func testCirclesAndPointsByBoundingRect() {
        let rect = MapRect(corner: MapPoint(Coordinate(latitude: 10, longitude: -10)), MapPoint(Coordinate(latitude: -10, longitude: 10)))
        let clip = RectClip(rect: rect)
        var counts = RectClip.Counts()
        let inside = Shape.circle(Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1000))
        XCTAssertEqual(clip.clip(inside, counts: &counts), inside, "a circle inside stays a circle")
        let cut = Shape.circle(Circle(center: Coordinate(latitude: 0, longitude: 10), radius: 100_000))
        guard case .polygon(let polygon)? = clip.clip(cut, counts: &counts) else { return XCTFail("a cut circle becomes a polygon") }
        XCTAssertTrue(polygon.points.allSatisfy { $0.x <= rect.maxX + 1e-6 })
        XCTAssertEqual(counts.circlesAsPolygons, 1)
        XCTAssertNil(clip.clip(.annotation(PointAnnotation(coordinate: Coordinate(latitude: 0, longitude: 20))), counts: &counts))
        XCTAssertEqual(counts.shapesOutside, 1)
    }

    /// The primitive on its own: a ring crossing k1 gains an intersection vertex with the
    /// given marker and stays closed.
    func testAxisClipMarksIntersections() throws {
        let ring: [Double] = [0, 0, 5, 10, 0, 5, 10, 10, 5, 0, 10, 5, 0, 0, 5]
        let feature = ProjectedFeature(type: .polygon, coordinates: ring,
                                       rings: [ProjectedRing(start: 0, count: 5, size: 100, isOuter: true)], source: 0)
        let clipped = try XCTUnwrap(AxisClip.clip(feature, 5, 20, axis: 0, intersectionValue: -1))
        let triples = stride(from: 0, to: clipped.coordinates.count, by: 3).map { Array(clipped.coordinates[$0..<$0 + 3]) }
        XCTAssertEqual(triples, [[5, 0, -1], [10, 0, 5], [10, 10, 5], [5, 10, -1], [5, 0, -1]])
        XCTAssertEqual(clipped.rings, [ProjectedRing(start: 0, count: 5, size: 100, isOuter: true)])
        XCTAssertNil(AxisClip.clip(feature, 11, 20, axis: 0))
    }
}

/// Every vertex buffer of a shape.
func tileVertexBuffers(_ shape: Shape) -> [VertexBuffer] {
    switch shape {
    case .annotation, .circle: []
    case .polyline(let polyline): [polyline.vertices]
    case .polygon(let polygon): polygon.rings
    case .multiPolyline(let multi): multi.polylines.map(\.vertices)
    case .multiPolygon(let multi): multi.polygons.flatMap(\.rings)
    case .collection(let collection): collection.members.flatMap(tileVertexBuffers)
    }
}
