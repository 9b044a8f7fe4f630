import HitTestBridge
import InkCore

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
        engine's own counters, which must agree with it. Otherwise exit 1, naming file and
        line.

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
            object.append("failures", summary.failuresJSON())
            print(JSONValue.object(object).serialized())
        } else {
            print("\(verified ? "verified" : "FAILED:") \(summary.reports.count) sessions, \(summary.touches) touches, "
                  + "\(summary.samples) samples: inked \(summary.inked), released \(summary.released), "
                  + "cancelled \(summary.cancelled), refused \(summary.refused), dropped \(summary.dropped)")
        }
        summary.printFailures()
        return verified ? 0 : 1
    }
}
