import XCTest
import Dispatch
@testable import OverlayModel

/// A vertex buffer holds what it was made from and derives the other form on first use, once,
/// with the values eager projection gave (issue 50: `convert` never projects; issue 51 item 7:
/// a long track costs its coordinates alone).
final class VertexBufferTests: XCTestCase {
    /// A wiggly line of `count` coordinates, some beyond the Mercator limit (clamped) and some
    /// with altitudes.
    private func coordinates(_ count: Int) -> [Coordinate] {
        (0..<count).map { index in
            let t = Double(index)
            return Coordinate(latitude: 89.5 * sin(t * 0.37), longitude: 179.9 * cos(t * 0.11),
                              altitude: index % 3 == 0 ? t : nil)
        }
    }

    func testMadeFromCoordinatesItProjectsOnlyWhenAskedAndAsBefore() {
        let coordinates = coordinates(1_000)
        let buffer = VertexBuffer(coordinates: coordinates)
        // What a GeoJSON or KML writer reads needs no map point.
        XCTAssertEqual(buffer.coordinates, coordinates)
        XCTAssertEqual(buffer.count, 1_000)
        XCTAssertFalse(buffer.isClosed)
        XCTAssertEqual(buffer.reversed().coordinates, Array(coordinates.reversed()))
        XCTAssertEqual(buffer, VertexBuffer(coordinates: coordinates))
        XCTAssertFalse(buffer.holdsMapPoints)
        XCTAssertEqual(buffer.projectionCount, 0)
        // The points and bounds eager projection made, bit for bit.
        let eager = coordinates.map { MapPoint($0) }
        XCTAssertEqual(buffer.points, eager)
        XCTAssertEqual(buffer.boundingMapRect, VertexBuffer.bounds(of: eager))
        XCTAssertTrue(buffer.holdsMapPoints)
        XCTAssertEqual(buffer.projectionCount, 1)
        XCTAssertEqual(buffer.reversed().points, Array(eager.reversed()))
        XCTAssertEqual(buffer.projectionCount, 1)
    }

    func testALongLinesBoundsAndPointStreamKeepNoPoints() {
        let count = VertexBuffer.streamingCount + 5
        let coordinates = coordinates(count)
        let eager = coordinates.map { MapPoint($0) }
        let buffer = VertexBuffer(coordinates: coordinates)
        XCTAssertEqual(buffer.boundingMapRect, VertexBuffer.bounds(of: eager))
        var streamed = [MapPoint]()
        buffer.forEachMapPoint { streamed.append($0) }
        XCTAssertEqual(streamed, eager)
        XCTAssertFalse(buffer.holdsMapPoints, "a long line's fit keeps no map points")
        XCTAssertEqual(buffer.projectionCount, 0)
        // A short one projects and keeps its points (the next pass reads them).
        let short = VertexBuffer(coordinates: Array(coordinates.prefix(100)))
        XCTAssertEqual(short.boundingMapRect, VertexBuffer.bounds(of: Array(eager.prefix(100))))
        XCTAssertTrue(short.holdsMapPoints)
    }

    func testCopiesOnManyThreadsProjectOnce() {
        let coordinates = coordinates(50_000)
        let eager = coordinates.map { MapPoint($0) }
        for _ in 0..<20 {
            let buffer = VertexBuffer(coordinates: coordinates)
            let copies = [VertexBuffer](repeating: buffer, count: 8)
            nonisolated(unsafe) let same = UnsafeMutableBufferPointer<Bool>.allocate(capacity: copies.count)
            defer { same.deallocate() }
            DispatchQueue.concurrentPerform(iterations: copies.count) { index in
                let copy = copies[index]
                same[index] = index % 2 == 0 ? copy.points == eager : copy.boundingMapRect == VertexBuffer.bounds(of: eager)
            }
            XCTAssertEqual(Array(same), Array(repeating: true, count: copies.count))
            XCTAssertEqual(buffer.projectionCount, 1, "projected once whatever thread asked")
        }
    }

    func testMadeFromPointsItUnprojectsOnlyWhenAskedAndAsBefore() {
        let points = coordinates(500).map { MapPoint($0) }
        let buffer = VertexBuffer(points: points)
        XCTAssertEqual(buffer.points, points)
        XCTAssertEqual(buffer.boundingMapRect, VertexBuffer.bounds(of: points))
        XCTAssertEqual(buffer.coordinates, points.map { Coordinate($0) })
        XCTAssertEqual(buffer.isClosed, Coordinate(points[0]) == Coordinate(points[499]))
        let ring = VertexBuffer(points: points + [points[0]])
        XCTAssertTrue(ring.isClosed)
        XCTAssertEqual(buffer.projectionCount, 0)
    }

    func testEqualityAndHashingAcrossTheTwoForms() {
        let coordinates = coordinates(64).map { Coordinate(latitude: $0.latitude / 2, longitude: $0.longitude) }
        let fromCoordinates = VertexBuffer(coordinates: coordinates)
        // Unprojecting and projecting again need not give the same numbers back: compare with
        // both forms given, as eager projection held them.
        let both = VertexBuffer(points: coordinates.map { MapPoint($0) }, coordinates: coordinates)
        XCTAssertEqual(fromCoordinates, both)
        XCTAssertEqual(fromCoordinates.hashValue, both.hashValue)
        var moved = coordinates
        moved[10].latitude += 1e-9
        XCTAssertNotEqual(fromCoordinates, VertexBuffer(coordinates: moved))
        XCTAssertNotEqual(both, VertexBuffer(points: moved.map { MapPoint($0) }, coordinates: moved))
        let points = coordinates.map { MapPoint($0) }
        XCTAssertEqual(VertexBuffer(points: points), VertexBuffer(points: points))
        XCTAssertNotEqual(VertexBuffer(points: points), VertexBuffer(points: Array(points.dropLast())))
    }

    func testCoordinatesAreTakenOnlyFromABufferNoCopyShares() {
        let coordinates = coordinates(100)
        var shared = VertexBuffer(coordinates: coordinates)
        let copy = shared
        XCTAssertNil(shared.takeCoordinates())
        XCTAssertEqual(shared, copy)
        var fromPoints = VertexBuffer(points: coordinates.map { MapPoint($0) })
        XCTAssertNil(fromPoints.takeCoordinates())
        XCTAssertEqual(fromPoints.count, 100)
        var alone = VertexBuffer(coordinates: coordinates)
        XCTAssertEqual(alone.takeCoordinates(), coordinates)
        XCTAssertTrue(alone.isEmpty)
        XCTAssertEqual(alone.boundingMapRect, .null)
    }
}
