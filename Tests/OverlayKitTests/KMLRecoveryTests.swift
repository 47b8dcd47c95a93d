@testable import OverlayKit
import OverlayModel
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
        XCTAssertEqual(warnings.map(\.code), ["kml.gml-geometry", "kml.gml-geometry", "kml.gml-geometry"], "\(warnings)")
        XCTAssertEqual(warnings.first?.location?.line, 4)
        XCTAssertEqual(warnings.first?.location?.column, 26)
    }
}
