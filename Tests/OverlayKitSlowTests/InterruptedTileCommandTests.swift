import Foundation
import TestSupport
import XCTest

/// A `tile` run stopped by a signal half way (SIGTERM, SIGHUP, SIGINT) leaves the old output as it
/// was and nothing beside it, for PMTiles, MBTiles and directories (each run is let work for 2.5 s
/// before the signal, so this lives in the slow target).
final class InterruptedTileCommandTests: XCTestCase {
    private var parks: String { CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path }

    private func entries(_ folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    /// SIGTERM, SIGHUP and SIGINT 2–3 s into a tile run: the old output stays as it was and
    /// nothing (no `OUT.tmp-*`, no `OUT.lock`) is left beside it, for every kind of tile set; the
    /// exit status names the signal.
    func testInterruptedTileLeavesOnlyTheOldOutput() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("big.geojsons")
        var text = ""
        var random = SystemRandomNumberGenerator()
        for index in 0..<60_000 {
            let x = Double.random(in: -170...170, using: &random), y = Double.random(in: -80...80, using: &random)
            text += #"{"type":"Feature","properties":{"n":\#(index)},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + 0.5),\#(y)],[\#(x + 0.5),\#(y + 0.3)],[\#(x),\#(y + 0.3)],[\#(x),\#(y)]]]}}"#
            text += "\n"
        }
        try Data(text.utf8).write(to: input)
        for (name, format) in [("old.pmtiles", "pmtiles"), ("old.mbtiles", "mbtiles"), ("old-tiles", "mvt")] {
            let outputs = folder.appendingPathComponent("run-" + name)
            try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: false)
            let target = outputs.appendingPathComponent(name)
            XCTAssertEqual(try CLI.run(["tile", parks, "-o", target.path, "--max-zoom", "1", "--format", format]).status, 0)
            let before = try snapshot(target)
            for signalNumber in [SIGTERM, SIGHUP, SIGINT] {
                let process = Process()
                process.executableURL = CLI.binary
                process.arguments = ["tile", input.path, "-o", target.path, "--max-zoom", "12", "--force",
                                     "--format", format, "--no-progress"]
                process.standardError = FileHandle.nullDevice
                let started = Date()
                try process.run()
                // The run is building its temporary (reading alone takes longer than this).
                var building = false
                while !building && Date().timeIntervalSince(started) < 60 {
                    building = try entries(outputs).contains { $0.hasPrefix(name + ".tmp-") }
                    if !building { usleep(20_000) }
                }
                XCTAssertTrue(building, "\(name): no temporary output appeared")
                // Into the run's writing (the whole run takes several seconds more).
                usleep(300_000)
                XCTAssertTrue(process.isRunning, "\(name): the run ended before the signal; make the input larger")
                kill(process.processIdentifier, signalNumber)
                process.waitUntilExit()
                XCTAssertEqual(process.terminationReason, .uncaughtSignal, name)
                XCTAssertEqual(process.terminationStatus, signalNumber, name)
                XCTAssertEqual(try entries(outputs), [name], "\(name) after signal \(signalNumber): leftovers")
                XCTAssertEqual(try snapshot(target), before, "\(name) after signal \(signalNumber): the old output changed")
            }
        }
    }

    /// Bytes of every file under `url` (one file, or a tile directory) by relative path.
    private func snapshot(_ url: URL) throws -> [String: Data] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [:] }
        guard isDirectory.boolValue else { return ["": try Data(contentsOf: url)] }
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: url.path) ?? FileManager.DirectoryEnumerator() {
            let file = url.appendingPathComponent(path)
            var directory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &directory), !directory.boolValue {
                files[path] = try Data(contentsOf: file)
            }
        }
        return files
    }
}
