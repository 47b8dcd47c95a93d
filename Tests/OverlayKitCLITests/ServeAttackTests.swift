#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TestSupport
import XCTest

/// `overlaykit serve` attacked as a process on the same host would attack it (issue 48): long
/// and slow requests, a crowd of idle connections at `ulimit -n 1024`, a symbolic-link race, a
/// FIFO, archives changed under the server, clients that never read, log injection. Each case
/// is bounded in time (and in memory where memory is the attack), and after each the server
/// still answers an ordinary tile request. Runs the binary `OVERLAYKIT_BINARY` names (CI: the
/// release build), else the debug product.
final class ServeAttackTests: XCTestCase {
    /// A PMTiles archive of the countries to z3 and a directory of the same tiles, made once.
    private static let fixtures: (folder: URL, pmtiles: URL, directory: URL)? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-attack-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let countries = CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path
        let pmtiles = folder.appendingPathComponent("countries.pmtiles"), directory = folder.appendingPathComponent("countries-dir")
        guard (try? CLI.run(["tile", countries, "-o", pmtiles.path, "-z3"]))?.status == 0,
              (try? CLI.run(["tile", countries, "-o", directory.path, "-z3"]))?.status == 0 else { return nil }
        return (folder, pmtiles, directory)
    }()

    private func fixtures() throws -> (folder: URL, pmtiles: URL, directory: URL) {
        try XCTUnwrap(Self.fixtures, "tile made no fixtures")
    }

    /// A copy of the fixture `source` in this test's own folder.
    private func copy(_ source: URL, as name: String) throws -> URL {
        let target = try CLI.temporaryFolder(self).appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }

    /// The ordinary request every case ends with.
    private func assertAnswers(_ http: LoopbackHTTP, _ set: String, file: StaticString = #filePath, line: UInt = #line) {
        let response = try? http.get("/tiles/\(set)/0/0/0.mvt", headers: ["Accept-Encoding": "gzip"])
        XCTAssertEqual(response?.status, 200, "the server answers an ordinary tile request", file: file, line: line)
    }

    private func elapsed(_ start: Date) -> Double { Date().timeIntervalSince(start) }

    func testLongAndSlowRequestsAreRefusedInLinearTime() throws {
        let server = try ServeProcess([try fixtures().pmtiles.path, "--header-timeout", "2"])
        let http = LoopbackHTTP(port: server.port)
        for size in [200_000, 1_000_000] {
            let start = Date()
            let response = http.exchange(Array("GET /\(String(repeating: "a", count: size)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let seconds = elapsed(start)
            XCTAssertEqual(response?.status, 414, "a request line of \(size) bytes")
            XCTAssertLessThanOrEqual(seconds, 1, "a request line of \(size) bytes refused in \(seconds) s")
            print("serve: a request line of \(size) bytes refused with \(response?.status ?? 0) in \(String(format: "%.3f", seconds)) s")
            assertAnswers(http, "countries")
        }
        // One long header line, and many short ones past 64 KiB.
        let long = "GET / HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "b", count: 400_000))\r\n\r\n"
        var start = Date()
        XCTAssertEqual(http.exchange(Array(long.utf8))?.status, 431)
        XCTAssertLessThanOrEqual(elapsed(start), 1)
        let many = "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<5000).map { "X-\($0): \(String(repeating: "c", count: 20))\r\n" }.joined() + "\r\n"
        XCTAssertEqual(http.exchange(Array(many.utf8))?.status, 431)
        assertAnswers(http, "countries")
        // Many If-None-Match tags within the limit: answered at once.
        let tags = (0..<3000).map { String(format: "\"%016x\"", $0) }.joined(separator: ", ")
        start = Date()
        XCTAssertEqual(try http.get("/tiles/countries/0/0/0.mvt", headers: ["If-None-Match": tags]).status, 200)
        XCTAssertLessThanOrEqual(elapsed(start), 1, "3,000 If-None-Match tags")
        // A head that never ends: 408 at the head deadline (2 s here).
        let descriptor = try XCTUnwrap(http.connection())
        defer { close(descriptor) }
        start = Date()
        LoopbackHTTP.write(descriptor, Array("GET /style.json HTTP/1.1\r\nHost: x\r\nX-Slow: a".utf8))
        let slow = LoopbackHTTP.parse(LoopbackHTTP.readAll(descriptor))
        XCTAssertEqual(slow?.status, 408)
        XCTAssertLessThan(elapsed(start), 6)
        // A connection that sends nothing is closed at the same deadline.
        let silent = try XCTUnwrap(http.connection())
        defer { close(silent) }
        XCTAssertEqual(LoopbackHTTP.parse(LoopbackHTTP.readAll(silent))?.status, 408)
        assertAnswers(http, "countries")
        XCTAssertEqual(server.stop(), 0)
    }

    func testIdleConnectionsAtTheDescriptorLimit() throws {
        _ = try Prerequisite.executable("prlimit", install: "Debian: util-linux")
        // This process needs room for 1,100 sockets of its own.
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        getrlimit(resource, &limit)
        if limit.rlim_cur < 1400 {
            try Prerequisite.require(limit.rlim_max >= 1400, "the test needs 1,400 descriptors (ulimit -Hn is \(limit.rlim_max))")
            limit.rlim_cur = 1400
            setrlimit(resource, &limit)
        }
        let server = try ServeProcess([try fixtures().pmtiles.path, "--quiet"], descriptorLimit: 1024)
        let http = LoopbackHTTP(port: server.port)
        var idle = [Int32]()
        defer { idle.forEach { close($0) } }
        for _ in 0..<1100 {
            guard let descriptor = http.connection(seconds: 5) else { break }
            idle.append(descriptor)
        }
        XCTAssertEqual(idle.count, 1100, "connections made")
        usleep(500_000)
        let start = Date()
        assertAnswers(http, "countries")
        let seconds = elapsed(start)
        XCTAssertLessThan(seconds, 5)
        let closedByServer = idle.filter { descriptor in
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }.count
        print("serve: at ulimit -n 1024, \(idle.count) idle connections open; an ordinary request answered in "
              + "\(String(format: "%.3f", seconds)) s; \(closedByServer) idle connections closed by the server's cap")
        XCTAssertTrue(server.process.isRunning, server.stderr)
        idle.forEach { close($0) }
        idle.removeAll()
        assertAnswers(http, "countries")
        XCTAssertEqual(server.stop(), 0, server.stderr)
    }

    func testSymbolicLinkRaceAndFIFOServeNothingFromOutside() throws {
        let directory = try copy(try fixtures().directory, as: "tiles")
        let outsideBytes = Array("OUTSIDE THE SERVED FOLDER".utf8)
        let outside = directory.deletingLastPathComponent().appendingPathComponent("outside.mvt")
        try Data(outsideBytes).write(to: outside)
        let tile = directory.appendingPathComponent("0/0/0.mvt")
        let original = try Array(Data(contentsOf: tile))
        let keep = directory.deletingLastPathComponent().appendingPathComponent("original.mvt")
        XCTAssertEqual(link(tile.path, keep.path), 0)
        // A FIFO where a tile was: refused without blocking anyone.
        let fifo = directory.appendingPathComponent("1/0/0.mvt")
        try FileManager.default.removeItem(at: fifo)
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let server = try ServeProcess([directory.path, "--quiet"])
        let http = LoopbackHTTP(port: server.port)
        let start = Date()
        for _ in 0..<4 { XCTAssertEqual(try http.get("/tiles/tiles/1/0/0.mvt", seconds: 5).status, 404, "a FIFO is no tile") }
        XCTAssertLessThan(elapsed(start), 2)
        assertAnswers(http, "tiles")

        let seconds = Double(ProcessInfo.processInfo.environment["OVERLAYKIT_RACE_SECONDS"] ?? "") ?? 10
        let deadline = Date().addingTimeInterval(seconds)
        let folder = directory.path + "/0/0"
        let flipper = Thread {
            while Date() < deadline {
                unlink(folder + "/hard.tmp")
                link(keep.path, folder + "/hard.tmp")
                rename(folder + "/hard.tmp", tile.path)
                unlink(folder + "/link.tmp")
                symlink(outside.path, folder + "/link.tmp")
                rename(folder + "/link.tmp", tile.path)
            }
        }
        flipper.start()
        var counts = [String: Int]()
        while Date() < deadline {
            guard let response = try? http.get("/tiles/tiles/0/0/0.mvt") else {
                counts["no answer", default: 0] += 1
                continue
            }
            let kind = response.body == outsideBytes ? "outside" : response.status == 200 && response.body == original ? "tile" : "\(response.status)"
            counts[kind, default: 0] += 1
        }
        while flipper.isExecuting { usleep(10_000) }
        // The race ends with the link in place: the file again.
        XCTAssertEqual(rename(keep.path, tile.path), 0)
        print("serve: \(seconds) s of symbolic-link race: \(counts.sorted { $0.key < $1.key })")
        XCTAssertEqual(counts["outside"] ?? 0, 0, "bytes from outside the served folder")
        XCTAssertEqual(counts["no answer"] ?? 0, 0)
        XCTAssertGreaterThan(counts["tile"] ?? 0, 0, "the tile was served while it was a file")
        XCTAssertEqual(Set(counts.keys).subtracting(["tile", "404"]), [])
        assertAnswers(http, "tiles")
        XCTAssertEqual(server.stop(), 0)
    }

    func testArchivesChangedUnderTheServer() throws {
        let pmtiles = try copy(try fixtures().pmtiles, as: "live.pmtiles")
        let directory = try copy(try fixtures().directory, as: "live-dir")
        let original = try Data(contentsOf: pmtiles)
        let server = try ServeProcess([pmtiles.path, directory.path, "--quiet"])
        let http = LoopbackHTTP(port: server.port)
        let tiles = (0...3).flatMap { z in (0..<(1 << z)).map { x in "\(z)/\(x)/\((1 << z) / 3)" } }
        var before = [String: Int]()
        for tile in tiles { before[tile] = try http.get("/tiles/live/\(tile).mvt", headers: ["Accept-Encoding": "gzip"]).status }
        // Overwritten in place by a shorter file: no SIGBUS, a failed request at most.
        let handle = try FileHandle(forWritingTo: pmtiles)
        try handle.truncate(atOffset: UInt64(original.count / 3))
        try handle.close()
        var statuses = [Int: Int]()
        for tile in tiles { statuses[try http.get("/tiles/live/\(tile).mvt", headers: ["Accept-Encoding": "gzip"]).status, default: 0] += 1 }
        XCTAssertTrue(server.process.isRunning, server.stderr)
        XCTAssertEqual(Set(statuses.keys).subtracting([200, 404, 500]), [], "\(statuses)")
        // Written back: served again (the set is reopened after a failed read).
        try original.write(to: pmtiles)
        for tile in tiles {
            XCTAssertEqual(try http.get("/tiles/live/\(tile).mvt", headers: ["Accept-Encoding": "gzip"]).status, before[tile], tile)
        }
        // A tile directory replaced by a copy (as a new `tile --force` run replaces it).
        let moved = directory.deletingLastPathComponent().appendingPathComponent("old-dir")
        try FileManager.default.moveItem(at: directory, to: moved)
        try FileManager.default.copyItem(at: moved, to: directory)
        try FileManager.default.removeItem(at: moved)
        assertAnswers(http, "live-dir")
        print("serve: after the archive was cut to a third: \(statuses.sorted { $0.key < $1.key }) (status: requests)")
        XCTAssertEqual(server.stop(), 0)
    }

    func testClientsThatNeverReadHoldLittleMemory() throws {
        // One tile that inflates to 60 MiB (zeros: 60 KiB of gzip), asked for without gzip.
        let directory = try CLI.temporaryFolder(self).appendingPathComponent("big")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        let tile = directory.appendingPathComponent("0/0/0.mvt").path
        let made = try CLI.runTool(URL(fileURLWithPath: "/bin/sh"), ["-c", "head -c 62914560 /dev/zero | gzip -1 > '\(tile)'"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let server = try ServeProcess([directory.path, "--quiet"])
        let http = LoopbackHTTP(port: server.port)
        let baseline = server.residentKilobytes ?? 0
        var clients = [Int32]()
        defer { clients.forEach { close($0) } }
        for _ in 0..<30 {
            let descriptor = try XCTUnwrap(http.connection())
            var small: Int32 = 4096
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            LoopbackHTTP.write(descriptor, Array("GET /tiles/big/0/0/0.mvt HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            clients.append(descriptor)
        }
        var peak = 0
        for _ in 0..<30 {
            usleep(100_000)
            peak = max(peak, server.residentKilobytes ?? 0)
        }
        print("serve: 30 clients not reading a 60 MiB identity tile: RSS \(baseline / 1024) MB before, at most \(peak / 1024) MB after 3 s")
        XCTAssertLessThanOrEqual(peak, 400 * 1024, "resident memory with 30 clients that do not read")
        // HEAD: the inflated length, no body.
        let head = try XCTUnwrap(http.exchange(Array("HEAD /tiles/big/0/0/0.mvt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)))
        XCTAssertEqual(head.headers["content-length"], "62914560")
        XCTAssertNil(head.headers["transfer-encoding"])
        XCTAssertEqual(head.body, [])
        // One client that reads gets the whole inflated tile.
        let whole = try http.get("/tiles/big/0/0/0.mvt", seconds: 60)
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body.count, 62_914_560)
        XCTAssertTrue(whole.body.allSatisfy { $0 == 0 })
        assertAnswers(http, "big")
        XCTAssertEqual(server.stop(), 0)
    }

    func testLogLinesAreEscapedAndSmallCases() throws {
        let server = try ServeProcess([try fixtures().pmtiles.path])
        let http = LoopbackHTTP(port: server.port)
        // A forged line and terminal escapes in a client event and in a request target.
        let event = "/client-event?type=error&message=%1b%5b2J%1b%5b31mred%0aserve:%20stopped%0d"
        XCTAssertEqual(try http.get(event).status, 204)
        XCTAssertTrue([400, 404].contains(try http.get("/%1b%5b31m/x\u{7f}").status))
        XCTAssertEqual(try http.get("/client-event?type=error&message=" + String(repeating: "x", count: 6000)).status, 204)
        // Methods: lowercase is no method (400), an unknown one is not allowed (405).
        XCTAssertEqual(http.exchange(Array("get / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))?.status, 400)
        XCTAssertEqual(try http.get("/", method: "PROPFIND").status, 405)
        XCTAssertEqual(try http.get("/", method: "DELETE").status, 405)
        XCTAssertEqual(try http.get("/tiles/countries/0/0/0.mvt.mvt").status, 404)
        // Ranges of noncharacters: empty, not an error.
        for range in ["64768-65023", "65280-65535"] {
            let glyphs = try http.get("/fonts/DejaVu%20Sans/\(range).pbf")
            XCTAssertEqual(glyphs.status, 200, range)
        }
        let catalog = try http.get("/catalog")
        XCTAssertEqual(catalog.status, 200)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(catalog.body)) as? [String: Any])
        XCTAssertEqual((document["tiles"] as? [String: Any])?.keys.sorted(), ["countries"])
        assertAnswers(http, "countries")
        XCTAssertEqual(server.stop(), 0)
        let log = server.stderr
        XCTAssertFalse(log.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "raw control characters: \(log)")
        XCTAssertTrue(log.contains(#"serve: browser error: \x1b[2J\x1b[31mred\x0aserve: stopped\x0d"#), log)
        XCTAssertEqual(log.split(separator: "\n").filter { $0.hasPrefix("serve: stopped") }.count, 1, log)
        XCTAssertTrue(log.contains(#""GET /tiles/countries/0/0/0.mvt.mvt" 404"#), log)
        XCTAssertTrue(log.contains("…"), "a long message is cut")
        XCTAssertFalse(log.contains(String(repeating: "x", count: 600)), "a long message is cut")

        let quiet = try ServeProcess([try fixtures().pmtiles.path, "--quiet"])
        XCTAssertEqual(try LoopbackHTTP(port: quiet.port).get("/style.json").status, 200)
        XCTAssertEqual(quiet.stop(SIGINT), 0)
        XCTAssertFalse(quiet.stderr.contains("GET"), quiet.stderr)
    }

    func testAFolderWithNoTilesIsRefused() throws {
        let empty = try CLI.temporaryFolder(self).appendingPathComponent("no-tiles")
        try FileManager.default.createDirectory(at: empty.appendingPathComponent("3/1"), withIntermediateDirectories: true)
        let result = try CLI.run(["serve", empty.path, "--port", "0"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("tileset.no-tiles") && result.stderr.contains("holds no tiles"), result.stderr)
    }
}
