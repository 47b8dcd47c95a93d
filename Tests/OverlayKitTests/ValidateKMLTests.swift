import Foundation
import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// KML validation: each check on a small document written here, the XSD path, and real files.
final class ValidateKMLTests: XCTestCase {
    private func validate(_ body: String, schema: String? = nil, wrap: Bool = true) -> [Diagnostic] {
        let text = wrap ? """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document>
        \(body)
        </Document>
        </kml>
        """ : body
        let result = Validator.validate(ByteInput(string: text, name: "test.kml"), options: ValidationOptions(schemaPath: schema))
        XCTAssertFalse(result.isUnreadable, "\(result.findings)")
        return result.findings
    }

    private func summary(_ findings: [Diagnostic]) -> [String] {
        findings.map { "\($0.location?.line ?? 0) \($0.severity.rawValue) \($0.code.rawValue)" }
    }

    let square = "0,0 1,0 1,1 0,1 0,0"

    func testCleanDocumentHasNoFindings() {
        let findings = validate("""
        <Style id="s"><LineStyle><color>ff0000ff</color></LineStyle></Style>
        <StyleMap id="m"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#s</styleUrl></Pair></StyleMap>
        <Schema id="t"><SimpleField name="n" type="int"/><SimpleField name="f" type="double"/></Schema>
        <Placemark><styleUrl>#m</styleUrl><TimeSpan><begin>2001</begin><end>2001-06-01T00:00:00Z</end></TimeSpan>
        <ExtendedData><SchemaData schemaUrl="#t"><SimpleData name="n">-12</SimpleData><SimpleData name="f">1.5e3</SimpleData></SchemaData></ExtendedData>
        <Polygon><outerBoundaryIs><LinearRing><coordinates>\(square)</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><gx:Track><when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when>
        <gx:coord>-122.2 37.3 156</gx:coord><gx:coord>-122.2 37.4 152</gx:coord></gx:Track></Placemark>
        """)
        XCTAssertEqual(summary(findings), [])
    }

    func testStructureUnknownMisplacedAndMissingChildren() {
        let findings = validate("""
        <Placemark><Pointy/><Polygon><innerBoundaryIs><LinearRing><coordinates>\(square)</coordinates></LinearRing></innerBoundaryIs></Polygon></Placemark>
        <Placemark><Point><coordinates>1,2</coordinates><LinearRing/></Point></Placemark>
        """)
        XCTAssertEqual(summary(findings), [
            "4 warning kml.unknown-element", "4 error kml.missing-child",
            "5 error kml.misplaced-element",
        ])
        XCTAssertEqual(findings[0].location?.kmlPath, "/kml/Document/Placemark/Pointy")
        XCTAssertEqual(findings[0].location?.column, 12)
        XCTAssertEqual(findings[1].message, "<Polygon> needs a <outerBoundaryIs>")
        XCTAssertEqual(findings[2].location?.kmlPath, "/kml/Document/Placemark[2]/Point/LinearRing")
    }

    func testCoordinatesSyntaxRangeRingsAndPoints() {
        let findings = validate("""
        <Placemark><LineString><coordinates>1,2 3,x 5,6</coordinates></LineString></Placemark>
        <Placemark><Point><coordinates>10,95</coordinates></Point></Placemark>
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><Point><coordinates>1,2 3,4</coordinates></Point></Placemark>
        """)
        XCTAssertEqual(summary(findings), [
            "4 error kml.coordinate-syntax",
            "5 error kml.coordinate-range",
            "6 error kml.ring-too-short",
            "7 warning kml.ring-not-closed",
            "8 error kml.point-coordinates",
        ])
        // The bad tuple's own column: after "<coordinates>" on its line.
        XCTAssertEqual(findings[0].location?.column, 41)
        XCTAssertTrue(findings[0].message.contains("'x' is not a number"), findings[0].message)
    }

    func testStyleMapPairsAndMissingStyleURLTargets() {
        let findings = validate("""
        <Style id="a"/>
        <StyleMap id="m"><Pair><key>normal</key><styleUrl>#a</styleUrl></Pair><Pair><key>hover</key></Pair></StyleMap>
        <Placemark><styleUrl>#nowhere</styleUrl></Placemark>
        <Placemark><styleUrl>other.kml#elsewhere</styleUrl></Placemark>
        """)
        // ATC 36 (level 1): the Pair without a style; the key's value is the schema's (ATC 2).
        // The missing 'highlight' Pair is ATC 68, a level 2 recommendation.
        XCTAssertEqual(summary(findings), ["5 error kml.stylemap-pair", "5 error kml.enum-value", "6 warning kml.style-url-missing"])
        XCTAssertEqual(Set(findings.prefix(2).map(\.message)), [
            "<key> 'hover' is not one of highlight, normal", "Pair has none of <styleUrl>, <Style>, <StyleMap>",
        ])
        guard findings.count == 3 else { return }
        XCTAssertEqual(findings[2].location?.kmlPath, "/kml/Document/Placemark/styleUrl")
    }

    func testSimpleDataTypesTracksAndTimeSpans() {
        let findings = validate("""
        <Placemark><ExtendedData><SchemaData schemaUrl="#t">
        <SimpleData name="n">twelve</SimpleData><SimpleData name="b">yes</SimpleData><SimpleData name="u">-1</SimpleData>
        <SimpleData name="z">1</SimpleData></SchemaData></ExtendedData></Placemark>
        <Schema id="t"><SimpleField name="n" type="int"/><SimpleField name="b" type="bool"/><SimpleField name="u" type="uint"/></Schema>
        <Placemark><gx:Track><when>2010-05-28T02:02:09Z</when><gx:coord>1 2 3</gx:coord><gx:coord>1 2 3</gx:coord></gx:Track></Placemark>
        <Placemark><TimeSpan><begin>2012-01-02</begin><end>2011-12-31T23:59:59Z</end></TimeSpan></Placemark>
        <Placemark><TimeSpan><begin>2012-13</begin></TimeSpan></Placemark>
        """)
        XCTAssertEqual(summary(findings), [
            "5 error kml.simple-data-type", "5 error kml.simple-data-type", "5 error kml.simple-data-type",
            "6 warning kml.simple-data-unknown-field",
            "8 error kml.track-count-mismatch",
            "9 error kml.timespan-order",
            "10 warning kml.time-syntax",
        ])
    }

