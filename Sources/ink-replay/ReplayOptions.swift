import HitTestBridge
import InkRecording
import SessionReplay
import InkCore

/// The replay options `run` and `verify` share.
enum ReplayOptions {
    static let spec = ArgumentSpec(
        valued: ["--oracle": "--oracle", "--oracle-latency": "--oracle-latency", "--jitter": "--jitter", "--seed": "--seed",
                 "--cache": "--cache", "--speculative": "--speculative", "--timeout": "--timeout", "--fallback": "--fallback",
                 "--gesture-window": "--gesture-window"],
        flags: ["--json", "--pencil-only"])

    static let help = """
          --oracle <source>       Who answers hit tests: recorded (the log's answers),
                                  regions (the page answers from the region snapshots the
                                  log records), or chromium:<page.html> (run only: a real
                                  page in headless Chromium) (default: recorded).
          --oracle-latency <ms>   Answers arrive this many ms after their question (default:
                                  as recorded; with --oracle regions: 30).
          --jitter <ms>           Add a seeded random 0..<ms to each round trip's latency.
          --seed <n>              Seed of the jitter and the query ids (default: 1).
          --cache <on|off>        Let fresh region snapshots answer without a round trip
                                  (default: off, so recorded answers are replayed as such).
          --speculative <on|off>  Draw a touch that waits for a round trip as tentative ink
                                  when the last snapshot, even stale, shows nothing
                                  interactive near it; retract it if the page disagrees
                                  (default: off).
          --timeout <ms>          Deadline for an unanswered hit test (default: 250).
          --fallback <owner>      Where an unanswered touch goes: ink or page (default: ink).
          --gesture-window <ms>   A second finger within this time makes a gesture that goes
                                  to the page; 0 disables (default: 150).
          --pencil-only           Fingers go to the page, pencils ink, without asking.
          --json                  Print one JSON object instead of a table.
        """

    /// The options of a command that replays one session into one file (`render`, `export`,
    /// `timeline`): these, `-o`/`--output`, and the command's own `flags`.
    static func specWithOutput(flags: Set<String> = []) -> ArgumentSpec {
        var spec = Self.spec
        spec.valued["-o"] = "--output"
        spec.valued["--output"] = "--output"
        spec.flags.formUnion(flags)
        return spec
    }

    /// The one session and the output file of such a command.
    /// - Throws: ``UsageError`` without exactly one session or without `--output`.
    static func sessionAndOutput(_ arguments: ArgumentList) throws -> (session: String, output: String) {
        guard arguments.positional.count == 1, let input = arguments.positional.first else {
            throw UsageError(message: "expected one <session.jsonl>")
        }
        guard let output = arguments.string("--output") else { throw UsageError(message: "missing '--output <file>'") }
        return (input, output)
    }

    /// The largest log `render` and `export` take, in bytes (64 MiB, about 550,000 samples of
    /// recorded ink): they draw or write a whole session, so they hold it in memory; `verify`,
    /// `run` and `stats` stream logs of any size.
    static let wholeSessionByteLimit = 64 << 20

    /// Reads a whole session for a command that needs all of it at once, refusing a log over
    /// ``wholeSessionByteLimit`` (counted as read, so a pipe is refused too, and the memory
    /// held stops there). A log without a header is refused; a later fault is returned with
    /// the part before it.
    static func wholeSession(_ path: String, for command: String) throws -> (log: SessionLog, failure: SessionLogError?) {
        var bytes = 0
        var events = SessionLogEvents(contentsOf: path, onRead: { bytes += $0 })
        guard let header = events.header else {
            throw CommandFailure(message: events.failure?.description ?? "\(path): unreadable")
        }
        var log = SessionLog(header: header)
        func refuse() -> CommandFailure {
            CommandFailure(message: "\(path): larger than \(wholeSessionByteLimit >> 20) MiB; `\(command)` holds a whole session "
                + "in memory and takes at most that (split the log; verify, run and stats stream logs of any size)")
        }
        while let (event, line) = events.next() {
            guard bytes <= wholeSessionByteLimit else { throw refuse() }
            log.events.append(event)
            if let line { log.eventLines.append(line) }
        }
        guard bytes <= wholeSessionByteLimit else { throw refuse() }
        return (log, events.failure)
    }

    static func configuration(_ arguments: ArgumentList) throws -> ReplayConfiguration {
        var engine = InkEngineConfiguration(useRegionCache: try arguments.onOff("--cache") ?? false)
        if let timeout = try arguments.number("--timeout", in: 0...3_600_000) { engine.decisionTimeout = timeout / 1000 }
        if let window = try arguments.number("--gesture-window", in: 0...60_000) { engine.gestureWindow = window / 1000 }
        engine.pencilOnly = arguments.flag("--pencil-only")
        engine.speculativeInk = try arguments.onOff("--speculative") ?? false
        if let fallback = try arguments.choice("--fallback", as: HitTestVerdict.self) { engine.fallback = fallback }
        var configuration = ReplayConfiguration(engine: engine)
        let latency = try arguments.number("--oracle-latency", in: 0...3_600_000).map { $0 / 1000 }
        switch arguments.string("--oracle") ?? "recorded" {
        case "recorded": configuration.oracle = latency.map { .recordedWithLatency($0) } ?? .recorded
        case "regions": configuration.oracle = .regions(latency: latency ?? 0.030)
        case let other: throw UsageError(message: "'--oracle' takes one of recorded, regions, chromium:<page.html>, not '\(other)'")
        }
        if let jitter = try arguments.number("--jitter", in: 0...3_600_000) { configuration.latencyJitter = jitter / 1000 }
        if let seed = try arguments.number("--seed", in: 0...9_007_199_254_740_991) { configuration.seed = UInt64(seed) }
        return configuration
    }

    /// Replays every log named, each read line by line as it plays; a report keeps each
    /// touch's outcome only when `keepingTouches` (a picture needs them), so memory does not
    /// grow with the logs otherwise. With `progressTitle`, shows progress on standard error
    /// (sessions and bytes of the logs' total size) when the arguments ask for it.
    static func replayAll(_ arguments: ArgumentList, keepingTouches: Bool = false,
                          progressTitle: String? = nil) throws -> [ReplayReport] {
        var configuration = try configuration(arguments)
        configuration.keepsTouches = keepingTouches
        let files = try SessionFiles.expand(arguments.positional)
        let replayer = SessionReplayer(configuration: configuration)
        guard let title = progressTitle,
              let progress = try JobProgress.standardError(arguments, title: title, unit: "sessions", total: Double(files.count),
                                                        byteTotal: JobProgress.totalSize(files)) else {
            return files.map { file in replayer.replay(contentsOf: file) }
        }
        defer { progress.finish() }
        return files.map { file in
            progress.set(detail: PathText.lastComponent(file))
            let report = replayer.replay(SessionLogEvents(contentsOf: file, onRead: { progress.advance(bytes: $0) }))
            progress.advance()
            return report
        }
    }
}
