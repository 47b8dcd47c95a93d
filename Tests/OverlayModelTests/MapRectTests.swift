import XCTest
@testable import OverlayModel

final class MapRectTests: XCTestCase {
    let world = MapRect.world.width

    func testUnionIntersection() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10), b = MapRect(x: 5, y: 5, width: 10, height: 10)
        XCTAssertEqual(a.union(b), MapRect(x: 0, y: 0, width: 15, height: 15))
        XCTAssertEqual(a.intersection(b), MapRect(x: 5, y: 5, width: 5, height: 5))
        XCTAssertTrue(a.intersects(b))
        let far = MapRect(x: 20, y: 20, width: 1, height: 1)
        XCTAssertTrue(a.intersection(far).isNull)
        XCTAssertFalse(a.intersects(far))
        XCTAssertEqual(MapRect.null.union(a), a)
        XCTAssertEqual(a.union(.null), a)
        XCTAssertTrue(MapRect.null.isNull && MapRect.null.isEmpty)
        // Shared edges intersect (closed rects).
        XCTAssertTrue(a.intersects(MapRect(x: 10, y: 0, width: 5, height: 5)))
    }

    func testContainsAndInset() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(a.contains(MapPoint(x: 10, y: 10)))
        XCTAssertFalse(a.contains(MapPoint(x: 10.1, y: 5)))
        XCTAssertTrue(a.contains(MapRect(x: 2, y: 2, width: 8, height: 8)))
        XCTAssertFalse(a.contains(MapRect(x: 2, y: 2, width: 9, height: 8)))
        XCTAssertEqual(a.insetBy(dx: 1, dy: 2), MapRect(x: 1, y: 2, width: 8, height: 6))
        XCTAssertEqual(a.insetBy(dx: -1, dy: -1), MapRect(x: -1, y: -1, width: 12, height: 12))
        XCTAssertEqual(a.offsetBy(dx: 3, dy: -3), MapRect(x: 3, y: -3, width: 10, height: 10))
    }

    func testAntimeridian() {
        let inside = MapRect(x: 100, y: 100, width: 100, height: 100)
        XCTAssertFalse(inside.spans180thMeridian)
        XCTAssertTrue(inside.remainder.isNull)
        let east = MapRect(x: world - 100, y: 50, width: 300, height: 10)
        XCTAssertTrue(east.spans180thMeridian)
        XCTAssertEqual(east.remainder, MapRect(x: 0, y: 50, width: 200, height: 10))
        let west = MapRect(x: -50, y: 0, width: 100, height: 10)
        XCTAssertTrue(west.spans180thMeridian)
        XCTAssertEqual(west.remainder, MapRect(x: world - 50, y: 0, width: 50, height: 10))
    }

    func testRegionRoundTrip() {
        let region = CoordinateRegion(center: Coordinate(latitude: 40, longitude: -74),
                                      span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 3))
        let rect = MapRect(region)
        XCTAssertEqual(rect.width, 3.0 / 360 * world, accuracy: 1e-6)
        let back = CoordinateRegion(rect)
        XCTAssertEqual(back.span.longitudeDelta, 3, accuracy: 1e-9)
        XCTAssertEqual(back.span.latitudeDelta, 2, accuracy: 1e-9)
        XCTAssertEqual(back.center.longitude, -74, accuracy: 1e-9)
        // Mercator stretches the north half more, so the rect's middle lies north of 40°.
        XCTAssertGreaterThan(back.center.latitude, 40)
        XCTAssertLessThan(back.center.latitude, 40.02)

        let crossing = CoordinateRegion(center: Coordinate(latitude: 0, longitude: 179),
                                        span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 4))
        XCTAssertTrue(MapRect(crossing).spans180thMeridian)
    }

    func testOverlayBounds() {
        let circle = Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1000)
        let side = 2000 * mapPointsPerMeter(atLatitude: 0)
        XCTAssertEqual(circle.boundingMapRect.width, side, accuracy: 1e-9)
        XCTAssertEqual(circle.boundingMapRect.midX, world / 2, accuracy: 1e-9)
        let polygon = Polygon(coordinates: [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 90),
            Coordinate(latitude: 45, longitude: 90), Coordinate(latitude: 0, longitude: 0),
        ])
        XCTAssertEqual(polygon.boundingMapRect.minX, world / 2)
        XCTAssertEqual(polygon.boundingMapRect.maxX, world * 0.75)
        XCTAssertEqual(polygon.boundingMapRect.maxY, world / 2)
        XCTAssertTrue(polygon.vertices.isClosed)
        let multi = Shape.multiPolygon(MultiPolygon([polygon, Polygon(coordinates: [Coordinate(latitude: -10, longitude: -10)])]))
        XCTAssertEqual(multi.boundingMapRect.minX, MapPoint(Coordinate(latitude: 0, longitude: -10)).x)
        XCTAssertEqual(multi.vertexCount, 5)
    }

    func testColors() {
        XCTAssertEqual(RGBAColor(hex: "#ff8000"), RGBAColor(red: 255, green: 128, blue: 0))
        XCTAssertEqual(RGBAColor(hex: "f80"), RGBAColor(red: 255, green: 136, blue: 0))
        XCTAssertEqual(RGBAColor(kml: "7f00ff00"), RGBAColor(red: 0, green: 255, blue: 0, alpha: 127))
        XCTAssertEqual(RGBAColor(red: 1, green: 2, blue: 3, alpha: 4).kmlString, "04030201")
        XCTAssertNil(RGBAColor(hex: "#zzzzzz"))
    }
}
