import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Helpers shared by the KML test files.
enum KMLTestSupport {
    /// The package root (this file is Tests/OverlayKitTests/KMLReaderTests.swift).
    static let packageRoot = TestPaths.packageRoot

    /// A folder of ../shared/corpus; skips the test when the corpus is absent.
    static func corpus(_ relative: String) throws -> URL { try TestPaths.corpusFolder(relative) }

    /// One JSON value read with the project's scanner (keeps integers and booleans apart).
    static func json(_ input: ByteInput) throws -> JSONValue {
        try JSONScanner(input: input).readValue()
    }

    /// Every feature and warning of a KML string.
    static func read(_ kml: String, name: String = "test.kml") throws -> ([Feature], [Diagnostic]) {
        var reader = try KMLReader(input: ByteInput(string: kml, name: name))
        var features: [Feature] = []
        var warnings: [Diagnostic] = []
        while let feature = try reader.next() {
            features.append(feature)
            warnings += reader.takeWarnings()
        }
        warnings += reader.takeWarnings()
        return (features, warnings)
    }

    /// The path of a program on PATH, if installed.
    static func executable(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a program; returns its exit status and combined output.
    static func run(_ path: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func document(_ body: String, namespace: String = "http://www.opengis.net/kml/2.2") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"\(namespace)\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n<Document>\n\(body)\n</Document>\n</kml>\n"
    }
}

final class KMLReaderTests: XCTestCase {
    func testPointBecomesAnnotationWithNameDescriptionAndID() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark id="p1"><name>Gate</name><description><![CDATA[<b>open</b> daily]]></description>
            <visibility>0</visibility><Point><coordinates>-122.5,37.25,12</coordinates></Point></Placemark>
            """))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(features.count, 1)
        let feature = features[0]
        XCTAssertEqual(feature.id, .string("p1"))
        XCTAssertEqual(feature.properties?["name"], .string("Gate"))
        XCTAssertEqual(feature.properties?["description"], .string("<b>open</b> daily"))
        XCTAssertEqual(feature.properties?["visibility"], .bool(false))
        guard case .annotation(let annotation)? = feature.shape else { return XCTFail("not an annotation: \(String(describing: feature.shape))") }
        XCTAssertEqual(annotation.coordinate, Coordinate(latitude: 37.25, longitude: -122.5, altitude: 12))
        XCTAssertEqual(annotation.title, "Gate")
        XCTAssertEqual(annotation.subtitle, "<b>open</b> daily")
        XCTAssertEqual(feature.location?.line, 4)
        XCTAssertEqual(feature.location?.column, 1)
        XCTAssertEqual(feature.location?.kmlPath, "/kml/Document[1]/Placemark[1]")
    }

    func testPolygonWithHolesAndGeometryFields() throws {
        let (features, _) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><Polygon><extrude>1</extrude><altitudeMode>relativeToGround</altitudeMode>
            <outerBoundaryIs><LinearRing><coordinates>0,0 10,0 10,10 0,10 0,0</coordinates></LinearRing></outerBoundaryIs>
            <innerBoundaryIs><LinearRing><coordinates>1,1 2,1 2,2 1,1</coordinates></LinearRing></innerBoundaryIs>
            <innerBoundaryIs><LinearRing><coordinates>5,5 6,5 6,6 5,5</coordinates></LinearRing></innerBoundaryIs>
            </Polygon></Placemark>
            """))
        guard case .polygon(let polygon)? = features.first?.shape else { return XCTFail() }
        XCTAssertEqual(polygon.pointCount, 5)
        XCTAssertEqual(polygon.interiorPolygons.count, 2)
        XCTAssertEqual(polygon.interiorPolygons[1].coordinates.first, Coordinate(latitude: 5, longitude: 5))
        XCTAssertEqual(features[0].properties?["extrude"], .bool(true))
        XCTAssertEqual(features[0].properties?["altitudeMode"], .string("relativeToGround"))
    }

    func testMultiGeometryOfOneKindAndMixed() throws {
        let (features, _) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><MultiGeometry><LineString><coordinates>0,0 1,1</coordinates></LineString>
              <MultiGeometry><LineString><coordinates>2,2 3,3</coordinates></LineString></MultiGeometry></MultiGeometry></Placemark>
            <Placemark><MultiGeometry><Point><coordinates>0,0</coordinates></Point><Point><coordinates>1,1</coordinates></Point></MultiGeometry></Placemark>
            <Placemark><MultiGeometry><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>
              <Point><coordinates>5,5</coordinates></Point></MultiGeometry></Placemark>
            """))
        guard case .multiPolyline(let lines)? = features[0].shape else { return XCTFail("\(String(describing: features[0].shape))") }
        XCTAssertEqual(lines.polylines.count, 2)
        guard case .collection(let points)? = features[1].shape else { return XCTFail() }
        XCTAssertEqual(points.origin, .multiPoint)
        XCTAssertEqual(points.members.count, 2)
        guard case .collection(let mixed)? = features[2].shape else { return XCTFail() }
        XCTAssertEqual(mixed.origin, .geometryCollection)
        XCTAssertEqual(mixed.members.map(\.kind), [.polygon, .annotation])
    }

    func testTrackKeepsTimesPerVertex() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><gx:Track><when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when>
            <gx:coord>-122.2 37.3 156</gx:coord><gx:coord>-122.1 37.4 152</gx:coord></gx:Track></Placemark>
            <Placemark><gx:MultiTrack><gx:Track><when>A</when><gx:coord>1 2</gx:coord></gx:Track>
            <gx:Track><when>B</when><when>C</when><gx:coord>3 4</gx:coord><gx:coord>5 6</gx:coord></gx:Track></gx:MultiTrack></Placemark>
            """))
        // A one-position track is no line (RFC 7946 §3.1.4): dropped with a warning (issue 12).
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.short-line"])
        guard case .polyline(let line)? = features[0].shape else { return XCTFail() }
        XCTAssertEqual(line.coordinates, [Coordinate(latitude: 37.3, longitude: -122.2, altitude: 156),
                                          Coordinate(latitude: 37.4, longitude: -122.1, altitude: 152)])
        XCTAssertEqual(features[0].properties?["coordinateProperties"],
                       .object(["times": .array([.string("2010-05-28T02:02:09Z"), .string("2010-05-28T02:02:35Z")])]))
        guard case .polyline(let kept)? = features[1].shape else { return XCTFail() }
        XCTAssertEqual(kept.pointCount, 2)
        XCTAssertEqual(features[1].properties?["coordinateProperties"],
                       .object(["times": .array([.string("B"), .string("C")])]))
    }

    func testExtendedDataTypedBySchema() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Schema name="trail" id="T"><SimpleField name="n" type="int"/><SimpleField name="len" type="double"/>
            <SimpleField name="ok" type="bool"/><SimpleField name="off" type="bool"/><SimpleField name="u" type="ushort"/>
            <SimpleField name="s" type="string"/><SimpleField name="f" type="float"/></Schema>
            <Placemark><ExtendedData><Data name="plain"><displayName>Plain</displayName><value>7</value></Data>
            <SchemaData schemaUrl="#T"><SimpleData name="n">+42</SimpleData><SimpleData name="len">3.5</SimpleData>
            <SimpleData name="ok">1</SimpleData><SimpleData name="off">false</SimpleData><SimpleData name="u">0</SimpleData>
            <SimpleData name="s">007</SimpleData><SimpleData name="f">.25</SimpleData></SchemaData></ExtendedData></Placemark>
            <Placemark><ExtendedData><SchemaData schemaUrl="#T"><SimpleData name="n">many</SimpleData></SchemaData></ExtendedData></Placemark>
            """))
        let properties = try XCTUnwrap(features[0].properties)
        XCTAssertEqual(properties["plain"], .string("7"))
        XCTAssertEqual(properties["n"], .integer(42))
        XCTAssertEqual(properties["len"], .number(3.5))
        XCTAssertEqual(properties["ok"], .bool(true))
        XCTAssertEqual(properties["off"], .bool(false))
        XCTAssertEqual(properties["u"], .integer(0))
        XCTAssertEqual(properties["s"], .string("007"))
        XCTAssertEqual(properties["f"], .number(0.25))
        XCTAssertEqual(features[1].properties?["n"], .string("many"))
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.invalid-value"])
        XCTAssertEqual(warnings.first?.location?.line, 11)
    }

    func testTimeStampTimeSpanAndFolderPath() throws {
        let (features, _) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Folder><name>Outer</name><Folder><name>Inner</name>
            <Placemark><TimeStamp><when>2020-01-02</when></TimeStamp></Placemark></Folder>
            <Placemark><TimeSpan><begin>2020</begin><end>2021</end></TimeSpan></Placemark></Folder>
            <Placemark/>
            """))
        XCTAssertEqual(features.map(\.folderPath), [["Outer", "Inner"], ["Outer"], []])
        XCTAssertEqual(features[0].properties?["timestamp"], .string("2020-01-02"))
        XCTAssertEqual(features[1].properties?["timespan"], .object(["begin": .string("2020"), "end": .string("2021")]))
        XCTAssertNil(features[2].shape)
    }

    func testSharedStyleStyleMapInlineOverrideAndForwardReference() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Style id="red"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle>
              <PolyStyle><color>7f00ff00</color><fill>0</fill><outline>1</outline></PolyStyle></Style>
            <Style id="hot"><IconStyle><color>ffffffff</color><scale>1.5</scale><heading>90</heading>
              <Icon><href>http://x/i.png</href></Icon><hotSpot x="32" y="1" xunits="pixels" yunits="pixels"/></IconStyle>
              <LabelStyle><color>ff00ffff</color><scale>0.8</scale></LabelStyle></Style>
            <StyleMap id="map"><Pair><key>normal</key><styleUrl>#red</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#hot</styleUrl></Pair></StyleMap>
            <Placemark><styleUrl>#red</styleUrl><Style><LineStyle><width>9</width></LineStyle></Style></Placemark>
            <Placemark><styleUrl>#map</styleUrl></Placemark>
            <Placemark><styleUrl>#later</styleUrl></Placemark>
            <Placemark><name>after</name></Placemark>
            <Style id="later"><LineStyle><color>ff00ff00</color></LineStyle></Style>
            <Placemark><styleUrl>#nowhere</styleUrl></Placemark>
            <Placemark><styleUrl>other.kml#x</styleUrl></Placemark>
            """))
        XCTAssertEqual(features.count, 6)
        let first = try XCTUnwrap(features[0].style)
        XCTAssertEqual(first.strokeColor, RGBAColor(red: 255, green: 0, blue: 0))
        XCTAssertEqual(first.strokeWidth, 9, "inline width overrides the shared one")
        XCTAssertEqual(first.fillColor, RGBAColor(red: 0, green: 255, blue: 0, alpha: 0x7f))
        XCTAssertEqual(first.fill, false)
        XCTAssertEqual(first.outline, true)
        XCTAssertEqual(features[1].style?.strokeWidth, 3)
        let highlight = try XCTUnwrap(features[1].highlightStyle)
        XCTAssertEqual(highlight.icon, IconStyle(href: "http://x/i.png", scale: 1.5, heading: 90,
                                                 hotSpot: .init(x: 32, y: 1, xUnits: "pixels", yUnits: "pixels"),
                                                 color: RGBAColor(red: 255, green: 255, blue: 255)))
        XCTAssertEqual(highlight.label, LabelStyle(color: RGBAColor(red: 255, green: 255, blue: 0), scale: 0.8))
        XCTAssertEqual(features[2].style?.strokeColor, RGBAColor(red: 0, green: 255, blue: 0), "forward reference resolved")
        XCTAssertEqual(features[3].properties?["name"], .string("after"), "order kept while a feature waits")
        XCTAssertNil(features[4].style)
        XCTAssertEqual(warnings.map(\.code.rawValue).sorted(), ["kml.external-style", "kml.missing-style"])
        XCTAssertEqual(warnings.first { $0.code.rawValue == "kml.missing-style" }?.location?.line, 15)
    }

    func testMalformedTupleIsSkippedWithLineAndColumnAndDoesNotShift() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><LineString><coordinates>1,2 3,x 5,6
               +7,.5   8 , 9,10 11</coordinates></LineString></Placemark>
            """))
        guard case .polyline(let line)? = features.first?.shape else { return XCTFail() }
        XCTAssertEqual(line.coordinates, [Coordinate(latitude: 2, longitude: 1), Coordinate(latitude: 6, longitude: 5),
                                          Coordinate(latitude: 0.5, longitude: 7), Coordinate(latitude: 9, longitude: 8, altitude: 10)])
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertEqual(warnings[0].code.rawValue, "kml.bad-coordinate")
        XCTAssertEqual(warnings[0].location?.line, 4)
        XCTAssertEqual(warnings[0].location?.column, 41)
        XCTAssertEqual(warnings[1].location?.line, 5)
        XCTAssertEqual(warnings[1].location?.column, 21)
    }

    /// Issue 25 item 4: a LineString whose tuples are joined by commas only stays a line.
    func testTuplesJoinedByCommasOnlyReadAsALineWithALocatedWarning() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><LineString>
                <coordinates>-55.8,-60.7,0,-55.0,-60.7,0,-55.0,-61.0,0</coordinates></LineString></Placemark>
            """))
        guard case .polyline(let line)? = features.first?.shape else { return XCTFail("\(String(describing: features.first?.shape))") }
        XCTAssertEqual(line.coordinates, [Coordinate(latitude: -60.7, longitude: -55.8, altitude: 0),
                                          Coordinate(latitude: -60.7, longitude: -55.0, altitude: 0),
                                          Coordinate(latitude: -61.0, longitude: -55.0, altitude: 0)])
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.joined-tuples"])
        XCTAssertEqual(warnings.first?.location?.line, 5)
        XCTAssertEqual(warnings.first?.location?.column, 18)
    }

    func testNamespaces() throws {
        for namespace in ["http://www.opengis.net/kml/2.2", "http://earth.google.com/kml/2.0", "http://earth.google.com/kml/2.1",
                          "http://earth.google.com/kml/2.2"] {
            let (features, _) = try KMLTestSupport.read(KMLTestSupport.document(
                "<Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>", namespace: namespace))
            XCTAssertEqual(features.first?.shape?.kind, .annotation, namespace)
        }
        let (features, _) = try KMLTestSupport.read("<kml><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></kml>")
        XCTAssertEqual(features.first?.shape?.kind, .annotation)
    }

    func testGroundOverlayNetworkLinkAndUnknownElementsWarn() throws {
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <GroundOverlay><name>g</name><Icon><href>img.jpg</href></Icon>
              <LatLonBox><north>10</north><south>0</south><east>20</east><west>0</west><rotation>90</rotation></LatLonBox></GroundOverlay>
            <NetworkLink><Link><href>http://example.invalid/a.kml</href></Link></NetworkLink>
            <Placemark><Frobnicate/></Placemark>
            """))
        XCTAssertEqual(features.count, 3)
        XCTAssertEqual(features[0].properties?["icon"], .string("img.jpg"))
        XCTAssertEqual(features[0].properties?["@geometry-type"], .string("groundoverlay"))
        guard case .polygon(let polygon)? = features[0].shape else { return XCTFail() }
        // Rotated 90° counterclockwise about (10, 5): the north-west corner (0, 10) goes to (5, -5).
        XCTAssertEqual(polygon.coordinates[0].longitude, 5, accuracy: 1e-12)
        XCTAssertEqual(polygon.coordinates[0].latitude, -5, accuracy: 1e-12)
        XCTAssertEqual(features[1].properties?["href"], .string("http://example.invalid/a.kml"))
        XCTAssertEqual(Set(warnings.map(\.code.rawValue)), ["kml.not-fetched", "kml.ignored-element"])
        XCTAssertTrue(warnings.allSatisfy { ($0.location?.line ?? 0) >= 4 })
    }

    func testCircleConventionReadsBack() throws {
        let (features, _) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><ExtendedData><Data name="overlaykit:circle-center"><value>2.5,48.5</value></Data>
            <Data name="overlaykit:circle-radius"><value>1500</value></Data><Data name="kept"><value>x</value></Data></ExtendedData>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            """))
        XCTAssertEqual(features[0].shape, .circle(Circle(center: Coordinate(latitude: 48.5, longitude: 2.5), radius: 1500)))
        XCTAssertEqual(features[0].properties, ["kept": .string("x")])
    }

    func testMalformedXMLIsAnErrorWithLine() throws {
        XCTAssertThrowsError(try KMLTestSupport.read("<kml>\n<Placemark>\n<name>x</nam>\n</Placemark></kml>")) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code.rawValue, "kml.xml-syntax")
            XCTAssertEqual(diagnostic?.location?.line, 3)
        }
        XCTAssertThrowsError(try KMLTestSupport.read("<html><body/></html>")) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "kml.not-kml")
        }
    }

    func testBillionLaughsAndExternalEntitiesAreRejected() throws {
        var entities = "<!ENTITY a0 \"lol\">"
        for level in 1...12 {
            entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE kml [\(entities)]><kml><Placemark><name>&a12;</name></Placemark></kml>"
        XCTAssertThrowsError(try KMLTestSupport.read(bomb)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "kml.xml-syntax")
            XCTAssertTrue((error as? Diagnostic)?.message.contains("billion-laughs") == true, "\(error)")
        }
        let external = "<?xml version=\"1.0\"?><!DOCTYPE kml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<kml><Placemark><name>&x;</name></Placemark></kml>"
        XCTAssertThrowsError(try KMLTestSupport.read(external)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "kml.entity-reference")
            XCTAssertEqual((error as? Diagnostic)?.location?.line, 2)
        }
    }

    func testKMZReadsDocKMLAndKeepsResources() throws {
        let directory = try KMLTestSupport.corpus("kml-samples/kml/kmz/networklink")
        var reader = try KMZ.reader(for: ByteInput(path: directory.appendingPathComponent("hier.kmz").path))
        let features = try reader.readAll()
        // The link to within.kml, the placemark it holds (issue 25 item 2), the link to outside.kml.
        XCTAssertEqual(features.count, 3)
        XCTAssertEqual(features[1].properties?["name"], .string("within.kml"))
        XCTAssertEqual(reader.resources?.names, ["within.kml"])
        XCTAssertEqual(try reader.resources?.contents(of: "within.kml").count, 70)
    }
}

/// KML warnings point at the element they are about, not at column 1 of its line
/// (issue 21 item 13: `short.kml:5:1` for a `<LineString>` at column 5).
final class KMLWarningColumnTests: XCTestCase {
    func testWarningsCarryTheElementsColumn() throws {
        let kml = """
        <?xml version="1.0"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
        <Document>
          <Placemark>
            <LineString><coordinates>1,2</coordinates></LineString>
          </Placemark>
          <Placemark><Polygon><outerBoundaryIs>  <LinearRing><coordinates>0,0 1,0 1,1 0,1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
          <Placemark><Point><coordinates></coordinates></Point></Placemark>
        </Document>
        </kml>
        """
        var reader = try KMLReader(input: ByteInput(string: kml, name: "short.kml"))
        _ = try reader.readAll()
        let warnings = reader.takeWarnings()
        let places = Dictionary(warnings.map { ($0.code.rawValue, $0.location?.description ?? "") }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(places["kml.short-line"], "short.kml:5:5", "\(warnings)")
        XCTAssertEqual(places["kml.ring-not-closed"], "short.kml:7:42", "\(warnings)")
        XCTAssertEqual(places["kml.empty-geometry"], "short.kml:8:14", "\(warnings)")
        XCTAssertEqual(KMLParserCore.elementNeedle(in: "<gx:Track> has one position"), "<gx:Track")
        XCTAssertNil(KMLParserCore.elementNeedle(in: "no element here"))
    }
}

/// `SimpleField type="xsd:int"` is int to the reader as to the validator (issue 21, OGC KML).
final class KMLSimpleFieldQNameTests: XCTestCase {
    func testPrefixedTypesAreTypedLikeBareOnes() throws {
        let kml = """
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Schema id="s"><SimpleField type="xsd:int" name="a"/><SimpleField type="xs:double" name="b"/></Schema>
        <Placemark><ExtendedData><SchemaData schemaUrl="#s"><SimpleData name="a">5</SimpleData><SimpleData name="b">2.5</SimpleData></SchemaData></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>
        """
        var reader = try KMLReader(input: ByteInput(string: kml, name: "q.kml"))
        let features = try reader.readAll()
        XCTAssertEqual(features.first?.properties?["a"], .integer(5))
        XCTAssertEqual(features.first?.properties?["b"], .number(2.5))
    }
}
