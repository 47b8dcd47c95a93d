import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

final class KMLWriterTests: XCTestCase {
    static func write(_ features: [Feature], options: WriterOptions = WriterOptions()) throws -> String {
        let output = ByteOutput()
        var writer = try KMLWriter(output: output, options: options)
        for feature in features { try writer.write(feature) }
        try writer.finish()
        return String(decoding: output.bytes, as: UTF8.self)
    }

    static func readBack(_ kml: String) throws -> [Feature] {
        var reader = try KMLReader(input: ByteInput(string: kml, name: "written.kml"))
        return try reader.readAll()
    }

    func testExactDocumentWithSharedStylesFoldersAndExtendedData() throws {
        let red = Style(strokeColor: RGBAColor(red: 255, green: 0, blue: 0), strokeWidth: 2)
        let hot = Style(icon: IconStyle(href: "a.png", scale: 1.5))
        let features = [
            Feature(id: .string("a"), properties: ["name": .string("A & B"), "n": .integer(3)],
                    shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1.5, longitude: 2.25))),
                    style: red, folderPath: ["F"]),
            Feature(properties: ["n": .integer(4)],
                    shape: .polyline(Polyline(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1, altitude: 5)])),
                    style: red, highlightStyle: hot, folderPath: ["F"]),
        ]
        let kml = try Self.write(features, options: WriterOptions(name: "Doc"))
        XCTAssertEqual(kml, """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document>
            <name>Doc</name>
            <Style id="s1"><LineStyle><color>ff0000ff</color><width>2.0</width></LineStyle></Style>
            <Style id="s2"><IconStyle><scale>1.5</scale><Icon><href>a.png</href></Icon></IconStyle></Style>
            <StyleMap id="m1"><Pair><key>normal</key><styleUrl>#s1</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#s2</styleUrl></Pair></StyleMap>
            <Schema name="properties1" id="p1"><SimpleField type="int" name="n"/></Schema>
            <Folder><name>F</name>
            <Placemark id="a"><name>A &amp; B</name><styleUrl>#s1</styleUrl><ExtendedData><SchemaData schemaUrl="#p1"><SimpleData name="n">3</SimpleData></SchemaData></ExtendedData><Point><coordinates>2.25,1.5</coordinates></Point></Placemark>
            <Placemark><styleUrl>#m1</styleUrl><ExtendedData><SchemaData schemaUrl="#p1"><SimpleData name="n">4</SimpleData></SchemaData></ExtendedData><LineString><coordinates>0,0 1,1,5</coordinates></LineString></Placemark>
            </Folder>
            </Document>
            </kml>

            """)
        XCTAssertEqual(try Self.write(features, options: WriterOptions(name: "Doc")), kml, "same features, same bytes")
    }

    func testRoundTripKeepsTypesIdsCirclesStylesAndFields() throws {
        let circle = Circle(center: Coordinate(latitude: 48.8566, longitude: 2.3522), radius: 2500)
        let style = Style(strokeColor: RGBAColor(red: 1, green: 2, blue: 3, alpha: 128), strokeWidth: 1.5,
                          fillColor: RGBAColor(red: 9, green: 8, blue: 7), fill: false, outline: true,
                          icon: IconStyle(href: "i.png", scale: 2, heading: 45, hotSpot: .init(x: 0.5, y: 0, xUnits: "fraction", yUnits: "pixels"),
                                          color: RGBAColor(red: 255, green: 255, blue: 255, alpha: 200)),
                          label: LabelStyle(color: RGBAColor(red: 0, green: 0, blue: 0), scale: 0.5))
        let properties: JSONObject = [
            "name": .string("Zone <1>"), "description": .string("line\nbreak"), "visibility": .bool(false),
            "timestamp": .string("2024-05-06T07:08:09Z"), "count": .integer(-12), "big": .integer(1 << 40), "ratio": .number(0.125),
            "flag": .bool(true), "empty": .null, "list": .array([.integer(1), .string("two")]),
            "nested": .object(["k": .number(1.5)]), "numeric text": .string("42"), "radius": .number(2500), "extrude": .bool(true),
        ]
        let original = [
            Feature(id: .integer(7), properties: properties, shape: .circle(circle), style: style, folderPath: ["Top", "Sub folder"]),
            Feature(id: .string("not an NCName"), properties: ["timespan": .object(["begin": .string("2020"), "end": .string("2021-02")])],
                    shape: .multiPolygon(MultiPolygon([
                        Polygon(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 1, longitude: 1)],
                                interiorPolygons: [Polygon(coordinates: [Coordinate(latitude: 0.2, longitude: 0.5), Coordinate(latitude: 0.3, longitude: 0.6),
                                                                         Coordinate(latitude: 0.2, longitude: 0.6), Coordinate(latitude: 0.2, longitude: 0.5)])]),
                    ]))),
            Feature(properties: nil, shape: .collection(ShapeCollection(members: [
                .annotation(PointAnnotation(coordinate: Coordinate(latitude: 5, longitude: 6))),
                .polyline(Polyline(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 2, longitude: 2)])),
            ], origin: .geometryCollection))),
        ]
        let kml = try Self.write(original)
        let read = try Self.readBack(kml)
        XCTAssertEqual(read.count, 3)
        XCTAssertEqual(read[0].id, .integer(7))
        XCTAssertEqual(read[0].shape, .circle(circle))
        XCTAssertEqual(read[0].style, style)
        XCTAssertEqual(read[0].folderPath, ["Top", "Sub folder"])
        let readProperties = try XCTUnwrap(read[0].properties)
        for member in properties {
            XCTAssertEqual(readProperties[member.key], member.value, member.key)
        }
        XCTAssertEqual(readProperties.count, properties.count, "\(readProperties.keys)")
        XCTAssertEqual(read[1].id, .string("not an NCName"))
        XCTAssertEqual(read[1].properties?["timespan"], original[1].properties?["timespan"])
        guard case .multiPolygon(let multi)? = read[1].shape else { return XCTFail("\(String(describing: read[1].shape))") }
        XCTAssertEqual(multi.polygons[0].coordinates.count, 4, "ring closed on write")
        XCTAssertEqual(multi.polygons[0].interiorPolygons.count, 1)
        guard case .collection(let collection)? = read[2].shape else { return XCTFail() }
        XCTAssertEqual(collection.members.map(\.kind), [.annotation, .polyline])
        XCTAssertNil(read[2].properties, "null properties come back null (overlaykit:properties)")
    }

    // The ring's shape and vertex rule are CirclePolygonTests' (KMLCircle uses CirclePolygon);
    // here: the written document carries it and reads back as the circle.
    func testCircleIsWrittenAsItsRingAndReadBackAsTheCircle() throws {
        let circle = Circle(center: Coordinate(latitude: 60, longitude: -179.99), radius: 2_500)
        let text = try Self.write([Feature(properties: [:], shape: .circle(circle))])
        let ring = KMLCircle.ring(circle)
        XCTAssertEqual(text.components(separatedBy: "<coordinates>").count, 2)
        let written = text.components(separatedBy: "<coordinates>")[1].components(separatedBy: "</coordinates>")[0]
        XCTAssertEqual(written.split(separator: " ").count, ring.count)
        XCTAssertEqual(try Self.readBack(text).first?.shape, .circle(circle))
    }

    func testControlCharactersAreReplacedWithAWarning() throws {
        let output = ByteOutput()
        var writer = try KMLWriter(output: output)
        try writer.write(Feature(properties: ["name": .string("bell\u{7}")], shape: nil))
        try writer.finish()
        XCTAssertTrue(String(decoding: output.bytes, as: UTF8.self).contains("<name>bell\u{FFFD}</name>"))
        XCTAssertEqual(writer.takeWarnings().map(\.code.rawValue), ["kml.not-written"])
    }

    func testOutputIsValidAgainstTheOGCSchema() throws {
        let schema = try KMLSchemaCheck()
        let features = [
            Feature(id: .string("x1"), properties: ["name": .string("n"), "description": .string("d"), "visibility": .bool(true),
                                                   "timestamp": .string("2020-01-01T00:00:00Z"), "v": .array([]), "extrude": .bool(true),
                                                   "tessellate": .bool(true), "altitudeMode": .string("absolute")],
                    shape: .polyline(Polyline(coordinates: [Coordinate(latitude: 0, longitude: 0, altitude: 1), Coordinate(latitude: 1, longitude: 1, altitude: 2)])),
                    style: Style(strokeColor: RGBAColor(red: 1, green: 2, blue: 3), strokeWidth: 2, fillColor: RGBAColor(red: 3, green: 2, blue: 1),
                                 fill: true, outline: false, icon: IconStyle(href: "h", scale: 1, heading: 3, hotSpot: .init(x: 1, y: 2), color: RGBAColor(red: 0, green: 0, blue: 0)),
                                 label: LabelStyle(color: RGBAColor(red: 5, green: 5, blue: 5), scale: 2)),
                    highlightStyle: Style(strokeWidth: 4), folderPath: ["a", "b"]),
            Feature(id: .integer(3), properties: ["timespan": .object(["begin": .string("2020")])],
                    shape: .circle(Circle(center: Coordinate(latitude: 1, longitude: 2), radius: 100))),
            Feature(shape: .collection(ShapeCollection(members: [.annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 1)))], origin: .multiPoint)),
                    folderPath: ["c"]),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kml-writer-schema-\(getpid()).kml")
        try Data(Self.write(features, options: WriterOptions(name: "schema test")).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try schema.run(file)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("validates"), output)
    }

    /// A ring whose text is many times the writer's buffer streams into the body in pieces; the
    /// document is the one a writer that keeps every byte in its buffer makes.
    func testALongRingStreamsWithTheSameDocument() throws {
        let ring = (0..<60_000).map { index in
            Coordinate(latitude: 10 * sin(Double(index) * .pi / 30_000), longitude: 10 * cos(Double(index) * .pi / 30_000), altitude: 2.5)
        }
        let feature = Feature(properties: ["name": .string("long")], shape: .polygon(Polygon(coordinates: ring + [ring[0]])))
        var documents: [[UInt8]] = []
        for spills in [true, false] {
            let output = ByteOutput()
            var writer = try KMLWriter(output: output)
            if !spills { writer.scratch.spill = nil }
            try writer.write(feature)
            try writer.finish()
            documents.append(output.bytes)
        }
        XCTAssertGreaterThan(documents[0].count, 4 * JSONBytes.spillThreshold)
        XCTAssertEqual(documents[0], documents[1])
    }
}
