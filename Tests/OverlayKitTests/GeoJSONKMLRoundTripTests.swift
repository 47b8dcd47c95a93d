import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Issue 25 item 6: GeoJSON → KML → GeoJSON gives every member back, or the first conversion
/// names what it cannot keep. Each document below is one class the issue found lost silently
/// (or a neighbour of it); docs/kml.md "GeoJSON → KML → GeoJSON" lists the rules.
final class GeoJSONKMLRoundTripTests: XCTestCase {
    static let point = #"{"type":"Point","coordinates":[1,2]}"#
    static let square = #"[[0,0],[1,0],[1,1],[0,1],[0,0]]"#
    static let otherSquare = #"[[5,5],[6,5],[6,6],[5,6],[5,5]]"#

    /// Documents that must come back identical (as JSON values).
    static let identical: [(name: String, text: String)] = [
        // The GeoJSON reader repairs it (ShapeRepair: the one-position member becomes a Point), so
        // both conversions see the same valid shape.
        ("one-position line", #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2]]]}}]}"#),
        ("null properties", #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":null,"geometry":\#(point)},{"type":"Feature","properties":{},"geometry":\#(point)}]}"#),
        ("null properties, no geometry", #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":null,"geometry":null}]}"#),
        ("one-kind GeometryCollections", #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"k":"polygons"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[\#(square)]},{"type":"Polygon","coordinates":[\#(otherSquare)]}]}},
            {"type":"Feature","properties":{"k":"points"},"geometry":{"type":"GeometryCollection","geometries":[\#(point),{"type":"Point","coordinates":[3,4]}]}},
            {"type":"Feature","properties":{"k":"lines"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[0,0],[1,1]]}]}},
            {"type":"Feature","properties":{"k":"multi and single"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"MultiPolygon","coordinates":[[\#(square)],[\#(otherSquare)]]},{"type":"Polygon","coordinates":[[[9,9],[10,9],[10,10],[9,9]]]}]}},
            {"type":"Feature","properties":{"k":"mixed"},"geometry":{"type":"GeometryCollection","geometries":[\#(point),{"type":"LineString","coordinates":[[0,0],[1,1]]}]}},
            {"type":"Feature","properties":{"k":"multi"},"geometry":{"type":"MultiPolygon","coordinates":[[\#(square)],[\#(otherSquare)]]}}
            ]}
            """#),
        ("foreign members and bbox", #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"a","bbox":[0,0,1,1],"title":"t","meta":{"source":"survey","n":[1,2.5,null]},"properties":{"n":1},
             "geometry":{"type":"Polygon","coordinates":[\#(square)],"bbox":[0,0,1,1],"crs-note":"x"}},
            {"type":"Feature","id":[1,2],"properties":{"n":2},"geometry":\#(point)}
            ]}
            """#),
        ("empty geometries", #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"t":"LineString"},"geometry":{"type":"LineString","coordinates":[]}},
            {"type":"Feature","properties":{"t":"Polygon"},"geometry":{"type":"Polygon","coordinates":[]}},
            {"type":"Feature","properties":{"t":"MultiPoint"},"geometry":{"type":"MultiPoint","coordinates":[]}},
            {"type":"Feature","properties":{"t":"MultiLineString"},"geometry":{"type":"MultiLineString","coordinates":[]}},
            {"type":"Feature","properties":{"t":"MultiPolygon"},"geometry":{"type":"MultiPolygon","coordinates":[]}},
            {"type":"Feature","properties":null,"geometry":{"type":"GeometryCollection","geometries":[]}}
            ]}
            """#),
        ("collection members", #"{"type":"FeatureCollection","bbox":[1,2,1,2],"crs":{"type":"name"},"x-custom":[true],"features":[{"type":"Feature","properties":{},"geometry":\#(point)}],"name":"n"}"#),
        ("properties of every kind", #"""
            {"type":"FeatureCollection","name":"kinds","features":[
            {"type":"Feature","id":7,"properties":{"name":"N","description":"<b>d</b>","visibility":false,"timestamp":"2020-01-02",
             "i":-3,"big":4294967296,"huge":9007199254740993,"f":0.1,"b":true,"s":"","nothing":null,"list":[1,"a"],"obj":{"x":{}},
             "":"empty key","stroke":"#ff0000","stroke-width":2},"geometry":{"type":"LineString","coordinates":[[0,0,5],[1,1,6]]}},
            {"type":"Feature","id":"p1","properties":{"radius":250},"geometry":{"type":"Point","coordinates":[10,20]}}
            ]}
            """#),
    ]

    /// Documents whose round trip differs: the first conversion must say what it cannot keep.
    static let warned: [(name: String, text: String, code: String)] = [
        ("property named like the writer's own Data", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"not an XML name","properties":{"overlaykit:id":"mine"},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#,
         "output.duplicate-name-renamed"),
    ]

    /// GeoJSON → GeoJSON, and GeoJSON → KML → GeoJSON, as JSON values; the first KML conversion's warnings.
    static func roundTrip(_ text: String) throws -> (direct: JSONValue, back: JSONValue, warnings: [Diagnostic], readBack: [Diagnostic]) {
        let document = try FeatureIO.readAll(ByteInput(string: text, name: "in.geojson"))
        let direct = try FeatureIO.encode(document.features, as: .geojson, context: document.context)
        var warnings: [Diagnostic] = []
        let kml = try FeatureIO.encode(document.features, as: .kml, context: document.context) { warnings.append($0) }
        let again = try FeatureIO.readAll(ByteInput(bytes: kml, name: "out.kml"))
        let back = try FeatureIO.encode(again.features, as: .geojson, context: again.context)
        return (try unordered(direct), try unordered(back), warnings, again.warnings)
    }

    /// The JSON value with object members sorted by name: what a JSON reader compares.
    static func unordered(_ bytes: [UInt8]) throws -> JSONValue {
        func sort(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.members.map { .init(key: $0.key, value: sort($0.value)) }.sorted { $0.key < $1.key }))
            case .array(let values): return .array(values.map(sort))
            default: return value
            }
        }
        return sort(try JSONScanner(input: ByteInput(bytes: bytes)).readValue())
    }

    func testEveryClassComesBackIdentical() throws {
        for (name, text) in Self.identical {
            let (direct, back, warnings, readBack) = try Self.roundTrip(text)
            XCTAssertEqual(back, direct, name)
            XCTAssertEqual(warnings.map(\.code.rawValue), [], name)
            XCTAssertEqual(readBack.map(\.code.rawValue), [], "\(name), reading our own KML")
        }
    }

    func testWhatCannotComeBackIsWarned() throws {
        for (name, text, code) in Self.warned {
            let (direct, back, warnings, _) = try Self.roundTrip(text)
            XCTAssertNotEqual(back, direct, "\(name): now identical, move it to `identical`")
            XCTAssertEqual(warnings.map(\.code.rawValue), [code], name)
        }
    }

    /// The written KML stays valid against the OGC schema with the overlaykit: Data.
    func testTheDocumentsWrittenAsKMLPassTheOGCSchema() throws {
        let schema = try KMLSchemaCheck()
        let folder = try KMLWriterIDTests.temporaryFolder("roundtrip-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [URL] = []
        for (index, entry) in (Self.identical.map(\.text) + Self.warned.map(\.text)).enumerated() {
            let document = try FeatureIO.readAll(ByteInput(string: entry, name: "in.geojson"))
            let file = folder.appendingPathComponent("\(index).kml")
            try Data(try FeatureIO.encode(document.features, as: .kml, context: document.context)).write(to: file)
            files.append(file)
        }
        XCTAssertEqual(try schema.failures(files), [])
    }
}
