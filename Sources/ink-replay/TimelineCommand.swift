@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore
#if canImport(Glibc)
@_spi(Tooling) import ChromiumBridge
#endif

/// `ink-replay timeline`: a replayed session's decisions over time, as SVG or HTML.
enum TimelineCommand: Command {
    static let name = "timeline"
    static let synopsis = "<session.jsonl>"
    static let overview = """
        OVERVIEW: Replay a session and draw what the engine decided for each touch, over time:
        one lane per touch on a shared time axis (touch-down, the span queued while its
        question was open, the round trip or the cache hit that answered it, the verdict and
        its reason, ink, speculative ink and its retraction, samples sent to the page, lift,
        cancellation) and a lane for the page (region snapshots and their generations, layout
        changes, stale, late, duplicate and unknown answers). Hover a mark for its exact
        numbers. Quiet time (no touch down, nothing from the page) is cut out of the axis.

        It replays with the same options as 'run', so a timeline shows what a setting
        changes. The same session and options give the same picture, byte for byte (except
        with --oracle chromium:, whose latencies are real; there, as with 'run', only --cache
        and --fallback apply, and the others are refused). Exits 1 when the replay does not
        verify.
        """
    static let details = """
        ARGUMENTS:
          <session.jsonl>         The session log.
        """
    static let replayOptions = [ReplayOptions.oracle(chromium: true)] + ReplayOptions.simulated
    static let options = OptionTable(
        [ReplayOptions.output("timeline.svg", help: "Where to write the picture."),
         Option("--html", help: "Write one HTML file a browser opens (the SVG inline).")],
        replayOptions,
        rules: [ReplayOptions.chromiumRule(replayOptions)])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let (input, output) = try ReplayOptions.sessionAndOutput(arguments)
        let title = PathText.shown(PathText.lastComponent(input))
        let picture: TimelinePicture
        var failed = false
        if let oracle = arguments.string("--oracle"), oracle.hasPrefix("chromium:") {
            (picture, failed) = try browserTimeline(arguments, input: input, page: String(oracle.dropFirst("chromium:".count)), title: title)
        } else {
            var configuration = try ReplayOptions.configuration(arguments)
            configuration.recordsTimeline = true
            configuration.keepsTouches = false
            // Held whole, so bounded as render's: at most 64 MiB of log, counted as read.
            let read = try ReplayOptions.wholeSession(input, for: "timeline")
            let report = SessionReplayer(configuration: configuration).replay(SessionLogEvents(read.log, file: input, failure: read.failure))
            guard let timeline = report.timeline else { throw CommandFailure(message: "\(input): the replay recorded no timeline") }
            let a = report.audit
            var summary = "\(report.touchCount) touches, \(report.samples) samples: inked \(a.inked), to the page \(a.released), cancelled \(a.cancelled), dropped \(report.dropped)"
            if let p = report.firstInk.percentiles { summary += "; first ink p50 \(Summary.ms(p.p50)) ms, max \(Summary.ms(p.max)) ms" }
            picture = TimelinePicture(timeline: timeline, title: title, settings: settings(configuration), summary: summary)
            if let failure = read.failure {
                printError("Error: \(failure) (the timeline shows the valid part)")
                failed = true
            } else if !report.isVerified {
                printError("Error: \(input): the replay did not verify (see 'ink-replay verify')")
                failed = true
            }
        }
        let text = arguments.flag("--html") ? picture.html() : picture.svg()
        // The page a chromium oracle loads is read too (CommandInputs).
        do { try OutputFile.write(text, to: output, inputs: CommandInputs.of(arguments)) } catch { throw CommandFailure(message: error.description) }
        return failed ? 1 : 0
    }

    /// The replay's settings, in words, for the picture's header.
    static func settings(_ configuration: ReplayConfiguration) -> String {
        var parts: [String] = []
        switch configuration.oracle {
        case .recorded: parts.append("answers as recorded")
        case let .recordedWithLatency(latency): parts.append("recorded answers after \(Summary.ms(latency)) ms")
        case let .regions(latency): parts.append("the page answers from its regions after \(Summary.ms(latency)) ms")
        }
        if configuration.latencyJitter > 0 { parts.append("jitter up to \(Summary.ms(configuration.latencyJitter)) ms (seed \(configuration.seed))") }
        parts.append("cache \(configuration.engine.useRegionCache ? "on" : "off")")
        parts.append("speculative ink \(configuration.engine.speculativeInk ? "on" : "off")")
        parts.append("deadline \(Summary.ms(configuration.engine.decisionTimeout)) ms, fallback \(configuration.engine.fallback)")
        if configuration.engine.pencilOnly { parts.append("pencil only") }
        return parts.joined(separator: ", ")
    }

    /// The timeline of a replay against a real page, and whether it failed to verify.
    private static func browserTimeline(_ arguments: ArgumentList, input: String, page: String, title: String) throws -> (TimelinePicture, Bool) {
        #if canImport(Glibc)
        let (url, cache, fallback) = try BrowserRun.options(arguments, page: page)
        let (_, browser, report) = try BrowserRun.replay(input, url: url,
                                                         replay: BrowserReplay(useCache: cache, fallback: fallback, recordsTimeline: true))
        browser.close()
        guard let timeline = report.timeline else { throw CommandFailure(message: "\(input): the replay recorded no timeline") }
        let l = report.ledger
        let summary = "\(report.touches.count) touches, \(l.received) samples: inked \(l.inked), to the page \(l.released), cancelled \(l.cancelled), dropped \(l.dropped); \(report.roundTrips.count) real round trips"
        for problem in report.problems { printError("\(input): \(problem)") }
        if !report.isVerified { printError("Error: \(input): the replay did not verify") }
        return (TimelinePicture(timeline: timeline, title: title,
                                settings: "the real page \(PathText.shown(PathText.lastComponent(page))) in headless Chromium answers, cache \(cache ? "on" : "off"), fallback \(fallback)",
                                summary: summary), !report.isVerified)
        #else
        throw CommandFailure(message: "the chromium oracle needs Linux (it spawns a headless Chromium)")
        #endif
    }
}
