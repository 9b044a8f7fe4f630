@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import SessionReplay

/// `ink-replay verify`: the check CI runs.
enum VerifyCommand: Command {
    static let name = "verify"
    static let synopsis = "<file or directory>..."
    static let overview = """
        OVERVIEW: Replay sessions and check that every sample is accounted for.

        Passes (exit 0) only when every log reads completely, the engine refuses no event,
        and every sample of every touch comes out exactly once, in order, with its original
        position and time: as ink, to the page, or cancelled with its touch. The account is
        rebuilt from the engine's actions and compared with the log, independently of the
        engine's own counters, which must agree with it. A live recording (ink-replay host
        --record, scratchpad-gtk --record, an app's SessionRecorder) replays with the
        configuration it names, and must replay identically: every touch the same owner for
        the same reason at the same time, the same samples to the same owner, the same ink,
        the same final ledger (an engine option given here replaces the recorded
        configuration). A recording proves itself whole by its chain: a line removed, edited
        or added fails naming the line where the chain breaks, and a recording that ends
        without its end line is incomplete and fails unless --accept-incomplete is given.
        Recordings of format version 2 carry no chain and are called unchained; a header
        cannot switch these checks off (a recording's lines under a header without its
        recorder block are refused). Replayed with --oracle-latency or --oracle regions, a
        recording is still checked whole, and a note says its identity was not checked.
        Otherwise exit 1, naming file and line.
        """
    static let details = """
        ARGUMENTS:
          <file or directory>     Session logs (*.jsonl); directories are searched recursively
                                  for regular files (a FIFO, a device or a link to a directory
                                  is skipped and named on standard error). A file named here
                                  may be a pipe, read once: <(…) works.
        """
    static let options = OptionTable(
        ReplayOptions.all, CIOptions.all(merged: true),
        [ReplayOptions.acceptIncomplete,
         ReplayOptions.json("Print one JSON object instead of the verdict line (what merge-reports reads).")],
        JobProgress.options(json: true),
        rules: [JobProgress.rule])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        var replayed = try ReplayOptions.replayAll(arguments, progressTitle: "verify")
        let verdict = VerifyVerdict(replayed)
        print(arguments.flag("--json") ? verdict.json().serialized() : verdict.text)
        verdict.printFailures()
        let written = CIOptions.writeJUnit(replayed.reports, suite: "ink-replay verify", to: &replayed.junit)
        return verdict.verified && written ? 0 : 1
    }
}
