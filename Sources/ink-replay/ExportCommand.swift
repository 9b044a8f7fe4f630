import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// `ink-replay export`: a session's ink as W3C InkML.
enum ExportCommand: Command {
    static let name = "export"
    static let synopsis = "<session.jsonl>"
    static let overview = """
        OVERVIEW: Replay a session and write the strokes that became ink as W3C InkML: one
        trace per inked touch, channels X, Y (canvas points, units "px"), T (ms on the
        session's clock) and, where every sample has them, F, OE and OA. Touches that went
        to the page or were cancelled are left out (--all-touches writes every touch as
        recorded instead, without replaying). Reading the file back with `convert` gives
        the same positions and timestamps. It holds the whole session: a log over 64 MiB is
        refused (verify, run and stats stream logs of any size).
        """
    static let details = """
        ARGUMENTS:
          <session.jsonl>         The session log.
        """
    static let options = OptionTable(
        [ReplayOptions.output("file.inkml", help: "Where to write the InkML document."),
         Option("--all-touches", help: "Every touch's samples as recorded, not only the ink (nothing is replayed).")],
        ReplayOptions.all,
        rules: [OptionRule(when: .given("--all-touches"), refuses: ReplayOptions.all.map(\.name),
                           reason: "does not apply with '--all-touches' (it writes the touches as recorded, without a replay)")])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let (input, output) = try ReplayOptions.sessionAndOutput(arguments)
        let (log, readFailure) = try ReplayOptions.wholeSession(input, for: "export")
        let strokes: [[TouchSample]]
        if arguments.flag("--all-touches") {
            strokes = log.samplesByTouch.map(\.samples)
        } else {
            let report = SessionReplayer(configuration: try ReplayOptions.configuration(arguments)).replay(SessionLogEvents(log, file: input, failure: readFailure))
            strokes = report.touches.filter { !$0.cancelled }.map(\.inked)
        }
        var annotations: [(type: String, text: String)] = [("title", PathText.shown(PathText.lastComponent(input)))]
        if let source = log.header.source { annotations.append(("source", source)) }
        annotations.append(("generator", "ScratchpadInk ink-replay export"))
        let text = InkMLWriter.document(strokes: strokes, annotations: annotations)
        do { try OutputFile.write(text, to: output, inputs: CommandInputs.of(arguments)) } catch { throw CommandFailure(message: error.description) }
        let kept = strokes.filter { !$0.isEmpty }
        print("wrote \(kept.count) traces (\(kept.reduce(0) { $0 + $1.count }) samples) to \(PathText.shown(output))")
        if let failure = readFailure {
            printError("Error: \(failure) (the export holds the valid part)")
            return 1
        }
        return 0
    }
}
