import XCTest
@testable import OverlayKit

/// Positions read as runs (flat numbers, one place per position, no node per number) give the
/// findings the plain reading gives, with the same lines, columns and JSON Pointers.
final class ValidatePositionRunTests: XCTestCase {
    /// The findings with runs and without, over a small and a default window.
    private func findings(_ text: String, sequence: Bool = false, runs: Bool, window: Int) throws -> [Diagnostic] {
        var validator = GeoJSONValidator(input: ByteInput(string: text, name: "t.geojson"), sequence: sequence)
        validator.readsPositionRuns = runs
        validator.initialWindow = window
        return try validator.validate()
    }

    private func assertSameAsPlain(_ text: String, sequence: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let plain = try findings(text, sequence: sequence, runs: false, window: 1 << 20)
        for window in [1 << 20, 16, 64] {
            let withRuns = try findings(text, sequence: sequence, runs: true, window: window)
            XCTAssertEqual(withRuns.map(\.description), plain.map(\.description), "window \(window): \(text.prefix(120))",
                           file: file, line: line)
            XCTAssertEqual(withRuns, plain, file: file, line: line)
        }
    }

    private func feature(_ geometry: String, properties: String = "{}") -> String {
        "{\"type\": \"Feature\", \"properties\": \(properties), \"geometry\": \(geometry)}"
    }

    private func collection(_ features: [String]) -> String {
        "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}"
    }

    /// Sound and faulty geometries of every type, laid out on one line, over many lines, with
    /// tabs and CRLF: the same findings.
    func testRunsGiveThePlainFindings() throws {
        let square = "[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]"
        let bowtie = "[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]"
        let geometries = [
            "{\"type\": \"Point\", \"coordinates\": [1.5, 2.25]}",
            "{\"type\": \"Point\", \"coordinates\": [[1, 2]]}",
            "{\"type\": \"Point\", \"coordinates\": [[1, 2], [3, 4]]}",
            "{\"type\": \"MultiPoint\", \"coordinates\": [[1, 2], [3, 4, 5, 6], [7], [200, 95]]}",
            "{\"type\": \"LineString\", \"coordinates\": [[1.1234567, 2], [3, 4.12345678], [3, 4.12345678], [179, 0], [-179, 0]]}",
            "{\"type\": \"LineString\", \"coordinates\": [[1, 2]]}",
            "{\"type\": \"LineString\", \"coordinates\": [[[1, 2], [3, 4]]]}",
            "{\"type\": \"LineString\", \"coordinates\": [[1, 2], [[3, 4]], \"x\", [5, 6]]}",
            "{\"type\": \"MultiLineString\", \"coordinates\": [[[1, 2], [3, 4]], [[5, 6]], []]}",
            "{\"type\": \"MultiLineString\", \"coordinates\": [[1, 2], [3, 4]]}",
            "{\"type\": \"Polygon\", \"coordinates\": [\(square)]}",
            "{\"type\": \"Polygon\", \"coordinates\": [\(bowtie)]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], [0, 0.5]]]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [0, 0]], []]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[0, 0], [1, 0], [1, 1], [0, 0]]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], 5]]}",
            "{\"type\": \"Polygon\", \"coordinates\": [\(square), [[5, 5], [6, 5], [6, 6], [5, 5]]]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[170, 0], [-170, 0], [-170, 10], [170, 0]]]}",
            "{\"type\": \"MultiPolygon\", \"coordinates\": [[\(square)], [\(square)], [[[0.5, 0.5], [2, 0.5], [2, 2], [0.5, 0.5]]]]}",
            "{\"type\": \"MultiPolygon\", \"coordinates\": [\(square)]}",
            "{\"type\": \"MultiPolygon\", \"coordinates\": [[[[0, 0], [1, 0], [1, 1], [0, 0]], [[0.1, 0.1], [0.1, 95], [0.2, 0.1], [0.1, 0.1]]]]}",
            "{\"type\": \"GeometryCollection\", \"geometries\": [{\"type\": \"LineString\", \"coordinates\": [[1, 2], [1, 2], [1, 2]]}]}",
            "{\"type\": \"MultiPoint\", \"coordinates\": [[1, 2], [3, 4]], \"bbox\": [1, 2, 3, 4]}",
        ]
        var features = geometries.map { feature($0) }
        features.append(feature("null", properties: "{\"coordinates\": [[1, 2], [3, 4]], \"a\": {\"coordinates\": [[1, 2]]}}"))
        features.append("{\"type\": \"Feature\", \"properties\": {}, \"geometry\": null, \"coordinates\": [[1, 2]]}")
        let layouts: [(String) -> String] = [
            { $0 },
            { $0.replacingOccurrences(of: "], [", with: "],\n  [").replacingOccurrences(of: ", ", with: ",\n\t ") },
            { $0.replacingOccurrences(of: "[", with: "[\r\n ").replacingOccurrences(of: ",", with: " ,\r\n") },
        ]
        for layout in layouts {
            try assertSameAsPlain(collection(features.map(layout)))
            for geometry in geometries {
                try assertSameAsPlain(layout(geometry))
                try assertSameAsPlain(layout(feature(geometry)))
            }
            try assertSameAsPlain(geometries.map { "\u{1E}" + layout($0) + "\n" }.joined(), sequence: true)
        }
    }

