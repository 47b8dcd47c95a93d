import XCTest
@testable import OverlayModel

/// A coordinate is 24 bytes (its altitude "none" is a NaN of its own, not an optional's tag
/// byte that padded it to 32), and still behaves as latitude, longitude and `Double?`.
final class CoordinateTests: XCTestCase {
    func testACoordinateIsThreeDoubles() {
        XCTAssertEqual(MemoryLayout<Coordinate>.size, 24)
        XCTAssertEqual(MemoryLayout<Coordinate>.stride, 24)
    }

    func testAltitudeIsAnOptionalDouble() {
        var coordinate = Coordinate(latitude: 1, longitude: 2)
        XCTAssertNil(coordinate.altitude)
        coordinate.altitude = 0
        XCTAssertEqual(coordinate.altitude, 0)
        coordinate.altitude = -0.0
        XCTAssertEqual(coordinate.altitude?.sign, .minus)
        coordinate.altitude = nil
        XCTAssertNil(coordinate.altitude)
        // A NaN altitude stays a NaN, not "none": only the one payload means none.
        coordinate.altitude = .nan
        XCTAssertTrue(coordinate.altitude?.isNaN == true)
        coordinate.altitude = -.nan
        XCTAssertTrue(coordinate.altitude?.isNaN == true)
        XCTAssertEqual(Coordinate(latitude: 1, longitude: 2, altitude: .infinity).altitude, .infinity)
        XCTAssertEqual(Coordinate(latitude: 1, longitude: 2, altitude: .leastNonzeroMagnitude).altitude, .leastNonzeroMagnitude)
    }

    func testEqualityAndHashingAsWithAnOptionalAltitude() {
        let flat = Coordinate(latitude: 1, longitude: 2)
        XCTAssertEqual(flat, Coordinate(latitude: 1, longitude: 2))
        XCTAssertNotEqual(flat, Coordinate(latitude: 1, longitude: 2, altitude: 0))
        XCTAssertEqual(Coordinate(latitude: 1, longitude: 2, altitude: 0), Coordinate(latitude: 1, longitude: 2, altitude: -0.0))
        XCTAssertNotEqual(Coordinate(latitude: 1, longitude: 2, altitude: .nan), Coordinate(latitude: 1, longitude: 2, altitude: .nan))
        XCTAssertEqual(Set([flat, Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 1, longitude: 2, altitude: 5),
                            Coordinate(latitude: 1, longitude: 2, altitude: 5)]).count, 2)
        XCTAssertEqual(flat.hashValue, Coordinate(latitude: 1, longitude: 2).hashValue)
        XCTAssertEqual(Coordinate(latitude: 0, longitude: 0, altitude: 0).hashValue,
                       Coordinate(latitude: -0.0, longitude: -0.0, altitude: -0.0).hashValue)
    }
}
