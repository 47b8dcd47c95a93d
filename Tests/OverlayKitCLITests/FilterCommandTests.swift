import Foundation
import TestSupport
import XCTest

/// `overlaykit filter` run as a real process through pipes.
final class FilterCommandTests: XCTestCase {
    // MARK: Fixture: a few places of every kind

    private static let fixtureLines: [String] = [
        #"{"type":"Feature","id":"paris","properties":{"name":"Paris","pop":2148000,"tags":{"capital":true}},"geometry":{"type":"Point","coordinates":[2.3522,48.8566]}}"#,
        #"{"type":"Feature","id":"london","properties":{"name":"London","pop":8982000,"tags":{"capital":true}},"geometry":{"type":"Point","coordinates":[-0.1278,51.5074]}}"#,
        #"{"type":"Feature","id":7,"properties":{"name":"Berlin ring","radius":20000},"geometry":{"type":"Point","coordinates":[13.405,52.52]}}"#,
        #"{"type":"Feature","id":"rhine","properties":{"name":"Rhine-ish","kind":"river"},"geometry":{"type":"LineString","coordinates":[[4.0,51.9],[7.0,50.9],[7.6,47.6]]}}"#,
        #"{"type":"Feature","id":"fiji","properties":{"name":"Fiji-ish"},"geometry":{"type":"Polygon","coordinates":[[[177,-18],[179.5,-18],[179.5,-16],[177,-16],[177,-18]]]}}"#,
        #"{"type":"Feature","id":"samoa","properties":{"name":"Samoa-ish"},"geometry":{"type":"Polygon","coordinates":[[[-172.5,-14],[-171.5,-14],[-171.5,-13.4],[-172.5,-13.4],[-172.5,-14]]]}}"#,
        #"{"type":"Feature","id":"speck","properties":{"name":"Speck"},"geometry":{"type":"Polygon","coordinates":[[[5,45],[5.001,45],[5.001,45.001],[5,45.001],[5,45]]]}}"#,
        #"{"type":"Feature","id":"nowhere","properties":{"name":"No geometry"},"geometry":null}"#,
    ]
    private static var fixture: Data { Data((fixtureLines.joined(separator: "\n") + "\n").utf8) }

    /// Runs the filter on the fixture through stdin; returns the ids of the output features.
    private func ids(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let result = try FilterCLI.run(["filter"] + arguments, stdin: Self.fixture)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return try result.lines.map { try Self.id(of: $0) }
    }

    private static func id(of line: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["id"].map { "\($0)" } ?? "-"
    }

    // MARK: Predicates

    func testEveryPredicateOnStandardInput() throws {
        XCTAssertEqual(try ids(["--bbox", "-10,40,20,60"]), ["paris", "london", "7", "rhine", "speck"])
        XCTAssertEqual(try ids(["--bbox", "3,45,8,52"]), ["rhine", "speck"])      // the line crosses the box
        XCTAssertEqual(try ids(["--within", "-10,40,8,60"]), ["paris", "london", "rhine", "speck"])
        XCTAssertEqual(try ids(["--type", "polygon"]), ["fiji", "samoa", "speck"])
        XCTAssertEqual(try ids(["--type", "circle,annotation"]), ["paris", "london", "7"])
        XCTAssertEqual(try ids(["--type", "null"]), ["nowhere"])
        XCTAssertEqual(try ids(["--where", "pop > 3e6 or kind == 'river'"]), ["london", "rhine"])
        XCTAssertEqual(try ids(["--where", "tags.capital == true and name ~ /^p/i"]), ["paris"])
        XCTAssertEqual(try ids(["--where", "not radius exists and name in ['Speck', 'Fiji-ish']"]), ["fiji", "speck"])
        XCTAssertEqual(try ids(["--id", "7,fiji,absent"]), ["7", "fiji"])
        // The speck is about 745 × 1054 map points; a screen point is 2^(20−z) map points.
        XCTAssertEqual(try ids(["--visible-at", "9"]), ["paris", "london", "7", "rhine", "fiji", "samoa"])
        XCTAssertEqual(try ids(["--visible-at", "20"]), ["paris", "london", "7", "rhine", "fiji", "samoa", "speck"])
        XCTAssertEqual(try ids(["--limit", "2", "--type", "polygon"]), ["fiji", "samoa"])
        XCTAssertEqual(try ids(["--bbox", "-10,40,20,60", "--type", "annotation", "--where", "pop < 5e6"]), ["paris"])
    }

