import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Issue 21 item 11: a GeoJSON FeatureCollection's `name` is KML's `Document/name`, both ways.
final class KMLDocumentNameTests: XCTestCase {
    let point = Feature(properties: ["n": .integer(1)], shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))))

    func testCollectionNameIsWrittenAsDocumentNameAndOtherMembersAreStillReported() throws {
        var warnings: [Diagnostic] = []
        let context = DocumentContext(collectionMembers: ["name": .string("Parks & <gardens>"), "title": .string("t")])
        let kml = String(decoding: try FeatureIO.encode([point], as: .kml, context: context) { warnings.append($0) }, as: UTF8.self)
        XCTAssertTrue(kml.contains("<Document>\n<name>Parks &amp; &lt;gardens&gt;</name>\n"), kml)
        XCTAssertEqual(warnings.map(\.code), ["convert.dropped-members"])
        XCTAssertTrue(warnings.first?.message.contains("members title have") == true, "\(warnings)")
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
        XCTAssertEqual(warnings.map(\.code), ["convert.dropped-members"])
    }

    func testANameThatIsNotAStringIsReported() throws {
        var warnings: [Diagnostic] = []
        let kml = String(decoding: try FeatureIO.encode([point], as: .kml, context: DocumentContext(collectionMembers: ["name": .integer(3)])) {
            warnings.append($0)
        }, as: UTF8.self)
        XCTAssertFalse(kml.contains("<Document>\n<name>"), kml)
        XCTAssertEqual(warnings.map(\.code), ["convert.dropped-members"])
    }
}
