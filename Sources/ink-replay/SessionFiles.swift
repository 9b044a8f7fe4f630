import Foundation
import InkRecording

/// Expands command-line inputs into session log files: a file is taken as is, a directory
/// contributes every regular `*.jsonl` below it, sorted by path.
///
/// Non-regular files (issue 29): a directory walk takes regular files only, symbolic links
/// followed (a link to a regular file is taken; a FIFO, a device such as /dev/zero, a
/// socket or a link to a directory is not), and says which it skipped on standard error,
/// one line each for the first ``maxSkippedNamed``, then their count. An input named
/// directly is taken when it is a regular file or a pipe, read once (process substitution
/// `<(…)`, or a FIFO: reading it waits for its writer, as asked); a device, a socket or
/// anything else is refused with exit 1.
enum SessionFiles {
    /// How many skipped files a walk names, one line each, before it only counts them.
    static let maxSkippedNamed = 10

    static func expand(_ inputs: [String]) throws -> [String] {
        guard !inputs.isEmpty else { throw UsageError(message: "missing <file or directory>") }
        var files: [String] = []
        let manager = FileManager.default
        for input in inputs {
            let kind = InputFileKind(path: input)
            switch kind {
            case .missing: throw CommandFailure(message: "\(input): no such file or directory")
            case .directory: break
            default:
                if let refusal = InputFileKind.refusal(input) { throw CommandFailure(message: "\(input): \(refusal)") }
                files.append(input)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: input) else {
                throw CommandFailure(message: "\(input): cannot list the directory")
            }
            var found: [String] = []
            var skipped: [(path: String, kind: InputFileKind)] = []
            for case let relative as String in enumerator where relative.hasSuffix(".jsonl") {
                let path = PathText.join(input, relative)
                switch InputFileKind(path: path) {
                case .regular: found.append(path)
                case .directory where !isSymbolicLink(path): continue   // walked into
                case let other: skipped.append((path, other))
                }
            }
            report(skipped: skipped.sorted { $0.path < $1.path })
            guard !found.isEmpty else { throw CommandFailure(message: "\(input): no session logs (*.jsonl) found") }
            files.append(contentsOf: found.sorted())
        }
        return files
    }

    /// One line each for the first ``maxSkippedNamed`` files a walk skipped, then a count.
    private static func report(skipped: [(path: String, kind: InputFileKind)]) {
        for (path, kind) in skipped.prefix(maxSkippedNamed) {
            printError("Note: skipped \(path): \(kind == .missing ? "a dangling link" : kind.phrase), not a regular file")
        }
        if skipped.count > maxSkippedNamed {
            printError("Note: skipped \(skipped.count - maxSkippedNamed) more *.jsonl files in the directory that are not regular files")
        }
    }

    /// Refuses an input named directly that a command reading it once must not read: a
    /// device, a socket or a directory (a regular file or a pipe is read).
    static func requireReadable(_ path: String) throws {
        if let refusal = InputFileKind.refusal(path) { throw CommandFailure(message: "\(path): \(refusal)") }
    }

    /// The whole of a file a command reads once: a regular file or a pipe (process
    /// substitution works); a device, a socket or a directory is refused.
    static func contents(of path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            var source = try FileByteSource(path: path)
            while true {
                let chunk = try source.read(upTo: 1 << 16)
                if chunk.isEmpty { break }
                bytes += chunk
            }
        } catch {
            throw CommandFailure(message: error.description)
        }
        return bytes
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeSymbolicLink
    }
}

/// Every file a command was given, however it arrives: the one list an output target is
/// compared with (issue 40: `verify --shard 1/2 --junit corpus/x.jsonl` replaced a log of the
/// other shard, since only the shard's files were counted). ``OutputFile`` refuses a target
/// that is one of them (by device and inode, and by resolved path), and the process's
/// standard input when that is a regular file, before anything is created.
enum CommandInputs {
    /// The options whose value names a file the command reads.
    static let inputOptions = ["--layout"]

    /// The arguments as given, every file of a directory walked (all of them, before a
    /// `--shard` takes its part), and the files named by ``inputOptions`` and by
    /// `--oracle chromium:<page.html>`.
    static func of(_ arguments: ArgumentList, expanded: [String] = []) -> [String] {
        var inputs = arguments.positional + expanded
        for name in inputOptions where arguments.declares(name) {
            if let path = arguments.string(name) { inputs.append(path) }
        }
        if arguments.declares("--oracle"), let oracle = arguments.string("--oracle"), oracle.hasPrefix("chromium:") {
            inputs.append(String(oracle.dropFirst("chromium:".count)))
        }
        return inputs
    }
}
