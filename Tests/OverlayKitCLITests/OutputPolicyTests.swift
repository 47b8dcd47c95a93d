import Foundation
import TestSupport
import XCTest

/// One output policy for every command that writes files: one-character names, `-o -` for a
/// tile set, an existing output (refused without `--force`/`-f`), a missing folder (never
/// created), symbolic links to archives (followed).
final class OutputPolicyTests: XCTestCase {
    private var countries: String { CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path }
    private var parks: String { CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path }

    private func entries(_ folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    /// `("w" as NSString).deletingLastPathComponent` trapped (SIGILL, rc 132) on this Foundation.
    func testOneCharacterOutputNamesWork() throws {
        let folder = try CLI.temporaryFolder(self)
        let directory = try CLI.run(["tile", countries, "-o", "w", "--max-zoom", "2"], currentDirectory: folder)
        XCTAssertEqual(directory.status, 0, directory.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("w/metadata.json").path))
        let archive = try CLI.run(["tile", countries, "-o", "x", "--format", "pmtiles", "--max-zoom", "2"], currentDirectory: folder)
        XCTAssertEqual(archive.status, 0, archive.stderr)
        let header = try Data(contentsOf: folder.appendingPathComponent("x")).prefix(7)
        XCTAssertEqual(String(decoding: header, as: UTF8.self), "PMTiles")
        let mbtiles = try CLI.run(["tile", countries, "-o", "m", "--format", "mbtiles", "--max-zoom", "1"], currentDirectory: folder)
        XCTAssertEqual(mbtiles.status, 0, mbtiles.stderr)
        let joined = try CLI.run(["tile-join", "w", "-o", "j"], currentDirectory: folder)
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("j/metadata.json").path))
        for (command, name) in [("convert", "c"), ("filter", "f")] {
            let result = try CLI.run([command, parks, "-o", name], currentDirectory: folder)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), command)
        }
        let render = try CLI.run(["render", parks, "-o", "r", "--format", "svg", "--size", "64x64"], currentDirectory: folder)
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertEqual(try entries(folder), ["w", "x", "m", "j", "c", "f", "r"])
    }

    /// A tile set is a file or a directory: standard output is a usage error, not a crash.
    func testTileSetToStandardOutputIsAUsageError() throws {
        let folder = try CLI.temporaryFolder(self)
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", "w", "--max-zoom", "1"], currentDirectory: folder).status, 0)
        for arguments in [["tile", countries, "-o", "-", "--max-zoom", "2"],
                          ["tile", countries, "-o", "-", "--format", "pmtiles"],
                          ["tile-join", "w", "-o", "-"]] {
            let result = try CLI.run(arguments, currentDirectory: folder)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot be written to standard output"), result.stderr)
        }
        XCTAssertEqual(try entries(folder), ["w"])
    }

    /// A tile set is built beside its target and renamed: a device cannot be its target.
    func testTileSetToADeviceIsRefused() throws {
        for format in ["pmtiles", "mbtiles", "mvt"] {
            let result = try CLI.run(["tile", parks, "-o", "/dev/null", "--format", format, "--max-zoom", "1", "--force"])
            XCTAssertEqual(result.status, 74, "\(format): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("neither a regular file nor a directory"), result.stderr)
        }
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is no longer a device")
    }

    /// Every command that writes files refuses an existing output (74, the old bytes kept) and
    /// replaces it with `--force` or `-f`.
    func testExistingOutputIsRefusedWithoutForceInEveryCommand() throws {
        let folder = try CLI.temporaryFolder(self)
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", "source", "--max-zoom", "1"], currentDirectory: folder).status, 0)
        let jobs: [(name: String, arguments: [String])] = [
            ("out.geojson", ["convert", parks]),
            ("out.kml", ["convert", parks]),
            ("out.geojsons", ["filter", parks]),
            ("out.svg", ["render", parks, "--size", "64x64"]),
            ("out.pmtiles", ["tile", parks, "--max-zoom", "2"]),
            ("out.mbtiles", ["tile", parks, "--max-zoom", "2"]),
            ("tiles", ["tile", parks, "--max-zoom", "2"]),
            ("joined.pmtiles", ["tile-join", "source"]),
            ("joined", ["tile-join", "source"]),
        ]
        for job in jobs {
            let target = folder.appendingPathComponent(job.name)
            if job.name.contains(".") {
                try Data("old".utf8).write(to: target)
            } else {
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
                try Data("old".utf8).write(to: target.appendingPathComponent("keep"))
            }
            let refused = try CLI.run(job.arguments + ["-o", job.name], currentDirectory: folder)
            XCTAssertEqual(refused.status, 74, "\(job.name): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("io.output-exists") && refused.stderr.contains("--force"), refused.stderr)
            let old = job.name.contains(".") ? target : target.appendingPathComponent("keep")
            XCTAssertEqual(try String(contentsOf: old, encoding: .utf8), "old", job.name)
            for flag in ["--force", "-f"] {
                let replaced = try CLI.run(job.arguments + ["-o", job.name, flag], currentDirectory: folder)
                XCTAssertEqual(replaced.status, 0, "\(job.name) \(flag): \(replaced.stderr)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: target.appendingPathComponent("keep").path), job.name)
                XCTAssertNotEqual(try? String(contentsOf: target, encoding: .utf8), "old", job.name)
            }
        }
        XCTAssertEqual(try entries(folder), Set(jobs.map(\.name) + ["source"]), "leftovers beside the outputs")
    }

    /// `tile` refuses an existing output before it reads its input: an input that never ends
    /// (a pipe left open) still gets the answer at once.
    func testTileRefusesAnExistingOutputBeforeReading() throws {
        let folder = try CLI.temporaryFolder(self)
        let target = folder.appendingPathComponent("out.pmtiles")
        try Data("old".utf8).write(to: target)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["tile", "-", "--from", "geojsonseq", "-o", target.path]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try? input.fileHandleForWriting.close()
        XCTAssertEqual(process.terminationReason, .exit, "tile waited for its input")
        XCTAssertEqual(process.terminationStatus, 74)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(stderr.contains("io.output-exists"), stderr)
    }

    /// A missing folder is an I/O error (74) in every command; nothing is created.
    func testMissingFolderIsAnErrorInEveryCommand() throws {
        let folder = try CLI.temporaryFolder(self)
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", "source", "--max-zoom", "1"], currentDirectory: folder).status, 0)
        let jobs: [[String]] = [
            ["convert", parks, "-o", "no/such/out.geojson"],
            ["filter", parks, "-o", "no/such/out.geojsons"],
            ["render", parks, "-o", "no/such/out.svg", "--size", "64x64"],
            ["tile", parks, "-o", "no/such/out.pmtiles", "--max-zoom", "1"],
            ["tile", parks, "-o", "no/such/out.mbtiles", "--max-zoom", "1"],
            ["tile", parks, "-o", "no/such/tiles", "--max-zoom", "1"],
            ["tile-join", "source", "-o", "no/such/joined.pmtiles"],
        ]
        for arguments in jobs {
            let result = try CLI.run(arguments, currentDirectory: folder)
            XCTAssertEqual(result.status, 74, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("the folder no/such does not exist"), result.stderr)
        }
        XCTAssertEqual(try entries(folder), ["source"])
    }

    /// `tile --force -o link.pmtiles` replaces the file the link names and keeps the link, for
    /// files and for directories.
    func testSymbolicLinksToTileSetsAreFollowed() throws {
        let folder = try CLI.temporaryFolder(self)
        for (real, link, format) in [("real.pmtiles", "link.pmtiles", "pmtiles"), ("real.mbtiles", "link.mbtiles", "mbtiles"),
                                     ("real-tiles", "link-tiles", "mvt")] {
            XCTAssertEqual(try CLI.run(["tile", countries, "-o", real, "--max-zoom", "0", "--format", format],
                                       currentDirectory: folder).status, 0)
            XCTAssertEqual(symlink(real, folder.appendingPathComponent(link).path), 0)
            let result = try CLI.run(["tile", countries, "-o", link, "--max-zoom", "2", "--force", "--format", format],
                                     currentDirectory: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
            var status = stat()
            XCTAssertEqual(lstat(folder.appendingPathComponent(link).path, &status), 0)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "\(link) was replaced instead of \(real)")
            XCTAssertTrue(result.stderr.contains("z0–z2"), result.stderr)
        }
        let info = try CLI.run(["tile-join", "link-tiles", "-o", "check"], currentDirectory: folder)
        XCTAssertTrue(info.stderr.contains("z0–z2"), "the linked directory does not hold the new tiles: \(info.stderr)")
        XCTAssertEqual(try entries(folder), ["real.pmtiles", "link.pmtiles", "real.mbtiles", "link.mbtiles",
                                             "real-tiles", "link-tiles", "check"])
    }
}