    func testAntimeridianBoxes() throws {
        XCTAssertEqual(try ids(["--bbox", "170,-20,-170,-10"]), ["fiji", "samoa"])
        XCTAssertEqual(try ids(["--bbox", "179,-20,-172,-10"]), ["fiji", "samoa"])   // touches both just across 180°
        XCTAssertEqual(try ids(["--bbox", "179.6,-20,-172.6,-10"]), [])              // the gap between them
        XCTAssertEqual(try ids(["--within", "170,-20,-170,-10"]), ["fiji", "samoa"])
        XCTAssertEqual(try ids(["--within", "178,-20,-170,-10"]), ["samoa"])
        XCTAssertEqual(try ids(["--bbox", "170,-20,179,-10"]), ["fiji"])
    }

    func testNearAgreesWithHaversine() throws {
        // A grid of points; the filter's choice must match a haversine computed here.
        var lines: [String] = []
        var points: [(Double, Double)] = []
        for lat in stride(from: 40.0, through: 60.0, by: 0.5) {
            for lon in stride(from: -10.0, through: 20.0, by: 0.5) {
                points.append((lat, lon))
                lines.append(#"{"type":"Feature","id":"\#(lat),\#(lon)","properties":{},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#)
            }
        }
        for (lat, lon, meters) in [(48.8566, 2.3522, 344_000.0), (52.52, 13.405, 150_000), (45, -5, 1_000_000)] {
            let result = try FilterCLI.run(["filter", "--near", "\(lat),\(lon),\(Int(meters))"],
                                           stdin: Data(lines.joined(separator: "\n").utf8))
            XCTAssertEqual(result.status, 0, result.stderr)
            let got = Set(try result.lines.map { try Self.id(of: $0) })
            let expected = Set(points.filter { haversine(lat, lon, $0.0, $0.1) <= meters }.map { "\($0.0),\($0.1)" })
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(got, expected, "near \(lat),\(lon),\(meters)")
        }
        // Paris–London is about 344 km.
        XCTAssertEqual(try ids(["--near", "48.8566,2.3522,340000"]), ["paris"])
        XCTAssertEqual(try ids(["--near", "48.8566,2.3522,350000"]), ["paris", "london"])
    }

    private func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_378_137.0, rad = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * rad / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin((lon2 - lon1) * rad / 2), 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }

