#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import OverlayKit

/// The `overlaykit` command: only configuration; each subcommand lives in its own file.
@main
struct OverlayKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overlaykit",
        abstract: "Convert, inspect, validate, filter, tile and render GeoJSON and KML map overlays.",
        version: "0.1.0",
        subcommands: [
            ConvertCommand.self,
            InfoCommand.self,
            ValidateCommand.self,
            DiffCommand.self,
            FilterCommand.self,
            TileCommand.self,
            TileJoinCommand.self,
            TileJobCommand.self,
            RenderCommand.self,
            ServeCommand.self,
        ]
    )

    static func main() {
        // Large steps for the allocator's heaps: reading on worker threads faults far less.
        HeapGrowth.growInLargeSteps()
        // Before any thread starts: SIGINT, SIGTERM and SIGHUP remove temporary outputs. `serve`
        // writes none and stops on SIGINT and SIGTERM itself (ServeLoop).
        if CommandLine.arguments.dropFirst().first != ServeCommand.configuration.commandName { InterruptCleanup.install() }
        // A closed pipe must end the command quietly, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let message = TippecanoeSpelling.unsupported(arguments) { throw ValidationError(message) }
            var command = try parseAsRoot(TippecanoeSpelling.expanded(arguments))
            try command.run()
        } catch let diagnostic as Diagnostic {
            // Any diagnostic a command did not report itself: printed once in the project's
            // format (argument-parser would add "Error: " before ours) with its exit status.
            Report.diagnostic(diagnostic)
            Self.exit(withError: ExitCode(diagnostic.exitStatus))
        } catch is ByteOutput.Closed {
            Self.exit(withError: ExitCode.success)
        } catch {
            Self.exit(withUsageError: error)
        }
    }

    /// Help, version and exit codes as argument-parser gives them; a usage error (exit 64) in
    /// the one spelling every other message uses, `error: usage: …` (argument-parser writes
    /// `Error: …`), followed by its usage lines.
    static func exit(withUsageError error: any Error) -> Never {
        let status = exitCode(for: error)
        guard status != .success, !(error is ExitCode) else { Self.exit(withError: error) }
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message = "error: usage: " + message.dropFirst("Error: ".count) }
        Report.standardError(message + (message.hasSuffix("\n") ? "" : "\n"))
        Self.exit(withError: ExitCode(status.rawValue))
    }
}
