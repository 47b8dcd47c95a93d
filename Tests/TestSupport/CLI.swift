import Foundation
import XCTest

/// Runs the `overlaykit` binary built beside the tests, through real pipes.
public enum CLI {
    public static let packageRoot = TestLocations.packageRoot
    public static let corpus = TestLocations.corpus

    /// The build folder of the tests, which holds this build's executables (the test bundle
    /// sits beside them): `overlaykit-example` is there whichever `overlaykit` the tests run.
    public static var productsFolder: URL {
        // On Linux the tests run as `.build/<config>/OverlayKitPackageTests.xctest` itself.
        for candidate in [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          Bundle(for: BundleLocator.self).bundleURL.deletingLastPathComponent()]
        where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("overlaykit-example").path) {
            return candidate
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }

    /// The binary: `OVERLAYKIT_BINARY` when set, else the debug product of this package.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["OVERLAYKIT_BINARY"] { return URL(fileURLWithPath: path) }
        let candidate = productsFolder.appendingPathComponent("overlaykit")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return packageRoot.appendingPathComponent(".build/debug/overlaykit")
    }

    public struct Result {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public init(status: Int32, stdout: Data, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var lines: [String] { stdoutText.split(separator: "\n").map(String.init) }
    }

    /// Runs with arguments and optional standard input; waits for exit.
    @discardableResult
    public static func run(_ arguments: [String], stdin: Data? = nil, currentDirectory: URL? = nil) throws -> Result {
        try runTool(binary, arguments, stdin: stdin, currentDirectory: currentDirectory)
    }

    /// Runs any executable (the tool or a peer such as ogr2ogr) the same way.
    @discardableResult
    public static func runTool(_ executable: URL, _ arguments: [String], stdin: Data? = nil, currentDirectory: URL? = nil) throws -> Result {
        ignoreBrokenPipes()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // A hung child must fail the test, not stall the suite: its own children go too (an
        // Xvfb left behind by `xvfb-run` would hold the pipes open, and the reads below never end).
        let watchdog = DispatchWorkItem {
            guard process.isRunning else { return }
            let descendants = Self.descendants(of: process.processIdentifier)
            process.terminate()
            for pid in descendants { kill(pid, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        defer { watchdog.cancel() }
        // Feed stdin and drain both outputs concurrently so no pipe fills up and blocks.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = output.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = error.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
        try? input.fileHandleForWriting.close()
        // Not `waitUntilExit()`: a descendant left running can hide the child's exit from Foundation.
        let status = ChildExit.status(of: process)
        group.wait()
        return Result(status: status, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The processes below `pid` (children, their children, …), from /proc (none where there is none).
    public static func descendants(of pid: Int32) -> [Int32] {
        var parents = [Int32: Int32]()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry), let fields = ChildExit.statFields(child) else { continue }
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
        }
        var found = [Int32](), frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    /// Writing to a child that already exited must fail with EPIPE, not kill the test run.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// An executable on PATH.
    public static func which(_ tool: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(tool)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// VmHWM (peak resident memory) of a running process, in kB.
    public static func peakMemoryKilobytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Runs the tool with `arguments`, polling its VmHWM (peak resident memory, kB) every 5 ms
    /// until it exits (terminated after `seconds`); returns the peak, exit status and outputs.
    public static func runMeasuringPeakMemory(_ arguments: [String], seconds: TimeInterval = 600)
        throws -> (peak: Int, status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let readers = DispatchGroup()
        readers.enter()
        DispatchQueue.global().async { outData = output.fileHandleForReading.readDataToEndOfFile(); readers.leave() }
        readers.enter()
        DispatchQueue.global().async { errData = errors.fileHandleForReading.readDataToEndOfFile(); readers.leave() }
        var peak = 0
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline {
            peak = max(peak, peakMemoryKilobytes(process.processIdentifier) ?? 0)
            usleep(5_000)
        }
        if process.isRunning { process.terminate() }
        let status = ChildExit.status(of: process)
        readers.wait()
        return (peak, status, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }


    /// A fresh temporary folder, removed at the end of the test.
    public static func temporaryFolder(_ testCase: XCTestCase) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }
}

private final class BundleLocator {}
