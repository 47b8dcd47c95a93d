import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// One rule for shapes no output format can hold (``ShapeRepair``), in the GeoJSON reader and
/// in every writer: repaired or dropped with a warning, never written invalid, never silent.
final class ShapeRepairTests: XCTestCase {
    private func c(_ longitude: Double, _ latitude: Double) -> Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    private var openSquare: [Coordinate] { [c(0, 0), c(1, 0), c(1, 1), c(0, 1)] }
    private var closedSquare: [Coordinate] { openSquare + [c(0, 0)] }

    func testRingVerdicts() {
        XCTAssertEqual(ShapeRepair.ringVerdict(closedSquare), .valid)
        XCTAssertEqual(ShapeRepair.ringVerdict(openSquare), .close)
        XCTAssertEqual(ShapeRepair.ringVerdict([c(0, 0), c(1, 0), c(1, 1)]), .close)
        XCTAssertEqual(ShapeRepair.ringVerdict([c(0, 0), c(1, 0), c(0, 0)]), .drop(positions: 3))
        XCTAssertEqual(ShapeRepair.ringVerdict([c(0, 0), c(1, 0)]), .drop(positions: 2))
        XCTAssertEqual(ShapeRepair.ringVerdict([c(0, 0)]), .drop(positions: 1))
        XCTAssertEqual(ShapeRepair.ringVerdict([]), .drop(positions: 0))
        // RFC 7946 asks for identical positions: a different altitude leaves the ring open.
        XCTAssertEqual(ShapeRepair.ringVerdict(openSquare + [Coordinate(latitude: 0, longitude: 0, altitude: 5)]), .close)
    }

    /// Shapes built in code (not by a reader), each invalid in one way.
    private var invalidFeatures: [Feature] {
        let location = SourceLocation(file: "made.geojson", line: 7, column: 3)
        return [
            Feature(properties: [:], shape: .polygon(Polygon(coordinates: openSquare)), location: location),
            Feature(properties: [:], shape: .polyline(Polyline(coordinates: [c(5, 6)])), location: location),
            Feature(properties: [:], shape: .polygon(Polygon(coordinates: [c(0, 0), c(1, 0), c(0, 0)])), location: location),
            Feature(properties: [:], shape: .polygon(Polygon(coordinates: closedSquare,
                                                             interiorPolygons: [Polygon(coordinates: [])])), location: location),
            Feature(properties: [:], shape: .multiPolygon(MultiPolygon([Polygon(coordinates: [c(0, 0), c(1, 1)]),
                                                                        Polygon(coordinates: closedSquare)])), location: location),
        ]
    }

    private func write(_ features: [Feature], sequence: Bool) throws -> (String, [Diagnostic]) {
        let output = ByteOutput()
        var writer = GeoJSONWriter(output: output, sequence: sequence)
        var warnings: [Diagnostic] = []
        for feature in features {
            try writer.write(feature)
            warnings += writer.takeWarnings()
        }
        try writer.finish()
        return (String(decoding: output.bytes, as: UTF8.self), warnings)
    }

