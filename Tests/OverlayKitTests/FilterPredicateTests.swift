import XCTest
@testable import OverlayKit
import OverlayModel

final class FilterPredicateTests: XCTestCase {
    private func point(_ lat: Double, _ lon: Double) -> Shape { .annotation(PointAnnotation(coordinate: Coordinate(latitude: lat, longitude: lon))) }
    private func line(_ pairs: [(Double, Double)]) -> Shape {
        .polyline(Polyline(coordinates: pairs.map { Coordinate(latitude: $0.1, longitude: $0.0) }))
    }
    /// A closed square ring from lon/lat corners.
    private func square(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> Polygon {
        Polygon(coordinates: [(west, south), (east, south), (east, north), (west, north), (west, south)]
            .map { Coordinate(latitude: $0.1, longitude: $0.0) })
    }

    // MARK: Boxes

    func testBoxParsingRejectsBadInput() throws {
        XCTAssertEqual(try GeographicBox(parsing: "-10, 35,30,60"), try GeographicBox(west: -10, south: 35, east: 30, north: 60))
        XCTAssertThrowsError(try GeographicBox(parsing: "1,2,3"))
        XCTAssertThrowsError(try GeographicBox(parsing: "1,2,x,4"))
        XCTAssertThrowsError(try GeographicBox(parsing: "0,10,5,5"))      // south north of north
        XCTAssertThrowsError(try GeographicBox(parsing: "0,0,181,5"))     // longitude out of range
        XCTAssertThrowsError(try GeographicBox(parsing: "0,-91,5,5"))
    }

    func testBoxCrossingTheAntimeridianIsTwoWorldRects() throws {
        let box = try GeographicBox(west: 170, south: -20, east: -170, north: 0)
        XCTAssertTrue(box.crossesAntimeridian)
        XCTAssertTrue(box.mapRect.spans180thMeridian)
        let rects = box.worldRects
        XCTAssertEqual(rects.count, 2)
        XCTAssertEqual(rects[0].maxX, MapProjection.worldSize, accuracy: 1e-6)
        XCTAssertEqual(rects[1].minX, 0, accuracy: 1e-6)
        XCTAssertTrue(box.intersects(point(-10, 175)))
        XCTAssertTrue(box.intersects(point(-10, -175)))
        XCTAssertTrue(box.intersects(point(-10, 180)))
        XCTAssertFalse(box.intersects(point(-10, 0)))
        XCTAssertFalse(box.intersects(point(-10, 165)))
        XCTAssertFalse(box.intersects(point(5, 175)))
        // A line that stays in the west part, and one in both parts (it runs the long way, through 0°, so meets both).
        XCTAssertTrue(box.intersects(line([(171, -5), (179, -6)])))
        XCTAssertTrue(box.contains(line([(171, -5), (179, -6)])))
        XCTAssertTrue(box.contains(line([(175, -5), (-175, -6)])))    // every vertex in one of the parts
        XCTAssertFalse(box.contains(line([(175, -5), (-160, -6)])))
    }

    func testSegmentCrossingTheBoxWithNoVertexInsideIntersects() throws {
        let box = try GeographicBox(west: 0, south: 0, east: 10, north: 10)
        XCTAssertTrue(box.intersects(line([(-5, 5), (15, 5)])))
        XCTAssertTrue(box.intersects(line([(-5, -4), (15, 14)])))      // diagonal through
        XCTAssertFalse(box.intersects(line([(-5, 8), (3, 16)])))       // passes the corner outside
        XCTAssertFalse(box.contains(line([(-5, 5), (15, 5)])))
        XCTAssertTrue(box.contains(line([(1, 1), (9, 9)])))
    }

    func testPolygonAroundTheBoxIntersectsUnlessTheBoxIsInAHole() throws {
        let box = try GeographicBox(west: 0, south: 0, east: 1, north: 1)
        var big = square(-10, -10, 10, 10)
        XCTAssertTrue(box.intersects(.polygon(big)))
        XCTAssertFalse(box.contains(.polygon(big)))
        big.interiorPolygons = [square(-5, -5, 5, 5)]
        XCTAssertFalse(box.intersects(.polygon(big)), "the box lies in the hole")
        big.interiorPolygons = [square(0.5, 0.5, 5, 5)]
        XCTAssertTrue(box.intersects(.polygon(big)), "the hole's edge crosses the box")
        XCTAssertTrue(box.contains(.polygon(square(0.2, 0.2, 0.8, 0.8))))
        XCTAssertFalse(box.intersects(.polygon(square(2, 2, 3, 3))))
    }

    func testCircleMeetsTheBoxByItsRadius() throws {
        let box = try GeographicBox(west: 0, south: 0, east: 1, north: 1)
        // 1° of longitude at the equator is about 111.3 km.
        let near = Shape.circle(Circle(center: Coordinate(latitude: 0.5, longitude: 1.5), radius: 60_000))
        let far = Shape.circle(Circle(center: Coordinate(latitude: 0.5, longitude: 1.5), radius: 50_000))
        XCTAssertTrue(box.intersects(near))
        XCTAssertFalse(box.intersects(far))
        XCTAssertTrue(box.contains(.circle(Circle(center: Coordinate(latitude: 0.5, longitude: 0.5), radius: 10_000))))
        XCTAssertFalse(box.contains(near))
    }

    func testCollectionsNeedOneMemberToIntersectAndAllToBeWithin() throws {
        let box = try GeographicBox(west: 0, south: 0, east: 1, north: 1)
        let collection = Shape.collection(ShapeCollection(members: [point(0.5, 0.5), point(5, 5)], origin: .multiPoint))
        XCTAssertTrue(box.intersects(collection))
        XCTAssertFalse(box.contains(collection))
        XCTAssertFalse(box.contains(.collection(ShapeCollection(members: [], origin: .geometryCollection))))
    }

    // MARK: Near

    /// Haversine written out here, independent of the library's.
    private func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_378_137.0, rad = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * rad / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin((lon2 - lon1) * rad / 2), 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }

