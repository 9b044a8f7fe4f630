import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// `ink-replay render`: a picture of a replayed session.
enum RenderCommand: Command {
    static let name = "render"
    static let synopsis = "<session.jsonl>"
    static let overview = """
        OVERVIEW: Replay a session and draw it as SVG: ink filled, touches that went to the
        page as dashed lines, cancelled touches dotted, interactive regions outlined, with a
        legend and the ledger. It holds the whole session: a log over 64 MiB is refused
        (verify, run and stats stream logs of any size).
        """
    static let details = """
        ARGUMENTS:
          <session.jsonl>         The session log.
        """
    static let options = OptionTable([ReplayOptions.output("picture.svg", help: "Where to write the SVG.")], ReplayOptions.all)

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let (input, output) = try ReplayOptions.sessionAndOutput(arguments)
        let (log, readFailure) = try ReplayOptions.wholeSession(input, for: "render")
        let report = SessionReplayer(configuration: try ReplayOptions.configuration(arguments)).replay(SessionLogEvents(log, file: input, failure: readFailure))
        let title = PathText.shown(PathText.lastComponent(input))
        let svg = SessionPicture(log: log, report: report, title: title).svg()
        do { try OutputFile.write(svg, to: output, inputs: CommandInputs.of(arguments)) } catch { throw CommandFailure(message: error.description) }
        if let failure = readFailure {
            printError("Error: \(failure) (the picture shows the valid part)")
            return 1
        }
        return 0
    }
}
