import Foundation
import TestSupport
import XCTest

/// Every output path under faults: SIGKILL at random points and a full disk. The target must be
/// the old file or the complete new one, and nothing may be left beside it or in $TMPDIR.
final class FaultInjectionTests: XCTestCase {
    /// A few MB of GeoJSONSeq, so that a run lasts long enough to be killed in the middle.
    private func makeInput(in folder: URL) throws -> URL {
        var text = ""
        for index in 0..<8_000 {
            let x = Double(index % 300) * 0.5 - 75, y = Double(index / 300) * 0.5 - 10
            text += #"{"type":"Feature","properties":{"n":\#(index),"name":"feature \#(index)"},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + 0.4),\#(y)],[\#(x + 0.4),\#(y + 0.4)],[\#(x),\#(y + 0.4)],[\#(x),\#(y)]]]}}"#
            text += "\n"
        }
        let input = folder.appendingPathComponent("input.geojsons")
        try Data(text.utf8).write(to: input)
        return input
    }

    private func run(_ arguments: [String], temporary: URL) throws -> (Process, Date) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, Date())
    }

    /// Bytes of every regular file under `url` by relative path (a tile directory or one file).
    private func snapshot(_ url: URL) -> [String: Data] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [:] }
        guard isDirectory.boolValue else { return ["": (try? Data(contentsOf: url)) ?? Data()] }
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: url.path) ?? FileManager.DirectoryEnumerator() {
            let file = url.appendingPathComponent(path)
            var directory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &directory), !directory.boolValue {
                files[path] = try? Data(contentsOf: file)
            }
        }
        return files
    }

    func testSIGKILLAtRandomPointsLeavesTheOldOrTheNewOutputAndNothingElse() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = try makeInput(in: folder)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let jobs: [(name: String, arguments: (URL) -> [String])] = [
            ("out.geojson", { ["convert", input.path, "-o", $0.path, "--force"] }),
            ("out.kml", { ["convert", input.path, "-o", $0.path, "--force"] }),
            ("out.kmz", { ["convert", input.path, "-o", $0.path, "-f"] }),
            ("out.pmtiles", { ["tile", input.path, "-o", $0.path, "--max-zoom", "7", "--force"] }),
            // Projected features in temporary files (in TMPDIR): none may outlive a killed run.
            ("disk-store.pmtiles", { ["tile", input.path, "-o", $0.path, "--max-zoom", "7", "--force", "--feature-store", "disk"] }),
            // One thread: MBTiles rows go in in arrival order, so only then are the bytes repeatable.
            ("out.mbtiles", { ["tile", input.path, "-o", $0.path, "--max-zoom", "7", "-f", "--threads", "1"] }),
            ("tiles", { ["tile", input.path, "-o", $0.path, "--max-zoom", "6", "--force"] }),
        ]
        var generator = SystemRandomNumberGenerator()
        for job in jobs {
            let outputs = folder.appendingPathComponent("run-" + job.name)
            try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
            let target = outputs.appendingPathComponent(job.name)
            // The complete new output, and how long a run takes.
            let (reference, started) = try run(job.arguments(target), temporary: temporary)
            reference.waitUntilExit()
            XCTAssertEqual(reference.terminationStatus, 0, job.name)
            let duration = Date().timeIntervalSince(started)
            let complete = snapshot(target)
            XCTAssertFalse(complete.isEmpty, job.name)
            let old = complete  // a finished earlier run is the "old" output from here on
            var killedMidway = 0
            for attempt in 0..<4 {
                // The first kill lands mid-run for sure (on a loaded machine later runs can be
                // faster than the reference); the others anywhere, after the end included.
                let delay = attempt == 0 ? duration * 0.4 : Double.random(in: 0...(duration * 1.1), using: &generator)
                let (process, _) = try run(job.arguments(target), temporary: temporary)
                usleep(useconds_t(delay * 1_000_000))
                if process.isRunning { killedMidway += 1 }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let now = snapshot(target)
                XCTAssertTrue(now == old || now == complete, "\(job.name) after SIGKILL at \(delay) s is neither old nor new")
                // A run that found leftovers of a killed one (tile's lock and temporary) clears them.
                let (cleanup, _) = try run(job.arguments(target), temporary: temporary)
                cleanup.waitUntilExit()
                XCTAssertEqual(cleanup.terminationStatus, 0, "\(job.name): the run after a SIGKILL failed")
                // Nothing beside the output, not even the killed run's lock (the next run removes it).
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path),
                               [job.name], "\(job.name): leftovers beside the output")
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [],
                               "\(job.name): leftovers in TMPDIR")
            }
            XCTAssertGreaterThan(killedMidway, 0, "\(job.name): no run was killed before it finished")
        }
    }

    /// A 64 KiB tmpfs fills up during the write: exit 74 naming the file, the old output kept,
    /// no temporary file left. Needs root to mount (skipped otherwise).
    func testFullDiskKeepsTheOldOutput() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = try makeInput(in: folder)
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = URL(fileURLWithPath: try Prerequisite.executable("mount", install: "Debian: mount"))
        try Prerequisite.require(try CLI.runTool(mount, ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path]).status == 0,
                                 "cannot mount a small tmpfs here (needs root)")
        defer { _ = try? CLI.runTool(CLI.which("umount")!, [disk.path]) }
        for (name, arguments) in [("out.geojson", ["convert"]), ("out.kmz", ["convert"]), ("out.pmtiles", ["tile"]),
                                  ("out.mbtiles", ["tile"]), ("tiles", ["tile"])] {
            let target = disk.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            if name.contains(".") { try Data("old".utf8).write(to: target) }
            let extra = arguments[0] == "tile" ? ["--max-zoom", "8", "--force"] : ["--force"]
            let result = try CLI.run(arguments + [input.path, "-o", target.path] + extra)
            XCTAssertEqual(result.status, 74, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("No space left on device") || result.stderr.contains("disk is full"), "\(name): \(result.stderr)")
            if name.contains(".") {
                XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "old", name)
            } else {
                XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "\(name): a partial directory was left")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).filter { $0 != name }
            XCTAssertEqual(left, [], "\(name): leftovers on the full disk")
            try? FileManager.default.removeItem(at: target)
        }
        // The disk feature store's temporaries on the full disk: refused before reading, saying
        // how much it needs; the output (elsewhere) is not made and nothing is left.
        let output = folder.appendingPathComponent("store.pmtiles")
        let result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "8", "--feature-store", "disk",
                                  "--tmpdir", disk.path])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("temporary space in \(disk.path)"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path), [], "leftovers on the full disk")
    }
}
