import Foundation
import TestSupport
import XCTest

/// `overlaykit serve` as a process: the address it prints answers, SIGINT and SIGTERM stop it
/// cleanly (exit 0, "serve: stopped"), and an address it cannot listen on is exit 74.
final class ServeCommandTests: XCTestCase {
    /// Starts `serve ARGUMENTS --port 0`, returns the process, its address and its standard error so far.
    private func start(_ arguments: [String]) throws -> (process: Process, address: String, errors: Pipe) {
        CLI.ignoreBrokenPipes()
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        // A feature file is tiled first ("serve: tiling …"): read on to the address line.
        while Date() < deadline, text.range(of: #"http://127\.0\.0\.1:[0-9]+[^\n]*\n"#, options: .regularExpression) == nil {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not start; it printed: \(text)"])
        }
        return (process, String(text[range]), errors)
    }

    /// GET of `address + path` over a loopback socket (no URLSession: no FoundationNetworking).
    private func get(_ url: String) throws -> (status: Int, body: Data) {
        guard let range = url.range(of: #"^http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
              let port = Int(url[range].split(separator: ":").last ?? "") else { throw LoopbackHTTP.Failure(description: url) }
        let response = try LoopbackHTTP(port: port).get(String(url[range.upperBound...]), seconds: 30)
        return (response.status, Data(response.body))
    }

    func testServesAndStopsOnSIGINTAndSIGTERM() throws {
        let folder = try CLI.temporaryFolder(self)
        let tiles = folder.appendingPathComponent("countries.pmtiles")
        XCTAssertEqual(try CLI.run(["tile", CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path, "-o", tiles.path, "-z3"]).status, 0)
        for signalNumber in [SIGINT, SIGTERM] {
            let (process, address, errors) = try start([tiles.path, CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path])
            let style = try get(address + "/style.json")
            XCTAssertEqual(style.status, 200)
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: style.body) as? [String: Any])
            XCTAssertEqual((document["sources"] as? [String: Any])?.keys.sorted(), ["countries", "parks"])
            XCTAssertEqual(try get(address + "/tiles/countries/0/0/0.mvt").status, 200)
            XCTAssertEqual(try get(address + "/tiles/countries/0/0/1.mvt").status, 400)
            XCTAssertEqual(try get(address + "/tiles/parks/14/0/0.mvt").status, 404)
            XCTAssertEqual(try get(address + "/").status, 200)
            kill(process.processIdentifier, signalNumber)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            XCTAssertFalse(process.isRunning, "still running after signal \(signalNumber)")
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit)
            XCTAssertEqual(process.terminationStatus, 0)
            let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(rest.contains("serve: stopped"), rest)
        }
    }

    /// `serve FILE` tiles the file as `tile FILE` does, with the same defaults: served beside
    /// `tile`'s archive of it, every tile over the data at every zoom has the same status and the
    /// same stored bytes from both.
    func testAFeatureFileIsServedAsTileTilesIt() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path
        let archive = folder.appendingPathComponent("tiled.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", input, "-o", archive]).status, 0)
        let server = try ServeProcess([archive, input, "--quiet"])
        defer { _ = server.stop() }
        let http = LoopbackHTTP(port: server.port)
        let tileJSON = try http.get("/tilesets/tiled.json")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(tileJSON.body)) as? [String: Any])
        let bounds = try XCTUnwrap(document["bounds"] as? [Double])
        XCTAssertEqual(document["maxzoom"] as? Int, 14)
        func tile(_ longitude: Double, _ latitude: Double, _ zoom: Int) -> (x: Int, y: Int) {
            let side = Double(1 << zoom), radians = latitude * .pi / 180
            let y = (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * side
            return (min(Int(side) - 1, Int((longitude + 180) / 360 * side)), min(Int(side) - 1, max(0, Int(y))))
        }
        var served = 0
        for zoom in 0...14 {
            let (west, north) = tile(bounds[0], bounds[3], zoom), (east, south) = tile(bounds[2], bounds[1], zoom)
            for x in west...east {
                for y in north...south {
                    let archived = try http.get("/tiles/tiled/\(zoom)/\(x)/\(y).mvt", headers: ["Accept-Encoding": "gzip"])
                    let cut = try http.get("/tiles/parks/\(zoom)/\(x)/\(y).mvt", headers: ["Accept-Encoding": "gzip"])
                    XCTAssertEqual(cut.status, archived.status, "\(zoom)/\(x)/\(y)")
                    XCTAssertEqual(cut.body, archived.body, "\(zoom)/\(x)/\(y)")
                    if archived.status == 200 { served += 1 }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(served, 15)
    }

    func testAddressesItCannotListenOn() throws {
        let parks = CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path
        let host = try CLI.run(["serve", parks, "--host", "not-an-address", "--port", "0"])
        XCTAssertEqual(host.status, 74, host.stderr)
        XCTAssertTrue(host.stderr.contains("io.listen-failed"), host.stderr)
        let (process, address, _) = try start([parks])
        defer { process.terminate(); process.waitUntilExit() }
        let port = String(address.split(separator: ":").last!)
        let taken = try CLI.run(["serve", parks, "--port", port])
        XCTAssertEqual(taken.status, 74, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("io.listen-failed"), taken.stderr)
        XCTAssertEqual(try CLI.run(["serve"]).status, 64)
        // --font names a font on the --glyphs host; serve's own glyphs are DejaVu Sans.
        XCTAssertEqual(try CLI.run(["serve", parks, "--font", "Open Sans Regular"]).status, 64)
        XCTAssertEqual(try CLI.run(["serve", "/nonexistent/file.geojson"]).status, 74)
    }
}
