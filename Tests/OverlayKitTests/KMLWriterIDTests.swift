import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Issue 25 item 3: every KML written passes the OGC schema — the writer's made-up ids
/// (`s1`, `m1`, `p1`) avoid every feature id, and a repeated feature id is not written twice.
final class KMLWriterIDTests: XCTestCase {
    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func testMadeUpIDsAvoidFeatureIDsAndRepeatedIDsAreWrittenOnce() throws {
        let point = Shape.annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2)))
        let red = Style(strokeColor: RGBAColor(red: 255, green: 0, blue: 0))
        let features = [
            Feature(id: .string("s1"), properties: ["n": .integer(1)], shape: point, style: red, highlightStyle: Style(strokeWidth: 3)),
            Feature(id: .string("p1"), properties: ["n": .integer(2)], shape: point, style: red),
            Feature(id: .string("m1"), properties: ["t": .string("x")], shape: point),
            Feature(id: .string("s_1"), properties: [:], shape: point),
            Feature(id: .string("p1"), properties: ["n": .integer(3)], shape: point),
            Feature(id: .string("p1"), properties: ["n": .integer(4)], shape: point),
        ]
        let output = ByteOutput()
        var writer = try KMLWriter(output: output)
        for feature in features { try writer.write(feature) }
        try writer.finish()
        let kml = String(decoding: output.bytes, as: UTF8.self)
        XCTAssertEqual(writer.takeWarnings().map(\.code.rawValue), ["kml.duplicate-id"], "reported once")
        XCTAssertTrue(kml.contains(#"<Style id="s__1">"#) && kml.contains(#"<StyleMap id="m_1">"#) && kml.contains(#"<Schema name="properties1" id="p_1">"#), kml)
        XCTAssertTrue(kml.contains(##"<styleUrl>#m_1</styleUrl>"##) && kml.contains(##"schemaUrl="#p_1""##), kml)
        XCTAssertEqual(kml.components(separatedBy: #"id="p1""#).count - 1, 1, kml)
        XCTAssertFalse(kml.utf8.contains { $0 >= 1 && $0 <= 3 }, "no placeholder byte left")
        // Every id comes back as it was, properties and styles too.
        let back = try KMLWriterTests.readBack(kml)
        XCTAssertEqual(back.map(\.id), features.map(\.id))
        XCTAssertEqual(back.map(\.properties), features.map(\.properties))
        XCTAssertEqual(back.map(\.style), features.map(\.style))
        let folder = try Self.temporaryFolder("kml-ids")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ids.kml")
        try Data(kml.utf8).write(to: file)
        let schema = try KMLSchemaCheck()
        XCTAssertEqual(try schema.failures([file]), [])
    }

    func testWithoutCollisionsTheIDsStayShort() throws {
        let feature = Feature(id: .string("a"), properties: ["n": .integer(1)],
                              shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))),
                              style: Style(strokeWidth: 2))
        let kml = try KMLWriterTests.write([feature])
        XCTAssertTrue(kml.contains(#"<Style id="s1">"#) && kml.contains(##"<styleUrl>#s1</styleUrl>"##) && kml.contains(##"schemaUrl="#p1""##), kml)
    }

    /// Every KML, KMZ and GeoJSON file of the corpus that reads, written as KML, passes the OGC schema.
    func testEveryCorpusFileWrittenAsKMLPassesTheOGCSchema() throws {
        let corpus = try KMLTestSupport.corpus(".")
        let schema = try KMLSchemaCheck()
        let folder = try Self.temporaryFolder("kml-corpus-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        var written: [URL] = []
        var names: [String: String] = [:]
        for sub in ["kml-samples", "togeojson", "real", "geojsonhint", "geojson-vt", "geojson-schema-fixtures"] {
            let root = corpus.appendingPathComponent(sub)
            guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let relative as String in enumerator {
                let lower = relative.lowercased()
                guard [".kml", ".kmz", ".geojson", ".json"].contains(where: { lower.hasSuffix($0) }) else { continue }
                let path = root.appendingPathComponent(relative).path
                guard let document = try? FeatureIO.readAll(path: path), !document.features.isEmpty else { continue }
                let bytes = try FeatureIO.encode(document.features, as: .kml, context: document.context)
                let file = folder.appendingPathComponent("\(written.count).kml")
                try Data(bytes).write(to: file)
                names[file.path] = "\(sub)/\(relative)"
                written.append(file)
            }
        }
        XCTAssertGreaterThan(written.count, 150)
        print("KML written from \(written.count) corpus files")
        let failures = try schema.failures(written)
        XCTAssertEqual(failures.map { line in names.reduce(line) { $0.replacingOccurrences(of: $1.key, with: $1.value) } }, [])
    }
}
