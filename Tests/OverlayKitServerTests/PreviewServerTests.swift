import Foundation
import OverlayKit
import OverlayKitServer
import TestSupport
import XCTest

/// The preview server in-process, over real loopback sockets: every endpoint, tiles byte for
/// byte as the archives hold them, bad addresses, path traversal, 100 requests at once.
final class PreviewServerTests: XCTestCase {
    static let geojson = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"square","fill":"#ff0000"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[20,0],[20,20],[0,20],[0,0]]]}},
        {"type":"Feature","properties":{"name":"road","stroke":"#00aa00","stroke-width":4},"geometry":{"type":"LineString","coordinates":[[-40,-10],[30,35]]}},
        {"type":"Feature","properties":{"name":"town"},"geometry":{"type":"Point","coordinates":[-20,30]}}]}
        """
    static let kml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
        <Style id="blue"><LineStyle><color>ffff0000</color><width>2</width></LineStyle><PolyStyle><color>80ff0000</color></PolyStyle></Style>
        <Placemark><name>Lake</name><styleUrl>#blue</styleUrl><Polygon><outerBoundaryIs><LinearRing>
        <coordinates>5,40 15,40 15,50 5,50 5,40</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        </Document></kml>
        """

    var folder: URL!
    var server: PreviewServer!
    var client: RawHTTPClient!
    var archives: [String: TileSet] = [:]

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("shapes.geojson")
        try Self.geojson.write(to: source, atomically: true, encoding: .utf8)
        try Self.kml.write(to: folder.appendingPathComponent("lake.kml"), atomically: true, encoding: .utf8)
        var served = [ServedTileSet]()
        let names = ["shapes.pmtiles", "shapes.mbtiles", "shapes-dir"]
        let ids = ServedTileSet.ids(for: names.map { PathName($0).stem })
        XCTAssertEqual(ids, ["shapes", "shapes-2", "shapes-dir"])
        for (name, id) in zip(names, ids) {
            let output = folder.appendingPathComponent(name).path
            var tiler = Tiler(output: output, layer: "shapes")
            tiler.options.maxZoom = 4
            tiler.threads = 1
            var reader = try FeatureIO.reader(for: ByteInput(path: source.path))
            _ = try tiler.run(reading: &reader)
            archives[name] = try TileSet(path: output)
            served.append(ServedTileSet(id: id, title: name,
                                        provider: LockedTileSet(try TileSet(path: output))))
        }
        served.append(ServedTileSet(id: "lake", title: "lake.kml",
                                    provider: try FeatureTileSet(path: folder.appendingPathComponent("lake.kml").path, layer: "lake")))
        server = try PreviewServer(site: PreviewSite(tileSets: served), host: "127.0.0.1", port: 0)
        client = RawHTTPClient(port: try await server.start())
    }

    override func tearDown() async throws {
        await server?.stop()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private func json(_ response: RawHTTPClient.Response) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func testPageStyleAndTileJSON() throws {
        let page = try client.send("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        let html = String(decoding: page.body, as: UTF8.self)
        XCTAssertTrue(html.contains("maplibre-gl@\(PreviewSite.mapLibreVersion)/dist/maplibre-gl.js"))
        XCTAssertTrue(html.contains("\"layer\":\"lake\""))

        let style = try client.send("/style.json")
        XCTAssertEqual(style.status, 200)
        XCTAssertEqual(style.headers["content-type"], "application/json")
        let document = try json(style)
        XCTAssertEqual(document["version"] as? Int, 8)
        let sources = try XCTUnwrap(document["sources"] as? [String: [String: Any]])
        XCTAssertEqual(Set(sources.keys), ["shapes", "shapes-2", "shapes-dir", "lake"])
        let layers = try XCTUnwrap(document["layers"] as? [[String: Any]])
        // Background, then fill, outline, line, circle and label for each of the four layers.
        XCTAssertEqual(layers.count, 1 + 4 * 5)
        XCTAssertEqual(Set(layers.compactMap { $0["type"] as? String }), ["background", "fill", "line", "circle", "symbol"])
        // Labels with the glyphs this server makes.
        XCTAssertEqual(document["glyphs"] as? String, "http://127.0.0.1:\(client.port)/fonts/{fontstack}/{range}.pbf")
        let label = try XCTUnwrap(layers.first { $0["id"] as? String == "lake/lake/label" })
        XCTAssertEqual((label["layout"] as? [String: Any])?["text-font"] as? [String], ["DejaVu Sans"])

        for (id, source) in sources {
            let url = try XCTUnwrap(source["url"] as? String)
            XCTAssertEqual(url, "http://127.0.0.1:\(client.port)/tilesets/\(id).json")
            let tileJSON = try json(try client.send("/tilesets/\(id).json"))
            XCTAssertEqual(tileJSON["tilejson"] as? String, "3.0.0")
            XCTAssertEqual(tileJSON["tiles"] as? [String], ["http://127.0.0.1:\(client.port)/tiles/\(id)/{z}/{x}/{y}.mvt"])
            XCTAssertNotNil(tileJSON["vector_layers"] as? [[String: Any]])
        }
        // HEAD: the headers of GET, no body; other methods are refused.
        let head = try client.send("/style.json", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], String(style.body.count))
        XCTAssertEqual(try client.send("/style.json", method: "POST").status, 405)
        XCTAssertEqual(try client.send("/nothing-here").status, 404)
        // Without --maplibre-js the script is not served from here.
        XCTAssertEqual(try client.send("/maplibre-gl.js").status, 404)
    }

    func testTilesAreTheArchivesBytes() throws {
        let ids = ["shapes.pmtiles": "shapes", "shapes.mbtiles": "shapes-2", "shapes-dir": "shapes-dir"]
        var checked = 0
        for (name, tileSet) in archives {
            let id = try XCTUnwrap(ids[name])
            for tile in try tileSet.reader.tileIDs() {
                let stored = try XCTUnwrap(try tileSet.reader.storedTile(tile))
                let gzip = try client.send("/tiles/\(id)/\(tile).mvt", headers: ["Accept-Encoding": "gzip, deflate"])
                XCTAssertEqual(gzip.status, 200, "\(name) \(tile)")
                XCTAssertEqual(gzip.body, stored.bytes, "\(name) \(tile)")
                XCTAssertEqual(gzip.headers["content-type"], "application/vnd.mapbox-vector-tile")
                XCTAssertEqual(gzip.headers["content-encoding"], stored.compression == .gzip ? "gzip" : nil)
                let tag = try XCTUnwrap(gzip.headers["etag"])
                XCTAssertEqual(try client.send("/tiles/\(id)/\(tile).mvt", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag]).status, 304)
                // A client that takes no gzip gets the plain tile.
                let plain = try client.send("/tiles/\(id)/\(tile).mvt")
                XCTAssertEqual(plain.body, try tileSet.reader.tile(tile))
                XCTAssertNil(plain.headers["content-encoding"])
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    func testGlyphsForTheLabels() throws {
        let glyphs = try client.send("/fonts/DejaVu%20Sans/0-255.pbf")
        XCTAssertEqual(glyphs.status, 200)
        XCTAssertEqual(glyphs.headers["content-type"], "application/x-protobuf")
        let decoded = try DecodedGlyphNames(glyphs.body)
        XCTAssertEqual(decoded.name, "DejaVu Sans")
        XCTAssertEqual(decoded.range, "0-255")
        XCTAssertEqual(decoded.glyphCount, 95 + 96, "printable ASCII and Latin-1")
        // The same bytes again (kept), and 304 for the client's copy.
        let again = try client.send("/fonts/DejaVu%20Sans/0-255.pbf")
        XCTAssertEqual(again.body, glyphs.body)
        XCTAssertEqual(try client.send("/fonts/DejaVu%20Sans/0-255.pbf", headers: ["If-None-Match": try XCTUnwrap(glyphs.headers["etag"])]).status, 304)
        // A stack naming the font among others is answered with that name.
        let stack = try client.send("/fonts/Noto%20Sans%20Regular,DejaVu%20Sans/256-511.pbf")
        XCTAssertEqual(stack.status, 200)
        XCTAssertEqual(try DecodedGlyphNames(stack.body).name, "Noto Sans Regular,DejaVu Sans")
        // Other fonts, ranges that are not MapLibre's, and anything else: 404.
        for target in ["/fonts/Arial/0-255.pbf", "/fonts/DejaVu%20Sans/0-256.pbf", "/fonts/DejaVu%20Sans/1-256.pbf",
                       "/fonts/DejaVu%20Sans/0-255.json", "/fonts/DejaVu%20Sans/1114368-1114623.pbf", "/fonts/DejaVu%20Sans",
                       "/fonts/DejaVu%20Sans/../../etc/passwd", "/fonts/DejaVu%20Sans/0-255.pbf/x"] {
            XCTAssertEqual(try client.send(target).status, 404, target)
        }
    }

    func testALocalMapLibreAndItsStylesheet() throws {
        let script = folder.appendingPathComponent("lib/maplibre-gl.js")
        try FileManager.default.createDirectory(at: script.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "window.maplibregl = {};".write(to: script, atomically: true, encoding: .utf8)
        try ".maplibregl-map {}".write(to: folder.appendingPathComponent("lib/maplibre-gl.css"), atomically: true, encoding: .utf8)
        let site = try PreviewSite(tileSets: [], options: .init(mapLibreScript: script.path))
        let page = String(decoding: site.respond(method: "GET", path: "/", headers: [], origin: "").body, as: UTF8.self)
        XCTAssertTrue(page.contains(#"<script src="/maplibre-gl.js">"#) && page.contains(#"href="/maplibre-gl.css""#), page)
        let served = site.respond(method: "GET", path: "/maplibre-gl.js", headers: [], origin: "")
        XCTAssertEqual(String(decoding: served.body, as: UTF8.self), "window.maplibregl = {};")
        XCTAssertEqual(served.header("Content-Type"), "text/javascript; charset=utf-8")
        let stylesheet = site.respond(method: "GET", path: "/maplibre-gl.css", headers: [], origin: "")
        XCTAssertEqual(String(decoding: stylesheet.body, as: UTF8.self), ".maplibregl-map {}")
        XCTAssertThrowsError(try PreviewSite(tileSets: [], options: .init(mapLibreScript: folder.appendingPathComponent("none.js").path)))
    }

    func testGlyphsFromAnotherHost() throws {
        let site = try PreviewSite(tileSets: [], options: .init(glyphs: "https://example.org/fonts/{fontstack}/{range}.pbf",
                                                                fontStack: ["Open Sans Regular"]))
        let style = site.style(origin: "http://127.0.0.1:1").json()
        XCTAssertEqual(style["glyphs"], .string("https://example.org/fonts/{fontstack}/{range}.pbf"))
        // This server makes none then.
        XCTAssertEqual(site.respond(method: "GET", path: "/fonts/DejaVu%20Sans/0-255.pbf", headers: [], origin: "").status, 404)
    }

    func testGzipOnlyWhenTheClientTakesIt() throws {
        let tileSet = try XCTUnwrap(archives["shapes.pmtiles"])
        let tile = try XCTUnwrap(try tileSet.reader.tileIDs().first)
        let stored = try XCTUnwrap(try tileSet.reader.storedTile(tile))
        XCTAssertEqual(stored.compression, .gzip)
        let plain = try XCTUnwrap(try tileSet.reader.tile(tile))
        let cases: [(String, Bool)] = [("gzip", true), ("GZIP", true), ("deflate, gzip;q=0.5", true), ("x-gzip", true), ("*", true),
                                       ("gzip;q=0", false), ("gzip; q=0.000", false), ("deflate, gzip;q=0, *", false),
                                       ("*;q=0", false), ("deflate", false), ("identity", false), ("gzip;q=nonsense", false),
                                       ("br;q=1, *;q=0.1", true)]
        for (accept, gzip) in cases {
            let response = try client.send("/tiles/shapes/\(tile).mvt", headers: ["Accept-Encoding": accept])
            XCTAssertEqual(response.status, 200, accept)
            XCTAssertEqual(response.headers["content-encoding"], gzip ? "gzip" : nil, accept)
            XCTAssertEqual(response.body, gzip ? stored.bytes : plain, accept)
        }
    }

    func testMissingTilesAre404AndBadAddresses400() throws {
        let tiles = Set(try archives["shapes.pmtiles"]!.reader.tileIDs())
        let missing = try XCTUnwrap((0..<16).lazy.map { TileID(z: 4, x: $0, y: 15) }.first { !tiles.contains($0) })
        XCTAssertEqual(try client.send("/tiles/shapes/\(missing).mvt").status, 404)
        XCTAssertEqual(try client.send("/tiles/shapes/5/0/0.mvt").status, 404, "beyond the set's zooms")
        XCTAssertEqual(try client.send("/tiles/nosuchset/0/0/0.mvt").status, 404)
        XCTAssertEqual(try client.send("/tiles/shapes/0/0/0.png").status, 404, "not the set's extension")
        for bad in ["31/0/0", "3/8/0", "3/0/8", "-1/0/0", "2/-1/0", "a/0/0", "2/1.5/0", "2/1/", "99999999999999999999/0/0"] {
            XCTAssertEqual(try client.send("/tiles/shapes/\(bad).mvt").status, 400, bad)
        }
        // The live KML set: a tile away from the lake does not exist.
        XCTAssertEqual(try client.send("/tiles/lake/4/0/0.mvt").status, 404)
        XCTAssertEqual(try client.send("/tiles/lake/1/1/0.mvt").status, 200)
    }

    func testNothingOutsideTheServedFilesIsReachable() throws {
        // A directory tile whose file links out of the set: absent, though its bytes are a tile.
        let outside = folder.appendingPathComponent("outside.mvt")
        let dirSet = try XCTUnwrap(archives["shapes-dir"])
        let real = try XCTUnwrap(try dirSet.reader.tileIDs().first)
        try Data(try XCTUnwrap(try dirSet.reader.tile(real))).write(to: outside)
        let zoomFolder = folder.appendingPathComponent("shapes-dir/4/0")
        try FileManager.default.createDirectory(at: zoomFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: zoomFolder.appendingPathComponent("0.mvt"), withDestinationURL: outside)
        let secret = folder.appendingPathComponent("secret.txt")
        try "root:x:0:0:secret".write(to: secret, atomically: true, encoding: .utf8)
        let linked = try LockedTileSet(TileSet(path: folder.appendingPathComponent("shapes-dir").path))
        XCTAssertNil(try linked.storedTile(TileID(z: 4, x: 0, y: 0)), "a symbolic link out of the directory")

        let targets = ["/../../../../etc/passwd", "/tiles/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                       "/tiles/shapes/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/tiles/%2e%2e%2f%2e%2e%2fetc%2fpasswd/0/0/0.mvt",
                       "//etc/passwd", "/etc/passwd", "\(secret.path)", "/tiles/shapes-dir/../../secret.txt",
                       "/tilesets/..%2f..%2fsecret.txt", "/tilesets/%2e%2e%2fshapes.json", "/maplibre-gl.js/../../etc/passwd",
                       "/tiles/shapes-dir/4/0/0.mvt", "http://127.0.0.1/etc/passwd", "/style.json/..", "/%00/etc/passwd"]
        for target in targets {
            let response = try client.send(target)
            XCTAssertTrue([400, 404].contains(response.status), "\(target): \(response.status)")
            let text = String(decoding: response.body, as: UTF8.self)
            XCTAssertFalse(text.contains("root:"), target)
        }
    }

    func testHundredConcurrentRequests() throws {
        let tiles = try archives["shapes.pmtiles"]!.reader.tileIDs()
        var targets = [(String, [UInt8]?)]()
        for index in 0..<100 {
            switch index % 4 {
            case 0: targets.append(("/style.json", nil))
            case 1: targets.append(("/tilesets/lake.json", nil))
            default:
                let tile = tiles[index % tiles.count]
                targets.append(("/tiles/shapes/\(tile).mvt", try archives["shapes.pmtiles"]!.reader.tile(tile)))
            }
        }
        let responses = try client.sendAtOnce(targets.map(\.0))
        XCTAssertEqual(responses.count, 100)
        let style = try client.send("/style.json").body
        for ((target, expected), response) in zip(targets, responses) {
            XCTAssertEqual(response.status, 200, target)
            if let expected { XCTAssertEqual(response.body, expected, target) }
            if target == "/style.json" { XCTAssertEqual(response.body, style) }
        }
    }

    func testKMLStylesReachTheTiles() throws {
        let response = try client.send("/tiles/lake/2/2/1.mvt")
        XCTAssertEqual(response.status, 200)
        let layers = try MVTTileDecoder().decodeLayers(response.body)
        XCTAssertEqual(layers.map(\.name), ["lake"])
        let properties = try XCTUnwrap(layers.first?.features.first?.properties)
        XCTAssertEqual(properties["fill"], .string("#0000ff"))
        XCTAssertEqual(properties["stroke"], .string("#0000ff"))
        XCTAssertEqual(properties["fill-opacity"]?.doubleValue ?? 0, 128.0 / 255, accuracy: 0.001)
    }

    func testStopClosesTheServer() async throws {
        XCTAssertEqual(try client.send("/style.json").status, 200)
        await server.stop()
        XCTAssertThrowsError(try client.send("/style.json"))
    }
}

/// The name, range and glyph count of a glyphs PBF, read with the wire format by hand.
struct DecodedGlyphNames {
    var name = "", range = "", glyphCount = 0

    init(_ bytes: [UInt8]) throws {
        var position = 0
        func varint() throws -> Int {
            var value = 0, shift = 0
            while position < bytes.count, shift < 63 {
                let byte = bytes[position]
                position += 1
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            throw CocoaError(.coderReadCorrupt)
        }
        // glyphs { fontstack stacks = 1 { name = 1, range = 2, glyph glyphs = 3 } }
        guard try varint() == (1 << 3 | 2) else { throw CocoaError(.coderReadCorrupt) }
        let end = try varint() + position
        guard end == bytes.count else { throw CocoaError(.coderReadCorrupt) }
        while position < end {
            let key = try varint()
            guard key & 7 == 2 else { throw CocoaError(.coderReadCorrupt) }
            let length = try varint()
            guard position + length <= end else { throw CocoaError(.coderReadCorrupt) }
            let field = bytes[position..<(position + length)]
            switch key >> 3 {
            case 1: name = String(decoding: field, as: UTF8.self)
            case 2: range = String(decoding: field, as: UTF8.self)
            case 3: glyphCount += 1
            default: throw CocoaError(.coderReadCorrupt)
            }
            position += length
        }
    }
}
