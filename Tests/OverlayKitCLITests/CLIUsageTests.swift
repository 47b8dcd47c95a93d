import Foundation
import TestSupport
import XCTest

/// The CLI as people type it: negative option values, usage errors, one exit code for a
/// missing input, help text, and the note when standard input is a terminal.
final class CLIUsageTests: XCTestCase {
    private let examples = CLI.packageRoot.appendingPathComponent("Examples")

    func testNegativeNumbersAreOptionValues() throws {
        let folder = try CLI.temporaryFolder(self)
        let countries = examples.appendingPathComponent("countries.geojson").path
        let clipped = try CLI.run(["convert", "--clip", "-10,35,30,60", countries])
        XCTAssertEqual(clipped.status, 0, clipped.stderr)
        let names = clipped.stdoutText.components(separatedBy: "\"NAME\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertTrue(names.contains("Spain") && names.contains("Morocco"), "\(names)")
        XCTAssertFalse(names.contains("Fiji"), "\(names)")
        let image = folder.appendingPathComponent("sydney.png").path
        let rendered = try CLI.run(["render", "--center", "-33.9,151.2", "--zoom", "5", "--bearing", "-20", countries, "-o", image])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertTrue(rendered.stderr.contains("center -33.9,151.2"), rendered.stderr)
        XCTAssertTrue(rendered.stderr.contains("bearing 340.0"), "-20° is 340° clockwise: \(rendered.stderr)")
    }

    func testClipAcrossTheAntimeridianIsAUsageErrorSayingWhy() throws {
        let result = try CLI.run(["convert", "--clip", "170,-25,-170,-10", examples.appendingPathComponent("countries.geojson").path])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("crosses the antimeridian (west > east)"), result.stderr)
    }

    func testUsageErrorsExit64() throws {
        let input = examples.appendingPathComponent("parks.geojson").path
        let png = try CLI.run(["convert", "--to", "png", input])
        XCTAssertEqual(png.status, 64, png.stderr)
        XCTAssertTrue(png.stderr.contains("'png' is invalid for '--to"), png.stderr)
        let folder = try CLI.temporaryFolder(self)
        let shapefile = folder.appendingPathComponent("out.shp").path
        let unknown = try CLI.run(["convert", input, "-o", shapefile])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("out.shp"), unknown.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shapefile))
        let named = try CLI.run(["convert", input, "-o", shapefile, "--to", "geojson"])
        XCTAssertEqual(named.status, 0, "--to says what to write whatever the extension")
        XCTAssertEqual(try CLI.run(["filter", input, "-o", shapefile]).status, 64)
        XCTAssertEqual(try CLI.run(["convert", "--clip", "1,2,3", input]).status, 64)
    }

    func testAMissingInputIsTheSameCodeInEveryCommand() throws {
        let missing = "/nonexistent/overlaykit/missing.geojson"
        let folder = try CLI.temporaryFolder(self)
        let runs: [[String]] = [
            ["convert", missing], ["info", missing], ["validate", missing], ["filter", missing],
            ["render", missing, "-o", folder.appendingPathComponent("x.png").path],
            ["tile", missing, "-o", folder.appendingPathComponent("tiles").path],
        ]
        for arguments in runs {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 74, "\(arguments[0]): \(result.stderr)")
            XCTAssertTrue((result.stderr + result.stdoutText).contains("io.open-failed"), "\(arguments[0]): \(result.stderr)")
        }
    }

    func testHelpListsOnlyTheFormatsACommandTakes() throws {
        for command in ["convert", "filter", "validate", "info"] {
            let help = try CLI.run([command, "--help"]).stdoutText
            let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // the list wraps
            XCTAssertTrue(words.contains("values: geojson, geojsonseq, kml, kmz, geoparquet)"), "\(command): \(help)")
            XCTAssertFalse(help.contains("mvt, svg, png"), "\(command): \(help)")
        }
        let convert = try CLI.run(["convert", "--help"]).stdoutText
        XCTAssertTrue(convert.contains("bytes. Output goes to a temporary file"), "the discussion is not hard-wrapped mid-sentence:\n\(convert)")
    }

    func testStandardInputFromATerminalIsAnnounced() throws {
        // The tool's standard input is the follower side of a pseudo-terminal this test opens
        // itself (script(1) once hung for the whole 300 s watchdog on CI's machine). Ctrl-D,
        // typed on the controller side before the tool starts, is the end of input it waits for.
        // /dev/ptmx is posix_openpt on Linux; Glibc's Swift module leaves out the X/Open
        // terminal calls (unlockpt, ptsname), so they come from libc by name.
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(controller, 0, "/dev/ptmx: \(String(cString: strerror(errno)))")
        guard controller >= 0 else { return }
        defer { close(controller) }
        typealias UnlockPT = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let libc = dlopen(nil, RTLD_NOW)
        guard let unlockSymbol = dlsym(libc, "unlockpt"), let nameSymbol = dlsym(libc, "ptsname") else {
            return XCTFail("libc has no unlockpt/ptsname")
        }
        XCTAssertEqual(unsafeBitCast(unlockSymbol, to: UnlockPT.self)(controller), 0)
        guard let name = unsafeBitCast(nameSymbol, to: PTSName.self)(controller) else { return XCTFail("ptsname failed") }
        let followerPath = String(cString: name)
        let follower = open(followerPath, O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(follower, 0, "open \(followerPath): \(String(cString: strerror(errno)))")
        guard follower >= 0 else { return }
        let endOfInput: [UInt8] = [4]
        XCTAssertEqual(write(controller, endOfInput, 1), 1)

        CLI.ignoreBrokenPipes()
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["convert"]
        process.standardInput = FileHandle(fileDescriptor: follower, closeOnDealloc: false)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let launched = Result { try process.run() }
        close(follower)  // the tool holds its own copy
        try launched.get()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        nonisolated(unsafe) var printed = Data()
        let drained = DispatchGroup()
        drained.enter()
        DispatchQueue.global().async { printed = output.fileHandleForReading.readDataToEndOfFile(); drained.leave() }
        let messages = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let status = ChildExit.status(of: process)
        drained.wait()
        XCTAssertTrue(messages.contains("note: input.stdin: reading standard input"), messages)
        XCTAssertTrue(messages.contains("input.unknown-format"), "Ctrl-D ends the input, which is empty: \(messages)")
        XCTAssertEqual(status, 65, messages)
        XCTAssertTrue(printed.isEmpty)

        let piped = try CLI.run(["convert"], stdin: Data("{\"type\":\"Point\",\"coordinates\":[1,2]}".utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stderr.contains("input.stdin"), "a pipe is not announced: \(piped.stderr)")
    }
}
