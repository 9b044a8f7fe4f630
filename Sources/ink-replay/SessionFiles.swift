import Foundation

/// Expands command-line inputs into session log files: a file is taken as is, a directory
/// contributes every `*.jsonl` below it, sorted by path.
enum SessionFiles {
    static func expand(_ inputs: [String]) throws -> [String] {
        guard !inputs.isEmpty else { throw UsageError(message: "missing <file or directory>") }
        var files: [String] = []
        let manager = FileManager.default
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw CommandFailure(message: "\(input): no such file or directory")
            }
            if !isDirectory.boolValue {
                files.append(input)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: input) else {
                throw CommandFailure(message: "\(input): cannot list the directory")
            }
            var found: [String] = []
            for case let relative as String in enumerator where relative.hasSuffix(".jsonl") {
                found.append(PathText.join(input, relative))
            }
            guard !found.isEmpty else { throw CommandFailure(message: "\(input): no session logs (*.jsonl) found") }
            files.append(contentsOf: found.sorted())
        }
        return files
    }
}
