import Foundation
import TestSupport
import XCTest

/// Issue 34, items 1–5: the hostile inputs of a 2,105-run matrix through every command that reads
/// them, each run bounded in time and memory, and the usage errors that replace silent guesses.
final class HostileEdgeCommandTests: XCTestCase {
    /// Far-out longitudes (item 1: a line, a polygon, points, a circle) and 300 clustered
    /// points of ±1e308 (item 2), in one file.
    private func writeHostileInput(in folder: URL) throws -> String {
        var features = [
            #"{"type":"Feature","properties":{"name":"far line"},"geometry":{"type":"LineString","coordinates":[[1e308,10],[-1e308,20]]}}"#,
            #"{"type":"Feature","properties":{"name":"far ring"},"geometry":{"type":"Polygon","coordinates":[[[1e308,0],[-1e308,0],[-1e308,0.3],[1e308,0.3],[1e308,0]]]}}"#,
            #"{"type":"Feature","properties":{"name":"far points"},"geometry":{"type":"MultiPoint","coordinates":[[1e308,5],[-7.2e200,-5]]}}"#,
            #"{"type":"Feature","properties":{"name":"far circle","radius":1000},"geometry":{"type":"Point","coordinates":[-1e308,40]}}"#,
        ]
        for index in 0..<300 {
            features.append(#"{"type":"Feature","properties":{"v":\#(index % 2 == 0 ? "1e308" : "-1e308"),"w":1e308},"geometry":{"type":"Point","coordinates":[\#(2 + Double(index) * 1e-5),48]}}"#)
        }
        let url = folder.appendingPathComponent("hostile.geojson")
        try Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n").utf8).write(to: url)
        return url.path
    }

    /// Every command that reads the input, each within 60 s and 400 MB (debug build, shared
    /// machine; a run takes well under a second on a quiet one). Before the fix `tile` of the far
    /// line wrote every tile of every zoom (1.4 M tiles at z10, z14 never finished).
    func testHostileInputsRunThroughEveryCommandWithinBounds() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = try writeHostileInput(in: folder)
        let out = { (name: String) in folder.appendingPathComponent(name).path }
        let tile = ["--cluster-distance", "40", "--accumulate-attribute", "v:mean", "--accumulate-attribute", "w:sum", "-z8", "-f"]
        let runs: [(arguments: [String], statuses: Set<Int32>)] = [
            (["info", input], [0]),
            (["convert", input, "-o", out("x.kml"), "-f"], [0]),
            (["convert", input, "-o", out("x.geojsons"), "-f"], [0]),
            (["validate", input], [0, 1]),
            (["filter", input, "--bbox", "-70,0,70,35", "--count"], [0]),
            (["tile", input, "-o", out("memory.pmtiles"), "--feature-store", "memory"] + tile, [0]),
            (["tile", input, "-o", out("disk.pmtiles"), "--feature-store", "disk", "-t", folder.path] + tile, [0]),
            (["tile", input, "-o", out("directory"), "--feature-store", "disk", "-t", folder.path, "-z6", "-f"], [0]),
            (["render", input, "-o", out("x.png"), "--size", "128x96", "-f"], [0]),
        ]
        var tileSummaries = [String]()
        for run in runs {
            let start = Date()
            let result = try CLI.runMeasuringPeakMemory(run.arguments, seconds: 60)
            let seconds = Date().timeIntervalSince(start)
            let label = run.arguments.prefix(2).joined(separator: " ") + " " + (run.arguments.dropFirst(2).first ?? "")
            XCTAssertTrue(run.statuses.contains(result.status), "\(label): exit \(result.status)\n\(result.stderr)")
            XCTAssertLessThan(seconds, 60, "\(label) finished")
            XCTAssertLessThan(result.peak, 400_000, "\(label): peak \(result.peak) kB")
            if run.arguments[0] == "tile" { tileSummaries.append(result.stderr) }
            if run.arguments[0] == "info" {
                XCTAssertTrue(result.stdout.contains("bbox (west, south, east, north): -64.0"), result.stdout)
            }
        }
        for stderr in tileSummaries.prefix(2) {
            // The far shapes reach a few hundred tiles by z8; before, every tile of every zoom.
            let tiles = stderr.split(separator: "\n").first { $0.hasPrefix("tile: ") }
                .flatMap { Int($0.split(separator: " ")[1]) }
            XCTAssertLessThan(try XCTUnwrap(tiles, stderr), 5_000, stderr)
            XCTAssertTrue(stderr.contains("tile.sum-overflow"), "the sum that overflows is reported: \(stderr)")
        }
        let memory = try Data(contentsOf: URL(fileURLWithPath: out("memory.pmtiles")))
        let disk = try Data(contentsOf: URL(fileURLWithPath: out("disk.pmtiles")))
        XCTAssertEqual(memory, disk, "both stores write the same tiles")
        // The directory's tiles from z3 (whose top row ends at 79° N): none along the top edge,
        // where the far line used to be drawn.
        let rows = try FileManager.default.subpathsOfDirectory(atPath: out("directory")).filter { $0.hasSuffix(".mvt") }
            .compactMap { path -> Int? in
                let parts = path.split(separator: "/")
                return parts.count == 3 && (Int(parts[0]) ?? 0) >= 3 ? Int(parts[2].dropLast(4)) : nil
            }
        XCTAssertFalse(rows.isEmpty)
        XCTAssertFalse(rows.contains(0), "no tile of the top row from z3")
    }

