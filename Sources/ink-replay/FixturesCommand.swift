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
        } catch {
            throw CommandFailure(message: "\(directory): cannot create the directory (\(error.localizedDescription))")
        }
        // Every target is checked, and every file written beside its target, before any is
        // renamed into place: a target the tool must not replace (a symbolic link, a
        // directory) stops the command with the whole set untouched.
        var files: [OutputFile] = []
        do throws(OutputFileError) {
            for (name, log) in SyntheticSessions.all {
                var file = try OutputFile(path: PathText.join(directory, "\(name).jsonl"), inputs: [])  // fixtures read no input
                files.append(file)
                try file.write(log.jsonLines())
                files[files.count - 1] = file
            }
            for index in files.indices { try files[index].commit() }
        } catch {
            for file in files { file.discard() }
            throw CommandFailure(message: "\(error)")
        }
        print("wrote \(SyntheticSessions.all.count) synthetic sessions to \(directory)")
        return 0
    }
}
