import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Issue 25 item 1: no property name twice in one object, whatever the input — the KML
/// reader's rule (KML's own elements keep the name, ExtendedData values take `name_2`, …),
/// `validate` saying the same, and every writer renaming rather than writing a name twice.
final class PropertyNameTests: XCTestCase {
    static let collidingKML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
        <Document>
        <Schema id="s"><SimpleField name="network" type="int"/></Schema>
        <Placemark id="a">
          <name>A</name>
          <visibility>1</visibility>
          <ExtendedData>
            <Data name="network"><value>UNI</value></Data>
            <Data name="network"><value>ABC</value></Data>
            <Data name="name"><value>other</value></Data>
            <Data><value>x</value></Data>
            <Data><value>y</value></Data>
            <Data name="visibility"><value>v</value></Data>
            <Data name="extrude"><value>e</value></Data>
            <SchemaData schemaUrl="#s"><SimpleData name="network">7</SimpleData></SchemaData>
          </ExtendedData>
          <Point><extrude>1</extrude><coordinates>1,2</coordinates></Point>
        </Placemark>
        <Placemark id="b"><name>B</name><ExtendedData><Data name="network"><value>N</value></Data></ExtendedData></Placemark>
        <Placemark id="c"><ExtendedData><Data name="name"><value>n</value></Data></ExtendedData><name>C</name></Placemark>
        </Document>
        </kml>
        """

    func testKMLCollisionsAreRenamedByOneRuleAndWarnedOncePerFile() throws {
        let (features, warnings) = try KMLTestSupport.read(Self.collidingKML)
        XCTAssertEqual(features.count, 3)
        XCTAssertEqual(features[0].properties, JSONObject([
            .init(key: "name", value: .string("A")), .init(key: "visibility", value: .bool(true)),
            .init(key: "network", value: .string("UNI")), .init(key: "network_2", value: .string("ABC")),
            .init(key: "name_2", value: .string("other")), .init(key: "unnamed", value: .string("x")),
            .init(key: "unnamed_2", value: .string("y")), .init(key: "visibility_2", value: .string("v")),
            // The geometry's extrude comes after ExtendedData: the Data moves aside, the element keeps the name.
            .init(key: "extrude_2", value: .string("e")), .init(key: "network_3", value: .integer(7)),
            .init(key: "extrude", value: .bool(true)),
        ]))
        XCTAssertEqual(features[1].properties, ["name": .string("B"), "network": .string("N")], "no collision, no rename")
        // Order of elements does not change who keeps the name.
        XCTAssertEqual(features[2].properties, ["name_2": .string("n"), "name": .string("C")])
        let collisions = warnings.filter { $0.code.rawValue == "kml.duplicate-property" }
        XCTAssertEqual(collisions.count, 1, "\(warnings)")
        let message = try XCTUnwrap(collisions.first?.message)
        for part in ["'network' (1 feature)", "'name' (2 features)", "'visibility' (1 feature)", "'extrude' (1 feature)",
                     "2 Data/SimpleData without a name read as 'unnamed'"] {
            XCTAssertTrue(message.contains(part), message)
        }
        XCTAssertEqual(collisions.first?.location?.line, 5)
        for feature in features { XCTAssertFalse(feature.properties?.hasDuplicateKeys ?? false) }
    }

    func testNoWarningWithoutCollisions() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>n</name>
            <ExtendedData><Data name="a"><value>1</value></Data><Data name="b"><value>2</value></Data></ExtendedData></Placemark></Document></kml>
            """
        let (_, warnings) = try KMLTestSupport.read(kml)
        XCTAssertFalse(warnings.contains { $0.code.rawValue == "kml.duplicate-property" }, "\(warnings)")
    }

    func testLateSchemaTypesTheRenamedValue() throws {
        // The Schema comes after its placemark: the value is typed when the placemark is released,
        // under the name it was renamed to.
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><ExtendedData><Data name="n"><value>text</value></Data>
            <SchemaData schemaUrl="#late"><SimpleData name="n">42</SimpleData></SchemaData></ExtendedData></Placemark>
            <Schema id="late"><SimpleField name="n" type="int"/></Schema>
            </Document></kml>
            """
        let (features, _) = try KMLTestSupport.read(kml)
        XCTAssertEqual(features.first?.properties, ["n": .string("text"), "n_2": .integer(42)])
    }

    func testValidateReportsTheSameCollisionsAsTheReader() throws {
        let (_, warnings) = try KMLTestSupport.read(Self.collidingKML)
        let read = try XCTUnwrap(warnings.first { $0.code.rawValue == "kml.duplicate-property" })
        let result = Validator.validate(ByteInput(string: Self.collidingKML, name: "test.kml"))
        let found = result.findings.filter { $0.code.rawValue == "kml.duplicate-property" }
        XCTAssertEqual(found.count, 1, "\(result.findings)")
        XCTAssertEqual(found.first?.message, read.message)
        XCTAssertEqual(found.first?.severity, .warning)
        XCTAssertEqual(found.first?.location?.line, 5)
    }

    /// Hostile input repeats a name many times: every value is kept under its own name (the
    /// builder keeps names in sets and a next suffix per name, so this stays linear).
    func testManyRepeatsOfOneNameKeepEveryValue() throws {
        let count = 20_000
        var kml = #"<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>"#
            + #"<Schema id="s"><gx:SimpleArrayField name="t" type="int"/></Schema><Placemark><ExtendedData>"#
        for index in 0..<count { kml += #"<Data name="a"><value>\#(index)</value></Data>"# }
        kml += ##"<SchemaData schemaUrl="#s">"##
        for _ in 0..<count { kml += #"<gx:SimpleArrayData name="t"><gx:value>1</gx:value></gx:SimpleArrayData>"# }
        kml += #"</SchemaData></ExtendedData></Placemark></Document></kml>"#
        let (features, _) = try KMLTestSupport.read(kml)
        let properties = try XCTUnwrap(features.first?.properties)
        XCTAssertEqual(properties.count, count + 1)
        XCTAssertEqual(properties["a_\(count)"], .string("\(count - 1)"))
        XCTAssertEqual(properties["coordinateProperties"]?.objectValue?.count, count)
        XCTAssertFalse(properties.hasDuplicateKeys)
        var object = JSONObject((0..<count).map { .init(key: "k", value: .integer(Int64($0))) })
        XCTAssertEqual(object.renameDuplicateKeys().last?.renamed, "k_\(count)")
    }

    func testRenameRuleSkipsNamesTakenLaterInTheObject() {
        var object = JSONObject([.init(key: "a", value: .integer(1)), .init(key: "a", value: .integer(2)),
                                 .init(key: "a_2", value: .integer(3)), .init(key: "a", value: .integer(4))])
        let renames = object.renameDuplicateKeys()
        XCTAssertEqual(object.keys, ["a", "a_3", "a_2", "a_4"])
        XCTAssertEqual(renames.map(\.renamed), ["a_3", "a_4"])
        XCTAssertTrue((["type": .null] as JSONObject).hasDuplicateKeys(besides: ["type"]))
        XCTAssertFalse((["a": .null, "b": .null] as JSONObject).hasDuplicateKeys)
        var large = JSONObject((0..<40).map { .init(key: "k\($0 % 20)", value: .integer(Int64($0))) })
        large.renameDuplicateKeys()
        XCTAssertFalse(large.hasDuplicateKeys)
        XCTAssertEqual(large.count, 40)
    }

    /// A library caller's properties, or a foreign member named like a member the writer emits:
    /// renamed with a warning, never written twice.
    func testGeoJSONWriterNeverWritesANameTwice() throws {
        var feature = Feature(id: .string("f"), properties: JSONObject([.init(key: "k", value: .integer(1)), .init(key: "k", value: .integer(2))]),
                              shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))))
        feature.foreignMembers = ["type": .string("mine"), "geometry": .null, "nested": .object(JSONObject([.init(key: "x", value: .null), .init(key: "x", value: .bool(true))]))]
        let output = ByteOutput()
        var writer = GeoJSONWriter(output: output, sequence: true)
        try writer.write(feature)
        try writer.finish()
        let text = String(decoding: output.bytes, as: UTF8.self)
        XCTAssertEqual(text, #"{"type":"Feature","id":"f","properties":{"k":1,"k_2":2},"geometry":{"type":"Point","coordinates":[2,1]},"type_2":"mine","geometry_2":null,"nested":{"x":null,"x_2":true}}"# + "\n")
        let warnings = writer.takeWarnings()
        XCTAssertEqual(warnings.map(\.code.rawValue), Array(repeating: "output.duplicate-name-renamed", count: 4), "\(warnings)")
        // Read back with no duplicate-member warning.
        XCTAssertEqual(try readGeoJSON(text).warnings.map(\.code.rawValue), [])
    }

    func testKMLWriterNeverWritesADataNameTwice() throws {
        let feature = Feature(id: .integer(5), properties: JSONObject([
            .init(key: "k", value: .integer(1)), .init(key: "k", value: .string("two")),
            .init(key: KMLConventions.featureIDKey, value: .string("mine")),
        ]), shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))))
        let output = ByteOutput()
        var writer = try KMLWriter(output: output)
        try writer.write(feature)
        try writer.finish()
        let kml = String(decoding: output.bytes, as: UTF8.self)
        XCTAssertEqual(writer.takeWarnings().map(\.code.rawValue), ["output.duplicate-name-renamed", "output.duplicate-name-renamed"])
        XCTAssertEqual(kml.components(separatedBy: "name=\"k\"").count - 1, 2, "one SimpleField and one SimpleData: \(kml)")
        let back = try XCTUnwrap(KMLWriterTests.readBack(kml).first)
        XCTAssertEqual(back.id, .integer(5))
        XCTAssertEqual(back.properties, ["k": .integer(1), "k_2": .string("two"), "overlaykit:id_2": .string("mine")])
    }

    func testVectorTilesNameEachKeyOncePerFeature() throws {
        let ring = [Coordinate(latitude: 10, longitude: 10), Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: 20, longitude: 20),
                    Coordinate(latitude: 20, longitude: 10), Coordinate(latitude: 10, longitude: 10)]
        let feature = Feature(id: .integer(1), properties: JSONObject([.init(key: "k", value: .integer(1)), .init(key: "k", value: .integer(2))]),
                              shape: .polygon(Polygon(coordinates: ring)))
        // The on-demand index encodes properties per tile; the pyramid through the shared table.
        let index = try TileIndex(features: [feature], options: TileOptions())
        let tile = try XCTUnwrap(index.tile(z: 0, x: 0, y: 0))
        var encoded = [MVTEncoder(layerName: "l").encode(tile).0]
        var options = TileOptions()
        options.maxZoom = 0
        let source = try TileSource(features: [feature], options: options)
        let lock = NSLock()
        nonisolated(unsafe) var fromPyramid: [[UInt8]] = []
        _ = try TilePyramid.build(source, minZoom: 0, parallelism: 1) { tile in
            XCTAssertNotNil(tile.propertyTable)
            let bytes = MVTEncoder(layerName: "l").encode(tile).0
            lock.lock()
            fromPyramid.append(bytes)
            lock.unlock()
            return bytes.count
        }
        encoded += fromPyramid
        XCTAssertEqual(encoded.count, 2)
        for bytes in encoded {
            let layer = try XCTUnwrap(MVTDecoder().decode(bytes).first)
            let properties = layer.properties(of: try XCTUnwrap(layer.features.first))
            XCTAssertEqual(properties.map(\.key), ["k", "k_2"])
        }
    }
}
