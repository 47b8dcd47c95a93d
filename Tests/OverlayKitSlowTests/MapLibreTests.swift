import Foundation
import TestSupport
import XCTest

/// MapLibre GL JS (the client most tile users run) draws our tiles in headless Chromium, and the
/// filled pixels agree with `overlaykit render` of the same data and camera. MapLibre's zoom
/// counts 512-pixel tiles and ours (`render --zoom`) 256-point ones, so MapLibre zoom z is our
/// zoom z + 1. The page, the loopback server and the pixel comparison are in
/// Tests/Scripts/maplibre_screenshot.py; MapLibre comes from the PyPI wheel `maplibre`.
final class MapLibreTests: XCTestCase {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/Scripts/maplibre_screenshot.py")

    /// Black fill, no outline, on white: what the page draws too.
    static let style = ##"{"default": {"fill": "#000000", "fill-opacity": 1, "outline": false, "stroke": "none"}}"##

    struct Camera {
        var latitude: Double, longitude: Double, renderZoom: Double, width: Int, height: Int
        var bearing = 0.0, pitch = 0.0
        var mapLibreZoom: Double { renderZoom - 1 }
    }

    private func usStates() throws -> URL {
        try Prerequisite.corpus("geojson-vt/fixtures/us-states.json")
    }

