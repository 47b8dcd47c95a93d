import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// The reader capabilities the filter relies on: source bytes of each feature, skipping
/// geometry, skipping values with syntax checks, resuming after a bad feature.
final class FilterReaderTests: XCTestCase {
    private func makeReader(_ text: String, bytes: Bool = false, skipGeometry: Bool = false, resumable: Bool = false) -> GeoJSONReader {
        var reader = GeoJSONReader(input: ByteInput(string: text, name: "t.geojson"))
        reader.keepsFeatureBytes = bytes
        reader.skipsGeometry = skipGeometry
        reader.resumable = resumable
        return reader
    }

    /// Reads on, skipping bad features; returns the ids read and the error codes met.
    private func readAll(_ reader: inout GeoJSONReader) throws -> (ids: [String], errors: [String]) {
        var ids: [String] = [], errors: [String] = []
        while true {
            do {
                guard let feature = try reader.next() else { break }
                ids.append(feature.id?.description ?? "-")
            } catch let diagnostic as Diagnostic {
                errors.append(diagnostic.code.rawValue)
                try reader.resumeAfterError()
            }
        }
        return (ids, errors)
    }

    func testFeatureBytesAreTheSourceTextOfEachFeature() throws {
        let first = "{\"type\":\"Feature\",\"id\":1,\"properties\":{\"a\":\"x\\\"y\"},\n  \"geometry\":{\"type\":\"Point\",\"coordinates\":[1.00000000001,2]}}"
        let second = "{ \"type\" : \"Feature\", \"properties\":null,\"geometry\":null }"
        let collection = "{\"type\":\"FeatureCollection\",\"features\":[\n\(first) ,\n \(second)\n]}"
        for text in [collection, "\u{1E}\(first)\n\u{1E}\(second)\n", "\(first)\n\(second)"] {
            var reader = makeReader(text, bytes: true)
            var copies: [String] = []
            while try reader.next() != nil {
                copies.append(reader.withLastFeatureBytes { String(decoding: $0, as: UTF8.self) } ?? "none")
            }
            XCTAssertEqual(copies, [first, second], text)
        }
        // A bare geometry is not a Feature: no bytes to copy.
        var bare = makeReader("{\"type\":\"Point\",\"coordinates\":[1,2]}", bytes: true)
        XCTAssertNotNil(try bare.next())
        XCTAssertNil(bare.withLastFeatureBytes { $0.count })
    }

    func testFeatureBytesSurviveWindowRefills() throws {
        // Features far larger than the scanner's initial 1 MiB window.
        let coordinates = (0..<90_000).map { "[\($0 % 360 - 180).123456,\($0 % 170 - 85).654321]" }.joined(separator: ",")
        let feature = "{\"type\":\"Feature\",\"properties\":{\"n\":1},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(coordinates)]}}"
        var reader = makeReader("\(feature)\n\(feature)\n", bytes: true)
        var count = 0
        while try reader.next() != nil {
            XCTAssertEqual(reader.withLastFeatureBytes { Array($0) }, Array(feature.utf8))
            count += 1
        }
        XCTAssertEqual(count, 2)
    }

    func testSkippingGeometryKeepsPropertiesAndStillChecksSyntax() throws {
        let good = "{\"type\":\"Feature\",\"properties\":{\"k\":1},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]],\"x\":{\"s\":\"\\u00e9\\n\"}}}"
        var reader = makeReader(good, skipGeometry: true)
        let feature = try XCTUnwrap(try reader.next())
        XCTAssertNil(feature.shape)
        XCTAssertEqual(feature.properties, ["k": .integer(1)])
        XCTAssertTrue(reader.takeWarnings().isEmpty)

        // Checked but not built: the same errors as a full read, found at the same place.
        let coordinates = [
            "[[[0,0],[1,0],[1,1],[0,0]]", "[[[0,0],[1,0],[1,1],[0,0]],]", "[[[0,0],[1],[1,1],[0,0]]]",
            "[[[0,0],[1,0],[1,1],[0,0]],[]]", "[[[0,0],[01,0],[1,1],[0,0]]]", "[[[0,0],[1.,0],[1,1],[0,0]]]",
            "[[[0,0],[1,0],[1,1],[0,\"0\"]]]", "[[0,0],[1,0],[1,1],[0,0]]", "[[[[0,0]]]]", "[[[0,0],[1,0,2,3],[1,1],[0,0]]]",
            "[[[0,0],[[1,0]],[1,1],[0,0]]]", "[[[0,0],[1,0],[1,1],[0,0]]] ,\"type\":\"Polygonn\"", "[[[0,0]1]]", "[[[-,0]]]",
            "[[[0,0],[1,0],[1,1],[0,0]]]", "[[[0,0],[1,0],[1,1]]]", "[[[0,0],[1,0],[0,0]]]", "[[]]", "[]",
            "[[[0,0],[1,0],[1,1],[0.0,0]]]", "[[[0,0],[1e400,0],[1,1],[0,0]]]", "[[[0,0],[1E2,0],[1,1],[0,0]]]",
        ]
        for value in coordinates {
            let text = "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(value)}}\n"
            func outcome(_ skip: Bool) -> String {
                var reader = makeReader(text, skipGeometry: skip)
                do {
                    let feature = try reader.next()
                    let warnings = reader.takeWarnings().map(\.code.rawValue)
                    return "ok \(feature?.shape == nil) \(warnings)"
                } catch let diagnostic as Diagnostic {
                    return "\(diagnostic.code.rawValue) \(diagnostic.location?.line ?? 0):\(diagnostic.location?.column ?? 0) \(diagnostic.location?.jsonPointer ?? "")"
                } catch {
                    return "\(error)"
                }
            }
            let full = outcome(false), skimmed = outcome(true)
            XCTAssertEqual(skimmed.hasPrefix("ok"), full.hasPrefix("ok"), value)
            if full.hasPrefix("ok") && full.contains("geojson.ring") {
                // Repaired (ShapeRepair): read in full in both modes, with the same warnings.
                XCTAssertEqual(full, skimmed, value)
            } else if full.hasPrefix("ok") {
                XCTAssertEqual(full.replacingOccurrences(of: "ok false", with: "ok true"), skimmed, value)
            } else {
                XCTAssertEqual(full, skimmed, value)
            }
        }
    }

