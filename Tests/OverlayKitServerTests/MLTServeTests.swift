import Foundation
import OverlayKit
import OverlayKitServer
import TestSupport
import XCTest

/// An MLT archive served to a MapLibre that reads MLT (the CDN default, a script of 5.12 or
/// later) as stored with `"encoding": "mlt"`, and to one that does not (5.3.0, a script naming
/// no release) as MVT, each tile transcoded to the features of the MVT archive of the same run.
final class MLTServeTests: XCTestCase {
    var folder: URL!
    var mlt: TileSet!
    var mvt: TileSet!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-mlt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("shapes.geojson")
        try PreviewServerTests.geojson.write(to: source, atomically: true, encoding: .utf8)
        for encoding in [TileEncoding.mlt, .mvt] {
            let output = folder.appendingPathComponent("shapes-\(encoding.rawValue).pmtiles").path
            var tiler = Tiler(output: output, layer: "shapes")
            tiler.options.maxZoom = 4
            tiler.encoding = encoding
            tiler.threads = 1
            var reader = try FeatureIO.reader(for: ByteInput(path: source.path))
            _ = try tiler.run(reading: &reader)
        }
        mlt = try TileSet(path: folder.appendingPathComponent("shapes-mlt.pmtiles").path)
        mvt = try TileSet(path: folder.appendingPathComponent("shapes-mvt.pmtiles").path)
        XCTAssertEqual(mlt.contentType, .mlt)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A MapLibre GL JS script whose license header names `version` (nil: no header).
    private func script(_ version: String?) throws -> String {
        let path = folder.appendingPathComponent("v\(version ?? "none")/maplibre-gl.js")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let header = version.map {
            "/**\n * MapLibre GL JS\n * @license 3-Clause BSD. Full text of license: https://github.com/maplibre/maplibre-gl-js/blob/v\($0)/LICENSE.txt\n */\n"
        } ?? ""
        try (header + "window.maplibregl = {};\n").write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// A server of the MLT archive for a page with `script` (nil: the CDN), and its client.
    private func serve(script: String?) async throws -> (PreviewServer, RawHTTPClient) {
        let site = try PreviewSite(tileSets: [ServedTileSet(id: "shapes", title: "shapes-mlt.pmtiles", provider: LockedTileSet(mlt))],
                                   options: .init(mapLibreScript: script))
        let server = try PreviewServer(site: site, host: "127.0.0.1", port: 0)
        return (server, RawHTTPClient(port: try await server.start()))
    }

    /// The style's source and the TileJSON's tiles template.
    private func source(_ client: RawHTTPClient) throws -> (source: [String: Any], tiles: [String]) {
        let style = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try client.send("/style.json").body)) as? [String: Any])
        let source = try XCTUnwrap((style["sources"] as? [String: [String: Any]])?["shapes"])
        let tileJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try client.send("/tilesets/shapes.json").body)) as? [String: Any])
        return (source, try XCTUnwrap(tileJSON["tiles"] as? [String]))
    }

    func testTheVersionIsReadFromTheScriptsHeader() throws {
        XCTAssertEqual(MapLibreScriptVersion(script: Array(try String(contentsOfFile: try script("5.3.0"), encoding: .utf8).utf8)),
                       MapLibreScriptVersion(major: 5, minor: 3, patch: 0))
        XCTAssertNil(MapLibreScriptVersion(script: Array("window.maplibregl = {};".utf8)))
        XCTAssertEqual(MapLibreScriptVersion("6.0.0-1"), MapLibreScriptVersion(major: 6, minor: 0, patch: 0))
        for (text, reads) in [("5.3.0", false), ("5.11.9", false), ("5.12.0", true), ("5.24.0", true), ("6.11.1", true)] {
            XCTAssertEqual(try XCTUnwrap(MapLibreScriptVersion(Substring(text))).readsMLT, reads, text)
        }
        for bad in ["5.3", "5.3.x", "", "5..0", "1234567.0.0"] { XCTAssertNil(MapLibreScriptVersion(Substring(bad)), bad) }
        XCTAssertTrue(try XCTUnwrap(MapLibreScriptVersion(Substring(PreviewSite.mapLibreVersion))).readsMLT, "the CDN default reads MLT")
    }

    func testAMapLibreThatReadsMLTGetsTheStoredTiles() async throws {
        for script in [nil, try script("5.12.0")] {
            let (server, client) = try await serve(script: script)
            XCTAssertTrue(server.site.notes.isEmpty, "\(server.site.notes)")
            XCTAssertTrue(server.site.mapLibreReadsMLT)
            let (source, tiles) = try source(client)
            XCTAssertEqual(source["encoding"] as? String, "mlt", "\(script ?? "CDN")")
            XCTAssertEqual(tiles, ["http://127.0.0.1:\(client.port)/tiles/shapes/{z}/{x}/{y}.mlt"])
            var checked = 0
            for tile in try mlt.reader.tileIDs() {
                let stored = try XCTUnwrap(try mlt.reader.storedTile(tile))
                let response = try client.send("/tiles/shapes/\(tile).mlt", headers: ["Accept-Encoding": "gzip"])
                XCTAssertEqual(response.status, 200)
                XCTAssertEqual(response.body, stored.bytes, "\(tile) as stored")
                XCTAssertEqual(response.headers["content-type"], "application/vnd.maplibre-vector-tile")
                checked += 1
            }
            XCTAssertGreaterThan(checked, 10)
            await server.stop()
        }
    }

    func testAMapLibreBeforeMLTGetsMVTWithTheSameFeatures() async throws {
        let mvtDecoder = MVTTileDecoder()
        for script in [try script("5.3.0"), try script(nil)] {
            let (server, client) = try await serve(script: script)
            XCTAssertFalse(server.site.mapLibreReadsMLT)
            XCTAssertEqual(server.site.notes.count, 1)
            XCTAssertTrue(server.site.notes.first?.contains("shapes-mlt.pmtiles is served as MVT") ?? false, "\(server.site.notes)")
            let (source, tiles) = try source(client)
            XCTAssertNil(source["encoding"], "MVT, the default encoding")
            XCTAssertEqual(tiles, ["http://127.0.0.1:\(client.port)/tiles/shapes/{z}/{x}/{y}.mvt"])
            XCTAssertEqual(try client.send("/tiles/shapes/0/0/0.mlt").status, 404)
            let ids = try mlt.reader.tileIDs()
            XCTAssertEqual(Set(ids), Set(try mvt.reader.tileIDs()))
            for tile in ids {
                let plain = try client.send("/tiles/shapes/\(tile).mvt")
                XCTAssertEqual(plain.status, 200)
                XCTAssertEqual(plain.headers["content-type"], "application/vnd.mapbox-vector-tile")
                XCTAssertNil(plain.headers["content-encoding"])
                XCTAssertEqual(try mvtDecoder.decodeLayers(plain.body), try mvtDecoder.decodeLayers(try XCTUnwrap(try mvt.reader.tile(tile))),
                               "\(tile): the MVT twin's features")
                let gzip = try client.send("/tiles/shapes/\(tile).mvt", headers: ["Accept-Encoding": "gzip"])
                XCTAssertEqual(gzip.headers["content-encoding"], "gzip")
                let tag = try XCTUnwrap(gzip.headers["etag"])
                XCTAssertEqual(try client.send("/tiles/shapes/\(tile).mvt", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag]).status, 304)
            }
            XCTAssertEqual(try client.send("/tiles/shapes/9/0/0.mvt").status, 404)
            await server.stop()
        }
    }
}
