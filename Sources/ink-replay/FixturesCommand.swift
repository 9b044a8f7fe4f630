import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// `ink-replay fixtures`: (re)generate the synthetic fixture sessions.
enum FixturesCommand: Command {
    static let name = "fixtures"
    static let synopsis = "<directory>"
    /// The sessions' names, from the code that writes them.
    static var overview: String {
        let names = SyntheticSessions.all.map(\.name)
        return OptionTable.wrap("OVERVIEW: Write the \(names.count) synthetic fixture sessions as session logs, <name>.jsonl: "
            + names.joined(separator: ", ") + ". The output is byte-identical on every run.", width: 88).joined(separator: "\n")
    }
    static let details = """
        ARGUMENTS:
          <directory>             Where to write them (created if missing).
        """
    static let options = OptionTable()

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.count == 1, let directory = arguments.positional.first else {
            throw UsageError(message: arguments.positional.isEmpty ? "missing <directory>" : "expected one <directory>")
        }
        try SessionFiles.makeDirectory(directory)
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
        print("wrote \(SyntheticSessions.all.count) synthetic sessions to \(PathText.shown(directory))")
        return 0
    }
}