    func testCountSelectAndOutputFormats() throws {
        let count = try FilterCLI.run(["filter", "--count", "--type", "polygon"], stdin: Self.fixture)
        XCTAssertEqual(count.status, 0)
        XCTAssertEqual(count.stdoutText, "3\n")

        let selected = try FilterCLI.run(["filter", "--id", "paris", "--select", "name"], stdin: Self.fixture)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(selected.lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(object["properties"] as? [String: String], ["name": "Paris"])

        // Without --select the feature is copied through byte for byte.
        let copied = try FilterCLI.run(["filter", "--id", "rhine"], stdin: Self.fixture)
        XCTAssertEqual(copied.lines, [Self.fixtureLines[3]])

        let collection = try FilterCLI.run(["filter", "--type", "polygon", "--to", "geojson"], stdin: Self.fixture)
        XCTAssertEqual(collection.status, 0, collection.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: collection.stdout) as? [String: Any])
        XCTAssertEqual(document["type"] as? String, "FeatureCollection")
        XCTAssertEqual((document["features"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["fiji", "samoa", "speck"])
    }

    func testFeatureCollectionInputFromAFileWithLineBreaksInFeatures() throws {
        let folder = try FilterCLI.temporaryFolder(self)
        let path = folder.appendingPathComponent("places.geojson").path
        // Pretty-printed: each feature spans several lines.
        let pretty = Self.fixtureLines.map { $0.replacingOccurrences(of: ",\"geometry\"", with: ",\n    \"geometry\"") }
        let text = "{\"type\": \"FeatureCollection\",\n \"features\": [\n" + pretty.joined(separator: ",\n") + "\n]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try FilterCLI.run(["filter", path, "--bbox", "170,-20,-170,-10"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [pretty[4], pretty[5]].map { $0.replacingOccurrences(of: "\n", with: "") },
                       "one line each, line breaks removed")

        let output = folder.appendingPathComponent("out.geojson").path
        let toFile = try FilterCLI.run(["filter", path, "--type", "annotation", "-o", output])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        XCTAssertEqual((document?["features"] as? [Any])?.count, 2, "-o's .geojson extension makes a FeatureCollection")
    }

    func testProgressGoesToStandardErrorOnly() throws {
        let plain = try FilterCLI.run(["filter", "--type", "polygon"], stdin: Self.fixture)
        let withProgress = try FilterCLI.run(["filter", "--type", "polygon", "--progress"], stdin: Self.fixture)
        XCTAssertEqual(withProgress.status, 0)
        XCTAssertEqual(withProgress.stdout, plain.stdout)
        XCTAssertTrue(withProgress.stderr.contains("8 features, 3 matched"), withProgress.stderr)
        XCTAssertTrue(withProgress.stderr.contains("MB/s"), withProgress.stderr)
    }

    // MARK: Usage errors

    func testBadArgumentsAreUsageErrorsWithTheColumn() throws {
        let expression = try FilterCLI.run(["filter", "--where", "pop > 1 and (name == 'x'"], stdin: Self.fixture)
        XCTAssertEqual(expression.status, 64)
        XCTAssertTrue(expression.stderr.contains("column 25"), expression.stderr)
        XCTAssertTrue(expression.stderr.contains("pop > 1 and (name == 'x'\n" + String(repeating: " ", count: 26) + "^"), expression.stderr)
        XCTAssertEqual(expression.stdout.count, 0)
        for arguments in [["--bbox", "1,2,3"], ["--bbox", "0,50,10,40"], ["--near", "0,0,-1"], ["--type", "blob"], ["--limit", "-1"]] {
            let result = try FilterCLI.run(["filter"] + arguments, stdin: Self.fixture)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(arguments[0]), result.stderr)
        }
    }

    // MARK: Bad features

    private static let badStream: Data = {
        var lines = (1...10).map { #"{"type":"Feature","id":\#($0),"properties":{"n":\#($0)},"geometry":{"type":"Point","coordinates":[\#($0),1]}}"# }
        lines[3] = #"{"type":"Feature","id":4,"properties":{},"geometry":{"type":"point","coordinates":[4,1]}}"#
        lines[6] = #"{"type":"Feature","id":7,"properties":{"n":7"#
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }()

    func testOnErrorFailStopsWithTheLocationAndKeepsWhatWasWritten() throws {
        let result = try FilterCLI.run(["filter", "--bbox", "-180,-90,180,90"], stdin: Self.badStream)
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("<stdin>:4:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("geojson.unknown-type"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\"Point\""), "suggests the right type: \(result.stderr)")
        XCTAssertEqual(try result.lines.map { try Self.id(of: $0) }, ["1", "2", "3"])
    }

    func testOnErrorSkipDropsAndCounts() throws {
        let result = try FilterCLI.run(["filter", "--on-error", "skip"], stdin: Self.badStream)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try result.lines.map { try Self.id(of: $0) }, ["1", "2", "3", "5", "6", "8", "9", "10"])
        XCTAssertTrue(result.stderr.contains("skipped 2 bad features"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, result.stderr)
    }

