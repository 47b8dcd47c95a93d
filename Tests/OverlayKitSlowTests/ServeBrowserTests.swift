import Foundation
import TestSupport
import XCTest

/// The `serve` page in a real browser: headless Chromium, driven over its DevTools protocol by
/// Tests/Scripts/serve_browser.py, loads the page with MapLibre GL JS from the PyPI `maplibre`
/// wheel, the map reaches idle (the page's own idle promise, no fixed wait) with no console
/// error, and its screenshot fills the pixels `overlaykit render` fills for the same view
/// (IoU ≥ 0.9): a GeoJSON file tiled on the fly, a styled KML (each of its colors on its own;
/// a polygon with `<outline>0</outline>` draws no outline), a PMTiles archive (which `render`
/// draws from the same tiles) and an MLT archive (served as MVT to the wheel's 5.3.0). Labels draw with the glyphs `serve` makes. MapLibre's zoom counts
/// 512-pixel tiles, `render --zoom` 256-point ones: MapLibre zoom z is render zoom z + 1.
final class ServeBrowserTests: XCTestCase {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/Scripts/serve_browser.py")

    struct View {
        var latitude: Double, longitude: Double, zoom: Double, width = 800, height = 500
    }

    /// A running `overlaykit serve`: its address and what it printed on standard error.
    final class RunningServe: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var printed = Data()
        private let started = DispatchSemaphore(value: 0)
        private(set) var origin = ""

