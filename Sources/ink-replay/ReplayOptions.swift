@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// The replay options `run` and `verify` share.
enum ReplayOptions {
    /// `--oracle`: who answers hit tests. Only `run` and `timeline` take a real page.
    static func oracle(chromium: Bool) -> Option {
        Option("--oracle", kind: .choice(["recorded", "regions"] + (chromium ? ["chromium:<page.html>"] : [])),
               help: "Who answers hit tests: recorded (the log's answers) or regions (the page answers from the region snapshots the log records)"
                   + (chromium ? ", or chromium:<page.html> (a real page in headless Chromium)" : ""),
               default: "recorded")
    }

    /// The options that set up a replay in simulated time (`--oracle` apart): the engine's
    /// (``EngineOptions``) with the replay's defaults after the replay's own.
    static let simulated: [Option] = [
        Option("--oracle-latency", kind: .number("ms", 0...3_600_000), help: "Answers arrive this many ms after their question",
               default: "as recorded; with --oracle regions: 30"),
        Option("--jitter", kind: .number("ms", 0...3_600_000), help: "Add a seeded random 0..<ms to each round trip's latency."),
        Option("--seed", kind: .integer("n", 0...9_007_199_254_740_991), help: "Seed of the jitter and the query ids", default: "1"),
    ] + EngineOptions.declarations(.replay)

    /// The replay options of a command that replays in simulated time only.
    static let all: [Option] = [oracle(chromium: false)] + simulated

    /// What a replay against a real page takes of those options: the rest are refused with it.
    static let chromiumTakes: Set<String> = ["--oracle", EngineOptions.Name.cache.rawValue, EngineOptions.Name.fallback.rawValue]

    /// Refuses, with `--oracle chromium:…`, the options of `options` a replay against a real
    /// page does not use.
    static func chromiumRule(_ options: [Option], alsoTakes: Set<String> = []) -> OptionRule {
        OptionRule(when: .value("--oracle", prefix: "chromium:"),
                   refuses: options.map(\.name).filter { !chromiumTakes.contains($0) && !alsoTakes.contains($0) },
                   reason: "does not apply with '--oracle chromium:<page.html>' (the real page answers in real time; only "
                       + (chromiumTakes.subtracting(["--oracle"]).union(alsoTakes)).sorted().joined(separator: ", ") + " apply there)")
    }

    /// `--accept-incomplete`: a recording cut short (no `end` line, or lines its recorder
    /// dropped) passes when what it holds replays identically.
    static let acceptIncomplete = Option(
        "--accept-incomplete",
        help: "Accept a live recording that is incomplete (it ends without its end line: a crash, a full disk, a cut; or its recorder dropped lines) when what it holds verifies: said as a note, not a failure")

    /// `--json`, with what it prints instead.
    static func json(_ help: String = "Print one JSON object instead of a table.") -> Option {
        Option("--json", help: help)
    }

    /// `-o`/`--output` of a command that writes one file.
    static func output(_ placeholder: String, help: String) -> Option {
        Option("--output", "-o", kind: .text(placeholder), help: help, required: true)
    }

    /// The one session and the output file of such a command.
    /// - Throws: ``UsageError`` without exactly one session (the table requires `--output`).
    static func sessionAndOutput(_ arguments: ArgumentList) throws -> (session: String, output: String) {
        guard arguments.positional.count == 1, let input = arguments.positional.first else {
            throw UsageError(message: "expected one <session.jsonl>")
        }
        let output = arguments.string("--output") ?? ""
        // Refused before the replay: a target the final rename could not reach, or an input.
        if !output.isEmpty {
            do { try OutputFile.check(output, inputs: CommandInputs.of(arguments)) } catch { throw CommandFailure(message: error.description) }
        }
        return (input, output)
    }

    /// The largest log `render`, `export` and `timeline` take, in bytes (64 MiB, about 550,000
    /// samples of recorded ink), and the largest stroke file of `smooth` and `bench strokes`:
    /// they draw or write a whole session, so they hold it in memory; `verify`, `run` and
    /// `stats` stream logs of any size.
    static let wholeSessionByteLimit = 64 << 20

    /// Reads a whole session for a command that needs all of it at once, refusing a log over
    /// ``wholeSessionByteLimit`` (counted as read, so a pipe is refused too, and the memory
    /// held stops there). A log without a header is refused; a later fault is returned with
    /// the part before it.
    static func wholeSession(_ path: String, for command: String) throws -> (log: SessionLog, failure: SessionLogError?) {
        func refuse() -> CommandFailure {
            CommandFailure(message: "\(path): larger than \(wholeSessionByteLimit >> 20) MiB; `\(command)` holds a whole session "
                + "in memory and takes at most that (split the log; verify, run and stats stream logs of any size)")
        }
        // A regular file over the limit is refused before it is read (it was read to the
        // limit and held: 194 MB for `timeline` on a 70 MB log).
        if let size = SessionFiles.regularFileSize(path), size > wholeSessionByteLimit { throw refuse() }
        var bytes = 0
        var events = SessionLogEvents(contentsOf: path, byteLimit: wholeSessionByteLimit, onRead: { bytes += $0 })
        guard bytes <= wholeSessionByteLimit else { throw refuse() }
        guard let header = events.header else {
            throw CommandFailure(message: events.failure?.description ?? "\(path): unreadable")
        }
        var log = SessionLog(header: header)
        while let (event, line) = events.next() {
            guard bytes <= wholeSessionByteLimit else { throw refuse() }
            log.events.append(event)
            if let line { log.eventLines.append(line) }
        }
        guard bytes <= wholeSessionByteLimit else { throw refuse() }
        return (log, events.failure)
    }

