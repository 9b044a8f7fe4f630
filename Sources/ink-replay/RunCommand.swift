@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge
@_spi(Tooling) import SessionReplay
@_spi(Tooling) @_spi(FrontEnd) import InkCore

/// `ink-replay run`: replay sessions and report.
enum RunCommand: Command {
    static let name = "run"
    static let synopsis = "<file or directory>..."
    static let overview = """
        OVERVIEW: Replay sessions through the engine in simulated time and report where every
        sample went and how long ink took to appear.

        First-ink latency is the time from touch-down to the touch's first sample becoming
        ink, for touches that became ink.
        """
    static let details = """
        ARGUMENTS:
          <file or directory>     Session logs (*.jsonl); directories are searched recursively
                                  for regular files (a FIFO, a device or a link to a directory
                                  is skipped and named on standard error). A file named here
                                  may be a pipe, read once: <(…) works.

        With --oracle chromium:<page.html> the sessions replay against that page in headless
        Chromium (docs/browser.md): the real page answers every hit test (the log's answers
        and snapshots are not used), touches that go to the page are dispatched to it as
        real touch events, and the report gives the real round-trip latency. --cache
        defaults to on there; --picture <file.html> writes a screenshot of the page after
        the replay with the ink over it. It prints a row per session as it goes, one
        session at a time, and shows no other progress.
        """
    static let picture = Option("--picture", kind: .text("file.html"),
                                help: "With --oracle chromium: (one session), write the page as the browser showed it after the replay, with the ink over it.")
    static let replayOptions = [ReplayOptions.oracle(chromium: true)] + ReplayOptions.simulated
    static let options = OptionTable(
        replayOptions, [picture], CIOptions.all(merged: false), [ReplayOptions.json()], JobProgress.options(json: true),
        rules: [ReplayOptions.chromiumRule(replayOptions + CIOptions.all(merged: false) + [ReplayOptions.json()] + JobProgress.options(json: true),
                                           alsoTakes: ["--picture", "--no-progress"]),
                OptionRule(when: .notValue("--oracle", prefix: "chromium:"), refuses: ["--picture"],
                           reason: "needs '--oracle chromium:<page.html>' (it is a screenshot of the real page)"),
                JobProgress.rule])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        if let oracle = arguments.string("--oracle"), oracle.hasPrefix("chromium:") {
            return try BrowserRun.run(arguments, page: String(oracle.dropFirst("chromium:".count)))
        }
        var replayed = try ReplayOptions.replayAll(arguments, progressTitle: "run")
        let summary = Summary(reports: replayed.reports)
        if arguments.flag("--json") {
            var object = summary.ledgerJSON()
            object.append("first_ink_ms", Summary.latencyJSON(summary.firstInk))
            object.append("queries", .number(Double(summary.bridge(\.queries))))
            object.append("round_trips", .number(Double(summary.bridge(\.roundTrips))))
            object.append("cache_hits", .number(Double(summary.bridge(\.cacheHits))))
            object.append("shared_queries", .number(Double(summary.bridge(\.sharedQueries))))
            object.append("speculations", .number(Double(summary.counter(\.speculations))))
            object.append("answers_applied", .number(Double(summary.counter(\.answersApplied))))
            object.append("late_answers", .number(Double(summary.lateAnswers)))
            object.append("duplicate_answers", .number(Double(summary.bridge(\.duplicateAnswers) + summary.counter(\.duplicateAnswers))))
            object.append("unknown_answers", .number(Double(summary.bridge(\.unknownAnswers) + summary.counter(\.unknownAnswers))))
            object.append("stale_answers", .number(Double(summary.bridge(\.staleAnswers))))
            object.append("timeouts", .number(Double(summary.timeouts)))
            object.append("gestures", .number(Double(summary.counter(\.gestures))))
            object.append("retractions", .number(Double(summary.counter(\.retractions))))
            object.append("failures", summary.failuresJSON())
            object.append("per_session", .array(summary.reports.map { report in
                var session = Summary(reports: [report]).ledgerJSON()
                session.members.removeFirst()  // "sessions": 1
                session.members.insert(("file", .string(PathText.shown(report.file ?? ""))), at: 0)
                session.append("first_ink_ms", Summary.latencyJSON(report.firstInk.percentiles))
                session.append("verified", .bool(report.isVerified))
                return .object(session)
            }))
            print(JSONValue.object(object).serialized())
        } else {
            printTable(summary)
        }
        summary.printFailures()
        let written = CIOptions.writeJUnit(replayed.reports, suite: "ink-replay run", to: &replayed.junit)
        return summary.failed.isEmpty && written ? 0 : 1
    }

    static func printTable(_ summary: Summary) {
        let names = summary.reports.map { PathText.shown(PathText.lastComponent($0.file ?? "<log>")) }
        let width = max(24, (names.map(\.count).max() ?? 0) + 2)
        print("session".padded(width, left: true) + "touches".padded(8) + "samples".padded(9) + "inked".padded(8)
              + "released".padded(10) + "cancelled".padded(11) + "dropped".padded(9) + "  first ink p50 / max (ms)")
        for (name, report) in zip(names, summary.reports) {
            let latency = report.firstInk.percentiles.map { "\(Summary.ms($0.p50)) / \(Summary.ms($0.max))" } ?? "-"
            print(name.padded(width, left: true) + "\(report.touchCount)".padded(8) + "\(report.samples)".padded(9)
                  + "\(report.audit.inked)".padded(8) + "\(report.audit.released)".padded(10)
                  + "\(report.audit.cancelled)".padded(11) + "\(report.dropped)".padded(9) + "  " + latency
                  + (report.isVerified ? "" : "  FAILED"))
        }
        let total = "total (\(summary.reports.count) session\(summary.reports.count == 1 ? "" : "s"))"
        print(total.padded(width, left: true) + "\(summary.touches)".padded(8) + "\(summary.samples)".padded(9)
              + "\(summary.inked)".padded(8) + "\(summary.released)".padded(10) + "\(summary.cancelled)".padded(11)
              + "\(summary.dropped)".padded(9))
        if let p = summary.firstInk {
            print("first-ink latency: p50 \(Summary.ms(p.p50)) ms, p95 \(Summary.ms(p.p95)) ms, max \(Summary.ms(p.max)) ms over \(p.count) inked touches")
        } else {
            print("first-ink latency: no touch became ink")
        }
        print("hit tests: \(summary.bridge(\.queries)) asked, \(summary.bridge(\.cacheHits)) from the region cache, "
              + "\(summary.bridge(\.roundTrips)) round trips (\(summary.bridge(\.sharedQueries)) shared)")
        print("answers: \(summary.counter(\.answersApplied)) applied, \(summary.lateAnswers) late, "
              + "\(summary.bridge(\.duplicateAnswers) + summary.counter(\.duplicateAnswers)) duplicate, "
              + "\(summary.bridge(\.unknownAnswers) + summary.counter(\.unknownAnswers)) unknown; "
              + "timeouts \(summary.timeouts), gestures \(summary.counter(\.gestures)), "
              + "retractions \(summary.counter(\.retractions))")
    }
}