    func testSkipValueAcrossTinyWindows() throws {
        let text = "{\"a\":[1,-2.5e+3,{\"b\":[true,false,null]},\"x\\\\\\\"y\",[],{}],\"c\":\"é\"} tail"
        for capacity in [1, 2, 3, 7] {
            let scanner = JSONScanner(input: ByteInput(string: text), initialCapacity: capacity)
            try scanner.skipValue()
            XCTAssertEqual(try scanner.peekSignificant(), UInt8(ascii: "t"), "capacity \(capacity)")
        }
        let invalidUTF8 = JSONScanner(input: ByteInput(bytes: [0x22, 0xC3, 0x28, 0x22]))
        XCTAssertThrowsError(try invalidUTF8.skipValue()) { XCTAssertEqual(($0 as? Diagnostic)?.code.rawValue, "json.invalid-utf8") }
        for (text, code) in [("[1,2,]", "json.syntax"), ("{\"a\" 1}", "json.syntax"), ("[tru]", "json.syntax"),
                             ("\"a\\q\"", "json.invalid-escape"), ("\"\u{1}\"", "json.control-character"),
                             ("[01]", "json.invalid-number"), ("[1.e5]", "json.invalid-number"), ("[1", "json.unexpected-end")] {
            XCTAssertThrowsError(try JSONScanner(input: ByteInput(string: text)).skipValue(), text) { error in
                XCTAssertEqual((error as? Diagnostic)?.code.rawValue, code, "\(text): \(error)")
            }
        }
        let deep = JSONScanner(input: ByteInput(string: String(repeating: "[", count: 600)))
        XCTAssertThrowsError(try deep.skipValue()) { XCTAssertEqual(($0 as? Diagnostic)?.code.rawValue, "json.too-deep") }
    }

    private func feature(_ id: Int, _ geometry: String = "{\"type\":\"Point\",\"coordinates\":[1,2]}") -> String {
        "{\"type\":\"Feature\",\"id\":\(id),\"properties\":{},\"geometry\":\(geometry)}"
    }

    func testResumingLineDelimitedRecords() throws {
        let lines = [
            feature(1),
            feature(2, "{\"type\":\"Pointy\",\"coordinates\":[1,2]}"),      // well-formed, wrong type
            "{\"type\":\"Feature\",\"id\":3,\"properties\":{\"a\":1}",        // cut short: the error shows on the next line
            feature(4),
            "not json at all",
            feature(6, "{\"type\":\"Point\",\"coordinates\":[1]}"),
            feature(7),
        ]
        var reader = makeReader(lines.joined(separator: "\n") + "\n", resumable: true)
        let result = try readAll(&reader)
        XCTAssertEqual(result.ids, ["1", "4", "7"])
        XCTAssertEqual(result.errors, ["geojson.unknown-type", "json.syntax", "json.syntax", "geojson.position-too-short"])
    }

    func testResumingRecordSeparatedRecords() throws {
        // RFC 8142: a record may span lines; resynchronize at the next RS.
        let text = "\u{1E}\(feature(1))\n\u{1E}{\"type\":\"Feature\",\n\"properties\":{\"a\":[1,\n}\n\u{1E}\(feature(3))\n"
        var reader = makeReader(text, resumable: true)
        let result = try readAll(&reader)
        XCTAssertEqual(result.ids, ["1", "3"])
        XCTAssertEqual(result.errors.count, 1)
    }

    func testResumingInsideAFeatureCollection() throws {
        let collection = "{\"type\":\"FeatureCollection\",\"features\":[\n\(feature(1)),\n\(feature(2, "{\"type\":\"Point\",\"coordinates\":[[1,2]]}")),\n42,\n\(feature(4))\n],\"name\":\"n\"}"
        var reader = makeReader(collection, resumable: true)
        let result = try readAll(&reader)
        XCTAssertEqual(result.ids, ["1", "4"])
        XCTAssertEqual(result.errors, ["geojson.coordinates-depth", "geojson.feature-not-object"])
        XCTAssertEqual(reader.collectionMembers["name"], .string("n"))
    }

    func testASyntaxErrorInsideAFeatureCollectionCannotBeSkipped() throws {
        let collection = "{\"type\":\"FeatureCollection\",\"features\":[\n\(feature(1)),\n{\"type\":\"Feature\",\"properties\":{\"a\":}},\n\(feature(3))\n]}"
        var reader = makeReader(collection, resumable: true)
        XCTAssertNotNil(try reader.next())
        XCTAssertThrowsError(try reader.next())
        XCTAssertThrowsError(try reader.resumeAfterError()) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code.rawValue, "geojson.cannot-resume")
            XCTAssertEqual(diagnostic?.location?.line, 3)
        }
    }
}
