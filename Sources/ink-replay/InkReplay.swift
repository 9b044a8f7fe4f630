import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// The command-line tool: parses the subcommand, runs it, maps failures to exit codes
/// (0 success, 1 failure, 64 usage error) in the swift-argument-parser style.
enum InkReplay {
    static let overview = """
        OVERVIEW: Replay, verify and convert recorded ScratchpadInk touch sessions.

        Sessions are JSON Lines logs (docs/session-format.md). Replays run the real decision
        engine in simulated time: no sleeping, deterministic results.

        USAGE: ink-replay <subcommand>

        OPTIONS:
          -h, --help              Show help information.

        SUBCOMMANDS:
          run                     Replay sessions and report the ledger and first-ink latency.
          verify                  Check that every sample is accounted for (what CI runs).
          merge-reports           Join the shards' --json reports of verify or run into one.
          render                  Draw a replayed session as SVG.
          timeline                Draw each touch's decision over time (SVG or HTML).
          convert                 Convert recorded ink (InkML, Quick, Draw!) into session logs.
          export                  Write a replayed session's ink as W3C InkML.
          stats                   Describe a corpus: sessions, samples, sample intervals, pauses.
          host                    Run the engine and the bridge live over stdin/stdout (JSON Lines).
          soak                    Run a generated many-hour session with a hostile page; check memory.
          fixtures                Write the synthetic fixture sessions.
          smooth                  Export smoothed centrelines for the ink-quality harness.
          bench                   Measure: decision strategies (table, --plot), stroke pipeline cost, region lookup.

          See 'ink-replay help <subcommand>' for detailed help.
        """

    static let commands: [any Command.Type] = [RunCommand.self, VerifyCommand.self, MergeReportsCommand.self, ConvertCommand.self, ExportCommand.self, StatsCommand.self, HostCommand.self, SoakCommand.self, FixturesCommand.self, SmoothCommand.self, RenderCommand.self, TimelineCommand.self, BenchCommand.self]

    static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            print(overview)
            return 0
        }
        if first == "-h" || first == "--help" {
            print(overview)
            return 0
        }
        if first == "help" {
            guard arguments.count > 1 else { print(overview); return 0 }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return usageError("unknown subcommand '\(arguments[1])'", usage: "ink-replay <subcommand>")
            }
            print(command.help)
            return 0
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            return usageError("unknown subcommand '\(first)'", usage: "ink-replay <subcommand>")
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            print(command.help)
            return 0
        }
        do {
            var parsed = try ArgumentList(rest, table: command.options)
            return try command.run(&parsed)
        } catch let error as UsageError {
            return usageError(error.message, usage: command.usage, command: command.name)
        } catch let error as CommandFailure {
            printError("Error: \(error.message)")
            return 1
        } catch {
            printError("Error: \(error)")
            return 1
        }
    }

    static func usageError(_ message: String, usage: String, command: String? = nil) -> Int32 {
        printError("Error: \(message)")
        printError("Usage: \(usage)")
        printError("  See 'ink-replay \(command.map { "help \($0)" } ?? "--help")' for more information.")
        return 64
    }
}

/// One subcommand. Its usage line, the OPTIONS section of its help and its parser come from
/// one declaration, ``options``; the prose around them is written by hand.
protocol Command: Sendable {
    static var name: String { get }
    /// The positional part of the usage line (`<file or directory>...`), or empty.
    static var synopsis: String { get }
    /// The help before USAGE: `OVERVIEW: …` and any paragraphs.
    static var overview: String { get }
    /// The help between USAGE and OPTIONS (`ARGUMENTS:` and notes), or empty.
    static var details: String { get }
    /// Every option the command takes, and the combinations it refuses.
    static var options: OptionTable { get }
    static func run(_ arguments: inout ArgumentList) throws -> Int32
}

extension Command {
    static var details: String { "" }

    /// `ink-replay verify <file or directory>... [--json] …`: made from the table.
    static var usage: String {
        ["ink-replay", name, synopsis, options.usage].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The whole help: the prose, the usage line, and the OPTIONS made from the table.
    static var help: String {
        overview + "\n\nUSAGE: " + usage + (details.isEmpty ? "" : "\n\n" + details) + "\n\nOPTIONS:\n" + options.help
    }
}

/// A mistake in how the tool was called (exit 64).
struct UsageError: Error {
    var message: String
}

/// A failure of the work itself (exit 1).
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func printError(_ text: String) {
    // Messages quote the input; whatever slipped through unquoted is escaped and cut here.
    // A progress line on the terminal is cleared first, so the message starts its own line.
    ProgressScreen.shared.clear()
    StandardStream.error.line(InputText.printable(text))
}