    /// Syntax errors and numbers the run does not take inside arrays of positions: the
    /// reader's own errors, at the same place.
    func testASegmentAcrossTheAntimeridianIsWarnedOnceInBothReadings() throws {
        let crossing = feature("{\"type\": \"LineString\", \"coordinates\": [[170, 0], [-170, 1], [-160, 2], [170, 3]]}")
        // A position without a longitude ends the segment before it: no jump is read across it.
        let broken = feature("{\"type\": \"LineString\", \"coordinates\": [[170, 0], [\"x\", 1], [-170, 1], [-160, 2]]}")
        let apart = feature("{\"type\": \"MultiLineString\", \"coordinates\": [[[0, 0], [170, 1]], [[-170, 0], [-160, 1]]]}")
        for runs in [false, true] {
            func jumps(_ text: String) throws -> [String] {
                try findings(text, runs: runs, window: 1 << 20).filter { $0.code == .geojsonAntimeridian }.map(\.message)
            }
            XCTAssertEqual(try jumps(crossing), ["a segment jumps from longitude 170.0 to -170.0: geometry crossing the antimeridian should be cut in two (RFC 7946 §3.1.9)"],
                           "runs \(runs): the first jump only")
            XCTAssertEqual(try jumps(broken), [], "runs \(runs)")
            XCTAssertEqual(try jumps(apart), [], "runs \(runs): two lines, no segment between them")
        }
    }

    func testSyntaxErrorsInsideRunsAreThePlainReadersErrors() throws {
        let coordinates = ["[[1, 2] [3, 4]]", "[[1, 2],]", "[[1, 2], [01, 2]]", "[[1, 2], [1e400, 2]]", "[[1, 2], [3, 4]",
                           "[[1, 2], [3, 4",  "[[1, 2], [3 4]]", "[[1, 2], [3, -]]", "[[1, 2], [3, true]]", "[[1, 2], []]",
                           "[[1, 2], [3, 4]] x", "[[1,\n2],\n[3,\n4,]]", "[[1, 2], [3, 4e5.5]]", "[[1, 2], [3, 4]]]"]
        for text in coordinates {
            try assertSameAsPlain(collection([feature("{\"type\": \"LineString\", \"coordinates\": \(text)}")]))
            try assertSameAsPlain("{\"type\": \"LineString\", \"coordinates\": \(text)}")
        }
    }