    func testOnErrorReportPrintsEachDiagnostic() throws {
        let result = try FilterCLI.run(["filter", "--on-error", "report", "--where", "n >= 2"], stdin: Self.badStream)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try result.lines.map { try Self.id(of: $0) }, ["2", "3", "5", "6", "8", "9", "10"])
        let diagnostics = result.stderr.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        guard diagnostics.count == 2 else { return XCTFail("expected 2 diagnostics: \(result.stderr)") }
        XCTAssertTrue(diagnostics[0].hasPrefix("<stdin>:4:"), diagnostics[0])
        XCTAssertTrue(diagnostics[1].contains("json.syntax"), diagnostics[1])
        XCTAssertTrue(result.stderr.contains("skipped 2 bad features"), result.stderr)
    }

    func testFeatureCollectionBadFeatures() throws {
        let good = #"{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Point","coordinates":[1,1]}}"#
        let wrongDepth = #"{"type":"Feature","id":2,"properties":{},"geometry":{"type":"Point","coordinates":[[1,1]]}}"#
        let broken = #"{"type":"Feature","id":3,"properties":{"a":},"geometry":null}"#
        let last = #"{"type":"Feature","id":4,"properties":{},"geometry":{"type":"Point","coordinates":[4,1]}}"#
        func collection(_ members: [String]) -> Data {
            Data(("{\"type\":\"FeatureCollection\",\"features\":[\n" + members.joined(separator: ",\n") + "\n]}").utf8)
        }
        let skipped = try FilterCLI.run(["filter", "--on-error", "skip"], stdin: collection([good, wrongDepth, last]))
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertEqual(skipped.lines, [good, last])

        // A JSON syntax error inside a collection hides where the next feature starts.
        let stuck = try FilterCLI.run(["filter", "--on-error", "skip"], stdin: collection([good, broken, last]))
        XCTAssertEqual(stuck.status, 65)
        XCTAssertTrue(stuck.stderr.contains("geojson.cannot-resume"), stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("<stdin>:3:"), stuck.stderr)
        XCTAssertEqual(stuck.lines, [good], "features before the error are written whole")
    }

    // MARK: Pipes

    /// Like `overlaykit filter … | head -n 1`: the reader closes the pipe after one line.
    func testClosingThePipeEarlyEndsQuietlyWithZero() throws {
        let process = Process()
        process.executableURL = FilterCLI.binary
        process.arguments = ["filter", "--bbox", "-180,-90,180,90"]
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        FilterCLI.ignoreBrokenPipes()
        try process.run()
        // An endless supply of features, until the filter stops reading.
        let feeder = Feeder(handle: input.fileHandleForWriting, limit: 200_000_000) { index in
            #"{"type":"Feature","id":\#(index),"properties":{"name":"feature \#(index)"},"geometry":{"type":"LineString","coordinates":[[\#(index % 170),10],[\#(index % 170 + 1),11.5]]}}"# + "\n"
        }
        feeder.start()
        let firstLine = try readLine(from: output.fileHandleForReading)
        XCTAssertTrue(firstLine.hasPrefix(#"{"type":"Feature","id":0,"#), firstLine)
        try output.fileHandleForReading.close()
        XCTAssertTrue(waitForExit(process, seconds: 120), "the filter kept running after its reader went away")
        feeder.stop()
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(stderr, "", "no Broken pipe noise")
    }

    /// Peak memory stays flat while tens of megabytes stream through standard input.
    func testPeakMemoryStaysSmallOnAStreamThroughAPipe() throws {
        try assertPeakMemory(collection: false, bytes: 64_000_000)
    }

    func testPeakMemoryStaysSmallOnAFeatureCollectionThroughAPipe() throws {
        try assertPeakMemory(collection: true, bytes: 32_000_000)
    }

    private func assertPeakMemory(collection: Bool, bytes: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        try Prerequisite.require(FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc to read peak memory")
        let process = Process()
        process.executableURL = FilterCLI.binary
        process.arguments = ["filter", "--bbox", "0,0,10,10", "--where", "n >= 0"]
        let input = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        FilterCLI.ignoreBrokenPipes()
        try process.run()
        // Polygons of 40 vertices, about 1.3 kB a feature; a tenth fall in the box.
        let feeder = Feeder(handle: input.fileHandleForWriting, limit: bytes,
                            prefix: collection ? "{\"type\":\"FeatureCollection\",\"features\":[\n" : "",
                            suffix: collection ? "{\"type\":\"Feature\",\"properties\":null,\"geometry\":null}]}\n" : "") { index in
            let lon = Double(index % 100) - 50, lat = Double(index % 60) - 30
            let ring = (0..<40).map { step -> String in
                let angle = Double(step) / 39 * 2 * Double.pi
                return "[\(lon + cos(angle) * 0.5),\(lat + sin(angle) * 0.5)]"
            }.joined(separator: ",")
            return #"{"type":"Feature","id":\#(index),"properties":{"n":\#(index),"label":"polygon number \#(index)"},"geometry":{"type":"Polygon","coordinates":[[\#(ring)]]}}"# + (collection ? ",\n" : "\n")
        }
        feeder.start()
        var peak = 0
        while !feeder.isDone && process.isRunning {
            peak = max(peak, FilterCLI.peakMemoryKilobytes(process.processIdentifier) ?? 0)
            usleep(20_000)
        }
        peak = max(peak, FilterCLI.peakMemoryKilobytes(process.processIdentifier) ?? 0)
        feeder.stop()
        XCTAssertTrue(waitForExit(process, seconds: 120), file: file, line: line)
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, stderr, file: file, line: line)
        XCTAssertGreaterThanOrEqual(feeder.written, bytes, "all input went through", file: file, line: line)
        XCTAssertGreaterThan(peak, 0, "read VmHWM", file: file, line: line)
        XCTAssertLessThan(peak, 64 * 1024, "peak RSS \(peak) kB after \(feeder.written) bytes", file: file, line: line)
    }

    // MARK: Cross-check against GDAL

    func testBoxesSelectTheSameCountriesAsOgr2ogr() throws {
        let countries = FilterCLI.corpus.appendingPathComponent("real/ne_50m_admin_0_countries.geojson").path
        _ = try Prerequisite.corpus("real/ne_50m_admin_0_countries.geojson")
        let ogr2ogr = URL(fileURLWithPath: try Prerequisite.executable("ogr2ogr", install: "Debian: gdal-bin"))
        func codes(_ lines: [String]) throws -> Set<String> {
            Set(try lines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return ((object?["properties"] as? [String: Any])?["ADM0_A3"] as? String) ?? "?"
            })
        }
        func ogr(_ box: [Double]) throws -> Set<String> {
            let result = try FilterCLI.runTool(ogr2ogr, ["-f", "GeoJSONSeq", "/vsistdout/", "-spat"] + box.map { "\($0)" } + [countries])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try codes(result.lines)
        }
        func ours(_ box: [Double]) throws -> Set<String> {
            let result = try FilterCLI.run(["filter", countries, "--bbox", box.map { "\($0)" }.joined(separator: ",")])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try codes(result.lines)
        }
        for box in [[-10.0, 35, 30, 60], [0, 0, 10, 10], [-80, -60, -30, 0], [100, -10, 150, 30], [5, 45, 6, 46], [20, -35, 20.5, -34]] {
            let expected = try ogr(box)
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(try ours(box), expected, "box \(box)")
        }
        // Across the antimeridian: the union of GDAL's two halves.
        let crossing = try ours([170, -25, -170, 0])
        XCTAssertEqual(crossing, try ogr([170, -25, 180, 0]).union(try ogr([-180, -25, -170, 0])))
        XCTAssertTrue(crossing.contains("FJI"))
    }

    // MARK: Helpers

    private func readLine(from handle: FileHandle) throws -> String {
        var bytes = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
            if let newline = bytes.firstIndex(of: 0x0A) { return String(decoding: bytes[..<newline], as: UTF8.self) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            return false
        }
        process.waitUntilExit()
        return true
    }
}