    /// The IoU of MapLibre's filled pixels against `overlaykit render`'s, for tiles at `tiles`.
    private func intersectionOverUnion(tiles: URL, source: URL, camera: Camera, folder: URL, screenshot: URL) throws -> Double {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: [], install: "Debian: python3"))
        let styleFile = folder.appendingPathComponent("style.json")
        try Self.style.write(to: styleFile, atomically: true, encoding: .utf8)
        let reference = folder.appendingPathComponent("render-\(UUID().uuidString).png")
        let render = try CLI.run(["render", source.path, "-o", reference.path, "--center", "\(camera.latitude),\(camera.longitude)",
                                  "--zoom", "\(camera.renderZoom)", "--size", "\(camera.width)x\(camera.height)", "--style", styleFile.path,
                                  "--bearing", "\(camera.bearing)", "--pitch", "\(camera.pitch)"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let result = try CLI.runTool(python, [Self.script.path, "--bearing=\(camera.bearing)", "--pitch=\(camera.pitch)", tiles.path, "states", "\(camera.latitude),\(camera.longitude)",
                                              "\(camera.mapLibreZoom)", "\(camera.width)x\(camera.height)", screenshot.path, reference.path])
        let output = result.stdoutText
        try Prerequisite.require(result.status != 3, output.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(result.status, 0, output + result.stderr)
        print("MapLibre vs render: \(output)")
        guard let field = output.split(separator: " ").first(where: { $0.hasPrefix("iou=") }), let iou = Double(field.dropFirst(4)) else {
            XCTFail("no IoU in: \(output) \(result.stderr)")
            return 0
        }
        return iou
    }

    func testMapLibreDrawsTileDirectoryLikeRender() throws {
        let source = try usStates()
        let folder = try CLI.temporaryFolder(self)
        let tiles = folder.appendingPathComponent("tiles")
        let tile = try CLI.run(["tile", source.path, "-o", tiles.path, "--max-zoom", "5", "--layer", "states"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        // The whole lower 48 at a whole zoom, then a fractional zoom off the tile grid.
        for camera in [Camera(latitude: 39, longitude: -96, renderZoom: 4, width: 800, height: 500),
                       Camera(latitude: 41.3, longitude: -77.7, renderZoom: 6.4, width: 640, height: 480)] {
            let screenshot = folder.appendingPathComponent("maplibre-\(camera.renderZoom).png")
            let iou = try intersectionOverUnion(tiles: tiles, source: source, camera: camera, folder: folder, screenshot: screenshot)
            XCTAssertGreaterThanOrEqual(iou, 0.95, "camera \(camera)")
            if let keep = ProcessInfo.processInfo.environment["OVERLAYKIT_KEEP_SCREENSHOT"], camera.renderZoom == 4 {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(at: screenshot, to: URL(fileURLWithPath: keep))
            }
        }
    }

    /// The same through the shard-and-join path: two halves tiled apart, joined by
    /// `tile-join` into a PMTiles archive, drawn by MapLibre like the whole file rendered by `render`.
    func testMapLibreDrawsJoinedTilesLikeRender() throws {
        let source = try usStates()
        let folder = try CLI.temporaryFolder(self)
        let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        var shards = [String]()
        for (index, half) in [features.prefix(features.count / 2), features.dropFirst(features.count / 2)].enumerated() {
            let file = folder.appendingPathComponent("half-\(index).geojson")
            try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": Array(half)]).write(to: file)
            let tiles = folder.appendingPathComponent("half-\(index)")
            let tile = try CLI.run(["tile", file.path, "-o", tiles.path, "--max-zoom", "5", "--layer", "states"])
            XCTAssertEqual(tile.status, 0, tile.stderr)
            shards.append(tiles.path)
        }
        // Joined into our PMTiles archive, served z/x/y by the test's handler via PyPI pmtiles.
        let joined = folder.appendingPathComponent("joined.pmtiles")
        let join = try CLI.run(["tile-join"] + shards + ["-o", joined.path])
        XCTAssertEqual(join.status, 0, join.stderr)
        let camera = Camera(latitude: 39, longitude: -96, renderZoom: 4, width: 800, height: 500)
        let iou = try intersectionOverUnion(tiles: joined, source: source, camera: camera, folder: folder,
                                            screenshot: folder.appendingPathComponent("joined.png"))
        XCTAssertGreaterThanOrEqual(iou, 0.95)
    }

    /// The pitched camera: MapLibre's own perspective (its field of view, its camera-to-center
    /// distance) draws a checkerboard with a holed square turned 20° at pitch 0, 30, 45 and 60,
    /// and `render --pitch` fills the same pixels. MapLibre draws our tiles of the file (its
    /// GeoJSON source never settles under headless Chromium's virtual time); the flat tests
    /// above show the tiles themselves draw like `render`. Set OVERLAYKIT_KEEP_PITCHED to a
    /// folder to keep both 60° images (docs/images/render-pitch-60-*.png come from there).
    func testMapLibreDrawsThePitchedCameraLikeRender() throws {
        let folder = try CLI.temporaryFolder(self)
        var features = [String]()
        for column in -10..<10 {
            for row in -6..<8 where (column + row) % 2 == 0 {
                let west = Double(column) * 2, south = Double(row) * 2
                features.append(#"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[\#(west),\#(south)],"#
                    + #"[\#(west + 2),\#(south)],[\#(west + 2),\#(south + 2)],[\#(west),\#(south + 2)],[\#(west),\#(south)]]]}}"#)
            }
        }
        features.append(#"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":["#
            + #"[[-30,20],[-20,20],[-20,30],[-30,30],[-30,20]],[[-27,23],[-27,27],[-23,27],[-23,23],[-27,23]]]}}"#)
        let source = folder.appendingPathComponent("checker.geojson")
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").write(to: source, atomically: true, encoding: .utf8)
        let tiles = folder.appendingPathComponent("tiles")
        let tile = try CLI.run(["tile", source.path, "-o", tiles.path, "--max-zoom", "6", "--layer", "states"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        var results = [String]()
        for pitch in [0.0, 30, 45, 60] {
            let camera = Camera(latitude: 8, longitude: -5, renderZoom: 4.6, width: 800, height: 500, bearing: 20, pitch: pitch)
            let screenshot = folder.appendingPathComponent("maplibre-pitch-\(Int(pitch)).png")
            let iou = try intersectionOverUnion(tiles: tiles, source: source, camera: camera, folder: folder, screenshot: screenshot)
            results.append("pitch \(Int(pitch)): IoU \(iou)")
            XCTAssertGreaterThanOrEqual(iou, 0.95, "pitch \(pitch)")
            if let keep = ProcessInfo.processInfo.environment["OVERLAYKIT_KEEP_PITCHED"], pitch == 60 {
                let ours = URL(fileURLWithPath: keep).appendingPathComponent("render-pitch-60-overlaykit.png")
                let theirs = URL(fileURLWithPath: keep).appendingPathComponent("render-pitch-60-maplibre.png")
                for url in [ours, theirs] { try? FileManager.default.removeItem(at: url) }
                try FileManager.default.copyItem(at: screenshot, to: theirs)
                let render = try CLI.run(["render", source.path, "-o", ours.path, "--center", "8,-5", "--zoom", "4.6",
                                          "--size", "800x500", "--bearing", "20", "--pitch", "60",
                                          "--style", folder.appendingPathComponent("style.json").path])
                XCTAssertEqual(render.status, 0, render.stderr)
            }
        }
        print("MapLibre vs render --pitch: " + results.joined(separator: ", "))
    }
}
