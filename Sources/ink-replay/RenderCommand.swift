import Foundation
import HitTestBridge
import InkRecording
import SessionReplay
import InkCore

/// `ink-replay render`: a picture of a replayed session.
enum RenderCommand: Command {
    static let name = "render"
    static let synopsis = "<session.jsonl>"
    static let overview = """
        OVERVIEW: Replay a session and draw it as SVG: ink filled, touches that went to the
        page as dashed lines, cancelled touches dotted, interactive regions outlined, with a
        legend and the ledger.
        """
    static let details = """
        ARGUMENTS:
          <session.jsonl>         The session log.
        """
    static let options = OptionTable([ReplayOptions.output("picture.svg", help: "Where to write the SVG.")], ReplayOptions.all)

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let (input, output) = try ReplayOptions.sessionAndOutput(arguments)
        let read = SessionLog.read(contentsOf: input)
        guard let log = read.log else { throw CommandFailure(message: read.failure?.description ?? "\(input): unreadable") }
        let report = SessionReplayer(configuration: try ReplayOptions.configuration(arguments)).replay(read, file: input)
        let title = PathText.lastComponent(input)
        let svg = SessionPicture(log: log, report: report, title: title).svg()
        do { try OutputFile.write(svg, to: output, inputs: [input]) } catch { throw CommandFailure(message: error.description) }
        if let failure = read.failure {
            printError("Error: \(failure) (the picture shows the valid part)")
            return 1
        }
        return 0
    }
}
