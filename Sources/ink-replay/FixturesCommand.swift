import Foundation
import InkCore
import HitTestBridge
import InkRecording

/// `ink-replay fixtures`: (re)generate the synthetic fixture sessions.
enum FixturesCommand: Command {
    static let name = "fixtures"
    static let usage = "ink-replay fixtures <directory>"
    static let help = """
        OVERVIEW: Write the synthetic fixture sessions (decimal point, tap, drag, long
        stroke, two-finger scroll, cancelled touches, answers after lift, no answer) as
        session logs. The output is byte-identical on every run.

        USAGE: \(usage)

        ARGUMENTS:
          <directory>             Where to write them (created if missing).

        OPTIONS:
          -h, --help              Show help information.
        """
    static let spec = ArgumentSpec()

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.count == 1, let directory = arguments.positional.first else {
            throw UsageError(message: arguments.positional.isEmpty ? "missing <directory>" : "expected one <directory>")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, log) in SyntheticSessions.all {
                try log.write(to: PathText.join(directory, "\(name).jsonl"))
            }
        } catch {
            throw CommandFailure(message: "\(directory): \(error.localizedDescription)")
        }
        print("wrote \(SyntheticSessions.all.count) synthetic sessions to \(directory)")
        return 0
    }
}
