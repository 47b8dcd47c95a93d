import XCTest
@testable import OverlayKit
import OverlayModel

/// Reading GeoJSON and writing GeoJSON, GeoJSONSeq or KML never projects a vertex (issue 50):
/// readers make vertex buffers from coordinates and the writers read coordinates alone, so no
/// buffer holds map points afterwards.
final class ConvertWithoutProjectingTests: XCTestCase {
    private func buffers(_ shape: Shape?) -> [VertexBuffer] {
        switch shape {
        case nil, .annotation?, .circle?: return []
        case .polyline(let line)?: return [line.vertices]
        case .polygon(let polygon)?: return polygon.rings
        case .multiPolyline(let multi)?: return multi.polylines.map(\.vertices)
        case .multiPolygon(let multi)?: return multi.polygons.flatMap(\.rings)
        case .collection(let collection)?: return collection.members.flatMap { buffers($0) }
        }
    }

    func testReadingAndWritingCoordinatesProjectsNothing() throws {
        // A clockwise exterior (RFC 7946 wants it counterclockwise: the writer rewinds it), a
        // hole, an unclosed ring, lines and a collection, one with altitudes.
        let text = #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"cw"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[20,0],[30,0],[30,10],[20,0]]],[[[40,0],[50,0],[50,89.9],[40,0]]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[170,1,5],[190,2,6],[-170,3,7]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","coordinates":[[[1,1],[2,2]],[[3,3],[4,4]]]},{"type":"Point","coordinates":[5,5]}]}}
        ]}
        """#
        let document = try FeatureIO.readAll(ByteInput(bytes: Array(text.utf8)), format: .geojson)
        let vertices = document.features.flatMap { buffers($0.shape) }
        XCTAssertEqual(vertices.count, 7)
        for format in [FileFormat.geojson, .geojsonseq, .kml] {
            let written = try FeatureIO.string(document.features, as: format)
            XCTAssertTrue(written.contains("190"), "\(format) keeps the longitude as written")
        }
        for (index, buffer) in vertices.enumerated() {
            XCTAssertFalse(buffer.holdsMapPoints, "vertex buffer \(index) was projected")
        }
        // A render of the same features does project (the hook tells the two apart).
        XCTAssertEqual(document.features[0].shape?.boundingMapRect.isNull, false)
        XCTAssertTrue(vertices[0].holdsMapPoints)
    }
}
