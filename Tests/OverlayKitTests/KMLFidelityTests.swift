import Foundation
@testable import OverlayKit
import OverlayModel
import TestSupport
import XCTest

/// Issue 12's fidelity bullets: what KML → GeoJSON → KML keeps, each on a small document.
final class KMLFidelityTests: XCTestCase {
    static func readKML(_ kml: String) throws -> (features: [Feature], warnings: [Diagnostic]) {
        var reader = try KMLReader(input: ByteInput(string: kml, name: "test.kml"))
        var features: [Feature] = []
        while let feature = try reader.next() { features.append(feature) }
        return (features, reader.takeWarnings())
    }

    static let foldersKML = """
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
        <Folder><name>Top</name>
          <Placemark><name>a</name><Point><coordinates>1,2</coordinates></Point></Placemark>
          <Folder><name>Sub</name>
            <Placemark><name>b</name><Point><coordinates>3,4</coordinates></Point></Placemark>
          </Folder>
          <Placemark><name>c</name><Point><coordinates>5,6</coordinates></Point></Placemark>
        </Folder>
        <Placemark><name>d</name><Point><coordinates>7,8</coordinates></Point></Placemark>
        </Document></kml>
        """

    func testFoldersSurviveKMLToGeoJSONToKML() throws {
        let read = try Self.readKML(Self.foldersKML).features
        XCTAssertEqual(read.map(\.folderPath), [["Top"], ["Top", "Sub"], ["Top"], []])
        let geojson = try writeGeoJSON(read)
        XCTAssertTrue(geojson.contains(#""folders":["Top","Sub"]"#), geojson)
        XCTAssertFalse(geojson.contains(#""properties":{"name":"d"},"geometry":{"type":"Point","coordinates":[7,8]},"folders""#))
        for sequence in [false, true] {
            let back = try readGeoJSON(try writeGeoJSON(read, sequence: sequence)).features
            XCTAssertEqual(back.map(\.folderPath), read.map(\.folderPath))
            XCTAssertTrue(back.allSatisfy { $0.foreignMembers.isEmpty })
        }
        let kml = try KMLWriterTests.write(try readGeoJSON(geojson).features)
        let folders = kml.components(separatedBy: "<Folder>").count - 1
        XCTAssertEqual(folders, 2, kml)  // Top and Sub: "c" goes back into the open Top
        XCTAssertEqual(try KMLWriterTests.readBack(kml).map(\.folderPath), read.map(\.folderPath))
    }

    func testFoldersMemberThatIsNotAnArrayOfStringsStaysAForeignMember() throws {
        let text = #"{"type":"Feature","properties":null,"geometry":null,"folders":[1,"a"]}"#
        let feature = try XCTUnwrap(readGeoJSON(text).features.first)
        XCTAssertEqual(feature.folderPath, [])
        XCTAssertEqual(feature.foreignMembers["folders"], .array([.integer(1), .string("a")]))
    }

    func testShortLinesAndEmptyPartsNeverGiveInvalidGeoJSON() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <Placemark><name>line</name><LineString><coordinates>1,2</coordinates></LineString></Placemark>
            <Placemark><name>track</name><gx:Track><when>2020-01-01T00:00:00Z</when><gx:coord>3 4 0</gx:coord></gx:Track></Placemark>
            <Placemark><name>multitrack</name><gx:MultiTrack><gx:Track><gx:coord>1 1 0</gx:coord></gx:Track>
              <gx:Track><gx:coord>1 1 0</gx:coord><gx:coord>2 2 0</gx:coord></gx:Track></gx:MultiTrack></Placemark>
            <Placemark><name>ring</name><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1</coordinates></LinearRing></outerBoundaryIs>
              <innerBoundaryIs><LinearRing><coordinates>0,0 1,1</coordinates></LinearRing></innerBoundaryIs></Polygon></Placemark>
            <Placemark><name>empty</name><MultiGeometry></MultiGeometry></Placemark>
            </Document></kml>
            """
        let (features, warnings) = try Self.readKML(kml)
        let geojson = try writeGeoJSON(features)
        XCTAssertTrue(geojson.contains(#""geometry":{"type":"Point","coordinates":[1,2]}"#), geojson)
        XCTAssertTrue(geojson.contains(#""geometry":{"type":"Point","coordinates":[3,4,0]}"#), geojson)
        XCTAssertTrue(geojson.contains(#""geometry":{"type":"LineString","coordinates":[[1,1,0],[2,2,0]]}"#), geojson)
        XCTAssertEqual(features.filter { $0.shape == nil }.count, 1)  // only the empty MultiGeometry
        // Our own validator accepts what was written.
        let result = Validator.validate(ByteInput(string: geojson, name: "out.geojson"), format: .geojson)
        XCTAssertEqual(result.findings.filter { $0.severity == .error }.map(\.message), [], geojson)
        let short = warnings.filter { $0.code.rawValue == "kml.short-line" }
        XCTAssertEqual(short.map { $0.location?.line }, [2, 3, 4], "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.code.rawValue == "kml.short-ring" && $0.location?.line == 7 }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.code.rawValue == "kml.empty-geometry" && $0.location?.line == 8 }, "\(warnings)")
    }

    func testByteOrderMarkIsSkippedWithANoteByReaderAndValidator() throws {
        let bom = "\u{FEFF}"
        for (format, text) in [(FileFormat.geojson, bom + #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":1},"geometry":null}]}"#),
                               (.geojsonseq, bom + "{\"type\":\"Feature\",\"properties\":{\"a\":1},\"geometry\":null}\n{\"type\":\"Feature\",\"properties\":null,\"geometry\":null}\n")] {
            for bufferSize in [2, 1 << 16] {
                let (features, warnings) = try readGeoJSON(text, bufferSize: bufferSize)
                XCTAssertEqual(features.first?.properties, ["a": .integer(1)])
                XCTAssertEqual(warnings.map(\.code.rawValue), ["geojson.byte-order-mark"])
                XCTAssertEqual(warnings.first?.severity, .note)
            }
            let result = Validator.validate(ByteInput(string: text, name: "bom"), format: format)
            XCTAssertEqual(result.findings.map(\.code.rawValue), ["geojson.byte-order-mark"], "\(result.findings)")
        }
        // A BOM anywhere else is still an error.
        XCTAssertNotNil(geoJSONError(" " + bom + "{}"))
    }

    func testSchemaDefinedAfterItsPlacemarksTypesTheirValues() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>a</name><ExtendedData><SchemaData schemaUrl="#s"><SimpleData name="n">42</SimpleData>
              <SimpleData name="ok">1</SimpleData><SimpleData name="x">2.5</SimpleData></SchemaData></ExtendedData>
              <Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark><name>b</name><Point><coordinates>1,2</coordinates></Point></Placemark>
            <Schema name="s" id="s"><SimpleField name="n" type="int"/><SimpleField name="ok" type="bool"/><SimpleField name="x" type="double"/></Schema>
            <Placemark><name>c</name><ExtendedData><SchemaData schemaUrl="#never"><SimpleData name="n">7</SimpleData></SchemaData></ExtendedData></Placemark>
            </Document></kml>
            """
        let (features, warnings) = try Self.readKML(kml)
        XCTAssertEqual(features.map { $0.properties?["name"] }, [.string("a"), .string("b"), .string("c")])  // order kept
        XCTAssertEqual(features[0].properties?["n"], .integer(42))
        XCTAssertEqual(features[0].properties?["ok"], .bool(true))
        XCTAssertEqual(features[0].properties?["x"], .number(2.5))
        XCTAssertEqual(features[2].properties?["n"], .string("7"))
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.missing-schema"], "\(warnings)")
        XCTAssertEqual(warnings.first?.location?.line, 7)
    }

    func testDescriptionMarkupIsKeptAndCDATALineEndsNormalized() throws {
        let kml = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
            + "<Placemark><name>a</name><description>Some<br/>HTML &amp; <a href=\"http://x/?a=1&amp;b=2\">link</a></description></Placemark>\n"
            + "<Placemark><name>b</name><description><![CDATA[line1\r\nline2\rline3]]></description></Placemark>\n"
            + "<Placemark><name>c</name><description>plain &lt;b&gt; text</description></Placemark>\n"
            + "</Document></kml>"
        let read = try Self.readKML(kml).features
        let markup = #"Some<br/>HTML &amp; <a href="http://x/?a=1&amp;b=2">link</a>"#
        XCTAssertEqual(read.map { $0.properties?["description"] },
                       [.string(markup), .string("line1\nline2\nline3"), .string("plain <b> text")])
        // KML → GeoJSON → KML → model: the same strings.
        let geojson = try writeGeoJSON(read)
        let back = try KMLWriterTests.readBack(try KMLWriterTests.write(try readGeoJSON(geojson).features))
        XCTAssertEqual(back.map { $0.properties?["description"] }, read.map { $0.properties?["description"] })
    }

    func testScreenOverlayHasNoGeometryAndRegionsAreReported() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <ScreenOverlay><name>logo</name><Icon><href>logo.png</href></Icon>
              <Region><LatLonAltBox><north>10</north><south>0</south><east>20</east><west>5</west><altitudeMode>clampToGround</altitudeMode></LatLonAltBox></Region></ScreenOverlay>
            <Placemark><name>p</name><Region><LatLonAltBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonAltBox></Region>
              <Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark><name>q</name><Region><LatLonAltBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonAltBox></Region></Placemark>
            <NetworkLink><name>n</name><Region><LatLonAltBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonAltBox></Region>
              <Link><href>x.kml</href></Link></NetworkLink>
            </Document></kml>
            """
        let (features, warnings) = try Self.readKML(kml)
        XCTAssertNil(features[0].shape)
        XCTAssertEqual(features[0].properties?["icon"], .string("logo.png"))
        XCTAssertEqual(features[0].properties?["region"], .array([5, 0, 20, 10].map { .number($0) }))
        XCTAssertNil(features[0].foreignMembers["bbox"])
        if case .polygon? = features[3].shape {} else { XCTFail("a NetworkLink's Region places it") }
        // The Placemark's Region: reported once, at its first occurrence; altitudeMode is no number.
        let regions = warnings.filter { $0.message.contains("<Region>") }
        XCTAssertEqual(regions.map { $0.location?.line }, [4], "\(warnings)")
        XCTAssertFalse(warnings.contains { $0.message.contains("altitudeMode") }, "\(warnings)")
    }

    func testUndeclaredPrefixAndRootsWithoutKMLAreRead() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>t</name>
            <gx:Track><gx:coord>1 2 0</gx:coord><gx:coord>3 4 0</gx:coord></gx:Track></Placemark>
            </Document></kml>
            """
        let (features, warnings) = try Self.readKML(kml)
        guard case .polyline(let line)? = features.first?.shape else { return XCTFail("\(features)") }
        XCTAssertEqual(line.pointCount, 2)
        let prefix = warnings.filter { $0.code.rawValue == "kml.undeclared-prefix" }
        XCTAssertEqual(prefix.map { $0.location?.line }, [3, 3], "\(warnings)")  // once per element name
        XCTAssertTrue(prefix[0].message.contains("gx"), prefix[0].message)
        for root in ["<Placemark><name>p</name><Point><coordinates>1,2</coordinates></Point></Placemark>",
                     "<Document><Placemark><name>p</name><Point><coordinates>1,2</coordinates></Point></Placemark></Document>",
                     "<Folder><name>F</name><Placemark><name>p</name><Point><coordinates>1,2</coordinates></Point></Placemark></Folder>"] {
            let read = try Self.readKML(root).features
            XCTAssertEqual(read.map { $0.properties?["name"] }, [.string("p")], root)
            if case .annotation? = read.first?.shape {} else { XCTFail(root) }
        }
    }

    func testSimpleFieldTypeIsTheNarrowestHoldingTheValueAndGDALReadsItExactly() throws {
        let feature = Feature(properties: ["small": .integer(5), "mid": .integer(3_000_000_000), "big": .integer(1_234_567_890_123),
                                           "huge": .integer(9_007_199_254_740_993), "neg": .integer(-5)],
                              shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 2, longitude: 1))))
        let kml = try KMLWriterTests.write([feature])
        for field in [#"type="int" name="small""#, #"type="uint" name="mid""#, #"type="double" name="big""#,
                      #"type="string" name="huge"><displayName>json</displayName>"#, #"type="int" name="neg""#] {
            XCTAssertTrue(kml.contains(field), "\(field) in \(kml)")
        }
        let back = try XCTUnwrap(KMLWriterTests.readBack(kml).first?.properties)
        XCTAssertEqual(back["big"], .integer(1_234_567_890_123))
        XCTAssertEqual(back["huge"], .integer(9_007_199_254_740_993))
        XCTAssertEqual(back["mid"], .integer(3_000_000_000))
        let ogrinfo = try Prerequisite.executable("ogrinfo", install: "Debian: gdal-bin")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kml-fidelity-\(getpid()).kml")
        try Data(kml.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let (status, output) = try KMLTestSupport.run(ogrinfo, ["-al", "-q", path.path])
        XCTAssertEqual(status, 0, output)
        for line in ["small (Integer) = 5", "mid (Integer64) = 3000000000", "big (Real) = 1234567890123",
                     "huge (String) = 9007199254740993", "neg (Integer) = -5"] {
            XCTAssertTrue(output.contains(line), "\(line) in \(output)")
        }
    }

