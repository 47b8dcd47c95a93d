@testable import OverlayKit
import OverlayModel
import XCTest

/// SimpleData of a known Schema read as bytes (`KMLSchemaFieldCache`, `readText(into:)`):
/// the same properties and warnings as the String path, whatever the order of the values.
final class KMLSimpleDataBytesTests: XCTestCase {
    /// The value and warnings the String path gives for `text` under a field of `type`.
    private func stringPathValue(_ text: String, type: String, displayName: String? = nil) throws -> (JSONValue, [String]) {
        let input = ByteInput(string: "<kml/>")
        let core = try KMLParserCore(xml: XMLStreamReader(input: input), input: input)
        let value = core.typedValue(text, field: (type, displayName), key: "v", line: 1)
        return (value, core.takeWarnings().map(\.message))
    }

    func testValuesEqualTheStringPathForEveryType() throws {
        let texts = ["5", "-12", "+7", " 8 ", "007", "3.5", ".25", "5.", "1e3", "3000000000", "-3000000000", "12345678901.5",
                     "9007199254740993", "nan", "", " ", "abc", "1,5", "\u{00A0}4", "4\u{00A0}", "true", "0", "FALSE", "\t1\n",
                     "{\"a\":[1,2]}", "[1, 2]", "émile", "2147483648", "99999999999999999999"]
        let types: [(String, String?)] = [("int", nil), ("uint", nil), ("short", nil), ("ushort", nil), ("float", nil), ("double", nil),
                                          ("bool", nil), ("string", nil), ("string", KMLConventions.jsonFieldDisplayName), ("date", nil)]
        var fields = ""
        for (index, type) in types.enumerated() {
            fields += "<SimpleField name=\"f\(index)\" type=\"\(type.0)\">"
                + (type.1.map { "<displayName>\($0)</displayName>" } ?? "") + "</SimpleField>\n"
        }
        // One placemark per text, each value on its own line (warnings name the line).
        var placemarks = ""
        for text in texts {
            placemarks += "<Placemark><ExtendedData><SchemaData schemaUrl=\"#S\">\n"
            for index in types.indices {
                placemarks += "<SimpleData name=\"f\(index)\">\(XMLStreamReader.escaped(text, attribute: false))</SimpleData>\n"
            }
            placemarks += "</SchemaData></ExtendedData></Placemark>\n"
        }
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("<Schema id=\"S\">\(fields)</Schema>\n" + placemarks))
        XCTAssertEqual(features.count, texts.count)
        var expectedWarnings: [String] = []
        for (row, text) in texts.enumerated() {
            for (index, type) in types.enumerated() {
                let (value, messages) = try stringPathValue(text, type: type.0, displayName: type.1)
                XCTAssertEqual(features[row].properties?["f\(index)"], value, "'\(text)' as \(type.0)")
                expectedWarnings += messages.map { $0.replacingOccurrences(of: "SimpleData v ", with: "SimpleData f\(index) ") }
            }
        }
        XCTAssertEqual(warnings.filter { $0.code == .kmlInvalidValue }.map(\.message), expectedWarnings)
        XCTAssertFalse(expectedWarnings.isEmpty)
    }

    func testValuesInAnyOrderMissingRepeatedAndEscapedNames() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Schema id="S"><SimpleField name="a" type="int"/><SimpleField name="b" type="double"/><SimpleField name="c&amp;d" type="int"/></Schema>
            <Placemark><name>first</name><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="a">1</SimpleData><SimpleData name="b">2.5</SimpleData>
            <SimpleData name="c&amp;d">3</SimpleData></SchemaData></ExtendedData></Placemark>
            <Placemark><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="b">4.5</SimpleData><SimpleData name="a">5</SimpleData>
            <SimpleData name="z">6</SimpleData><SimpleData name="a">7</SimpleData><SimpleData>8</SimpleData>
            <SimpleData name="c&amp;d">9</SimpleData></SchemaData></ExtendedData></Placemark>
            <Placemark><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="name">x</SimpleData><SimpleData name="a">10</SimpleData>
            <SimpleData name="b">11</SimpleData></SchemaData></ExtendedData><name>third</name></Placemark>
            """))
        XCTAssertEqual(features.count, 3)
        XCTAssertEqual(features[0].properties, ["name": .string("first"), "a": .integer(1), "b": .number(2.5), "c&d": .integer(3)])
        // Out of the first placemark's order, a name with no field (text), a name twice
        // (the second one suffixed), a value without a name.
        XCTAssertEqual(features[1].properties, ["b": .number(4.5), "a": .integer(5), "z": .string("6"), "a_2": .integer(7),
                                                "unnamed": .string("8"), "c&d": .integer(9)])
        // A field named like KML's own element: the element keeps the name.
        XCTAssertEqual(features[2].properties, ["name_2": .string("x"), "a": .integer(10), "b": .number(11), "name": .string("third")])
        XCTAssertEqual(warnings.map(\.code), [.kmlDuplicateProperty])
    }

    func testSchemaDefinedAfterItsValuesThenBefore() throws {
        // The first SchemaData comes before its Schema (typed when the feature is released),
        // the second after: both typed, and the order learned under no Schema is not reused.
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="a">1</SimpleData><SimpleData name="b">x</SimpleData></SchemaData></ExtendedData></Placemark>
            <Schema id="S"><SimpleField name="a" type="int"/><SimpleField name="b" type="string"/></Schema>
            <Placemark><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="a">2</SimpleData><SimpleData name="b">y</SimpleData></SchemaData></ExtendedData></Placemark>
            <Schema id="T"><SimpleField name="a" type="string"/><SimpleField name="b" type="int"/></Schema>
            <Placemark><ExtendedData><SchemaData schemaUrl="#T"><SimpleData name="a">3</SimpleData><SimpleData name="b">4</SimpleData></SchemaData>
            <SchemaData schemaUrl="#S"><SimpleData name="a">5</SimpleData></SchemaData></ExtendedData></Placemark>
            """))
        XCTAssertEqual(features.map(\.properties), [["a": .integer(1), "b": .string("x")], ["a": .integer(2), "b": .string("y")],
                                                    ["a": .string("3"), "b": .integer(4), "a_2": .integer(5)]])
        XCTAssertEqual(warnings.map(\.code), [.kmlDuplicateProperty])
    }

    func testReadTextIntoBytesEqualsReadText() throws {
        // Text, CDATA (with CR LF and lone CR), whitespace between them, nested elements,
        // comments, empty elements: each element read both ways by two readers in step.
        let kml = "<r><v>plain</v><v/><v></v><v> \n <![CDATA[a\r\nb\rc]]>\n </v><v>x<![CDATA[y]]>z</v>"
            + "<v> <![CDATA[ ]]> </v><v>\u{00A0}<![CDATA[q]]></v><v>p<i>inner</i>q<!-- c --> r</v>"
            + "<v><![CDATA[one]]><![CDATA[two]]></v><v>&#38;&lt;é</v><v>\r\nline\r\n</v></r>"
        let strings = try XMLStreamReader(input: ByteInput(string: kml))
        let bytes = try XMLStreamReader(input: ByteInput(string: kml))
        var compared = 0
        var buffer: [UInt8] = [0x2A]
        while try strings.read() {
            XCTAssertTrue(try bytes.read())
            guard strings.kind == .element, strings.localName == "v" else { continue }
            let text = try strings.readText()
            buffer.removeSubrange(1...)
            try bytes.readText(into: &buffer)
            XCTAssertEqual(String(decoding: buffer.dropFirst(), as: UTF8.self), text, "element \(compared)")
            XCTAssertEqual(buffer.first, 0x2A)
            XCTAssertEqual(bytes.kind, strings.kind)
            XCTAssertEqual(bytes.depth, strings.depth)
            compared += 1
        }
        XCTAssertEqual(compared, 11)
    }

    func testNamesMarkedByFieldIDCollideLikeHashedNames() throws {
        // SchemaData values take their names by field id (`appendSchemaValue`): a Data of the
        // same name later, a field set after them, a second Schema's field of the same name,
        // a suffixed name that is itself a field, and more than 8 earlier names (the compared
        // list full) each collide as when every name was hashed.
        let nine = (1...9).map { "<Data name=\"d\($0)\"><value>\($0)</value></Data>" }.joined()
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Schema id="S"><SimpleField name="a" type="int"/><SimpleField name="a_2" type="int"/><SimpleField name="address" type="string"/>
            <SimpleField name="b" type="int"/><SimpleField name="d9" type="int"/></Schema>
            <Schema id="T"><SimpleField name="b" type="int"/></Schema>
            <Placemark><name>n</name><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="a">1</SimpleData><SimpleData name="a_2">2</SimpleData>
            <SimpleData name="address">x</SimpleData><SimpleData name="b">3</SimpleData></SchemaData>
            <SchemaData schemaUrl="#T"><SimpleData name="b">4</SimpleData></SchemaData>
            <Data name="a"><value>y</value></Data></ExtendedData><address>street</address></Placemark>
            <Placemark><ExtendedData>\(nine)<SchemaData schemaUrl="#S"><SimpleData name="d9">10</SimpleData><SimpleData name="a">11</SimpleData>
            </SchemaData></ExtendedData></Placemark>
            <Placemark><ExtendedData><SchemaData schemaUrl="#S"><SimpleData name="a">12</SimpleData><SimpleData name="a">13</SimpleData>
            <SimpleData name="a_2">14</SimpleData></SchemaData></ExtendedData></Placemark>
            """))
        XCTAssertEqual(features.count, 3)
        XCTAssertEqual(features[0].properties, ["name": .string("n"), "a": .integer(1), "a_2": .integer(2), "address_2": .string("x"),
                                                "b": .integer(3), "b_2": .integer(4), "a_3": .string("y"), "address": .string("street")])
        var second: JSONObject = [:]
        for index in 1...9 { second.append("d\(index)", .string("\(index)")) }
        second.append("d9_2", .integer(10))
        second.append("a", .integer(11))
        XCTAssertEqual(features[1].properties, second)
        // The second `a` takes `a_2`, so the field `a_2` that follows takes `a_2_2`.
        XCTAssertEqual(features[2].properties, ["a": .integer(12), "a_2": .integer(13), "a_2_2": .integer(14)])
        XCTAssertEqual(warnings.map(\.code), [.kmlDuplicateProperty])
        XCTAssertEqual(warnings.first?.message.hasPrefix("property names used twice in one feature: 'b' (1 feature), 'a' (2 features), "
                                                         + "'address' (1 feature), 'd9' (1 feature), 'a_2' (1 feature)"), true,
                       warnings.first?.message ?? "")
    }

    func testTextLongerThanTheFirstBufferAfterQueuedText() throws {
        // The SAX text buffer starts at 64 KB and grows while a chunk's events are queued; a
        // run kept across chunks moves to its start.
        let long = String(repeating: "0123456789", count: 30_000)
        let kml = "<r>" + String(repeating: "<v a=\"attr\">short</v>", count: 5_000) + "<v a=\"x\">" + long + "</v><v a=\"end\">z</v></r>"
        let reader = try XMLStreamReader(input: ByteInput(string: kml))
        var texts: [String] = []
        var attributes: [String] = []
        while try reader.read() {
            guard reader.kind == .element, reader.localName == "v" else { continue }
            attributes.append(reader.attribute("a") ?? "-")
            texts.append(try reader.readText())
        }
        XCTAssertEqual(texts.count, 5_002)
        XCTAssertEqual(texts[5_000], long)
        XCTAssertEqual(Set(texts[..<5_000]), ["short"])
        XCTAssertEqual(texts.last, "z")
        XCTAssertEqual(attributes.suffix(2), ["x", "end"])
    }
}
