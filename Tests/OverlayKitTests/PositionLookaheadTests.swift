import XCTest
@testable import OverlayKit
import OverlayModel

/// Positions parsed ahead on a second core (`PositionLookahead`) change nothing a reader gives:
/// the same features, warnings and errors (with their line, column and pointer) as reading alone.
final class PositionLookaheadTests: XCTestCase {
    /// Reads with a small window and the helper started as soon as it can, or without it.
    private func read(_ text: String, ahead: Bool) -> (features: [Feature], warnings: [Diagnostic], error: Diagnostic?, takenAhead: Int) {
        let input = ByteInput(string: text, name: "ahead.geojson")
        var reader = ahead ? GeoJSONReader(input: input, initialBufferSize: 4096, lookaheadAfterBytes: 0, minimumBytes: 64)
            : GeoJSONReader(input: input, initialBufferSize: 4096)
        if !ahead { reader.parsesPositionsAhead = false }
        var features: [Feature] = []
        var warnings: [Diagnostic] = []
        do {
            while let feature = try reader.next() {
                features.append(feature)
                warnings += reader.takeWarnings()
            }
        } catch {
            return (features, warnings + reader.takeWarnings(), error as? Diagnostic, reader.positionsTakenAhead)
        }
        return (features, warnings + reader.takeWarnings(), nil, reader.positionsTakenAhead)
    }

    /// A long ring of varied numbers and spacing: 2-D and 3-D positions, exponents, long
    /// mantissas, integers, negative zero, newlines and tabs between tokens.
    private func ring(_ count: Int, seed: Int) -> String {
        var positions: [String] = []
        for index in 0..<count {
            // Decimal text built from integers: -179.9 … 179.9 and -84.9 … 84.9.
            let a = (index * 7919 + seed) % 3599 - 1799, b = (index * 104_729 + seed) % 1699 - 849
            let longitude = "\(a < 0 ? "-" : "")\(abs(a) / 10).\(abs(a) % 10)"
            let latitude = "\(b < 0 ? "-" : "")\(abs(b) / 10).\(abs(b) % 10)"
            switch index % 7 {
            case 0: positions.append("[\(longitude), \(latitude)]")
            case 1: positions.append("[ \(longitude),\n\t\(latitude) , 12.5 ]")
            case 2: positions.append("[\(longitude)00000000000001234,\(latitude)1234567890123456789]")
            case 3: positions.append("[\(a / 10),\(b / 10)]")
            case 4: positions.append("[\(longitude)e0,\r\n\(latitude)E-0]")
            case 5: positions.append("[-0.0,\(latitude),1,2]")  // four numbers: the scanner's own
            default: positions.append("[\(longitude),\(latitude)]")
            }
        }
        positions.append(positions[0])
        return "[" + positions.joined(separator: ",\n ") + "]"
    }

    private func collection(_ geometries: [String]) -> String {
        let features = geometries.enumerated().map { index, geometry in
            "{\"type\":\"Feature\",\"properties\":{\"n\":\(index),\"s\":\"[1,2] in a string\"},\"geometry\":\(geometry)}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
    }

    func testFeaturesAndWarningsAreTheSameWithTheHelper() throws {
        let text = collection([
            "{\"type\":\"Polygon\",\"coordinates\":[\(ring(3000, seed: 1)),\(ring(40, seed: 2))]}",
            "{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}",
            "{\"type\":\"MultiPolygon\",\"coordinates\":[[\(ring(2000, seed: 3))],[\(ring(1500, seed: 4))]]}",
            "{\"type\":\"MultiLineString\",\"coordinates\":[\(ring(2500, seed: 5)),[[0,0]]]}",
        ])
        let alone = read(text, ahead: false), ahead = read(text, ahead: true)
        XCTAssertNil(alone.error)
        XCTAssertNil(ahead.error)
        XCTAssertEqual(alone.features.count, 4)
        XCTAssertEqual(ahead.features, alone.features)
        XCTAssertEqual(ahead.warnings, alone.warnings)
        XCTAssertFalse(alone.warnings.isEmpty, "the four-number positions and the one-point line warn")
        XCTAssertEqual(alone.takenAhead, 0)
        XCTAssertGreaterThan(ahead.takenAhead, 1_000, "many positions came from the helper")
    }

    func testAnErrorInsideTheLookaheadKeepsItsPlace() throws {
        for bad in ["[1.5,x]", "[1.5]", "[1.5,,2]", "[1.5 2.5]", "[1.5,2.5,]", "[1e999,2]", "[[1,2]]", "[01,2]"] {
            var text = ring(3000, seed: 9)
            let range = text.range(of: "],", options: .backwards, range: text.index(text.endIndex, offsetBy: -3000)..<text.endIndex)!
            text.replaceSubrange(range, with: "]," + bad + ",")
            let document = collection(["{\"type\":\"LineString\",\"coordinates\":\(text)}"])
            let alone = read(document, ahead: false), ahead = read(document, ahead: true)
            XCTAssertNotNil(alone.error, bad)
            XCTAssertEqual(ahead.error, alone.error, bad)
            XCTAssertEqual(ahead.error?.location, alone.error?.location, bad)
            XCTAssertEqual(ahead.features, alone.features, bad)
            XCTAssertGreaterThan(ahead.takenAhead, 0, bad)
        }
    }

    func testAReaderOfOneCoreOrAPartReadsAlone() {
        var reader = GeoJSONReader(continuing: ByteInput(string: "{}"))
        XCTAssertFalse(reader.parsesPositionsAhead)
        reader.parsesPositionsAhead = true
        XCTAssertTrue(reader.parsesPositionsAhead)
        XCTAssertEqual(GeoJSONReader(input: ByteInput(string: "{}")).parsesPositionsAhead, PositionLookahead.isUseful)
    }
}
