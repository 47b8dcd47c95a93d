import Foundation
import TestSupport
import XCTest

/// Where `-o` writes: regular files atomically, special files in place, symbolic links followed,
/// and nothing temporary left behind when the process is interrupted.
final class OutputTargetTests: XCTestCase {
    private let point = Data(#"{"type":"Point","coordinates":[1,2]}"#.utf8)

    func testFIFOIsWrittenInPlaceNotReplaced() throws {
        let folder = try CLI.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("out.fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo.path]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let result = try CLI.run(["convert", "-", "-o", fifo.path, "--to", "geojsonseq"], stdin: point)
        XCTAssertEqual(result.status, 0, result.stderr)
        let read = pipe.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        XCTAssertEqual(String(decoding: read, as: UTF8.self),
                       #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}}"# + "\n")
        var status = stat()
        XCTAssertEqual(lstat(fifo.path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced by a regular file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["out.fifo"])
    }

    func testDeviceIsWrittenInPlace() throws {
        let result = try CLI.run(["convert", "-", "-o", "/dev/null", "--to", "geojson"], stdin: point)
        XCTAssertEqual(result.status, 0, result.stderr)
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is no longer a device")
    }

    func testSymbolicLinkIsFollowedAndKeptWithTheTargetsMode() throws {
        let folder = try CLI.temporaryFolder(self)
        let target = folder.appendingPathComponent("real.geojson"), link = folder.appendingPathComponent("link.geojson")
        try Data("old".utf8).write(to: target)
        XCTAssertEqual(chmod(target.path, 0o600), 0)
        XCTAssertEqual(symlink("real.geojson", link.path), 0)
        let result = try CLI.run(["convert", "-", "-o", link.path, "--to", "geojson", "--force"], stdin: point)
        XCTAssertEqual(result.status, 0, result.stderr)
        var status = stat()
        XCTAssertEqual(lstat(link.path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "the link was replaced")
        XCTAssertEqual(stat(target.path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertTrue(try String(contentsOf: target, encoding: .utf8).contains(#""coordinates":[1,2]"#))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), ["real.geojson", "link.geojson"])
    }

    /// SIGTERM and SIGINT while the output is half-written: the old file stays, no `.tmp-` file
    /// is left beside it, and the exit status still names the signal.
    func testInterruptedConvertLeavesTheOldFileAndNoTemporaryFile() throws {
        for signalNumber in [SIGTERM, SIGINT] {
            let folder = try CLI.temporaryFolder(self)
            let output = folder.appendingPathComponent("out.geojson")
            try Data("old".utf8).write(to: output)
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["convert", "-", "--from", "geojsonseq", "-o", output.path, "--force"]
            let input = Pipe()
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Enough records to pass the first buffer, with the pipe left open: convert waits mid-file.
            let record = #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[1,2]}}"# + "\n"
            input.fileHandleForWriting.write(Data(String(repeating: record, count: 20_000).utf8))
            var sawTemporary = false
            for _ in 0..<100 where !sawTemporary {
                sawTemporary = OutputTargetTests.hasOpenFile(process.processIdentifier, in: folder)
                if !sawTemporary { usleep(50_000) }
            }
            XCTAssertTrue(sawTemporary, "convert never opened its temporary file")
            kill(process.processIdentifier, signalNumber)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(process.terminationStatus, signalNumber)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["out.geojson"])
            XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "old")
            try? input.fileHandleForWriting.close()
        }
    }

    /// Whether the process holds a file open in `folder` (named or unnamed, `O_TMPFILE`).
    static func hasOpenFile(_ pid: Int32, in folder: URL) -> Bool {
        let descriptors = "/proc/\(pid)/fd"
        let resolvedFolder = folder.resolvingSymlinksInPath().path
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + entry),
               target.hasPrefix(resolvedFolder + "/") || target.hasPrefix(folder.path + "/") {
                return true
            }
        }
        return false
    }
}
