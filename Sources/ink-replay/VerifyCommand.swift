import HitTestBridge
import InkCore
import SessionReplay

/// `ink-replay verify`: the check CI runs.
enum VerifyCommand: Command {
    static let name = "verify"
    static let usage = "ink-replay verify <file or directory>... [--json] [--progress|--no-progress]"
    static let help = """
        OVERVIEW: Replay sessions and check that every sample is accounted for.

        Passes (exit 0) only when every log reads completely, the engine refuses no event,
        and every sample of every touch comes out exactly once, in order, with its original
        position and time: as ink, to the page, or cancelled with its touch. The account is
        rebuilt from the engine's actions and compared with the log, independently of the
        engine's own counters, which must agree with it. A live recording (ink-replay host
        --record, an app's SessionRecorder) replays with the configuration it names, and
        must replay identically: every touch the same owner for the same reason, the same
        samples to the same owner, the same ink (an engine option given here replaces the
        recorded configuration). Otherwise exit 1, naming file and line.

        USAGE: \(usage)

        ARGUMENTS:
          <file or directory>     Session logs (*.jsonl); directories are searched recursively
                                  for regular files (a FIFO, a device or a link to a directory
                                  is skipped and named on standard error). A file named here
                                  may be a pipe, read once: <(…) works.

        OPTIONS:
        \(ReplayOptions.help)
        \(JobProgress.help)
          -h, --help              Show help information.
        """
    static let spec = ArgumentSpec(valued: ReplayOptions.spec.valued, flags: ReplayOptions.spec.flags.union(JobProgress.flags))

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let summary = Summary(reports: try ReplayOptions.replayAll(arguments, progressTitle: "verify"))
        let verified = summary.failed.isEmpty
        if arguments.flag("--json") {
            var object = summary.ledgerJSON()
            object.append("verified", .bool(verified))
            object.append("recordings", .number(Double(summary.reports.filter { $0.identity != nil }.count)))
            object.append("identical", .number(Double(summary.reports.filter(\.isIdentical).count)))
            object.append("failures", summary.failuresJSON())
            print(JSONValue.object(object).serialized())
        } else {
            print("\(verified ? "verified" : "FAILED:") \(summary.reports.count) sessions, \(summary.touches) touches, "
                  + "\(summary.samples) samples: inked \(summary.inked), released \(summary.released), "
                  + "cancelled \(summary.cancelled), refused \(summary.refused), dropped \(summary.dropped)")
        }
        let recordings = summary.reports.filter { $0.identity != nil }
        if !recordings.isEmpty, !arguments.flag("--json") {
            print("identity: \(recordings.filter(\.isIdentical).count) of \(recordings.count) live recordings replayed identically")
            for report in recordings where !report.isIdentical && report.divergence == nil {
                print("\(report.file ?? "<log>"): \(report.identity ?? "")")
            }
        }
        summary.printFailures()
        return verified ? 0 : 1
    }
}