    /// A problem deep inside a long array of positions spread over many lines keeps its line,
    /// column and pointer; so does a geometry finding at a vertex.
    func testAFindingInsideALongRunKeepsItsLineColumnAndPointer() throws {
        var ring: [String] = []
        for index in 0..<3000 {
            let angle = Double(index) / 3000 * 2 * Double.pi
            ring.append("[\(10 * cos(angle)), \(10 * sin(angle))]")
        }
        ring[2346] = "[1, 2, 3, 4]"
        ring[1003] = ring[1002]
        ring.append(ring[0])
        var text = "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"properties\": {},\n"
        text += "\"geometry\": {\"type\": \"Polygon\", \"coordinates\": [\n  ["
        var starts: [Int] = []
        for (index, position) in ring.enumerated() {
            text += index == 0 ? "" : index % 7 == 0 ? ",\n    " : ", "
            starts.append(text.utf8.count)
            text += position
        }
        text += "]]}}]}"
        // Line and column of a position's '[', counted here from the text.
        func place(_ index: Int) -> (Int, Int) {
            let lines = text.utf8.prefix(starts[index]).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            return (lines.count, lines.last!.count + 1)
        }
        for window in [1 << 20, 64] {
            let found = try findings(text, runs: true, window: window)
            let tooLong = try XCTUnwrap(found.first { $0.code == GeoJSONDiagnosticCode.positionTooLong.code })
            XCTAssertEqual(tooLong.location.map { "\($0.line):\($0.column)" }, "\(place(2346).0):\(place(2346).1)")
            XCTAssertEqual(tooLong.location?.jsonPointer, "/features/0/geometry/coordinates/0/2346")
            let repeated = try XCTUnwrap(found.first { $0.code == .geometryRepeatedPoint })
            XCTAssertEqual(repeated.location.map { "\($0.line):\($0.column)" }, "\(place(1003).0):\(place(1003).1)")
            XCTAssertEqual(repeated.location?.jsonPointer, "/features/0/geometry/coordinates/0/1003")
            XCTAssertEqual(found, try findings(text, runs: false, window: 1 << 20))
        }
    }

    /// Runs longer than the reader's blocks of positions (2,048), laid out as Natural Earth writes
    /// them (`[ -45.349964972999942, -78.693291924999855 ]`, the one-step path): sound, with a
    /// position out of range and one of four numbers deep inside, and ending in something a run
    /// does not take (it steps back after blocks have moved to the arena). The plain findings,
    /// over a large and a small window.
    func testLongRunsInNaturalEarthsLayoutGiveThePlainFindings() throws {
        func ring(_ count: Int, radius: Double) -> [String] {
            var positions: [String] = []
            for index in 0..<count {
                let angle = Double(index) / Double(count) * 2 * Double.pi
                positions.append("[ \(-45.349964972999942 + radius * cos(angle)), \(-60.693291924999855 + radius * sin(angle)) ]")
            }
            positions.append(positions[0])
            return positions
        }
        let sound = ring(5000, radius: 10)
        var faulty = ring(4500, radius: 5)
        faulty[2100] = "[ -45.5, -95.25 ]"
        faulty[3000] = "[ -45.5, -60.25, 12.5, 1 ]"
        faulty[3001] = "[-45.5,-60.125]"
        let geometries = [
            "{ \"type\": \"Polygon\", \"coordinates\": [ [ \(sound.joined(separator: ", ")) ] ] }",
            "{ \"type\": \"MultiPolygon\", \"coordinates\": [ [ [ \(faulty.joined(separator: ", ")) ] ], [ [ \(sound.joined(separator: ", ")) ] ] ] }",
            "{ \"type\": \"LineString\", \"coordinates\": [ \(sound.joined(separator: ", ")), \"x\" ] }",
            "{ \"type\": \"LineString\", \"coordinates\": [ \(faulty.joined(separator: ", ")), [ 1.5 ] ] }",
        ]
        try assertSameAsPlain(collection(geometries.map { feature($0) }))
        let withRuns = try findings(collection(geometries.map { feature($0) }), runs: true, window: 1 << 20)
        XCTAssertTrue(withRuns.contains { $0.code == GeoJSONDiagnosticCode.positionTooLong.code })
        XCTAssertTrue(withRuns.contains { $0.code == GeoJSONDiagnosticCode.coordinateRange.code })
    }
}
