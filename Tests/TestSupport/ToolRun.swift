import Foundation

/// Runs a helper program (a script, python3, a peer tool) to its end and hands back its exit
/// status and output, for tests that compare with an oracle.
public struct ToolRun {
    /// The exit status.
    public var status: Int32
    /// Standard output.
    public var output: Data
    /// Standard error, or standard output and error together when merged.
    public var errors: String

    /// Standard output as UTF-8 text.
    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Runs `executable` with `arguments`; `mergingErrors` sends standard error into `output`.
    /// Both pipes are drained while the program runs, so a chatty one cannot block.
    public static func run(_ executable: String, _ arguments: [String], mergingErrors: Bool = false) throws -> ToolRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = mergingErrors ? output : error
        try process.run()
        nonisolated(unsafe) var errorData = Data()  // written by the drain, read after `drained`
        let drained = DispatchSemaphore(value: 0)
        if !mergingErrors {
            DispatchQueue.global().async {
                errorData = error.fileHandleForReading.readDataToEndOfFile()
                drained.signal()
            }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        if !mergingErrors { drained.wait() }
        // Not `waitUntilExit()`: a descendant left running can hide the child's exit from Foundation.
        let status = ChildExit.status(of: process)
        let outputText = String(decoding: outputData, as: UTF8.self)
        return ToolRun(status: status, output: outputData,
                       errors: mergingErrors ? outputText : String(decoding: errorData, as: UTF8.self))
    }

    /// The first of `names` found executable in the `PATH`, as a full path.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
