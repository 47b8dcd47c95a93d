import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Issue 21 item 11: a GeoJSON FeatureCollection's `name` is KML's `Document/name`, both ways;
/// its other members travel in the Document's ExtendedData (issue 25 item 6).
final class KMLDocumentNameTests: XCTestCase {
    let point = Feature(properties: ["n": .integer(1)], shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))))

    func testCollectionNameIsWrittenAsDocumentNameAndOtherMembersAsDocumentData() throws {
        var warnings: [Diagnostic] = []
        let members: JSONObject = ["name": .string("Parks & <gardens>"), "title": .string("t"), "bbox": .array([.integer(1), .number(2.5)])]
        let kml = String(decoding: try FeatureIO.encode([point], as: .kml, context: DocumentContext(collectionMembers: members)) {
            warnings.append($0)
        }, as: UTF8.self)
        XCTAssertTrue(kml.contains("<Document>\n<name>Parks &amp; &lt;gardens&gt;</name>\n"), kml)
        XCTAssertTrue(kml.contains("<ExtendedData><Data name=\"overlaykit:member:title\"><value>\"t\"</value></Data>"), kml)
        XCTAssertEqual(warnings.map(\.code.rawValue), [])
        let back = try FeatureIO.readAll(ByteInput(bytes: Array(kml.utf8), name: "back.kml"))
        XCTAssertEqual(back.context.collectionMembers, members)
        XCTAssertEqual(back.warnings.map(\.code.rawValue), [])
    }

    func testOtherDocumentExtendedDataIsReportedNotKept() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><ExtendedData><Data name="owner"><value>me</value></Data>
            <Data name="overlaykit:member:x"><value>1</value></Data></ExtendedData></Document></kml>
            """
        let document = try FeatureIO.readAll(ByteInput(string: kml, name: "doc.kml"))
        XCTAssertEqual(document.context.collectionMembers, ["x": .integer(1)])
        XCTAssertEqual(document.warnings.map(\.code.rawValue), ["kml.ignored-element"])
        XCTAssertTrue(document.warnings.first?.message.contains("Data 'owner' not kept") == true, "\(document.warnings)")
    }

    func testDocumentNameIsReadBackAsTheCollectionName() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Trip</name>
            <Folder><name>F</name><Document><name>inner</name></Document>
            <Placemark><name>p</name><Point><coordinates>1,2</coordinates></Point></Placemark></Folder></Document></kml>
            """
        let document = try FeatureIO.readAll(ByteInput(string: kml, name: "trip.kml"))
        XCTAssertEqual(document.context.collectionMembers, ["name": .string("Trip")])
        XCTAssertEqual(document.features.map(\.folderPath), [["F"]], "the folder's name stays the folder's")
        let geojson = String(decoding: try FeatureIO.encode(document.features, as: .geojson, context: document.context), as: UTF8.self)
        XCTAssertTrue(geojson.hasSuffix("],\"name\":\"Trip\"}\n"), geojson)
        // And back to KML: the same name.
        let again = try FeatureIO.readAll(ByteInput(string: geojson, name: "trip.geojson"))
        let kmlAgain = String(decoding: try FeatureIO.encode(again.features, as: .kml, context: again.context), as: UTF8.self)
        XCTAssertTrue(kmlAgain.contains("<Document>\n<name>Trip</name>"), kmlAgain)
    }

    func testAnExplicitNameWinsAndTheCollectionsIsReported() throws {
        var warnings: [Diagnostic] = []
        let context = DocumentContext(collectionMembers: ["name": .string("from the collection")])
        let kml = String(decoding: try FeatureIO.encode([point], as: .kml, options: WriterOptions(name: "given"), context: context) {
            warnings.append($0)
        }, as: UTF8.self)
        XCTAssertTrue(kml.contains("<name>given</name>") && !kml.contains("from the collection"), kml)
        XCTAssertEqual(warnings.map(\.code.rawValue), ["convert.dropped-members"])
    }

    func testANameThatIsNotAStringComesBackAsItWas() throws {
        var warnings: [Diagnostic] = []
        let kml = String(decoding: try FeatureIO.encode([point], as: .kml, context: DocumentContext(collectionMembers: ["name": .integer(3)])) {
            warnings.append($0)
        }, as: UTF8.self)
        XCTAssertFalse(kml.contains("<Document>\n<name>"), kml)
        XCTAssertEqual(warnings.map(\.code.rawValue), [])
        XCTAssertEqual(try FeatureIO.readAll(ByteInput(bytes: Array(kml.utf8), name: "b.kml")).context.collectionMembers, ["name": .integer(3)])
    }
}
