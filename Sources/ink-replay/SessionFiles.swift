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

    /// The whole of a file a command reads once, if it holds at most `limit` bytes: a regular
    /// file or a pipe (process substitution works); a device, a socket or a directory is
    /// refused. The bytes are counted as read, so the reading stops once past the limit (a
    /// pipe that never ends, a file that grows) and the memory held stops there; then the
    /// file is refused: `<path>: larger than <limit>; <what>`.
    static func contents(of path: String, limit: Int, what: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            var source = try FileByteSource(path: path)
            while true {
                let room = limit - bytes.count   // one byte more than the room tells a file over the limit
                let chunk = try source.read(upTo: room < 1 << 16 ? room + 1 : 1 << 16)
                if chunk.isEmpty { break }
                bytes += chunk
                guard bytes.count <= limit else {
                    throw CommandFailure(message: "\(path): larger than \(ByteCountText.text(limit)); \(what)")
                }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        return bytes
    }

    /// Sizes in the words messages use: `64 MiB`, `512 KiB`, `100 bytes`.
    enum ByteCountText {
        static func text(_ bytes: Int) -> String {
            if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
            if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
            return "\(bytes) bytes"
        }
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeSymbolicLink
    }
}
