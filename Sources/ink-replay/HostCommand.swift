import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import HitTestBridge
import InkHost
@_spi(Tooling) import InkRecording
import InkCore

/// `ink-replay host`: the engine and the bridge as a process. A front end in any language
/// writes touch events and page messages as JSON Lines to standard input and reads what to
/// do as JSON Lines from standard output. The protocol is documented in docs/host.md and is
/// a library type, `HostProtocolSession` (InkHost); this is its shell: the options, standard
/// input read with read(2), standard output through the checked `StandardStream`, and the
/// `--record` file.
enum HostCommand: Command {
    static let name = "host"
    static let synopsis = ""
    static let overview = """
        OVERVIEW: Run the engine and the bridge live over standard input and output.

        Reads JSON Lines: an optional session header first (for the page transform), then
        session-log events (touch, update, regions, answer), page messages as the page
        script sends them ({"kind":"page","t":…,"message":{…}}), time passing
        ({"kind":"tick","t":…}) and layout changes ({"kind":"layout","t":…,
        "page_transform":{…}}). Each line's t (seconds, on the samples' clock) is the time:
        deadlines due by then fire first, at their own times. Writes JSON Lines: query (send
        it to the page), decided, ink, predict, refine, end_ink, retract, release,
        end_release, cancel, finished, stroke (with --geometry), ignored (a page message
        that changed nothing: late, duplicate, forged, stale), error (a refused line; nothing
        changed), deadline (when to send a tick), and a summary at the end of the input,
        where touches still down are cancelled. Output is flushed after every input line. A
        session log piped in replays through the engine: its recorded answers are given to
        the round trips their touches wait for. Protocol: docs/host.md.
        """
    static let options = OptionTable(
        [Option("--geometry", help: "Also write each changed stroke's outline as SVG path data.")],
        EngineOptions.declarations(.host),
        [Option("--seed", kind: .integer("n", 0...9_007_199_254_740_991), help: "Seed the query tokens", default: "unpredictable; for tests"),
        Option("--record", kind: .text("file"),
               help: "Record the session (what the engine took and decided) as a session log, streamed to a temporary file beside <file> and renamed to <file> at the end of the input; `ink-replay verify <file>` replays it and checks every decision.")])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let configuration = try EngineOptions.Defaults.host.configuration(arguments)
        let seed = arguments.integer("--seed").map { UInt64($0) }
        var recording: RecordingFile?
        if let path = arguments.string("--record") {
            // Refused before the session (exit 1), naming the path: a target the final rename
            // could not reach, or an input (standard input's file included).
            do { recording = try RecordingFile(path: path) } catch { throw CommandFailure(message: "--record \(error.description)") }
        }
        var sink: (@Sendable ([UInt8]) -> Bool)?
        if let recording { sink = { bytes in recording.offer(bytes) } }
        let session = HostProtocolSession(configuration: configuration, seed: seed, geometry: arguments.flag("--geometry"),
                                          recordingSink: sink)
        // Read what is there as soon as it is there (a live front end waits for our reply
        // to each line), and hand complete lines to the session one by one.
        var lines = LineSplitter(maxLineBytes: HostProtocolSession.maxLineBytes)
        var leftOut = LeftOut()
        var pieces: [LineSplitter.Piece] = []
        // read(2) on standard input, not FileHandle.availableData, which traps on a read error
        // (EIO from a terminal that went away, EISDIR for `< some-directory`).
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var readFailed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                output(session.refuseLine("standard input: cannot read (\(reason)); nothing after line \(session.lineCount) was read"))
                readFailed = true
                break
            }
            if count == 0 { break }
            lines.feed(buffer[0..<count], into: &pieces)
            for piece in pieces {
                output(session.take(piece))
                if recording != nil { leftOut.note(session) }
            }
            pieces.removeAllBounded()
        }
        if !readFailed, let last = lines.finish() {
            output(session.take(last))
            if recording != nil { leftOut.note(session) }
        }
        output(session.finish())
        return commit(recording, of: session, leftOut: leftOut) && !readFailed ? 0 : 1
    }

    /// The first input line whose recording was left out, noted as the lines are taken.
    struct LeftOut {
        private var seen = 0
        private(set) var firstLine: Int?

        mutating func note(_ session: HostProtocolSession) {
            guard let dropped = session.recorder?.droppedLines, dropped > seen else { return }
            if firstLine == nil { firstLine = session.lineCount }
            seen = dropped
        }
    }

    /// Writes a line's output to standard output, flushed: a live front end waits for it.
    /// (The session offered the recording what the line recorded before it returned.)
    static func output(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        var text = ""
        for line in lines {
            text += line
            text += "\n"
        }
        StandardStream.output.write(text)
        StandardStream.output.flush()
    }

    /// Renames the recording into place (the loop's `stop()` flushed its recorder); `false`
    /// (said on standard error) when it could not be written, or when lines were left out of
    /// it (issue 53: it exited 0 with a warning blaming the file, and the recording could
    /// never verify): the error names the first input line left out and why.
    static func commit(_ recording: RecordingFile?, of session: HostProtocolSession, leftOut: LeftOut = LeftOut()) -> Bool {
        guard let recording else { return true }
        session.flushRecording()   // a sink that was behind is offered what is held once more
        do {
            try recording.commit()
            if let recorder = session.recorder, !recorder.isComplete {
                let tooLong = recorder.linesTooLong > 0 ? recorder.longestLineLeftOut : nil
                printError("Error: --record \(recording.path): input line \(leftOut.firstLine.map(String.init) ?? "?") could not be recorded "
                           + SessionLogLines.droppedReason(tooLong: tooLong) + " (\(recorder.droppedLines) lines left out in all): "
                           + "the recording is incomplete and will not verify")
                return false
            }
            return true
        } catch {
            printError("Error: --record \(recording.path): \(error.message)")
            return false
        }
    }
}
