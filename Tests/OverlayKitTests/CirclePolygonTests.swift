import XCTest
@testable import OverlayKit

/// One circle-to-ring function and one vertex rule (`CirclePolygon`) behind the tiler, the
/// rectangle clip, the renderer's large circles and the KML writer.
final class CirclePolygonTests: XCTestCase {
    func testVertexRuleKeepsTheSagittaWithinTheToleranceBetweenTheBounds() {
        XCTAssertEqual(CirclePolygon.segmentCount(radius: 0, tolerance: 1), CirclePolygon.minimumVertexCount)
        XCTAssertEqual(CirclePolygon.segmentCount(radius: 1, tolerance: 2), CirclePolygon.minimumVertexCount)
        XCTAssertEqual(CirclePolygon.segmentCount(radius: .nan, tolerance: 1), CirclePolygon.minimumVertexCount)
        XCTAssertEqual(CirclePolygon.segmentCount(radius: .infinity, tolerance: 1), CirclePolygon.maximumVertexCount)
        XCTAssertEqual(CirclePolygon.segmentCount(radius: 1e12, tolerance: 1, maximum: 1 << 16), 1 << 16)
        XCTAssertEqual(CirclePolygon.segmentCount(radius: 1e12, tolerance: 1, maximum: 3), CirclePolygon.minimumVertexCount,
                       "a maximum below the minimum gives the minimum")
        for radius in [3.0, 100, 12_345, 1e6] {
            let count = CirclePolygon.segmentCount(radius: radius, tolerance: 0.25)
            guard count > CirclePolygon.minimumVertexCount, count < CirclePolygon.maximumVertexCount else { continue }
            let sagitta = { (n: Int) in radius * (1 - cos(Double.pi / Double(n))) }
            XCTAssertLessThanOrEqual(sagitta(count), 0.25, "radius \(radius)")
            XCTAssertGreaterThan(sagitta(count - 1), 0.25, "radius \(radius): \(count) is the fewest")
        }
    }

    func testRingIsClosedAndEveryVertexIsOnTheCircle() {
        let ring = CirclePolygon.ring(centerX: 10, centerY: -20, radius: 500, tolerance: 0.5)
        XCTAssertEqual(ring.count, 2 * (CirclePolygon.segmentCount(radius: 500, tolerance: 0.5) + 1))
        XCTAssertEqual(ring[0], ring[ring.count - 2])
        XCTAssertEqual(ring[1], ring[ring.count - 1])
        for index in stride(from: 0, to: ring.count, by: 2) {
            XCTAssertEqual(hypot(ring[index] - 10, ring[index + 1] + 20), 500, accuracy: 1e-9)
        }
    }

    func testRendererTilerAndClipUseTheSharedRing() {
        // Renderer: the shared ring without its closing point, with a quarter-pixel tolerance.
        let pixels = CircleRing.points(x: 40, y: 60, radius: 5)
        var shared = CirclePolygon.ring(centerX: 40, centerY: 60, radius: 5, tolerance: 0.25, maximumVertexCount: 1 << 16)
        shared.removeLast(2)
        XCTAssertEqual(pixels, shared, "a 5-pixel circle: the old renderer rule gave 16 vertices")
        XCTAssertEqual(CircleRing.points(x: 0, y: 0, radius: 1e9).count, 2 << 16, "the renderer asks for up to 65,536")

        let circle = Circle(center: Coordinate(latitude: 48.5, longitude: 2.25), radius: 1_500)
        let projector = FeatureProjector(squaredTolerance: 16, circleTolerance: 4)
        let center = circle.centerPoint
        XCTAssertEqual(projector.circleRing(circle),
                       CirclePolygon.ring(centerX: center.x, centerY: center.y, radius: circle.mapRadius, tolerance: 4))
        XCTAssertEqual(CirclePolygon.ring(circle, tolerance: 4).flatMap { [$0.x, $0.y] }, projector.circleRing(circle))
    }

    func testKMLRingIsTheSharedRingCounterclockwiseWithinFiveCentimeters() {
        for radius in [0.5, 10.0, 2_500, 400_000] {
            let circle = Circle(center: Coordinate(latitude: 60, longitude: -179.99), radius: radius)
            let ring = KMLCircle.ring(circle)
            let scale = mapPointsPerMeter(atLatitude: 60)
            let shared = CirclePolygon.ring(circle, tolerance: KMLCircle.tolerance * scale)
            XCTAssertEqual(ring.count, shared.count)
            XCTAssertEqual(ring.first, ring.last)
            XCTAssertEqual(ring.count - 1, CirclePolygon.segmentCount(radius: radius, tolerance: KMLCircle.tolerance),
                           "the rule depends on radius / tolerance only, in meters as in map points")
            // Unwrapped across the antimeridian, in map points: on the circle, chords within 5 cm.
            let points = ring.map { coordinate -> MapPoint in
                let point = MapPoint(coordinate)
                return MapPoint(x: point.x > MapProjection.worldSize / 2 ? point.x - MapProjection.worldSize : point.x, y: point.y)
            }
            XCTAssertTrue(RingWinding.isCounterclockwise(points.map { Coordinate(latitude: -$0.y, longitude: $0.x) }))
            let radiusInPoints = circle.mapRadius
            // Beyond the maximum vertex count (400 km: 6,284 wanted, 4,096 written) the sagitta is the bound.
            let n = Double(ring.count - 1)
            let bound = max(KMLCircle.tolerance, radius * (1 - cos(Double.pi / n)))
            for index in 0..<points.count - 1 {
                let a = points[index], b = points[index + 1]
                XCTAssertEqual(hypot(a.x - center(circle).x, a.y - center(circle).y), radiusInPoints,
                               accuracy: radiusInPoints * 1e-6 + 1e-6)
                let middle = hypot((a.x + b.x) / 2 - center(circle).x, (a.y + b.y) / 2 - center(circle).y)
                XCTAssertLessThan((radiusInPoints - middle) / scale, bound * 1.01 + radius * 1e-9)
            }
        }
    }

    private func center(_ circle: Circle) -> MapPoint {
        let point = circle.centerPoint
        return MapPoint(x: point.x > MapProjection.worldSize / 2 ? point.x - MapProjection.worldSize : point.x, y: point.y)
    }
}
