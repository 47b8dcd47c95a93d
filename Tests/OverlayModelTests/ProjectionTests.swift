import XCTest
import Foundation
@testable import OverlayModel

final class ProjectionTests: XCTestCase {
    let world = 268_435_456.0

    func testKnownPoints() {
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: 0)), MapPoint(x: 134_217_728, y: 134_217_728))
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: -180)).x, 0)
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: 180)).x, world)
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: 90)).x, world * 0.75)
        // The Mercator limit maps to the world's top and bottom edges.
        XCTAssertEqual(MapPoint(Coordinate(latitude: 85.0511287798066, longitude: 0)).y, 0, accuracy: 1e-6)
        XCTAssertEqual(MapPoint(Coordinate(latitude: -85.0511287798066, longitude: 0)).y, world, accuracy: 1e-6)
    }

    func testClosedFormMercator() {
        // y = W/2 · (1 − ln(tan φ + sec φ) / π), MapKit's definition.
        for latitude in stride(from: -85.0, through: 85.0, by: 2.5) {
            let phi = latitude * .pi / 180
            let expected = world / 2 * (1 - Foundation.log(Foundation.tan(phi) + 1 / Foundation.cos(phi)) / .pi)
            XCTAssertEqual(MapPoint(Coordinate(latitude: latitude, longitude: 0)).y, expected, accuracy: 1e-6, "latitude \(latitude)")
        }
    }

    /// Beyond the poles the sine folds back (100° would be drawn at 80°) and huge values give NaN:
    /// every such latitude is the world's edge, and no latitude gives a non-finite y.
    func testLatitudesBeyondThePolesAreTheWorldsEdges() {
        for latitude in [90.0, 90.000001, 100, 180, 1e10, 1e308, .infinity] {
            XCTAssertEqual(MapProjection.y(latitude: latitude), 0, "\(latitude)")
            XCTAssertEqual(MapProjection.y(latitude: -latitude), world, "\(-latitude)")
        }
        XCTAssertTrue(MapProjection.y(latitude: .nan).isFinite)
        XCTAssertEqual(MapProjection.y(latitude: 80), MapPoint(Coordinate(latitude: 80, longitude: 0)).y)
        XCTAssertGreaterThan(MapProjection.y(latitude: 80), 0)
    }

    func testClampAndWrap() {
        XCTAssertEqual(MapPoint(Coordinate(latitude: 89, longitude: 0)).y, 0)
        XCTAssertEqual(MapPoint(Coordinate(latitude: -90, longitude: 0)).y, world)
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: 190)).x, MapPoint(Coordinate(latitude: 0, longitude: -170)).x, accuracy: 1e-6)
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: -540)).x, 0, accuracy: 1e-6)
        XCTAssertEqual(Coordinate(MapPoint(x: world * 1.25, y: world / 2)).longitude, -90, accuracy: 1e-9)
        XCTAssertEqual(Coordinate(MapPoint(x: 0, y: -5)).latitude, 85.0511287798066, accuracy: 1e-9)
    }

    func testRoundTripOverGrid() {
        var worst = 0.0
        for latitude in stride(from: -85.0, through: 85.0, by: 0.37) {
            for longitude in stride(from: -180.0, through: 180.0, by: 0.53) {
                let back = Coordinate(MapPoint(Coordinate(latitude: latitude, longitude: longitude)))
                worst = max(worst, abs(back.latitude - latitude), abs(back.longitude - longitude))
            }
        }
        XCTAssertLessThan(worst, 1e-9)
    }

    func testDistanceAndScale() {
        // A quarter of the equator.
        let a = MapPoint(Coordinate(latitude: 0, longitude: 0)), b = MapPoint(Coordinate(latitude: 0, longitude: 90))
        XCTAssertEqual(metersBetween(a, b), EarthModel.circumference / 4, accuracy: 1e-6)
        XCTAssertEqual(mapPointsPerMeter(atLatitude: 0), world / EarthModel.circumference, accuracy: 1e-12)
        XCTAssertEqual(mapPointsPerMeter(atLatitude: 60), 2 * world / EarthModel.circumference, accuracy: 1e-9)
        XCTAssertEqual(metersPerMapPoint(atLatitude: 60) * mapPointsPerMeter(atLatitude: 60), 1, accuracy: 1e-12)
        // Paris–London by haversine on the 6,378,137 m sphere.
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522), london = Coordinate(latitude: 51.5074, longitude: -0.1278)
        XCTAssertEqual(metersBetween(paris, london), 344_354, accuracy: 500)
    }

    func testZoomAndTiles() {
        XCTAssertEqual(Zoom.worldWidth(atZoom: 0), 256)
        XCTAssertEqual(Zoom.mapPointsPerScreenPoint(atZoom: 20), 1)
        XCTAssertEqual(Zoom.mapPointsPerScreenPoint(atZoom: 0), 1_048_576)
        XCTAssertEqual(TileID(containing: MapPoint(x: 0, y: 0), zoom: 3), TileID(z: 3, x: 0, y: 0))
        XCTAssertEqual(TileID(containing: MapPoint(x: world, y: world), zoom: 3), TileID(z: 3, x: 7, y: 7))
        // Berlin at zoom 10 is tile 550/335 (the slippy-map formula).
        let berlin = MapPoint(Coordinate(latitude: 52.52, longitude: 13.405))
        XCTAssertEqual(TileID(containing: berlin, zoom: 10), TileID(z: 10, x: 550, y: 335))
        XCTAssertEqual(TileID(z: 1, x: 1, y: 0).mapRect, MapRect(x: world / 2, y: 0, width: world / 2, height: world / 2))
        // The world (256 points at z0) fits 1024 points at zoom 2.
        XCTAssertEqual(Zoom.zoomToFit(.world, width: 1024, height: 1024), 2, accuracy: 1e-12)
    }
}