        init(_ arguments: [String]) throws {
            process.executableURL = CLI.binary
            process.arguments = ["serve"] + arguments + ["--port", "0"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                guard let self else { return }
                if chunk.isEmpty { handle.readabilityHandler = nil }
                self.lock.lock()
                self.printed += chunk
                let text = String(decoding: self.printed, as: UTF8.self)
                let found = self.origin.isEmpty ? text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) : nil
                if let found { self.origin = String(text[found]) }
                self.lock.unlock()
                if found != nil || chunk.isEmpty { self.started.signal() }
            }
            try process.run()
            // The address line comes once the socket listens (or serve ends and says why).
            _ = started.wait(timeout: .now() + 60)
            guard !origin.isEmpty else {
                stop()
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not start: \(stderr)"])
            }
        }

        var stderr: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: printed, as: UTF8.self)
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
    }

    /// MapLibre GL JS from the wheel, Chromium and numpy, or a skip.
    private func prerequisites() throws -> (python: URL, mapLibre: String) {
        try Prerequisite.require(CLI.which("chromium") != nil || CLI.which("chromium-browser") != nil, "chromium not found (Debian: chromium)")
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["numpy"], install: "pip install numpy"))
        let found = try CLI.runTool(python, ["-c", "import importlib.util, os; s = importlib.util.find_spec('maplibre'); "
            + "print(os.path.join(s.submodule_search_locations[0], 'srcjs', 'maplibre-gl.js') if s else '')"])
        let path = found.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try Prerequisite.require(!path.isEmpty && FileManager.default.fileExists(atPath: path), "PyPI maplibre not installed (pip install maplibre)")
        return (python, path)
    }

    /// Opens `path` (with `#zoom/lat/lon`, `?…`) of `serve` in Chromium and returns the script's
    /// report; fails unless the map went idle with no error.
    private func browse(_ serve: RunningServe, _ path: String, size: String, screenshot: URL, options: [String] = [],
                        python: URL) throws -> [String: Any] {
        let result = try CLI.runTool(python, [Self.script.path, serve.origin + path, size, screenshot.path] + options)
        try Prerequisite.require(result.status != 3, result.stdoutText)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        print("serve page \(path): \(result.stdoutText)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stdoutText + result.stderr)
        XCTAssertEqual((report["errors"] as? [Any])?.count, 0, "console errors: \(report["errors"] ?? "none reported")")
        XCTAssertNotNil(report["idle_seconds"], "the map reached idle")
        XCTAssertFalse(serve.stderr.contains("serve: browser error"), serve.stderr)
        return report
    }

    /// Serves `input`, screenshots `view` with the panel hidden, renders the same view, and
    /// returns the IoU (per color with `colors`).
    private func compare(_ input: URL, view: View, colors: [String] = [], absent: String? = nil, folder: URL,
                         served: (RunningServe) -> Void = { _ in }) throws -> Double {
        let (python, mapLibre) = try prerequisites()
        let serve = try RunningServe([input.path, "--maplibre-js", mapLibre])
        defer { serve.stop() }
        served(serve)
        let reference = folder.appendingPathComponent("render.png")
        let render = try CLI.run(["render", input.path, "-o", reference.path, "--center", "\(view.latitude),\(view.longitude)",
                                  "--zoom", "\(view.zoom)", "--size", "\(view.width)x\(view.height)"])
        XCTAssertEqual(render.status, 0, render.stderr)
        var options = ["--reference=" + reference.path]
        if !colors.isEmpty { options.append("--colors=" + colors.joined(separator: ",")) }
        if let absent { options.append("--absent=" + absent) }
        let report = try browse(serve, "/?panel=0#\(view.zoom - 1)/\(view.latitude)/\(view.longitude)", size: "\(view.width)x\(view.height)",
                                screenshot: folder.appendingPathComponent("page.png"), options: options, python: python)
        if absent != nil { XCTAssertLessThanOrEqual(report["absent_pixels"] as? Int ?? .max, 20, "pixels of \(absent!)") }
        return try XCTUnwrap(report["iou"] as? Double)
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
        // The orange LineStyle belongs to a polygon with <outline>0</outline>: it must not show.
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Style id="red"><LineStyle><color>ff0000cc</color><width>2</width></LineStyle><PolyStyle><color>ff0000cc</color></PolyStyle></Style>
            <Style id="green"><LineStyle><color>ff00aa00</color><width>2</width></LineStyle><PolyStyle><color>ff00aa00</color></PolyStyle></Style>
            <Style id="blue"><LineStyle><color>ffaa5500</color><width>6</width></LineStyle></Style>
            <Style id="bare"><LineStyle><color>ff0088ff</color><width>4</width></LineStyle><PolyStyle><color>ff00aa00</color><outline>0</outline></PolyStyle></Style>
            <Placemark><name>Red</name><styleUrl>#red</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>-4,50 1,50 1,54 -4,54 -4,50</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            <Placemark><name>Green</name><styleUrl>#green</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>3,49 8,49 6,54 3,53 3,49</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            <Placemark><name>Blue</name><styleUrl>#blue</styleUrl><LineString><coordinates>-6,47 2,48 10,47</coordinates></LineString></Placemark>
            <Placemark><name>Bare</name><styleUrl>#bare</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>9,50 11,50 11,52 9,52 9,50</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
            </Document></kml>
            """.write(to: source, atomically: true, encoding: .utf8)
        let iou = try compare(source, view: View(latitude: 50.5, longitude: 3, zoom: 5.6), colors: ["#cc0000", "#00aa00", "#0055aa"],
                              absent: "#ff8800", folder: folder)
        XCTAssertGreaterThanOrEqual(iou, 0.9)
    }

    func testPMTilesPageLooksLikeRenderOfTheArchive() throws {
        let folder = try CLI.temporaryFolder(self)
        let tiles = folder.appendingPathComponent("countries.pmtiles")
        let tile = try CLI.run(["tile", CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path, "-o", tiles.path, "-z6"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        let iou = try compare(tiles, view: View(latitude: 48, longitude: 10, zoom: 5), folder: folder)
        XCTAssertGreaterThanOrEqual(iou, 0.9)
    }

    /// The wheel's MapLibre (5.3.0) reads no MLT: `serve` says so and serves the MLT archive as
    /// MVT, which draws as `render` draws the MLT tiles.
    func testMLTArchivePageWithAMapLibreBeforeMLT() throws {
        let folder = try CLI.temporaryFolder(self)
        let tiles = folder.appendingPathComponent("countries-mlt.pmtiles")
        let tile = try CLI.run(["tile", CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path, "-o", tiles.path, "-z6",
                                "--tile-format", "mlt"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        var printed = ""
        let iou = try compare(tiles, view: View(latitude: 48, longitude: 10, zoom: 5), folder: folder) { printed = $0.stderr }
        XCTAssertTrue(printed.contains("serve: note: MapLibre GL JS 5.3.0") && printed.contains("countries-mlt.pmtiles is served as MVT"), printed)
        print("MLT archive through MapLibre GL JS 5.3.0: IoU \(iou)")
        XCTAssertGreaterThanOrEqual(iou, 0.9)
    }

    func testLabelsDrawWithTheServedGlyphs() throws {
        let (python, mapLibre) = try prerequisites()
        let folder = try CLI.temporaryFolder(self)
        let source = folder.appendingPathComponent("towns.geojson")
        try #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":"Lighthouse Bay"},"geometry":{"type":"Point","coordinates":[4,50]}},
            {"type":"Feature","properties":{"title":"Åre"},"geometry":{"type":"Point","coordinates":[14,46]}}]}
            """#.write(to: source, atomically: true, encoding: .utf8)
        let serve = try RunningServe([source.path, "--maplibre-js", mapLibre])
        defer { serve.stop() }
        let places = [(4.0, 50.0, "Lighthouse Bay"), (14.0, 46.0, "Åre")]
        let report = try browse(serve, "/?panel=0#5/48/9", size: "800x500", screenshot: folder.appendingPathComponent("labels.png"),
                                options: places.map { "--label=\($0.0),\($0.1),\($0.2)" }, python: python)
        let labels = try XCTUnwrap(report["labels"] as? [[String: Any]])
        XCTAssertEqual(labels.count, places.count)
        for (label, place) in zip(labels, places) {
            let text = place.2
            let drawn = try XCTUnwrap(label["drawn_width"] as? Int), expected = try XCTUnwrap(label["expected_width"] as? Double)
            // Text pixels below the point, as wide as the glyphs' advances say (12 px text), centered.
            XCTAssertGreaterThan(label["dark_pixels"] as? Int ?? 0, 6 * text.count, text)
            XCTAssertEqual(Double(drawn), expected, accuracy: max(4, expected * 0.15), text)
            XCTAssertEqual(label["center_offset"] as? Double ?? 99, 0, accuracy: 4, "centered under the point: \(text)")
        }
    }
}