    func testNearAgreesWithHaversineForPoints() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let lat = Double.random(in: -80...80, using: &generator), lon = Double.random(in: -180...180, using: &generator)
            let radius = Double.random(in: 1_000...3_000_000, using: &generator)
            let region = try CircularRegion(center: Coordinate(latitude: lat, longitude: lon), radius: radius)
            for _ in 0..<20 {
                let plat = Double.random(in: -89...89, using: &generator), plon = Double.random(in: -180...180, using: &generator)
                let distance = haversine(lat, lon, plat, plon)
                guard abs(distance - radius) > 1e-6 * radius else { continue }
                XCTAssertEqual(region.intersects(point(plat, plon)), distance <= radius,
                               "center \(lat),\(lon) r \(radius) point \(plat),\(plon) d \(distance)")
            }
        }
    }

    func testNearAcrossTheAntimeridianAndNearAPole() throws {
        let region = try CircularRegion(center: Coordinate(latitude: 0, longitude: 179.9), radius: 50_000)
        XCTAssertTrue(region.intersects(point(0, -179.9)))  // 22 km away across 180°
        XCTAssertFalse(region.intersects(point(0, -179)))
        let polar = try CircularRegion(center: Coordinate(latitude: 89.5, longitude: 0), radius: 200_000)
        XCTAssertTrue(polar.intersects(point(89.5, 180)))   // 111 km over the pole
    }

    func testNearMeasuresToEdgesNotOnlyVertices() throws {
        // A long east–west line whose vertices are far away but which passes 5 km south of the center.
        let region = try CircularRegion(center: Coordinate(latitude: 0.045, longitude: 10), radius: 6_000)
        let passing = line([(5, 0), (15, 0)])
        XCTAssertTrue(region.intersects(passing))
        XCTAssertEqual(region.distance(to: passing), haversine(0.045, 10, 0, 10), accuracy: 1)
        XCTAssertFalse(try CircularRegion(center: Coordinate(latitude: 0.045, longitude: 10), radius: 4_000).intersects(passing))
        // Inside a polygon the distance is 0.
        XCTAssertEqual(region.distance(to: .polygon(square(9, -1, 11, 1))), 0)
        XCTAssertTrue(region.intersects(.circle(Circle(center: Coordinate(latitude: 0.1, longitude: 10), radius: 1_000))))
    }

    func testRegionParsing() throws {
        XCTAssertEqual(try CircularRegion(parsing: "-33.9,151.2,500").center.latitude, -33.9)
        XCTAssertThrowsError(try CircularRegion(parsing: "91,0,5"))
        XCTAssertThrowsError(try CircularRegion(parsing: "0,0,-5"))
        XCTAssertThrowsError(try CircularRegion(parsing: "0,0"))
    }

    // MARK: Kind, id, zoom, select

    func testKindsIdsVisibilityAndSelect() throws {
        let kinds = try ShapeKindSet(parsing: "polygon, point,null")
        XCTAssertTrue(kinds.contains(.polygon(square(0, 0, 1, 1))))
        XCTAssertTrue(kinds.contains(point(0, 0)))
        XCTAssertTrue(kinds.contains(nil))
        XCTAssertFalse(kinds.contains(line([(0, 0), (1, 1)])))
        XCTAssertThrowsError(try ShapeKindSet(parsing: "polygon,blob")) { error in
            XCTAssertTrue("\(error)".contains("blob"))
        }

        let ids = FeatureIDSet(parsing: "a,7")
        XCTAssertTrue(ids.contains(.string("a")))
        XCTAssertTrue(ids.contains(.integer(7)))
        XCTAssertTrue(ids.contains(.number(7.0)))
        XCTAssertFalse(ids.contains(.string("7.0")))
        XCTAssertFalse(ids.contains(nil))

        // At zoom 0 a screen point is 2^20 map points, 360°/256 = 1.40625° of longitude; at zoom 1 half that.
        let small = Shape.polygon(square(0, 0, 1, 1)), large = Shape.polygon(square(0, 0, 1.5, 0.1))
        XCTAssertFalse(Visibility.isVisible(small, atZoom: 0))
        XCTAssertTrue(Visibility.isVisible(large, atZoom: 0))
        XCTAssertTrue(Visibility.isVisible(small, atZoom: 1))
        XCTAssertTrue(Visibility.isVisible(point(0, 0), atZoom: 0))

        let feature = Feature(properties: ["a": .integer(1), "b": .integer(2), "c": .null], shape: nil)
        XCTAssertEqual(FeatureFilter.selecting(["c", "a", "zz"], from: feature).properties, ["a": .integer(1), "c": .null])
    }

    func testCombinedFilterNeedsEveryPredicate() throws {
        var filter = FeatureFilter()
        XCTAssertFalse(filter.needsGeometry)
        filter.expression = try WhereExpression(parsing: "name == 'x'")
        XCTAssertFalse(filter.needsGeometry)
        filter.intersecting = try GeographicBox(west: 0, south: 0, east: 1, north: 1)
        XCTAssertTrue(filter.needsGeometry)
        let inside = Feature(properties: ["name": .string("x")], shape: point(0.5, 0.5))
        XCTAssertTrue(try filter.matches(inside))
        XCTAssertFalse(try filter.matches(Feature(properties: ["name": .string("y")], shape: point(0.5, 0.5))))
        XCTAssertFalse(try filter.matches(Feature(properties: ["name": .string("x")], shape: point(5, 5))))
        XCTAssertFalse(try filter.matches(Feature(properties: ["name": .string("x")], shape: nil)))
        var nullOnly = FeatureFilter()
        nullOnly.kinds = try ShapeKindSet(parsing: "null")
        XCTAssertTrue(try nullOnly.matches(Feature(properties: nil, shape: nil)))
    }
}
