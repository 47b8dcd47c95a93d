import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            FilterCommand.self,
            TileCommand.self,
            TileJoinCommand.self,
            RenderCommand.self,
        ]
    )

    static func main() {
        // A closed pipe must end the command quietly, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        Self.main(nil)
    }
}
