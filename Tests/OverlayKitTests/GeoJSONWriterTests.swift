import XCTest
@testable import OverlayKit
import OverlayModel

final class GeoJSONWriterTests: XCTestCase {
    func testWindingPrecisionAndMemberOrder() throws {
        // Exterior given clockwise, hole counterclockwise: both must be flipped (RFC 7946 §3.1.6).
        let text = """
        {"type":"Feature","id":"p","properties":{"name":"x","n":1.5},"geometry":{"type":"Polygon",
        "coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]],[[0.2,0.2],[0.4,0.2],[0.4,0.4],[0.2,0.2]]],"bbox":[0,0,1,1]},"extra":"kept"}
        """
        let features = try readGeoJSON(text).features
        let written = try writeGeoJSON(features)
        XCTAssertEqual(written, """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"p","properties":{"name":"x","n":1.5},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[0.2,0.2],[0.4,0.4],[0.4,0.2],[0.2,0.2]]],"bbox":[0,0,1,1]},"extra":"kept"}
        ]}

        """)
    }

    func testCoordinatePrecisionRoundsAndTrims() throws {
        let feature = Feature(properties: [:], shape: .polyline(Polyline(coordinates: [
            Coordinate(latitude: -78.693291924999855, longitude: -45.349964972999942),
            Coordinate(latitude: 0.1, longitude: 1e-9, altitude: 12.5),
            Coordinate(latitude: -0.00000004, longitude: 179.99999999),
        ])))
        let text = try writeGeoJSON([feature], sequence: true)
        XCTAssertEqual(text, #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[-45.349965,-78.6932919],[0,0.1,12.5],[180,0]]}}"# + "\n")
        let precise = try writeGeoJSON([feature], sequence: true, precision: 15)
        // Shortest round-trip digits: these read back as the very same doubles.
        XCTAssertTrue(precise.contains("[-45.34996497299994,-78.69329192499985]"), precise)
        XCTAssertEqual(Double("-45.34996497299994"), -45.349964972999942)
    }

    func testCirclesStylesAndCollectionsRoundTrip() throws {
        var circle = Feature(properties: nil, shape: .circle(Circle(center: Coordinate(latitude: 1, longitude: 2), radius: 30)))
        circle.style = Style(strokeColor: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128), strokeWidth: 2)
        let collection = Feature(properties: [:], shape: .collection(ShapeCollection(members: [
            .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 1))),
            .annotation(PointAnnotation(coordinate: Coordinate(latitude: 2, longitude: 2))),
        ], origin: .geometryCollection)))
        let text = try writeGeoJSON([circle, collection], sequence: true)
        XCTAssertEqual(text, """
        {"type":"Feature","properties":{"radius":30.0,"stroke":"#ff0000","stroke-opacity":0.502,"stroke-width":2.0},"geometry":{"type":"Point","coordinates":[2,1]}}
        {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,1]},{"type":"Point","coordinates":[2,2]}]}}

        """)
        let back = try readGeoJSON(text).features
        XCTAssertEqual(back[0].shape, circle.shape)
        XCTAssertEqual(back[1].shape?.kind, .collection)
    }

    func testEscapesAndDeterminism() throws {
        let feature = Feature(properties: ["s": .string("tab\t\"quote\" \\ \u{1} é")], shape: nil)
        let once = try writeGeoJSON([feature])
        XCTAssertTrue(once.contains(#""s":"tab\t\"quote\" \\ \u0001 é""#), once)
        XCTAssertEqual(try readGeoJSON(once).features[0].properties, feature.properties)
        XCTAssertEqual(once, try writeGeoJSON([feature]))
        XCTAssertEqual(try writeGeoJSON([]), "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
    }

    func testRealDataRoundTripIsStable() throws {
        let file = try TestPaths.corpusFolder("real").appendingPathComponent("ne_50m_admin_1_states_provinces.geojson")
        var reader = GeoJSONReader(input: try ByteInput(path: file.path))
        let features = try reader.readAll()
        let first = try writeGeoJSON(features)
        let again = try readGeoJSON(first).features
        XCTAssertEqual(again.count, features.count)
        for (a, b) in zip(features, again) {
            XCTAssertEqual(a.properties, b.properties)
            XCTAssertEqual(a.shape?.vertexCount, b.shape?.vertexCount)
        }
        // Writing what was written gives the same bytes.
        XCTAssertEqual(try writeGeoJSON(again), first)
    }

    /// A long ring's text leaves the writer's buffer in pieces as it is written (the buffer stays
    /// near `spillThreshold` instead of growing to the whole feature), and the pieces are the
    /// bytes the buffer would have held.
    func testLongPositionRunsSpillInPiecesWithTheSameBytes() {
        let coordinates = (0..<100_000).map { index in
            Coordinate(latitude: Double(index % 170) - 85 + 0.123456789, longitude: Double(index % 359) - 179.5 + 1e-7 * Double(index))
        }
        let scale = JSONBytes.CoordinateScale(decimals: 7)
        var whole = JSONBytes()
        whole.spill = nil
        coordinates.withUnsafeBufferPointer { whole.appendPositions($0, reversed: true, scale: scale) }
        nonisolated(unsafe) var pieces: [[UInt8]] = []
        var streamed = JSONBytes()
        streamed.spill = { pieces.append(Array($0)) }
        streamed.append("[")
        coordinates.withUnsafeBufferPointer { streamed.appendPositions($0, reversed: true, scale: scale) }
        XCTAssertGreaterThan(pieces.count, 4)
        XCTAssertTrue(pieces.allSatisfy { $0.count >= JSONBytes.spillThreshold && $0.count < JSONBytes.spillThreshold + 4096 })
        XCTAssertLessThan(streamed.bytes.count, JSONBytes.spillThreshold + 4096)
        XCTAssertEqual(pieces.joined() + streamed.bytes, [UInt8(ascii: "[")] + whole.bytes)
        XCTAssertNil(streamed.takeSpillError())
    }

    /// A spill that fails keeps the bytes and reports the error once; nothing more is spilled.
    func testAFailedSpillKeepsTheBytesAndReportsTheError() {
        struct Refused: Error {}
        let coordinates = (0..<50_000).map { Coordinate(latitude: 1.25, longitude: Double($0) * 1e-3) }
        nonisolated(unsafe) var calls = 0
        var bytes = JSONBytes()
        bytes.spill = { _ in calls += 1; throw Refused() }
        coordinates.withUnsafeBufferPointer { bytes.appendPositions($0, reversed: false, scale: JSONBytes.CoordinateScale(decimals: 7)) }
        XCTAssertEqual(calls, 1)
        XCTAssertTrue(bytes.takeSpillError() is Refused)
        XCTAssertNil(bytes.takeSpillError())
        var whole = JSONBytes()
        coordinates.withUnsafeBufferPointer { whole.appendPositions($0, reversed: false, scale: JSONBytes.CoordinateScale(decimals: 7)) }
        XCTAssertEqual(bytes.bytes, whole.bytes)
    }

    /// Through the writer: one feature far longer than the buffer, written to memory, is the
    /// record `encode` makes of it (which never spills).
    func testAFeatureLongerThanTheBufferIsWrittenWhole() throws {
        let ring = (0..<60_000).map { index in
            Coordinate(latitude: 10 * sin(Double(index) * .pi / 30_000), longitude: 10 * cos(Double(index) * .pi / 30_000))
        }
        let feature = Feature(properties: ["name": .string("long")], shape: .polygon(Polygon(coordinates: ring + [ring[0]])))
        let text = try writeGeoJSON([feature], sequence: true)
        XCTAssertGreaterThan(text.utf8.count, 4 * JSONBytes.spillThreshold)
        XCTAssertEqual(text, String(decoding: GeoJSONWriter.encode(feature), as: UTF8.self) + "\n")
    }
}
