@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

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
        replayOptions, [picture], CIOptions.all(merged: true), [ReplayOptions.json()], JobProgress.options(json: true),
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
        let report = RunReport(replayed)
        if arguments.flag("--json") {
            print(report.json().serialized())
        } else {
            report.printTable()
        }
        report.printFailures()
        let written = CIOptions.writeJUnit(replayed.reports, suite: "ink-replay run", to: &replayed.junit)
        return report.verified && written ? 0 : 1
    }
}