    func testKMLToGeoJSONToKMLKeepsFoldersTypesMarkupAndStyles() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Style id="red"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle></Style>
            <Schema name="t" id="t"><SimpleField name="n" type="int"/><SimpleField name="big" type="double"/>
              <SimpleField name="ok" type="bool"/><SimpleField name="label" type="string"/></Schema>
            <Folder><name>Trips</name><Folder><name>2024</name>
              <Placemark><name>road</name><description>Some<br/>HTML</description><styleUrl>#red</styleUrl>
                <ExtendedData><SchemaData schemaUrl="#t"><SimpleData name="n">7</SimpleData><SimpleData name="big">1234567890123</SimpleData>
                <SimpleData name="ok">true</SimpleData><SimpleData name="label">x</SimpleData></SchemaData></ExtendedData>
                <LineString><coordinates>1,2 3,4</coordinates></LineString></Placemark>
            </Folder></Folder>
            <Placemark><name>top</name><Point><coordinates>5,6</coordinates></Point></Placemark>
            </Document></kml>
            """
        let first = try Self.readKML(kml).features
        let geojson = try writeGeoJSON(first)
        let second = try KMLWriterTests.readBack(try KMLWriterTests.write(try readGeoJSON(geojson).features))
        XCTAssertEqual(second.map(\.folderPath), [["Trips", "2024"], []])
        XCTAssertEqual(second.map(\.folderPath), first.map(\.folderPath))
        let road = try XCTUnwrap(second.first)
        XCTAssertEqual(road.properties?["description"], .string("Some<br/>HTML"))
        XCTAssertEqual(road.properties?["n"], .integer(7))
        XCTAssertEqual(road.properties?["big"], .integer(1_234_567_890_123))
        XCTAssertEqual(road.properties?["ok"], .bool(true))
        XCTAssertEqual(road.properties?["label"], .string("x"))
        XCTAssertEqual(road.style?.strokeColor, RGBAColor(red: 255, green: 0, blue: 0))
        XCTAssertEqual(road.style?.strokeWidth, 3)
        XCTAssertEqual(road.style, first[0].style)
        XCTAssertEqual(second.map(\.shape), first.map(\.shape))
    }

    /// Every element of the KML 2.2 schema, placed in a Placemark with some content, is kept
    /// (the feature read differs from one without it) or reported by name.
    func testEveryKML22ElementInAPlacemarkIsKeptOrReported() throws {
        let xsd = try TestPaths.corpusFolder("schemas/kml22-offline/ogckml22.xsd")
        let schema = try String(contentsOf: xsd, encoding: .utf8)
        var names: [String] = []
        for line in schema.split(separator: "\n") where line.contains("<element name=\"") && !line.contains("abstract=\"true\"") {
            guard let start = line.range(of: "<element name=\"")?.upperBound, let end = line[start...].firstIndex(of: "\"") else { continue }
            names.append(String(line[start..<end]))
        }
        XCTAssertGreaterThan(names.count, 100)
        func read(_ child: String) throws -> (Feature?, [Diagnostic]) {
            let kml = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document><Placemark><name>p</name>\(child)"
                + "<Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>"
            let (features, warnings) = try Self.readKML(kml)
            return (features.first, warnings)
        }
        let baseline = try read("").0
        var silent: [String] = []
        for name in names where !["kml", "Document", "Folder", "Placemark", "Point", "coordinates"].contains(name) {
            let (feature, warnings) = try read("<\(name)><value>1</value><href>1</href><north>1</north>1</\(name)>")
            let kept = feature?.properties != baseline?.properties || feature?.shape != baseline?.shape
                || feature?.style != baseline?.style || feature?.id != baseline?.id
            // A Style is kept (inline style); what it holds that is not a style part is reported.
            let reported = warnings.contains { $0.message.contains(name) || (name == "Style" && $0.message.contains("in a style")) }
            if !kept && !reported { silent.append(name) }
        }
        XCTAssertEqual(silent, [], "elements neither kept nor reported")
    }
}
