@testable import OverlayKit
import OverlayModel
import XCTest

final class KMLCoordinatesTests: XCTestCase {
    private func parse(_ text: String) -> ([Coordinate], [KMLCoordinates.Problem]) {
        var coordinates: [Coordinate] = []
        var problems: [KMLCoordinates.Problem] = []
        Array(text.utf8).withUnsafeBufferPointer { KMLCoordinates.parse($0, into: &coordinates, problems: &problems) }
        return (coordinates, problems)
    }

    private func c(_ longitude: Double, _ latitude: Double, _ altitude: Double? = nil) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    func testWhitespaceBetweenTuplesAndOptionalAltitude() {
        let (coordinates, problems) = parse("\n\t -122.08,37.42,0\r\n-122.1,37.5\t\t 1,2,3   ")
        XCTAssertEqual(coordinates, [c(-122.08, 37.42, 0), c(-122.1, 37.5), c(1, 2, 3)])
        XCTAssertEqual(problems, [])
    }

    func testSpacesAroundCommasStayInTheTuple() {
        let (coordinates, problems) = parse("1, 2, 3 4 ,5\n6,\n7")
        XCTAssertEqual(coordinates, [c(1, 2, 3), c(4, 5), c(6, 7)])
        XCTAssertEqual(problems, [])
    }

    func testLooseNumberFormsKMLWritersUse() {
        let (coordinates, problems) = parse("+1.5,-.5 5.,01 1e2,2E-1,+3")
        XCTAssertEqual(coordinates, [c(1.5, -0.5), c(5, 1), c(100, 0.2, 3)])
        XCTAssertEqual(problems, [])
    }

    func testExactNumbers() {
        let (coordinates, _) = parse("-122.0822035425683,37.42228990140251")
        XCTAssertEqual(coordinates.first?.longitude, Double("-122.0822035425683"))
        XCTAssertEqual(coordinates.first?.latitude, Double("37.42228990140251"))
    }

    func testMalformedTuplesAreSkippedWholeAndReportedAtTheirOffset() {
        let text = "1,2 3,x,4 nan,1 5,6 7 8,9, 0x10,1 inf,2 10,11"
        let (coordinates, problems) = parse(text)
        XCTAssertEqual(coordinates, [c(1, 2), c(5, 6), c(10, 11)])
        XCTAssertEqual(problems.map(\.offset), [4, 10, 20, 22, 34])
        XCTAssertTrue(problems.allSatisfy(\.dropped))
        XCTAssertEqual(problems[0].text, "3,x,4")
        XCTAssertTrue(problems[0].message.contains("'x' is not a number"), problems[0].message)
        XCTAssertTrue(problems[2].message.contains("has 1 number"), problems[2].message)
        XCTAssertTrue(problems[3].message.contains("'0x10' is not a number"), "a space after a comma stays in the tuple: \(problems[3].message)")
        XCTAssertTrue(parse("1,2 3,4,").1.first?.message.contains("ends with a comma") == true)
    }

    /// Issue 25 item 4: libkml's rule for tuples joined by commas only.
    func testTuplesJoinedByCommasAreSplitIntoTriples() {
        let (coordinates, problems) = parse("-55.8,-60.7,0,-55.0,-60.7,0,-55.0,-61.0,10 7,8")
        XCTAssertEqual(coordinates, [c(-55.8, -60.7, 0), c(-55.0, -60.7, 0), c(-55.0, -61.0, 10), c(7, 8)])
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems[0].offset, 0)
        XCTAssertTrue(problems[0].split)
        XCTAssertFalse(problems[0].dropped)
        XCTAssertTrue(problems[0].message.contains("read as 3 longitude,latitude,altitude tuples"), problems[0].message)
        // Five numbers are not triples: the first three are kept, as before.
        let (five, fiveProblems) = parse("1,2,3,4,5")
        XCTAssertEqual(five, [c(1, 2, 3)])
        XCTAssertEqual(fiveProblems.map(\.split), [false])
        XCTAssertTrue(fiveProblems[0].message.contains("not a multiple of three"), fiveProblems[0].message)
    }

    func testExtraNumbersAreKeptWithAWarning() {
        let (coordinates, problems) = parse("1,2,3,4")
        XCTAssertEqual(coordinates, [c(1, 2, 3)])
        XCTAssertEqual(problems.count, 1)
        XCTAssertFalse(problems[0].dropped)
    }

    /// Tuples the one-pass fast path must hand back to the general path: the result is the
    /// general path's, with nothing shifted and every problem at its offset.
    func testFastPathHandsUnusualTuplesToTheGeneralPath() {
        let (coordinates, problems) = parse("1,2 ,3 4,5,6,7 01,2 8,9x 1e1,-0 -1.5,2.25,-0.0\t3,4, 5 6,7,")
        XCTAssertEqual(coordinates, [c(1, 2, 3), c(4, 5, 6), c(1, 2), c(10, -0.0), c(-1.5, 2.25, -0.0), c(3, 4, 5)])
        XCTAssertEqual(problems.map(\.offset), [7, 20, 54])
        XCTAssertEqual(problems.map(\.dropped), [false, true, true])
        XCTAssertEqual(problems[1].text, "8,9x")
        XCTAssertTrue(problems[2].message.contains("ends with a comma"), problems[2].message)
        XCTAssertEqual(coordinates[3].latitude.sign, .minus)
    }

    func testEmptyText() {
        XCTAssertEqual(parse("").0, [])
        XCTAssertEqual(parse("   \n ").0, [])
        XCTAssertEqual(parse("   \n ").1, [])
    }

    func testSpaceSeparatedTrackCoordinates() {
        XCTAssertEqual(Array("-122.2 37.3 156".utf8).withUnsafeBufferPointer { KMLCoordinates.parseSpaceSeparated($0) }, [-122.2, 37.3, 156])
        XCTAssertNil(Array("1 two".utf8).withUnsafeBufferPointer { KMLCoordinates.parseSpaceSeparated($0) })
    }
}