    func testMalformedXMLIsReportedWithLibxml2LineAndColumn() {
        let findings = validate("<Placemark><name>a</nam></Placemark>")
        XCTAssertEqual(findings.count, 1)
        XCTAssertEqual(findings[0].code.rawValue, "kml.xml-syntax")
        XCTAssertEqual(findings[0].location?.line, 4)
        XCTAssertGreaterThan(findings[0].location?.column ?? 0, 1)
        XCTAssertTrue(findings[0].message.hasPrefix("not well-formed XML: "), findings[0].message)
    }

    func testGeometryValidityWithElementPath() {
        let findings = validate("""
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,1 1,0 0,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>\(square)</coordinates></LinearRing></outerBoundaryIs>
        <innerBoundaryIs><LinearRing><coordinates>5,5 5,6 6,6 6,5 5,5</coordinates></LinearRing></innerBoundaryIs></Polygon></Placemark>
        """)
        XCTAssertEqual(findings.map(\.code.rawValue), ["geometry.self-intersection", "geometry.hole-outside-shell"])
        XCTAssertEqual(findings[0].location?.kmlPath, "/kml/Document/Placemark/Polygon/outerBoundaryIs/LinearRing/coordinates")
        let hole = findings.first { $0.code.rawValue == "geometry.hole-outside-shell" }
        XCTAssertEqual(hole?.location?.line, 6)
        XCTAssertEqual(hole?.location?.kmlPath, "/kml/Document/Placemark[2]/Polygon/innerBoundaryIs/LinearRing/coordinates")
    }

    func testKMLTimeSpans() {
        XCTAssertEqual(KMLTime("2000")?.end, KMLTime("2001")?.start)
        XCTAssertEqual(KMLTime("2000-02")!.end - KMLTime("2000-02")!.start, 29 * 86_400)
        XCTAssertEqual(KMLTime("2000-01-01T02:00:00+02:00")?.start, KMLTime("2000-01-01T00:00:00Z")?.start)
        XCTAssertNil(KMLTime("2000-02-30"))
        XCTAssertNil(KMLTime("yesterday"))
        XCTAssertNotNil(KMLTime("1997-07-16T07:30:15.25Z"))
    }

    // MARK: Schema and real files

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

    private func corpusFile(_ path: String) throws -> String {
        try Prerequisite.corpus(path).path
    }

    func testXSDValidationReportsSchemaViolations() throws {
        let schema = try corpusFile("schemas/kml22-offline/ogckml22.xsd")
        let findings = validate("<Placemark><Point><coordinates>1,2</coordinates></Point><name>late</name></Placemark>", schema: schema)
        XCTAssertEqual(findings.map(\.code.rawValue), ["kml.schema"])
        XCTAssertEqual(findings.first?.location?.line, 4)
        XCTAssertTrue(findings.first?.message.contains("name") ?? false, "\(findings)")
        XCTAssertEqual(validate("<Placemark><name>ok</name><Point><coordinates>1,2</coordinates></Point></Placemark>", schema: schema)
            .map(\.code.rawValue), [])
        // A schema that cannot be read is a finding at the schema file; the document is still
        // checked (here: its empty root), not counted unreadable.
        let missing = Validator.validate(ByteInput(string: "<kml/>", name: "x.kml"), options: ValidationOptions(schemaPath: "/nonexistent.xsd"))
        XCTAssertFalse(missing.isUnreadable)
        XCTAssertEqual(missing.findings.map(\.description), [
            "/nonexistent.xsd: error: kml.schema-unreadable: cannot read the XML Schema: No such file or directory",
        ])
    }

    func testRealKMLFilesHaveNoErrors() throws {
        for name in ["real/2012-02-10.kml", "real/2012_Earthquakes_Mag5.kml", "real/states.kml", "kml-samples/KML_Samples.kml"] {
            let result = Validator.validate(path: try corpusFile(name))
            XCTAssertEqual(result.findings.filter { $0.severity == .error }.map(\.description), [], name)
        }
        // Natural Earth-style non-KML elements are listed a few times, then counted.
        let quakes = Validator.validate(path: try corpusFile("real/2012_Earthquakes_Mag5.kml"))
        XCTAssertEqual(quakes.count(.warning), 5)
        XCTAssertTrue(quakes.findings.contains { $0.message.hasPrefix("1530 more <magnitude> elements") })
    }

    func testKMLSamplesSelfIntersectionsMatchShapely() throws {
        // shapely: states.kml has three invalid rings (Self-intersection at -71.34 41.84,
        // -72.23 43.75 and -72.27 43.73); polygon-point.kml one (Ring Self-intersection at 138.62 -34.96).
        let states = Validator.validate(path: try corpusFile("kml-samples/kml/misc/thematic1/states.kml"))
        XCTAssertEqual(states.findings.filter { $0.code.rawValue == "geometry.self-intersection" }.count, 3)
        let point = Validator.validate(path: try corpusFile("kml-samples/kml/MultiGeometry/polygon-point.kml"))
        let errors = point.findings.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.code.rawValue), ["geometry.self-intersection"])
        XCTAssertTrue(errors.first?.message.contains("138.62, -34.96") ?? false, "\(errors)")
    }
}
