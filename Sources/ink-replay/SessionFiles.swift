import Foundation
@_spi(Tooling) import InkRecording
@_spi(Tooling) import HitTestBridge

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
        for input in inputs {
            let kind = InputFileKind(path: input)
            switch kind {
            case .missing: throw CommandFailure(message: "\(PathText.shown(input)): no such file or directory")
            case .directory: break
            default:
                if let refusal = InputFileKind.refusal(input) { throw CommandFailure(message: "\(PathText.shown(input)): \(refusal)") }
                files.append(input)
                continue
            }
            var found: [String] = []
            var skipped: [(path: String, why: String)] = []
            if let failure = walk(input, found: &found, skipped: &skipped) {
                throw CommandFailure(message: "\(PathText.shown(input)): cannot list the directory (\(failure))")
            }
            report(skipped: skipped.sorted { $0.path < $1.path })
            guard !found.isEmpty else { throw CommandFailure(message: "\(PathText.shown(input)): no session logs (*.jsonl) found") }
            files.append(contentsOf: found.sorted())
        }
        return files
    }

    /// Walks `directory` by its entries' bytes (readdir's names, each path handed back to the
    /// system byte for byte through `NameBytes`: issue 40, a log named with a byte that is
    /// not UTF-8 was looked up under a repaired name, missed, and skipped as "a dangling
    /// link"). Real directories are walked into (a link to one is not); every `*.jsonl`
    /// entry is a regular file, symbolic links followed, taken into `found`, or is named
    /// in `skipped`, with a subdirectory that cannot be listed. Returns why `directory`
    /// itself cannot be listed, or `nil`.
    private static func walk(_ directory: String, found: inout [String], skipped: inout [(path: String, why: String)]) -> String? {
        guard let stream = NameBytes.withCString(directory, { opendir($0) }) else { return String(cString: strerror(errno)) }
        defer { closedir(stream) }
        var subdirectories: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) { NameBytes.string(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let path = PathText.join(directory, name)
            var info = stat()
            if NameBytes.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR {
                subdirectories.append(path)
                continue
            }
            guard NameBytes.bytes(name).reversed().starts(with: Array(".jsonl".utf8).reversed()) else { continue }
            switch InputFileKind(path: path) {
            case .regular: found.append(path)
            case .missing: skipped.append((path, "a dangling link, not a regular file"))
            case let other: skipped.append((path, other.phrase + ", not a regular file"))
            }
        }
        for subdirectory in subdirectories {
            if let failure = walk(subdirectory, found: &found, skipped: &skipped) {
                skipped.append((subdirectory, "a directory that cannot be listed (\(failure))"))
            }
        }
        return nil
    }

    /// One line each for the first ``maxSkippedNamed`` files a walk skipped, then a count.
    private static func report(skipped: [(path: String, why: String)]) {
        for (path, why) in skipped.prefix(maxSkippedNamed) {
            printError("Note: skipped \(PathText.shown(path)): \(why)")
        }
        if skipped.count > maxSkippedNamed {
            printError("Note: skipped \(skipped.count - maxSkippedNamed) more *.jsonl files in the directory that are not regular files (or directories that cannot be listed)")
        }
    }

    /// Refuses an input named directly that a command reading it once must not read: a
    /// device, a socket or a directory (a regular file or a pipe is read).
    static func requireReadable(_ path: String) throws {
        if let refusal = InputFileKind.refusal(path) { throw CommandFailure(message: "\(PathText.shown(path)): \(refusal)") }
    }

    /// Creates `path` and the directories above it that are missing, by the name's bytes
    /// (`NameBytes`); a directory already there is fine.
    /// - Throws: ``CommandFailure`` naming the path and why.
    static func makeDirectory(_ path: String) throws {
        var info = stat()
        if NameBytes.withCString(path, { stat($0, &info) }) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw CommandFailure(message: "\(PathText.shown(path)): cannot create the directory (\(InputFileKind(path: path).phrase) is there)")
            }
            return
        }
        let parent = PathText.parent(path)
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard NameBytes.withCString(path, { mkdir($0, 0o755) }) == 0 || errno == EEXIST else {
            throw CommandFailure(message: "\(PathText.shown(path)): cannot create the directory (\(String(cString: strerror(errno))))")
        }
    }

    /// The size of `path` when it names a regular file (links followed), else `nil`: a
    /// command that takes at most so many bytes refuses a larger file before reading it.
    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard NameBytes.withCString(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The whole of a file a command reads once, if it holds at most `limit` bytes: a regular
    /// file or a pipe (process substitution works); a device, a socket or a directory is
    /// refused. The bytes are counted as read, so the reading stops once past the limit (a
    /// pipe that never ends, a file that grows) and the memory held stops there; then the
    /// file is refused: `<path>: larger than <limit>; <what>`.
    static func contents(of path: String, limit: Int, what: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        // A regular file over the limit is refused before it is read.
        if let size = regularFileSize(path), size > limit {
            throw CommandFailure(message: "\(PathText.shown(path)): larger than \(ByteCountText.text(limit)); \(what)")
        }
        do {
            var source = try FileByteSource(path: path)
            while true {
                let room = limit - bytes.count   // one byte more than the room tells a file over the limit
                let chunk = try source.read(upTo: room < 1 << 16 ? room + 1 : 1 << 16)
                if chunk.isEmpty { break }
                bytes += chunk
                guard bytes.count <= limit else {
                    throw CommandFailure(message: "\(PathText.shown(path)): larger than \(ByteCountText.text(limit)); \(what)")
                }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        return bytes
    }
}

extension SessionFiles {
    /// Sizes in the words messages use: `64 MiB`, `512 KiB`, `100 bytes`.
    enum ByteCountText {
        static func text(_ bytes: Int) -> String {
            if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
            if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
            return "\(bytes) bytes"
        }
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
