import HitTestBridge
import InkCore

/// The replay options `run` and `verify` share.
enum ReplayOptions {
    static let spec = ArgumentSpec(
        valued: ["--oracle-latency": "--oracle-latency", "--timeout": "--timeout", "--fallback": "--fallback",
                 "--gesture-window": "--gesture-window"],
        flags: ["--json", "--pencil-only"])

    static let help = """
          --oracle-latency <ms>   Re-time every recorded answer to arrive this many ms after
                                  its question (default: as recorded).
          --timeout <ms>          Deadline for an unanswered hit test (default: 250).
          --fallback <owner>      Where an unanswered touch goes: ink or page (default: ink).
          --gesture-window <ms>   A second finger within this time makes a gesture that goes
                                  to the page; 0 disables (default: 150).
          --pencil-only           Fingers go to the page, pencils ink, without asking.
          --json                  Print one JSON object instead of a table.
        """

    static func configuration(_ arguments: ArgumentList) throws -> ReplayConfiguration {
        var router = TouchRouterConfiguration()
        if let timeout = try arguments.number("--timeout", in: 0...3_600_000) { router.decisionTimeout = timeout / 1000 }
        if let window = try arguments.number("--gesture-window", in: 0...60_000) { router.gestureWindow = window / 1000 }
        router.pencilOnly = arguments.flag("--pencil-only")
        var configuration = ReplayConfiguration(router: router)
        if let latency = try arguments.number("--oracle-latency", in: 0...3_600_000) {
            configuration.oracle = .recordedWithLatency(latency / 1000)
        }
        if let fallback = try arguments.choice("--fallback", as: HitTestVerdict.self) {
            configuration.timeoutFallback = fallback
        }
        return configuration
    }

    /// Replays every input file.
    static func replayAll(_ arguments: ArgumentList) throws -> [ReplayReport] {
        let configuration = try configuration(arguments)
        let files = try SessionFiles.expand(arguments.positional)
        let replayer = SessionReplayer(configuration: configuration)
        return files.map { file in replayer.replay(SessionLog.read(contentsOf: file), file: file) }
    }
}
