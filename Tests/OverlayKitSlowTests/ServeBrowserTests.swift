import Foundation
import TestSupport
import XCTest

/// The `serve` page in a real browser: headless Chromium loads it with MapLibre GL JS from the
/// PyPI `maplibre` wheel, the map reaches idle with no error, and its screenshot fills the
/// pixels `overlaykit render` fills for the same view (IoU ≥ 0.9): a GeoJSON file tiled on the
/// fly, a styled KML (each of its colors on its own) and a PMTiles archive (which `render`
/// draws from the same tiles). MapLibre's zoom counts 512-pixel tiles, `render --zoom` 256-point
/// ones: MapLibre zoom z is render zoom z + 1. Set OVERLAYKIT_KEEP_SERVE_SCREENSHOTS to a folder
/// to keep the preview and inspector pictures (docs/images/serve-*.png come from there).
final class ServeBrowserTests: XCTestCase {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/Scripts/serve_screenshot.py")

    struct View {
        var latitude: Double, longitude: Double, zoom: Double, width = 800, height = 500
    }

    /// MapLibre GL JS from the wheel, or a skip.
    private func mapLibreScript(_ python: URL) throws -> String {
        let found = try CLI.runTool(python, ["-c", "import importlib.util, os; s = importlib.util.find_spec('maplibre'); "
            + "print(os.path.join(s.submodule_search_locations[0], 'srcjs', 'maplibre-gl.js') if s else '')"])
        let path = found.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try Prerequisite.require(!path.isEmpty && FileManager.default.fileExists(atPath: path), "PyPI maplibre not installed (pip install maplibre)")
        return path
    }

    /// Serves `input`, screenshots `view` with the panel hidden, renders the same view, and
    /// returns the script's IoU line.
    private func compare(_ input: URL, view: View, colors: [String] = [], folder: URL, keep: String? = nil) throws -> Double {
        try Prerequisite.require(CLI.which("chromium") != nil || CLI.which("chromium-browser") != nil, "chromium not found (Debian: chromium)")
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: [], install: "Debian: python3"))
        let script = try mapLibreScript(python)
        let log = folder.appendingPathComponent("serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = CLI.binary
        server.arguments = ["serve", input.path, "--port", "0", "--maplibre-js", script]
        server.standardError = try FileHandle(forWritingTo: log)
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        var address: String?
        for _ in 0..<600 where address == nil {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) { address = String(text[range]) }
            if address == nil { usleep(100_000) }
        }
        let origin = try XCTUnwrap(address, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        let reference = folder.appendingPathComponent("render-\(UUID().uuidString).png")
        let render = try CLI.run(["render", input.path, "-o", reference.path, "--center", "\(view.latitude),\(view.longitude)",
                                  "--zoom", "\(view.zoom)", "--size", "\(view.width)x\(view.height)"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let screenshot = folder.appendingPathComponent("page-\(UUID().uuidString).png")
        let url = "\(origin)/?panel=0#\(view.zoom - 1)/\(view.latitude)/\(view.longitude)"
        var arguments = [Self.script.path, url, "\(view.width)x\(view.height)", log.path, screenshot.path, reference.path]
        if !colors.isEmpty { arguments.append("--colors=" + colors.joined(separator: ",")) }
        let result = try CLI.runTool(python, arguments)
        try Prerequisite.require(result.status != 3, result.stdoutText)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        print("serve page vs render (\(input.lastPathComponent)): \(result.stdoutText)")
        if let keep, let folder = ProcessInfo.processInfo.environment["OVERLAYKIT_KEEP_SERVE_SCREENSHOTS"] {
            // The page as a user sees it: panel, layer list, and the inspector open on a feature.
            let picture = URL(fileURLWithPath: folder).appendingPathComponent("serve-\(keep).png")
            try? FileManager.default.removeItem(at: picture)
            let shown = try CLI.runTool(python, [Self.script.path, "\(origin)/?inspect=\(view.longitude),\(view.latitude)",
                                                 "1000x600", log.path, picture.path])
            XCTAssertEqual(shown.status, 0, shown.stdoutText)
        }
        guard let field = result.stdoutText.split(separator: " ").first(where: { $0.hasPrefix("iou=") }),
              let iou = Double(field.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            XCTFail("no IoU in \(result.stdoutText)")
            return 0
        }
        return iou
    }

    func testGeoJSONPageLooksLikeRender() throws {
        let folder = try CLI.temporaryFolder(self)
        let source = folder.appendingPathComponent("shapes.geojson")
        try #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":"field","fill":"#cc3300","fill-opacity":1,"stroke":"#cc3300"},"geometry":{"type":"Polygon","coordinates":[[[2,46],[8,46],[8,50],[2,50],[2,46]],[[4,47],[6,47],[6,49],[4,49],[4,47]]]}},
            {"type":"Feature","properties":{"name":"park"},"geometry":{"type":"Polygon","coordinates":[[[10,44],[16,45],[14,50],[10,48],[10,44]]]}},
            {"type":"Feature","properties":{"name":"river","stroke":"#0044aa","stroke-width":5},"geometry":{"type":"LineString","coordinates":[[0,43],[6,44],[12,42],[18,46]]}}]}
            """#.write(to: source, atomically: true, encoding: .utf8)
        let iou = try compare(source, view: View(latitude: 46.5, longitude: 9, zoom: 5.5), folder: folder)
        XCTAssertGreaterThanOrEqual(iou, 0.9)
    }

    func testStyledKMLPageShowsItsColors() throws {
        let folder = try CLI.temporaryFolder(self)
        let source = folder.appendingPathComponent("colors.kml")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Style id="red"><LineStyle><color>ff0000cc</color><width>2</width></LineStyle><PolyStyle><color>ff0000cc</color></PolyStyle></Style>
            <Style id="green"><LineStyle><color>ff00aa00</color><width>2</width></LineStyle><PolyStyle><color>ff00aa00</color></PolyStyle></Style>
            <Style id="blue"><LineStyle><color>ffaa5500</color><width>6</width></LineStyle></Style>
            <Placemark><name>Red</name><styleUrl>#red</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>-4,50 1,50 1,54 -4,54 -4,50</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            <Placemark><name>Green</name><styleUrl>#green</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>3,49 8,49 6,54 3,53 3,49</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            <Placemark><name>Blue</name><styleUrl>#blue</styleUrl><LineString><coordinates>-6,47 2,48 10,47</coordinates></LineString></Placemark>
            </Document></kml>
            """.write(to: source, atomically: true, encoding: .utf8)
        let iou = try compare(source, view: View(latitude: 50.5, longitude: 2, zoom: 5.6), colors: ["#cc0000", "#00aa00", "#0055aa"],
                              folder: folder, keep: "kml")
        XCTAssertGreaterThanOrEqual(iou, 0.9)
    }

    func testPMTilesPageLooksLikeRenderOfTheArchive() throws {
        let folder = try CLI.temporaryFolder(self)
        let tiles = folder.appendingPathComponent("countries.pmtiles")
        let tile = try CLI.run(["tile", CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path, "-o", tiles.path, "-z6"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        let iou = try compare(tiles, view: View(latitude: 48, longitude: 10, zoom: 5), folder: folder, keep: "pmtiles")
        XCTAssertGreaterThanOrEqual(iou, 0.9)
    }
}
