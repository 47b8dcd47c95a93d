import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

final class GeoJSONReaderTests: XCTestCase {
    func testAllGeometryTypesMapToOverlays() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Pin","description":"Sub"},"geometry":{"type":"Point","coordinates":[10,20]}},
        {"type":"Feature","properties":{"radius":250},"geometry":{"type":"Point","coordinates":[10,20,5]}},
        {"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4],[5,6]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[1,1]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,1]},{"type":"LineString","coordinates":[[1,1],[2,2]]}]}},
        {"type":"Feature","properties":null,"geometry":null}
        ]}
        """
        let (features, warnings) = try readGeoJSON(text)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(features.count, 9)
        guard case .annotation(let pin)? = features[0].shape else { return XCTFail("point → annotation") }
        XCTAssertEqual(pin.coordinate, Coordinate(latitude: 20, longitude: 10))
        XCTAssertEqual(pin.title, "Pin")
        XCTAssertEqual(pin.subtitle, "Sub")
        guard case .circle(let circle)? = features[1].shape else { return XCTFail("point + radius → circle") }
        XCTAssertEqual(circle.radius, 250)
        XCTAssertEqual(circle.center.altitude, 5)
        guard case .collection(let multiPoint)? = features[2].shape else { return XCTFail("multipoint → collection") }
        XCTAssertEqual(multiPoint.origin, .multiPoint)
        XCTAssertEqual(multiPoint.members.count, 2)
        guard case .polyline(let line)? = features[3].shape else { return XCTFail("linestring → polyline") }
        XCTAssertEqual(line.pointCount, 3)
        XCTAssertEqual(line.points[0], MapPoint(Coordinate(latitude: 2, longitude: 1)))
        guard case .multiPolyline(let lines)? = features[4].shape else { return XCTFail() }
        XCTAssertEqual(lines.polylines.map(\.pointCount), [2, 2])
        guard case .polygon(let polygon)? = features[5].shape else { return XCTFail() }
        XCTAssertEqual(polygon.pointCount, 5)
        XCTAssertEqual(polygon.interiorPolygons.count, 1)
        XCTAssertEqual(polygon.interiorPolygons[0].pointCount, 4)
        guard case .multiPolygon(let polygons)? = features[6].shape else { return XCTFail() }
        XCTAssertEqual(polygons.polygons.count, 2)
        XCTAssertEqual(polygons.polygons[1].coordinates[2], Coordinate(latitude: 6, longitude: 6))
        guard case .collection(let collection)? = features[7].shape else { return XCTFail() }
        XCTAssertEqual(collection.origin, .geometryCollection)
        XCTAssertEqual(collection.members.map(\.kind), [.annotation, .polyline])
        XCTAssertNil(features[8].shape)
        XCTAssertNil(features[8].properties)
    }

    func testIdsForeignMembersAndOrderKept() throws {
        let text = """
        {"features":[{"geometry":{"coordinates":[1,2],"type":"Point","bbox":[1,2,1,2],"extra":true},
          "id":"a-1","type":"Feature","properties":{"z":1,"a":{"n":[1,2.5,"x"]},"m":null},"title":"foreign"},
          {"type":"Feature","id":12345678901234,"properties":{},"geometry":null}],
         "type":"FeatureCollection","name":"layer","bbox":[1,2,1,2]}
        """
        let (features, _) = try readGeoJSON(text)
        XCTAssertEqual(features[0].id, .string("a-1"))
        XCTAssertEqual(features[1].id, .integer(12_345_678_901_234))
        XCTAssertEqual(features[0].properties?.keys, ["z", "a", "m"])
        XCTAssertEqual(features[0].properties?["a"], .object(["n": .array([.integer(1), .number(2.5), .string("x")])]))
        XCTAssertEqual(features[0].foreignMembers, ["title": .string("foreign")])
        XCTAssertEqual(features[0].geometryMembers.keys, ["bbox", "extra"])
        // Members after "features" are kept too.
        let input = ByteInput(string: text)
        var reader = GeoJSONReader(input: input)
        _ = try reader.readAll()
        XCTAssertEqual(reader.collectionMembers.keys, ["name", "bbox"])
    }

    func testSequencesWithRecordSeparatorsAndNewlines() throws {
        let feature = #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let rs = "\u{1E}\(feature)\n\u{1E}\(feature)\n"
        XCTAssertEqual(try readGeoJSON(rs).features.count, 2)
        let lines = "\(feature)\n\(feature)\n\n\(feature)"
        XCTAssertEqual(try readGeoJSON(lines).features.count, 3)
        // A bare geometry is read as a feature without properties.
        let bare = try readGeoJSON(#"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#).features
        XCTAssertEqual(bare.count, 1)
        XCTAssertEqual(bare[0].shape?.kind, .polyline)
    }

    func testTokensSplitAcrossRefills() throws {
        // An 8-byte window forces every token to straddle refills; results must not change.
        let text = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"caf\\u00e9 \\"q\\" \\ud83d\\ude00","v":-1.2345678901234567e-5},
        "geometry":{"type":"LineString","coordinates":[[-123.456789012345,45.000000001],[0.1,-0.2,300.25]]}}]}
        """
        let small = try readGeoJSON(text, bufferSize: 8).features
        let large = try readGeoJSON(text).features
        XCTAssertEqual(small, large)
        XCTAssertEqual(small[0].properties?["name"], .string("café \"q\" 😀"))
        XCTAssertEqual(small[0].properties?["v"], .number(-1.2345678901234567e-5))
        guard case .polyline(let line)? = small[0].shape else { return XCTFail() }
        XCTAssertEqual(line.coordinates[0].longitude, Double("-123.456789012345"))
        XCTAssertEqual(line.coordinates[1].altitude, 300.25)
    }

    func testLocationsStayRightAfterTheWindowMoves() throws {
        // The error about a feature is found at its end, many refills after its start.
        let padding = (0..<50).map { "\"k\($0)\": \"\(String(repeating: "x", count: 40))\"" }.joined(separator: ",\n")
        let text = "{\"type\":\"FeatureCollection\",\"features\":[\n  {\"properties\":{\n\(padding)},\n\"geometry\":null}]}"
        let input = ByteInput(string: text, name: "big.geojson")
        var reader = GeoJSONReader(input: input, initialBufferSize: 16)
        XCTAssertThrowsError(try reader.next()) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code.rawValue, "geojson.missing-type")
            XCTAssertEqual(diagnostic?.location?.line, 2)
            XCTAssertEqual(diagnostic?.location?.column, 3)
        }
        let good = text.replacingOccurrences(of: "{\"properties\"", with: "{\"type\":\"Feature\",\"properties\"")
        let features = try readGeoJSON(good, bufferSize: 16).features
        XCTAssertEqual(features[0].location?.line, 2)
        XCTAssertEqual(features[0].location?.column, 3)
    }

    func testNumbersParseExactlyAsDoubleString() throws {
        let numbers = ["0.1", "-45.349964972999942", "179.99999999999997", "1e-7", "2.2250738585072014e-308",
                       "123456789012345678901234567890", "-0.0", "5e-324", "90"]
        let text = #"{"type":"MultiPoint","coordinates":["# + numbers.map { "[\($0),0]" }.joined(separator: ",") + "]}"
        let features = try readGeoJSON(text).features
        guard case .collection(let collection)? = features[0].shape else { return XCTFail() }
        for (member, literal) in zip(collection.members, numbers) {
            guard case .annotation(let annotation) = member else { return XCTFail() }
            XCTAssertEqual(annotation.coordinate.longitude.bitPattern, Double(literal)!.bitPattern, literal)
        }
    }

    func testErrorsCarryLineColumnAndPointer() throws {
        let text = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
          {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1],[0,0]]]}}
        ]}
        """
        let error = try XCTUnwrap(geoJSONError(text))
        XCTAssertEqual(error.code.rawValue, "geojson.position-too-short")
        XCTAssertEqual(error.location?.line, 3)
        XCTAssertEqual(error.location?.column, 94)
        XCTAssertEqual(error.location?.jsonPointer, "/features/1/geometry/coordinates/0/2")
        XCTAssertEqual(error.description,
                       "test.geojson:3:94: error: geojson.position-too-short: position needs at least 2 numbers, found 1 (/features/1/geometry/coordinates/0/2)")
    }

    func testSyntaxAndStructureErrors() {
        let cases: [(String, String, Int, Int)] = [
            (#"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}"#, "json.unexpected-end", 1, 82),
            ("{\"type\":\"Feature\",\n\"properties\":{} \"geometry\":null}", "json.syntax", 2, 17),
            (#"{"type":"Point","coordinates":[1,02]}"#, "json.invalid-number", 1, 34),
            (#"{"type":"point","coordinates":[1,2]}"#, "geojson.unknown-type", 1, 9),
            (#"{"type":"Polygon","coordinates":[[1,2],[3,4]]}"#, "geojson.coordinates-depth", 1, 33),
            (#"{"type":"LineString","coordinates":[[1,2],[[3,4]]]}"#, "geojson.position-not-number", 1, 43),
            (#"{"type":"LineString"}"#, "geojson.missing-member", 1, 1),
            (#"{"coordinates":[1,2]}"#, "geojson.missing-type", 1, 1),
            (#"{"type":"FeatureCollection","features":[{"type":"Point","coordinates":[1,2]}]}"#, "geojson.wrong-type", 1, 49),
            (#"{"type":"Feature","properties":7,"geometry":null}"#, "geojson.properties-not-object", 1, 32),
            ("[1,2]", "json.syntax", 1, 1),
            ("", "geojson.empty", 1, 1),
            ("{\"type\":\"Feature\",\"properties\":{\"a\":\"x\ny\"},\"geometry\":null}", "json.control-character", 1, 39),
        ]
        for (text, code, line, column) in cases {
            guard let error = geoJSONError(text) else { continue }
            XCTAssertEqual(error.code.rawValue, code, text)
            XCTAssertEqual(error.location?.line, line, text)
            XCTAssertEqual(error.location?.column, column, "\(text): \(error)")
        }
    }

    func testWarningsForRingsDuplicatesAndExtraDimensions() throws {
        let text = """
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
        [[0,0],[1,0],[1,1],[0,1]],
        [[0,0],[1,0],[0,0]]]},"properties":{"a":1}}
        """
        let (features, warnings) = try readGeoJSON(text)
        XCTAssertEqual(features.count, 1)
        XCTAssertEqual(warnings.map(\.code.rawValue), ["geojson.ring-not-closed", "geojson.ring-too-short", "geojson.duplicate-member"])
        XCTAssertEqual(warnings[0].location?.line, 2)
        XCTAssertEqual(warnings[0].location?.jsonPointer, "/geometry/coordinates/0")
        XCTAssertEqual(warnings[1].location?.line, 3)
        XCTAssertEqual(features[0].properties?["a"], .integer(1))
        // ShapeRepair: the open exterior is closed, the three-position hole dropped.
        guard case .polygon(let polygon)? = features[0].shape else { return XCTFail("not a polygon") }
        XCTAssertEqual(polygon.pointCount, 5)
        XCTAssertEqual(polygon.interiorPolygons.count, 0)

        let extra = try readGeoJSON(#"{"type":"Point","coordinates":[1,2,3,4]}"#)
        XCTAssertEqual(extra.warnings.map(\.code.rawValue), ["geojson.position-too-long"])
    }

    func testCorpusGoodFilesAndRealDataParse() throws {
        let good = try TestPaths.corpusFolder("geojsonhint/good")
        let real = try TestPaths.corpusFolder("real")
        var files = try FileManager.default.contentsOfDirectory(at: good, includingPropertiesForKeys: nil)
        files += try FileManager.default.contentsOfDirectory(at: real, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "geojson" }
        var parsed = 0
        for file in files where file.pathExtension == "geojson" {
            let input = try ByteInput(path: file.path)
            var reader = GeoJSONReader(input: input)
            do {
                let features = try reader.readAll()
                XCTAssertFalse(features.isEmpty, file.lastPathComponent)
                parsed += 1
            } catch {
                XCTFail("\(file.lastPathComponent): \(error)")
            }
        }
        print("parsed \(parsed) of \(files.filter { $0.pathExtension == "geojson" }.count) corpus GeoJSON files")
        XCTAssertGreaterThanOrEqual(parsed, 21)
    }

    func testRealCountriesHaveExpectedShape() throws {
        let file = try TestPaths.corpusFolder("real").appendingPathComponent("ne_50m_admin_0_countries.geojson")
        var reader = GeoJSONReader(input: try ByteInput(path: file.path))
        let features = try reader.readAll()
        XCTAssertEqual(features.count, 241)
        var summary = DatasetSummary()
        features.forEach { summary.add($0) }
        XCTAssertEqual(summary.kindCounts[.polygon], 122)
        XCTAssertEqual(summary.kindCounts[.multiPolygon], 119)
        XCTAssertEqual(summary.vertexCount, 99_593)
        XCTAssertEqual(features[0].properties?["NAME"], .string("Aruba"))
    }
}

final class ByteInputTests: XCTestCase {
    func testPeekDoesNotConsumeAndReadReplaysIt() throws {
        let input = ByteInput(string: "abcdefghij")
        XCTAssertEqual(try input.peek(4), Array("abcd".utf8))
        XCTAssertEqual(try input.peek(6), Array("abcdef".utf8))
        XCTAssertEqual(try input.readAll(), Array("abcdefghij".utf8))
        let short = ByteInput(string: "ab")
        XCTAssertEqual(try short.peek(512), Array("ab".utf8))
        XCTAssertEqual(try short.readAll(), Array("ab".utf8))
    }
}
