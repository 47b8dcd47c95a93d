import OverlayModel
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit

/// `CoverageCheck` (`validate --coverage`): each kind of finding on polygons written here, none on
/// a valid coverage, and a located message.
final class CoverageCheckTests: XCTestCase {
    private func feature(_ rings: [[(Double, Double)]], line: Int) -> Feature {
        let coordinates = rings.map { $0.map { Coordinate(latitude: $0.1, longitude: $0.0) } }
        return Feature(shape: .polygon(Polygon(coordinates: coordinates[0], interiorPolygons: coordinates.dropFirst().map { Polygon(coordinates: $0) })),
                       location: SourceLocation(file: "cells.geojson", line: line, column: 1, jsonPointer: "/features/\(line - 1)"))
    }

    private func square(_ x: Double, _ y: Double, _ side: Double) -> [(Double, Double)] {
        [(x, y), (x + side, y), (x + side, y + side), (x, y + side), (x, y)]
    }

    func testValidCoveragesHaveNoFindings() {
        let cells = CoverageFixtures.voronoi(west: 3, south: 40, east: 9, north: 46, columns: 5, rows: 4, seed: 2)
        XCTAssertEqual(CoverageCheck(gapWidth: 10).findings(CoverageFixtures.features(cells.map { [$0] })), [])
        let grid = CoverageFixtures.gridWithEnclaves(west: 3, south: 40, east: 9, north: 46, columns: 4, rows: 3, seed: 4)
        XCTAssertEqual(CoverageCheck(gapWidth: 10).findings(CoverageFixtures.features(grid)), [])
    }

    func testOverlappingSquaresAreAnOverlapAtTheirCrossing() throws {
        let findings = CoverageCheck().findings([feature([square(0, 0, 2)], line: 1), feature([square(1, 1, 2)], line: 2)])
        let finding = try XCTUnwrap(findings.first)
        XCTAssertEqual(findings.count, 1)
        XCTAssertEqual(finding.code, .coverageOverlap)
        XCTAssertEqual(finding.severity, .error)
        XCTAssertEqual(finding.location?.line, 1)
        XCTAssertEqual(finding.location?.jsonPointer, "/features/0")
        XCTAssertTrue(finding.message.contains("feature 0 at 1:1 and feature 1 at 2:1 overlap at "), finding.message)
        XCTAssertTrue(finding.message.contains("(and 1 more place)"), finding.message)
    }

    func testAPolygonInsideAnotherIsAnOverlap() {
        let findings = CoverageCheck().findings([feature([square(0, 0, 4)], line: 1), feature([square(1, 1, 1)], line: 2)])
        XCTAssertEqual(findings.map(\.code), [.coverageOverlap])
        // Inside a hole it is fine: an enclave.
        let enclave = CoverageCheck().findings([feature([square(0, 0, 4), square(1, 1, 1).reversed()], line: 1),
                                                feature([square(1, 1, 1)], line: 2)])
        XCTAssertEqual(enclave, [])
    }

    func testTheSameEdgeWalkedTheSameWayIsAnOverlap() {
        // Two copies of one square: every edge matched, but on the same side.
        let findings = CoverageCheck().findings([feature([square(0, 0, 1)], line: 1), feature([square(0, 0, 1)], line: 2)])
        XCTAssertEqual(findings.map(\.code), [.coverageOverlap])
    }

    func testABorderWithoutSharedVerticesIsReported() {
        // The right square's left edge has a vertex in the middle of the left square's right edge.
        let left = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]
        let right = [(1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 0.5), (1.0, 0.0)]
        let findings = CoverageCheck().findings([feature([left], line: 1), feature([right], line: 2)])
        XCTAssertEqual(findings.map(\.code), [.coverageUnmatchedBorder])
        XCTAssertTrue(findings[0].message.contains("without a shared vertex"), findings[0].message)
    }

    func testAnEdgeLeavingASharedVertexIntoTheNeighbourIsAnOverlap() {
        // Both have (1, 1); the right one's edge from it heads into the left one (GEOS finds this too).
        let left = [(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]
        let right = [(1.0, 1.0), (1.2, 0.5), (3.0, 0.5), (3.0, 2.0), (1.0, 2.0), (1.0, 1.0)]
        let findings = CoverageCheck().findings([feature([left], line: 1), feature([right], line: 2)])
        XCTAssertEqual(findings.first?.code, .coverageOverlap)
    }

    func testNarrowGapsAreReportedOnlyBelowTheWidth() {
        // Two squares 0.001° (111 m at the equator) apart, 1° long side by side.
        let features = [feature([square(0, 0, 1)], line: 1), feature([square(1.001, 0, 1)], line: 2)]
        XCTAssertEqual(CoverageCheck().findings(features), [])
        XCTAssertEqual(CoverageCheck(gapWidth: 50).findings(features), [])
        let findings = CoverageCheck(gapWidth: 200).findings(features)
        XCTAssertEqual(findings.map(\.code), [.coverageGap])
        XCTAssertTrue(findings[0].message.contains("narrower than 200 m"), findings[0].message)
    }
}