    func testGeoJSONAndGeoJSONSeqWritersRepairOrDropWithAWarningAtTheFeature() throws {
        for sequence in [false, true] {
            let (text, warnings) = try write(invalidFeatures, sequence: sequence)
            XCTAssertTrue(text.contains(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#), text)
            XCTAssertTrue(text.contains(#"{"type":"Point","coordinates":[5,6]}"#), text)
            XCTAssertTrue(text.contains(#"{"type":"Polygon","coordinates":[]}"#), text)
            XCTAssertFalse(text.contains("[]]"), "no empty ring is written: \(text)")
            XCTAssertTrue(text.contains(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]]]}"#), text)
            XCTAssertEqual(warnings.map(\.code.rawValue), ["output.ring-closed", "output.line-to-point", "output.ring-dropped",
                                                  "output.ring-dropped", "output.ring-dropped"])
            XCTAssertTrue(warnings.allSatisfy { $0.location?.description == "made.geojson:7:3" }, "\(warnings)")
            XCTAssertTrue(warnings[3].message.contains("hole 1"), warnings[3].message)
            XCTAssertTrue(warnings[4].message.contains("polygon 1"), warnings[4].message)
            // What was written reads back with no ring or line warning: it is valid RFC 7946.
            let back = try readGeoJSON(text)
            XCTAssertEqual(back.warnings.map(\.code.rawValue), [], "\(back.warnings)")
        }
    }

    func testKMLWriterRepairsWithAWarning() throws {
        let output = ByteOutput()
        var writer = try KMLWriter(output: output)
        var warnings: [Diagnostic] = []
        for feature in invalidFeatures {
            try writer.write(feature)
            warnings += writer.takeWarnings()
        }
        try writer.finish()
        let kml = String(decoding: output.bytes, as: UTF8.self)
        XCTAssertTrue(kml.contains("<coordinates>0,0 1,0 1,1 0,1 0,0</coordinates>"), kml)
        XCTAssertTrue(kml.contains("<Point><coordinates>5,6</coordinates></Point>"), kml)
        XCTAssertFalse(kml.contains("<coordinates></coordinates>"), kml)
        XCTAssertFalse(kml.contains("<coordinates>0,0 1,0 0,0</coordinates>"), kml)
        // A polygon left with no ring is carried as overlaykit: Data (GeoJSON → KML → GeoJSON gives
        // the empty geometry back), so it is not dropped.
        XCTAssertEqual(warnings.map(\.code.rawValue), ["output.ring-closed", "output.line-to-point", "output.ring-dropped",
                                              "output.ring-dropped", "output.ring-dropped"])
        // Read back: no ring or line warning at all.
        var reader = try KMLReader(input: ByteInput(string: kml, name: "written.kml"))
        let features = try reader.readAll()
        XCTAssertEqual(features.count, 5)
        XCTAssertEqual(reader.takeWarnings().map(\.code.rawValue), [])
    }

    func testValidShapesPassUnchangedAndSilent() throws {
        let valid = [
            Feature(properties: [:], shape: .polygon(Polygon(coordinates: closedSquare))),
            Feature(properties: [:], shape: .polyline(Polyline(coordinates: [c(0, 0), c(1, 1)]))),
            Feature(properties: [:], shape: .polyline(Polyline(coordinates: []))),
            Feature(properties: [:], shape: .polygon(Polygon(coordinates: []))),
        ]
        for feature in valid {
            let (shape, repairs) = ShapeRepair.repaired(feature.shape!, allowsEmpty: true)
            XCTAssertEqual(shape, feature.shape)
            XCTAssertEqual(repairs, [])
        }
        let (text, warnings) = try write(valid, sequence: true)
        XCTAssertEqual(warnings, [])
        XCTAssertTrue(text.contains(#"{"type":"LineString","coordinates":[]}"#), text)
        XCTAssertTrue(text.contains(#"{"type":"Polygon","coordinates":[]}"#), text)
    }

    func testGeoJSONReaderRepairsAtTheRingWithTheSameRule() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]],[[0.2,0.2],[0.4,0.2],[0.2,0.2]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[3,4]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[]],[[[0,0],[1,0],[1,1],[0,0]]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0]],[[1,1],[2,2]]]}}
        ]}
        """
        let (features, warnings) = try readGeoJSON(text)
        XCTAssertEqual(features[0].shape, .polygon(Polygon(coordinates: closedSquare)))
        XCTAssertEqual(features[1].shape, .annotation(PointAnnotation(coordinate: c(3, 4))))
        guard case .multiPolygon(let multi)? = features[2].shape else { return XCTFail("\(String(describing: features[2].shape))") }
        XCTAssertEqual(multi.polygons.count, 1)
        XCTAssertEqual(features[3].shape?.kind, .collection)
        XCTAssertEqual(warnings.map(\.code.rawValue), ["geojson.ring-not-closed", "geojson.ring-too-short", "geojson.line-too-short",
                                              "geojson.ring-too-short", "geojson.line-too-short"])
        XCTAssertEqual(warnings.map { $0.location?.jsonPointer }, ["/features/0/geometry/coordinates/0", "/features/0/geometry/coordinates/1",
                                                                 "/features/1/geometry/coordinates", "/features/2/geometry/coordinates/0/0",
                                                                 "/features/3/geometry/coordinates/0"])
        XCTAssertTrue(warnings[0].message.contains("closed by repeating its first position"), warnings[0].message)
        XCTAssertTrue(warnings[1].message.contains("the hole is dropped"), warnings[1].message)
    }

    func testFilterNeverCopiesARepairedFeatureThrough() throws {
        let text = """
        {"type":"Feature","properties":{"k":1.50},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}
        {"type":"Feature","properties":{"k":2.50},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}
        {"type":"Feature","properties":{"k":3.50},"geometry":{"type":"LineString","coordinates":[[0,0]]}}
        """
        let output = ByteOutput()
        var status = ""
        _ = try StreamingFilter(filter: FeatureFilter()).run(input: ByteInput(string: text, name: "f.geojsonl"), output: output,
                                                             format: .geojsonseq, status: { status += $0 })
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[0].contains("[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"), lines[0])
        // The valid feature is still copied byte for byte (1.50 stays 1.50).
        XCTAssertTrue(lines[1].contains(#""k":2.50"#), lines[1])
        XCTAssertTrue(lines[2].contains(#"{"type":"Point","coordinates":[0,0]}"#), lines[2])
        XCTAssertTrue(status.contains("geojson.ring-not-closed"), status)
        XCTAssertTrue(status.contains("geojson.line-too-short"), status)
    }
}
