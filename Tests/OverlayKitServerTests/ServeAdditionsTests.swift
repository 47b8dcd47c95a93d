import Foundation
import OverlayKit
@testable import OverlayKitServer
import XCTest

/// What issue 48 and 51 added to the site: `/catalog`, a colour per source, the page's notice
/// when MapLibre does not load, log text that cannot reach the terminal raw, tiles inflated as
/// they are sent.
final class ServeAdditionsTests: XCTestCase {
    private func features(_ name: String) throws -> FeatureTileSet {
        let feature = Feature(shape: .polygon(Polygon(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 10),
                                                                        Coordinate(latitude: 10, longitude: 10), Coordinate(latitude: 0, longitude: 0)])))
        return try FeatureTileSet(features: [feature], layer: name)
    }

    func testCatalogAndAColourPerSource() throws {
        let site = try PreviewSite(tileSets: ["a", "b", "c"].map { ServedTileSet(id: $0, title: "\($0).geojson", provider: try features($0)) })
        let catalog = site.respond(method: "GET", path: "/catalog", headers: [], origin: "http://h:1")
        XCTAssertEqual(catalog.status, 200)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(catalog.body)) as? [String: Any])
        let tiles = try XCTUnwrap(document["tiles"] as? [String: [String: Any]])
        XCTAssertEqual(tiles.keys.sorted(), ["a", "b", "c"])
        XCTAssertEqual(tiles["b"]?["tiles"] as? String, "http://h:1/tiles/b/{z}/{x}/{y}.mvt")
        XCTAssertEqual(tiles["b"]?["content_type"] as? String, "application/vnd.mapbox-vector-tile")
        XCTAssertEqual(tiles["b"]?["maxzoom"] as? Int, 14)
        XCTAssertEqual((document["fonts"] as? [String: Any])?.keys.sorted(), ["DejaVu Sans"])

        let style = site.style(origin: "http://h:1").json()
        guard case .array(let layers)? = style["layers"] else { return XCTFail("no layers") }
        func fallback(_ id: String) -> JSONValue? {
            for case .object(let layer) in layers where layer["id"] == .string(id) {
                guard case .object(let paint)? = layer["paint"], case .array(let color)? = paint["fill-color"] else { return nil }
                return color.last
            }
            return nil
        }
        // The first keeps render's blue; the others each a colour of their own.
        XCTAssertEqual(fallback("a/a/fill"), .string("#3366cc"))
        XCTAssertEqual(fallback("b/b/fill"), .string(MapLibreStyle.sourceColors[0]))
        XCTAssertEqual(fallback("c/c/fill"), .string(MapLibreStyle.sourceColors[1]))
    }

    func testThePageSaysWhenMapLibreDoesNotLoad() throws {
        let site = try PreviewSite(tileSets: [])
        let page = String(decoding: site.respond(method: "GET", path: "/", headers: [], origin: "").body, as: UTF8.self)
        XCTAssertTrue(page.contains("typeof maplibregl === 'undefined'"), page)
        XCTAssertTrue(page.contains("MapLibre GL JS could not load from") && page.contains("--maplibre-js FILE"), page)
        XCTAssertTrue(page.contains(#""script":"https://unpkg.com/maplibre-gl@\#(PreviewSite.mapLibreVersion)/dist/maplibre-gl.js""#), page)
    }

    func testLogTextCannotReachTheTerminalRaw() {
        XCTAssertEqual(LogText.escaped("a\u{1b}[31mb\nserve: stopped\r\u{7f}\u{85}\u{2028}\\z"),
                       #"a\x1b[31mb\x0aserve: stopped\x0d\x7f\u{85}\u{2028}\\z"#)
        XCTAssertEqual(LogText.escaped(String(repeating: "x", count: 10), limit: 4), "xxxx…")
        XCTAssertEqual(LogText.escaped("Zürich 東京", limit: 100), "Zürich 東京")
        let entry = RequestLogEntry(client: "127.0.0.1:5", method: "GET", target: "/a\u{1b}b", status: 404, bytes: 10, milliseconds: 1.234)
        XCTAssertEqual(entry.line, #"127.0.0.1:5 "GET /a\x1bb" 404 10 B 1.2 ms"#)
        // A client event is escaped and capped before anyone prints it.
        var events = [PreviewSite.ClientEvent]()
        let site = try? PreviewSite(tileSets: [])
        _ = site?.respond(method: "GET", path: "/client-event?type=error&message=%1b%5b2J" + String(repeating: "y", count: 3000),
                          headers: [], origin: "") { events.append($0) }
        XCTAssertEqual(events.first?.type, "error")
        XCTAssertEqual(events.first?.message.hasPrefix(#"\x1b[2Jyyy"#), true)
        XCTAssertEqual(events.first?.message.count, 500 + 3 + 1)
    }

    func testServerLimitsDefaults() {
        let limits = ServerLimits()
        XCTAssertEqual(limits.requestLineBytes, 8192)
        XCTAssertEqual(limits.headerBytes, 65536)
        XCTAssertGreaterThanOrEqual(limits.connectionCap, 16)
        var capped = limits
        capped.maxConnections = 7
        XCTAssertEqual(capped.connectionCap, 7)
    }
}
