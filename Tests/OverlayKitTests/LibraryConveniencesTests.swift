import Foundation
import OverlayKit
import XCTest

/// The conveniences a MapKit user reaches for, through `import OverlayKit` alone.
final class LibraryConveniencesTests: XCTestCase {
    private let collection = #"{"type":"FeatureCollection","name":"parks","features":[{"type":"Feature","properties":{"name":"A"},"geometry":{"type":"Point","coordinates":[-0.12,51.5]}},{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[0.5,0.0000001],[1,0]]}}]}"#

    func testReadAllAndWriteToStringAndData() throws {
        let document = try FeatureIO.readAll(ByteInput(string: collection, name: "parks.geojson"))
        XCTAssertEqual(document.features.count, 2)
        XCTAssertEqual(document.warnings, [])
        XCTAssertEqual(document.context.collectionMembers.keys, ["name"])
        guard case .annotation(let point) = document.features[0].shape else { return XCTFail("\(document.features[0])") }
        XCTAssertEqual(point.title, "A")

        let text = try FeatureIO.string(document.features, as: .geojsonseq)
        XCTAssertEqual(text.split(separator: "\n").count, 2)
        let again = try FeatureIO.readAll(ByteInput(string: text, name: "again.geojsons"))
        XCTAssertEqual(again.features.map(\.shape), document.features.map(\.shape))

        let kmz = try FeatureIO.data(document.features, as: .kmz)
        XCTAssertEqual(Array(kmz.prefix(2)), [0x50, 0x4B], "a KMZ is a zip")
        let kmzFile = FileManager.default.temporaryDirectory.appendingPathComponent("conveniences-\(getpid()).kmz")
        defer { try? FileManager.default.removeItem(at: kmzFile) }
        try kmz.write(to: kmzFile)
        let fromKMZ = try FeatureIO.readAll(path: kmzFile.path)
        XCTAssertEqual(fromKMZ.features.count, 2)

        // The collection's name is the KML Document's name (issue 21 item 11): nothing dropped.
        var dropped: [Diagnostic] = []
        let kml = try FeatureIO.encode(document.features, as: .kml, context: document.context) { dropped.append($0) }
        XCTAssertEqual(dropped.map(\.code.rawValue), [])
        XCTAssertTrue(String(decoding: kml, as: UTF8.self).contains("<Document>\n<name>parks</name>"))
    }

    func testReadAllFromAPathNamesTheFileInErrors() throws {
        XCTAssertThrowsError(try FeatureIO.readAll(path: "/nonexistent/parks.geojson")) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.open-failed")
        }
    }

    func testSimplifyAndClipWithoutCounters() throws {
        let line = try XCTUnwrap(FeatureIO.readAll(ByteInput(string: collection)).features[1].shape)
        let simplified = try XCTUnwrap(ShapeSimplifier(screenPoints: 1, zoom: 4).simplify(line))
        guard case .polyline(let polyline) = simplified else { return XCTFail("\(simplified)") }
        XCTAssertEqual(polyline.pointCount, 2, "the middle vertex is far below a screen point at zoom 4")
        let west = RectClip(rect: MapRect(west: -10, south: -10, east: 0.25, north: 10)).clip(line)
        guard case .polyline(let clipped) = west else { return XCTFail("\(String(describing: west))") }
        XCTAssertEqual(clipped.coordinates.last!.longitude, 0.25, accuracy: 1e-9)
        XCTAssertNil(RectClip(rect: MapRect(west: 10, south: 10, east: 20, north: 20)).clip(line))
    }

    func testMapRectFromDegreesAndDescriptions() throws {
        let rect = MapRect(west: -180, south: -85.05112877980659, east: 180, north: 85.05112877980659)
        XCTAssertEqual(rect.minX, 0)
        XCTAssertEqual(rect.width, MapProjection.worldSize)
        XCTAssertEqual(rect.minY, 0, accuracy: 1e-3)
        XCTAssertEqual(rect.height, MapProjection.worldSize, accuracy: 1e-3)
        let across = MapRect(west: 170, south: -10, east: -170, north: 10)
        XCTAssertEqual(across.width, MapProjection.worldSize * 20 / 360, accuracy: 1e-6, "west > east crosses the antimeridian")
        XCTAssertEqual(try GeographicBox(parsing: "170,-10,-170,10").mapRect, across)

        let point = MapPoint(Coordinate(latitude: 51.5, longitude: -0.12))
        XCTAssertTrue(point.description.hasPrefix("MapPoint("), point.description)
        XCTAssertTrue(point.description.hasSuffix("; 51.5000, -0.1200)"), point.description)
        XCTAssertEqual(MapRect(x: 1, y: 2, width: 3, height: 4).description, "MapRect(1.0, 2.0, 3.0 × 4.0)")
        XCTAssertEqual(MapRect.null.description, "MapRect.null")
    }

    /// The README's library example, as written there (paths from the package root).
    func testReadmeLibraryExample() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Examples/places.kml").path
        let document = try FeatureIO.readAll(path: path)
        XCTAssertEqual(document.warnings, [])
        let europe = RectClip(rect: MapRect(west: -10, south: 35, east: 30, north: 60))
        let simplifier = ShapeSimplifier(screenPoints: 1, zoom: 8)
        let shapes = document.features.compactMap { $0.shape.flatMap(europe.clip).flatMap(simplifier.simplify) }
        let geoJSON = try FeatureIO.string(document.features, as: .geojson)
        XCTAssertEqual(document.features.count, 5)
        XCTAssertEqual(shapes.count, 5, "all of London lies in the box and is bigger than a screen point at zoom 8, or a point")
        XCTAssertEqual(document.features.map(\.folderPath), [["Parks"], ["Parks"], ["Walks", "Saturday"], ["Stops"], ["Stops"]])
        XCTAssertTrue(geoJSON.contains("\"name\":\"Regent's Park\""), geoJSON)
    }

    /// A box with west > east crosses the antimeridian: both sides are clipped and joined.
    func testClipToABoxAcrossTheAntimeridian() throws {
        let text = #"{"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[178,-18],[180,-18],[180,-16],[178,-16],[178,-18]]],[[[-180,-18],[-178,-18],[-178,-16],[-180,-16],[-180,-18]]],[[[10,0],[11,0],[11,1],[10,0]]]]}}"#
        let shape = try XCTUnwrap(FeatureIO.readAll(ByteInput(string: text)).features[0].shape)
        let across = RectClip(rect: MapRect(west: 170, south: -25, east: -170, north: -10))
        var counts = RectClip.Counts()
        guard case .multiPolygon(let kept)? = across.clip(shape, counts: &counts) else { return XCTFail("expected a multipolygon") }
        XCTAssertEqual(kept.polygons.count, 2, "both sides of 180°, not the one at 10° E")
        XCTAssertEqual(Set(kept.polygons.map { $0.coordinates.map(\.longitude).min()! }), [178, -180])
        XCTAssertEqual(counts.shapesOutside, 0)
        XCTAssertNil(across.clip(.annotation(PointAnnotation(coordinate: Coordinate(latitude: -17, longitude: 0)))))
        guard case .annotation? = across.clip(.annotation(PointAnnotation(coordinate: Coordinate(latitude: -17, longitude: -175)))) else {
            return XCTFail("a point east of 180° lies in the box")
        }
    }
}