    static func configuration(_ arguments: ArgumentList) throws -> ReplayConfiguration {
        let engine = try EngineOptions(arguments)
        var configuration = ReplayConfiguration(engine: engine.configuration(over: EngineOptions.Defaults.replay.engine))
        // A live recording replays with the configuration it names, unless an engine option
        // is given: then with these options (and the replay's defaults for the rest), and
        // `verify` names the first touch that decides differently from the recording.
        configuration.usesRecordedEngine = !engine.isAnyGiven
        let latency = arguments.number("--oracle-latency").map { $0 / 1000 }
        switch arguments.string("--oracle") ?? "recorded" {
        case "recorded": configuration.oracle = latency.map { .recordedWithLatency($0) } ?? .recorded
        case "regions": configuration.oracle = .regions(latency: latency ?? 0.030)
        case let other: throw UsageError(message: "'--oracle \(other)' is not a simulated oracle")   // a real page is run elsewhere
        }
        if let jitter = arguments.number("--jitter") { configuration.latencyJitter = jitter / 1000 }
        if let seed = arguments.integer("--seed") { configuration.seed = UInt64(seed) }
        configuration.acceptsIncomplete = arguments.declares("--accept-incomplete") && arguments.flag("--accept-incomplete")
        return configuration
    }

    /// Replays every log named (or, with `--shard`, its share), each read line by line as it
    /// plays, on `--jobs` threads; a report keeps each touch's outcome only when
    /// `keepingTouches` (a picture needs them), so memory does not grow with the logs
    /// otherwise. With `progressTitle`, shows progress on standard error (sessions and bytes
    /// of the logs' total size) when the arguments ask for it. The reports come in the order
    /// of the expanded inputs whatever the number of jobs.
    static func replayAll(_ arguments: ArgumentList, keepingTouches: Bool = false,
                          progressTitle: String? = nil) throws -> ReplayedSessions {
        var configuration = try configuration(arguments)
        configuration.keepsTouches = keepingTouches
        let shard = arguments.declares("--shard") ? try CIOptions.shard(arguments) : nil
        let all = try SessionFiles.expand(arguments.positional)
        let indexes = shard.map { CIOptions.share(of: all, shard: $0) } ?? Array(all.indices)
        let files = indexes.map { all[$0] }
        let jobs = arguments.declares("--jobs") ? CIOptions.jobs(arguments) : 1
        let replayer = SessionReplayer(configuration: configuration)
        let progress = try progressTitle.flatMap { title in
            try JobProgress.standardError(arguments, title: title, unit: "sessions", total: Double(files.count),
                                          byteTotal: JobProgress.totalSize(files))
        }
        defer { progress?.finish() }
        // The JUnit target is checked (and its temporary file made) before the replay: a
        // refusal costs no replay, and compares with every session of every shard. Nothing
        // after it throws, so its temporary file is always written or removed.
        var junit: OutputFile?
        if arguments.declares("--junit"), let path = arguments.string("--junit") {
            do { junit = try OutputFile(path: path, inputs: CommandInputs.of(arguments, expanded: all)) } catch {
                throw CommandFailure(message: "--junit \(error.description)")
            }
        }
        let reports = SessionWorkers.replay(files, jobs: jobs, replayer: replayer, progress: progress)
        return ReplayedSessions(reports: reports, indexes: indexes, total: all.count, shard: shard, junit: junit,
                                settings: arguments.given(among: arguments.table.options.map(\.name).filter(changesChecks)))
    }
}

extension ReplayOptions {
    /// Whether an option changes what a replay decides or what `verify` checks: every such
    /// option is in a shard report's options (`shard.options`), so `merge-reports` refuses
    /// shards of two policies (issue 53: `--accept-incomplete` was not, and shards run with
    /// and without it merged as one run).
    static func changesChecks(_ name: String) -> Bool {
        name == "--oracle" || name == acceptIncomplete.name || simulated.contains { $0.name == name }
    }
}

/// What ``ReplayOptions/replayAll(_:keepingTouches:progressTitle:)`` replayed: the reports,
/// each one's position in the whole expanded list of sessions, and the shard they make.
struct ReplayedSessions {
    var reports: [ReplayReport]
    /// Each report's position among all the sessions the inputs name (0-based).
    var indexes: [Int]
    /// How many sessions the inputs name in all (every shard's).
    var total: Int
    var shard: Shard?
    /// The `--junit` report's file, made before the replay (``CIOptions/writeJUnit(_:suite:to:)``
    /// writes it after the verdict is printed).
    var junit: OutputFile?
    /// The replay options given (`--oracle regions --cache on`): every shard of a run must
    /// have the same.
    var settings: String
}