/// Writes generated records into a pipe on a background thread until `limit` bytes, a write
/// error (the reader went away) or `stop()`.
private final class Feeder: @unchecked Sendable {
    private let handle: FileHandle
    private let limit: Int
    private let prefix: String, suffix: String
    private let record: (Int) -> String
    private let lock = NSLock()
    private var stopped = false
    private var done = false
    private(set) var written = 0
    private let finished = DispatchSemaphore(value: 0)

    init(handle: FileHandle, limit: Int, prefix: String = "", suffix: String = "", record: @escaping (Int) -> String) {
        self.handle = handle
        self.limit = limit
        self.prefix = prefix
        self.suffix = suffix
        self.record = record
    }

    var isDone: Bool { lock.withLock { done } }

    func start() {
        Thread.detachNewThread { [self] in
            let fd = handle.fileDescriptor
            var index = 0
            var chunk = Array(prefix.utf8)
            func send(_ bytes: [UInt8]) -> Bool {
                var offset = 0
                while offset < bytes.count {
                    let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                    if count < 0 { return false }
                    offset += count
                }
                lock.withLock { written += bytes.count }
                return true
            }
            var ok = true
            while ok && written < limit && !lock.withLock({ stopped }) {
                while chunk.count < 1 << 16 {
                    chunk += Array(record(index).utf8)
                    index += 1
                }
                ok = send(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
            if ok { _ = send(Array(suffix.utf8)) }
            try? handle.close()
            lock.withLock { done = true }
            finished.signal()
        }
    }

    func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }
}

/// The shared runner (CLITestSupport.swift).
private typealias FilterCLI = CLI