    /// Item 3: an output named for another format than asked is a usage error in every command
    /// with -o and a format; tile sets are read by their bytes, whatever their names.
    func testNamesThatContradictTheFormatAreRefusedAndTileSetsAreReadByTheirBytes() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("p.geojson")
        try Data(#"{"type":"Feature","properties":{"v":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#.utf8).write(to: input)
        let out = { (name: String) in folder.appendingPathComponent(name).path }
        let refused: [[String]] = [
            ["tile", input.path, "-o", out("x.pmtiles"), "--format", "mbtiles", "-z2"],
            ["tile", input.path, "-o", out("x.mbtiles"), "--format", "pmtiles", "-z2"],
            ["tile", input.path, "-o", out("x.pmtiles"), "--format", "mvt", "-z2"],
            ["tile", input.path, "-o", out("x.geojson"), "--format", "pmtiles", "-z2"],
            ["convert", input.path, "-o", out("x.kml"), "--to", "geojson"],
            ["filter", input.path, "-o", out("x.geojson"), "--to", "kml"],
            ["render", input.path, "-o", out("x.png"), "--format", "svg"],
        ]
        for arguments in refused {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is named as"), result.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["p.geojson"], "nothing written")

        // A PMTiles file without an extension and an MBTiles file named .pmtiles both join.
        XCTAssertEqual(try CLI.run(["tile", input.path, "-o", out("bare"), "--format", "pmtiles", "-z2"]).status, 0)
        XCTAssertEqual(try CLI.run(["tile", input.path, "-o", out("s.mbtiles"), "-z2"]).status, 0)
        try FileManager.default.moveItem(atPath: out("s.mbtiles"), toPath: out("sqlite.pmtiles"))
        let joined = try CLI.run(["tile-join", "-o", out("joined.pmtiles"), out("bare"), out("sqlite.pmtiles")])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertTrue(joined.stderr.contains("from 2 inputs"), joined.stderr)
        let notTiles = try CLI.run(["tile-join", "-o", out("j2.pmtiles"), input.path])
        XCTAssertEqual(notTiles.status, 65, notTiles.stderr)
        XCTAssertTrue(notTiles.stderr.contains("tile.not-a-tile-set"), notTiles.stderr)
    }

    /// Item 4: a `$` name the command does not know is a usage error naming those it knows.
    func testUnknownDollarNamesAreUsageErrors() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("p.geojson")
        try Data(#"{"type":"Feature","properties":{"v":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#.utf8).write(to: input)
        let typo = try CLI.run(["tile", input.path, "--where", "$zom == 1", "-o", folder.appendingPathComponent("t.pmtiles").path])
        XCTAssertEqual(typo.status, 64, typo.stderr)
        XCTAssertTrue(typo.stderr.contains("unknown name '$zom'") && typo.stderr.contains("$id, $type, $zoom"), typo.stderr)
        let zoom = try CLI.run(["filter", input.path, "--where", "$zoom > 3"])
        XCTAssertEqual(zoom.status, 64, zoom.stderr)
        XCTAssertTrue(zoom.stderr.contains("--visible-at"), zoom.stderr)
        let known = try CLI.run(["tile", input.path, "--where", "$zoom >= 1 and v == 1", "-z2", "-o", folder.appendingPathComponent("k.pmtiles").path])
        XCTAssertEqual(known.status, 0, known.stderr)
    }

    /// Item 5: every short option that takes a value (as the command itself lists them) works
    /// with the value attached, tippecanoe's spelling, in `tile` and in `tile-join`: the output
    /// is the same byte for byte as with the value apart.
    func testEveryShortValueOptionTakesItsValueAttached() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("p.geojson")
        try Data(#"{"type":"Feature","properties":{"a":1,"b":"x"},"geometry":{"type":"Point","coordinates":[1,2]}}"#.utf8).write(to: input)
        let other = folder.appendingPathComponent("q.geojson")
        try Data(#"{"type":"Feature","properties":{"a":2},"geometry":{"type":"Point","coordinates":[3,4]}}"#.utf8).write(to: other)
        XCTAssertEqual(try CLI.run(["tile", input.path, "-o", folder.appendingPathComponent("in.pmtiles").path, "-z3"]).status, 0)
        let tileSet = folder.appendingPathComponent("in.pmtiles").path
        // Letter → value, in runs whose options go together.
        let plans: [(command: String, inputs: [String], runs: [[(Character, String)]])] = [
            ("tile", [input.path], [
                [("z", "3"), ("Z", "1"), ("l", "pts"), ("L", "more:\(other.path)"), ("t", folder.path), ("x", "b"),
                 ("T", "a:string"), ("n", "Name"), ("N", "About"), ("A", "Someone"), ("b", "5"), ("M", "500000"),
                 ("O", "200000"), ("r", "1"), ("B", "2")],
                [("y", "a"), ("z", "2")],
            ]),
            ("tile-join", [tileSet], [
                [("l", "p"), ("L", "none"), ("R", "p:renamed"), ("x", "b"), ("z", "2"), ("Z", "1"), ("n", "Joined")],
                [("y", "a")],
            ]),
        ]
        for plan in plans {
            // -o is tried with every run; tile's -e (a directory output) attached in NewUserHabitTests.
            var covered: Set<Character> = plan.command == "tile" ? ["o", "e"] : ["o"]
            for (index, run) in plan.runs.enumerated() {
                var outputs = [Data]()
                for attached in [true, false] {
                    let output = folder.appendingPathComponent("\(plan.command)-\(index)-\(attached).pmtiles").path
                    var arguments = [plan.command] + plan.inputs + (attached ? ["-o" + output] : ["-o", output])
                    for (letter, value) in run {
                        arguments += attached ? ["-\(letter)\(value)"] : ["-\(letter)", value]
                        covered.insert(letter)
                    }
                    let result = try CLI.run(arguments)
                    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
                    outputs.append((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data())
                }
                XCTAssertFalse(outputs[0].isEmpty)
                XCTAssertEqual(outputs[0], outputs[1], "\(plan.command) run \(index): attached and apart agree")
            }
            XCTAssertEqual(covered, try shortValueOptions(plan.command), "\(plan.command): every short option with a value is tried")
        }
    }

    /// The short names of `command`'s options that take a value, from its own description.
    private func shortValueOptions(_ command: String) throws -> Set<Character> {
        let result = try CLI.run([command, "--experimental-dump-help"])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let arguments = (json["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
        var letters = Set<Character>()
        for argument in arguments where argument["kind"] as? String == "option" {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "short" {
                if let letter = (name["name"] as? String)?.first { letters.insert(letter) }
            }
        }
        return letters
    }
}
