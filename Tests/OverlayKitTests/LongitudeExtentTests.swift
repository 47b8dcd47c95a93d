import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// `info`'s bounding box and `tile`'s bounds: the antimeridian decided from the geometry.
final class LongitudeExtentTests: XCTestCase {
    static func box(_ geojson: String) throws -> (west: Double, south: Double, east: Double, north: Double)? {
        var summary = DatasetSummary()
        for feature in try readGeoJSON(geojson).features { summary.add(feature) }
        return summary.boundingBox
    }

    func testWorldCountriesSpanTheWorld() throws {
        let url = try TestPaths.corpusFolder("real/ne_50m_admin_0_countries.geojson")
        var summary = DatasetSummary()
        var reader = GeoJSONReader(input: try ByteInput(path: url.path))
        while let feature = try reader.next() { summary.add(feature) }
        let box = try XCTUnwrap(summary.boundingBox)
        XCTAssertEqual(box.west, -180)
        XCTAssertEqual(box.east, 180)
        XCTAssertFalse(summary.crossesAntimeridian)
    }

    func testAntarcticaLikeRingWithLongEdgesIsNoCrossing() throws {
        // Few vertices, long edges along the pole: vertex gaps are wide, edges cover them.
        let box = try XCTUnwrap(Self.box(#"{"type":"Polygon","coordinates":[[[-180,-90],[180,-90],[180,-80],[60,-70],[-60,-70],[-180,-80],[-180,-90]]]}"#))
        XCTAssertEqual([box.west, box.east], [-180, 180])
    }

    func testPartsSplitAtTheAntimeridianCross() throws {
        let fiji = #"{"type":"MultiPolygon","coordinates":[[[[177,-18],[180,-18],[180,-16],[177,-16],[177,-18]]],[[[-180,-17],[-179,-17],[-179,-16],[-180,-16],[-180,-17]]]]}"#
        let box = try XCTUnwrap(Self.box(fiji))
        XCTAssertEqual([box.west, box.east], [177, -179])
    }

    func testPointsOnBothSidesWithoutGeometryAcrossDoNotCross() throws {
        let points = #"{"type":"MultiPoint","coordinates":[[179,1],[-179,2]]}"#
        let box = try XCTUnwrap(Self.box(points))
        XCTAssertEqual([box.west, box.east], [-179, 179])
    }

    func testRingWrittenBeyond180Crosses() throws {
        let box = try XCTUnwrap(Self.box(#"{"type":"LineString","coordinates":[[170,0],[190,1]]}"#))
        XCTAssertEqual([box.west, box.east], [170, -170])
        // tile writes the same extent; TileJSON bounds cannot cross, so the whole width.
        let source = try TileSource(features: try readGeoJSON(#"{"type":"LineString","coordinates":[[170,0],[190,1]]}"#).features,
                                    options: TileOptions())
        let westEast = try XCTUnwrap(source.longitudeExtent.westEast)
        XCTAssertEqual([westEast.west, westEast.east], [170, -170])
    }

    /// Issue 51 item 17: a circle wider than the world covers every longitude (its map rect is
    /// the world's, as MapKit clamps it); one nearly as wide spans east through its center.
    func testCirclesAsWideAsTheWorldSpanIt() throws {
        func circle(_ radius: String) -> String {
            #"{"type":"Feature","properties":{"radius":\#(radius)},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        }
        for radius in ["2e7", "1e12", "1e20"] {
            let box = try XCTUnwrap(Self.box(circle(radius)))
            XCTAssertEqual([box.west, box.east], [-180, 180], radius)
            let shape = try XCTUnwrap(try readGeoJSON(circle(radius)).features.first?.shape)
            XCTAssertEqual(shape.boundingMapRect, MapRect(x: 0, y: 0, width: MapProjection.worldSize, height: MapProjection.worldSize), radius)
        }
        let wide = try XCTUnwrap(Self.box(circle("1e7")))
        XCTAssertEqual(wide.west, -134.16, accuracy: 0.01, "295° wide, centered on 13.4°")
        XCTAssertEqual(wide.east, 160.96, accuracy: 0.01)
    }

    func testHugeLongitudeWrapsExactlyIntoTheWorld() throws {
        // 1.2e39 − 360·⌊…⌋ once gave −1.5e23; fmod gives the exact remainder.
        let box = try XCTUnwrap(Self.box(#"{"type":"Point","coordinates":[1234567890123456789012345678901234567890,2]}"#))
        XCTAssertTrue((-180...180).contains(box.west), "\(box)")
        XCTAssertEqual(box.west, box.east)
        XCTAssertEqual(try XCTUnwrap(Self.box(#"{"type":"Point","coordinates":[540,2]}"#)).west, -180)
        XCTAssertEqual(try XCTUnwrap(Self.box(#"{"type":"Point","coordinates":[-190,2]}"#)).west, 170)
    }
}
