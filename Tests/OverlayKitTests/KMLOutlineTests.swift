import OverlayKit
import XCTest

/// KML's `<PolyStyle><outline>0</outline>`: carried as `"outline": false` into GeoJSON and
/// tiles, read back from GeoJSON (so the round trip to KML keeps it), drawn without an outline by
/// `render`, and left out by the MapLibre style's outline layer.
final class KMLOutlineTests: XCTestCase {
    static let kml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
        <Style id="bare"><LineStyle><color>ff0088ff</color><width>4</width></LineStyle><PolyStyle><color>ff00aa00</color><outline>0</outline></PolyStyle></Style>
        <Style id="framed"><LineStyle><color>ff0088ff</color><width>4</width></LineStyle><PolyStyle><color>ff00aa00</color></PolyStyle></Style>
        <Placemark><name>Bare</name><styleUrl>#bare</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 2,0 2,2 0,2 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><name>Framed</name><styleUrl>#framed</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>3,0 5,0 5,2 3,2 3,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        </Document></kml>
        """

    func testOutlineZeroTravelsThroughGeoJSONAndBack() throws {
        let document = try FeatureIO.readAll(ByteInput(string: Self.kml, name: "outline.kml"))
        XCTAssertEqual(document.features.map { $0.style?.outline }, [false, nil])
        let geojson = try FeatureIO.string(document.features, as: .geojson)
        let back = try FeatureIO.readAll(ByteInput(string: geojson, name: "outline.geojson"))
        XCTAssertEqual(back.features[0].properties?[SimpleStyle.outlineKey], .bool(false))
        XCTAssertNil(back.features[1].properties?[SimpleStyle.outlineKey], "an outlined polygon says nothing")
        XCTAssertEqual(back.features[0].style?.outline, false)
        let kml = try FeatureIO.string(back.features, as: .kml)
        XCTAssertEqual(kml.components(separatedBy: "<outline>0</outline>").count - 1, 1, kml)
    }

    func testRenderDrawsNoOutlineWhereThePropertySaysSo() throws {
        // GeoJSON as a tile carries it: the property alone, with the stroke color still given.
        let geojson = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"stroke":"#ff8800","stroke-width":6,"fill":"#00aa00","fill-opacity":1,"outline":false},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}}]}
            """#
        let features = try FeatureIO.readAll(ByteInput(string: geojson, name: "bare.geojson")).features
        let svg = String(decoding: MapSnapshot(features: features, options: RenderOptions(width: 200, height: 200)).svg(), as: UTF8.self)
        XCTAssertTrue(svg.contains("#00aa00"), svg)
        XCTAssertFalse(svg.contains("#ff8800"), "no outline: \(svg)")
    }

    func testStyleLeavesOutlinesOutForTheProperty() throws {
        let style = MapLibreStyle(name: "s", sources: [.init(id: "s", location: .tileJSON("t.json"), layers: ["l"])]).json()
        guard case .array(let layers)? = style["layers"] else { return XCTFail("no layers") }
        let outline = try XCTUnwrap(layers.first { $0.objectValue?["id"] == .string("s/l/outline") }?.objectValue)
        XCTAssertEqual(outline["filter"], .array([.string("all"), .array([.string("=="), .string("$type"), .string("Polygon")]),
                                                  .array([.string("!="), .string("outline"), .bool(false)])]))
    }

    func testLiveTilesCarryTheProperty() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("outline.kml").path
        try Self.kml.write(toFile: path, atomically: true, encoding: .utf8)
        let tiles = try FeatureTileSet(path: path, layer: "outline")
        XCTAssertEqual(tiles.metadata.vectorLayers.first?.fields.first { $0.name == "outline" }?.type, "Boolean")
        let tile = try XCTUnwrap(try tiles.storedTile(TileID(z: 0, x: 0, y: 0)))
        let layers = try MVTTileDecoder().decodeLayers(try tile.uncompressed(source: "z0"))
        let properties = try XCTUnwrap(layers.first?.features.map(\.properties))
        XCTAssertEqual(properties.map { $0?["outline"] }, [.bool(false), nil])
    }
}
