@testable import OverlayKit
import OverlayModel
import Foundation
import XCTest

/// Non-conformant KML that Google Earth, libkml and GDAL read, read here too (issues 21 and 25).
final class KMLRecoveryTests: XCTestCase {
    /// Issue 25 item 5: GML's MultiPolygon, MultiLineString and MultiPoint in a Placemark.
    func testGMLMultiGeometriesAreReadAsTheMatchingMultiOverlay() throws {
        let ring = "<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>"
        let (features, warnings) = try KMLTestSupport.read(KMLTestSupport.document("""
            <Placemark><name>a</name><MultiPolygon>\(ring)\(ring)</MultiPolygon></Placemark>
            <Placemark><name>b</name><MultiLineString><LineString><coordinates>0,0 1,1</coordinates></LineString>
              <LineString><coordinates>2,2 3,3</coordinates></LineString></MultiLineString></Placemark>
            <Placemark><name>c</name><MultiPoint><Point><coordinates>5,6</coordinates></Point><Point><coordinates>7,8</coordinates></Point></MultiPoint></Placemark>
            <Placemark><name>d</name><MultiPolygon><polygonMember>\(ring)</polygonMember></MultiPolygon></Placemark>
            """))
        XCTAssertEqual(features.count, 4)
        guard case .multiPolygon(let polygons)? = features[0].shape else { return XCTFail("\(String(describing: features[0].shape))") }
        XCTAssertEqual(polygons.polygons.count, 2)
        guard case .multiPolyline(let lines)? = features[1].shape else { return XCTFail("\(String(describing: features[1].shape))") }
        XCTAssertEqual(lines.polylines.map(\.coordinates.count), [2, 2])
        guard case .collection(let points)? = features[2].shape else { return XCTFail("\(String(describing: features[2].shape))") }
        XCTAssertEqual(points.origin, .multiPoint)
        XCTAssertEqual(points.members.count, 2)
        guard case .multiPolygon(let wrapped)? = features[3].shape else { return XCTFail("\(String(describing: features[3].shape))") }
        XCTAssertEqual(wrapped.polygons.count, 1)
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.gml-geometry", "kml.gml-geometry", "kml.gml-geometry"], "\(warnings)")
        XCTAssertEqual(warnings.first?.location?.line, 4)
        XCTAssertEqual(warnings.first?.location?.column, 26)
    }
}

extension KMLRecoveryTests {
    /// Google Earth Pro 5.x: `<Schema parent="Placemark" name="S_x">` then `<S_x>` placemarks.
    static let legacySchemaKML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://earth.google.com/kml/2.1">
        <Document><name>states.kml</name>
        <Schema parent="Placemark" name="S_states_SDI">
          <SimpleField type="wstring" name="STATE_NAME"></SimpleField>
          <SimpleField type="double" name="AREA"></SimpleField>
          <SimpleField type="int" name="POP"></SimpleField>
        </Schema>
        <Folder><name>states</name>
          <S_states_SDI><name>Ohio</name><STATE_NAME>Ohio</STATE_NAME><AREA>116096.5</AREA><POP>11536504</POP>
            <Point><coordinates>-82.9,40.0</coordinates></Point></S_states_SDI>
          <S_states_SDI id="s2"><name>Utah</name><STATE_NAME>Utah</STATE_NAME><AREA>219887</AREA><POP>x</POP>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>-114,42 -111,42 -111,37 -114,37 -114,42</coordinates></LinearRing></outerBoundaryIs></Polygon>
          </S_states_SDI>
        </Folder>
        </Document></kml>
        """

    /// Issue 21 item 4: each `<S_…>` is a placemark with typed fields, and one warning says
    /// the file is pre-2.2 markup.
    func testGoogleEarth5SchemaPlacemarksAreReadWithTypedFields() throws {
        let (features, allWarnings) = try KMLTestSupport.read(Self.legacySchemaKML)
        let warnings = allWarnings.filter { $0.code.rawValue != "kml.ignored-element" || !$0.message.contains("<name> in <Document") }
        XCTAssertEqual(features.count, 2)
        XCTAssertEqual(features[0].properties, ["name": .string("Ohio"), "STATE_NAME": .string("Ohio"),
                                                "AREA": .number(116096.5), "POP": .integer(11536504)])
        XCTAssertEqual(features[0].folderPath, ["states"])
        XCTAssertEqual(features[0].shape?.kind, .annotation)
        XCTAssertEqual(features[1].id, .string("s2"))
        XCTAssertEqual(features[1].properties?["AREA"], .number(219887))
        XCTAssertEqual(features[1].properties?["POP"], .string("x"), "a bad int stays text, with a warning")
        XCTAssertEqual(features[1].shape?.kind, .polygon)
        XCTAssertEqual(features[1].location?.kmlPath, "/kml/Document[1]/Folder[1]/S_states_SDI[2]")
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.legacy-markup", "kml.invalid-value"], "\(warnings)")
        XCTAssertEqual(warnings[0].location?.line, 10)
        XCTAssertEqual(warnings[0].location?.column, 3)
    }
}

extension KMLRecoveryTests {
    /// More placemarks than the reader holds, then the Schema that types their `v`.
    static func lateSchemaKML(placemarks: Int) -> String {
        var kml = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
        for index in 0..<placemarks {
            kml += "<Placemark><ExtendedData><SchemaData schemaUrl=\"#s\"><SimpleData name=\"v\">\(index)</SimpleData></SchemaData></ExtendedData>"
                + "<Point><coordinates>1,2</coordinates></Point></Placemark>\n"
        }
        return kml + "<Schema id=\"s\"><SimpleField name=\"v\" type=\"int\"/></Schema>\n</Document></kml>\n"
    }

    private func readAll(_ input: ByteInput) throws -> ([Feature], [Diagnostic]) {
        var reader = try KMLReader(input: input)
        var features: [Feature] = []
        while let feature = try reader.next() { features.append(feature) }
        return (features, reader.takeWarnings())
    }

    /// Issue 21 item 3: a Schema after more placemarks than are held. An input that can be read
    /// twice (memory, a file) is scanned for Schemas once: every value is an integer.
    func testLateSchemaOnAFileTypesEveryValue() throws {
        let count = KMLReader.maximumHeldFeatures + 50
        let kml = Self.lateSchemaKML(placemarks: count)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("late-schema-\(getpid()).kml")
        try kml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        for input in [ByteInput(string: kml, name: "late.kml"), try ByteInput(path: file.path)] {
            let (features, warnings) = try readAll(input)
            XCTAssertEqual(features.count, count)
            XCTAssertEqual(features.compactMap { $0.properties?["v"] }, (0..<count).map { .integer(Int64($0)) })
            XCTAssertEqual(warnings.map(\.code.rawValue), [])
        }
    }

    /// On a pipe the Schema cannot be learnt first: every value is text, and a warning says so.
    func testLateSchemaOnAPipeKeepsEveryValueTextAndSaysSo() throws {
        let count = KMLReader.maximumHeldFeatures + 50
        let bytes = Array(Self.lateSchemaKML(placemarks: count).utf8)
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(bytes))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let (features, warnings) = try readAll(try ByteInput(path: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"))
        XCTAssertEqual(features.count, count)
        XCTAssertEqual(features.compactMap { $0.properties?["v"] }, (0..<count).map { .string(String($0)) })
        XCTAssertEqual(warnings.map(\.code.rawValue), ["kml.late-schema"])
        XCTAssertTrue(warnings.first?.message.contains("all its values are read as text") == true, "\(warnings)")
        XCTAssertEqual(warnings.first?.location?.line, 2)
    }
}

extension KMLRecoveryTests {
    static func kml(_ body: String) -> String {
        "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n\(body)\n</Document></kml>"
    }

    static func link(_ href: String, name: String? = nil) -> String {
        "<NetworkLink>\(name.map { "<name>\($0)</name>" } ?? "")<Link><href>\(href)</href></Link></NetworkLink>"
    }

    private func readKMZ(_ entries: [(String, String)]) throws -> ([Feature], [Diagnostic], KMLReader) {
        var reader = try KMZ.reader(for: ByteInput(bytes: KMZTestArchive.stored(entries.map { ($0.0, Array($0.1.utf8)) }), name: "t.kmz"))
        var features: [Feature] = []
        var warnings: [Diagnostic] = []
        while let feature = try reader.next() {
            features.append(feature)
            warnings += reader.takeWarnings()
        }
        return (features, warnings + reader.takeWarnings(), reader)
    }

    /// Issue 25 item 2: NetworkLinks naming entries of the same KMZ are read after the link, with
    /// the link's folder path; each entry once; images of a linked KML in a folder keep their entry.
    func testNetworkLinksToEntriesOfTheSameKMZAreRead() throws {
        let (features, warnings, reader) = try readKMZ([
            ("doc.kml", Self.kml("""
                <Folder><name>F</name>\(Self.link("files/a.kml", name: "to a"))</Folder>
                \(Self.link("files/a.kml", name: "again"))
                \(Self.link("http://example.invalid/x.kml", name: "web"))
                <Placemark><name>last</name></Placemark>
                """)),
            ("files/a.kml", Self.kml("""
                <Placemark><name>a1</name><Point><coordinates>1,2</coordinates></Point></Placemark>
                <Folder><name>G</name>\(Self.link("./b%20c.kml"))\(Self.link("../doc.kml"))\(Self.link("img.png"))</Folder>
                <GroundOverlay><name>g</name><Icon><href>img.png</href></Icon>
                  <LatLonBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonBox></GroundOverlay>
                """)),
            ("files/b c.kml", Self.kml("<Placemark><name>b1</name></Placemark>")),
            ("files/img.png", "png"),
        ])
        let names = features.map { $0.properties?["name"]?.stringValue ?? $0.properties?["href"]?.stringValue ?? "?" }
        XCTAssertEqual(names, ["to a", "a1", "./b%20c.kml", "b1", "../doc.kml", "img.png", "g", "again", "web", "last"])
        XCTAssertEqual(features.map(\.folderPath), [["F"], ["F"], ["F", "G"], ["F", "G"], ["F", "G"], ["F", "G"], ["F"], [], [], []])
        XCTAssertEqual(features[6].properties?["icon"], .string("files/img.png"), "the overlay's image is its archive entry")
        XCTAssertEqual(features[3].location?.file, "t.kmz/files/b c.kml")
        let codes = warnings.map(\.code.rawValue)
        XCTAssertEqual(codes.filter { $0 == "kmz.link-repeated" }.count, 2, "\(warnings)")
        // Only the web link and the link to an image are unfetched; links read from the archive are not.
        XCTAssertEqual(warnings.filter { $0.code.rawValue == "kml.not-fetched" }.map(\.message).map { $0.contains("http://") || $0.contains("img.png") },
                       [true, true], "\(warnings)")
        XCTAssertEqual(reader.resources?.names, ["files/a.kml", "files/b c.kml", "files/img.png"])
    }

    /// Links nest at most `KMZNetworkLinks.maximumDepth` deep.
    func testNetworkLinkChainsStopAtTheDepthLimit() throws {
        let depth = KMZNetworkLinks.maximumDepth + 3
        var entries = [("doc.kml", Self.kml(Self.link("k1.kml")))]
        for level in 1...depth {
            entries.append(("k\(level).kml", Self.kml("<Placemark><name>p\(level)</name></Placemark>" + Self.link("k\(level + 1).kml"))))
        }
        let (features, warnings, _) = try readKMZ(entries)
        XCTAssertEqual(features.filter { $0.properties?["name"] != nil }.count, KMZNetworkLinks.maximumDepth)
        XCTAssertEqual(warnings.filter { $0.code.rawValue == "kmz.link-too-deep" }.count, 1, "\(warnings)")
    }
}

extension KMLRecoveryTests {
    /// Issue 25 item 12: a parameter entity reference in the DTD is an error like any entity
    /// reference (docs/kml.md), in the reader and in `validate`; a declaration alone is not.
    func testParameterEntityReferencesAreRefusedAndReported() throws {
        for (declaration, reference) in [("<!ENTITY % p SYSTEM \"file:///etc/passwd\">", "%p;"),
                                         ("<!ENTITY % q \"<!ENTITY x 'y'>\">", "%q;")] {
            let kml = "<?xml version=\"1.0\"?>\n<!DOCTYPE kml [\(declaration) \(reference)]>\n<kml><Placemark><name>x</name></Placemark></kml>\n"
            XCTAssertThrowsError(try KMLTestSupport.read(kml)) { error in
                let diagnostic = error as? Diagnostic
                XCTAssertEqual(diagnostic?.code.rawValue, "kml.entity-reference", "\(error)")
                XCTAssertTrue(diagnostic?.message.contains("parameter entity reference \(reference)") == true, "\(error)")
                XCTAssertEqual(diagnostic?.location?.line, 2)
                XCTAssertEqual(diagnostic?.location?.column, "<!DOCTYPE kml [".utf8.count + declaration.utf8.count + 2)
            }
            let report = Validator.validate(ByteInput(string: kml, name: "pe.kml"), format: .kml)
            XCTAssertTrue(report.findings.contains { $0.code.rawValue == "kml.entity-reference" && $0.severity == .error }, "\(report.findings)")
        }
        let declaredOnly = "<?xml version=\"1.0\"?>\n<!DOCTYPE kml [<!ENTITY % p SYSTEM \"file:///etc/passwd\">]>\n<kml><Placemark><name>x</name></Placemark></kml>\n"
        XCTAssertEqual(try KMLTestSupport.read(declaredOnly).0.count, 1)
    }
}
