import Foundation
import Testing

/// Issue 29, classes 2 and 4: non-regular files among the inputs (a FIFO or a link to
/// /dev/zero in a corpus blocked or spun forever) and outputs that name an input (`render
/// s.jsonl -o s.jsonl` replaced the recording by an SVG).
@Suite("ink-replay: non-regular inputs and outputs that name an input")
struct HostileFileTests {
    static let decimal = CLITests.fixtures + "/decimal-point.jsonl"

    /// Runs the tool, giving up after `seconds` (the process is killed; `timedOut` says so)
    /// rather than hanging the suite. Standard input is /dev/null unless `input` is given.
    static func run(_ arguments: [String], within seconds: Double = 30, shell: Bool = false) throws
        -> (output: CLITests.Output, timedOut: Bool) {
        let process = Process()
        if shell {
            // arguments[0] is a bash script; the tool is "$0".
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", arguments[0], CLITests.binary.path] + arguments.dropFirst()
        } else {
            process.executableURL = CLITests.binary
            process.arguments = arguments
        }
        let directory = try CLITests.temporaryDirectory()
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        var waited = 0.0
        while process.isRunning, waited < seconds { usleep(20_000); waited += 0.02 }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let output = CLITests.Output(status: process.terminationStatus,
                                     stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                                     stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        try? FileManager.default.removeItem(at: directory)
        return (output, timedOut)
    }

    /// A corpus holding a real log, a FIFO nobody writes, a link to /dev/zero, a link to a
    /// directory and a dangling link, all named `*.jsonl`.
    static func hostileCorpus() throws -> URL {
        let directory = try CLITests.temporaryDirectory()
        let manager = FileManager.default
        try manager.copyItem(atPath: decimal, toPath: directory.appendingPathComponent("good.jsonl").path)
        #expect(mkfifo(directory.appendingPathComponent("fifo.jsonl").path, 0o644) == 0)
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("zero.jsonl").path, withDestinationPath: "/dev/zero")
        try manager.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("sub/folder.jsonl").path,
                                       withDestinationPath: directory.appendingPathComponent("sub").path + "/..")
        return directory
    }

    @Test("verify, run and stats on a directory holding a FIFO, a link to /dev/zero and a link to a directory read the regular log and name each file skipped",
          arguments: ["verify", "run", "stats"])
    func corpusWalk(command: String) throws {
        let corpus = try Self.hostileCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let (output, timedOut) = try Self.run([command, corpus.path], within: 30)
        #expect(!timedOut, "\(command) hung on a non-regular file in the corpus")
        #expect(output.status == 0, "\(output.stderr)")
        for name in ["fifo.jsonl: a FIFO", "zero.jsonl: a character device", "sub/folder.jsonl: a directory"] {
            #expect(output.stderr.contains("skipped \(corpus.path)/\(name)"), "\(name): \(output.stderr)")
        }
        #expect(!output.stderr.contains("good.jsonl"), "\(output.stderr)")
        if command != "stats" { #expect(output.stdout.contains("1 sessions") || output.stdout.contains("total (1 session)"), "\(output.stdout)") }
    }

    @Test("a character device named directly (or through a link) is refused at once, exit 1, by every command that reads a file",
          arguments: ["verify", "run", "stats", "render", "timeline", "export", "smooth", "bench-strokes", "bench-strategies"])
    func deviceNamedDirectly(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("zero.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        let out = directory.appendingPathComponent("out").path
        var arguments: [String]
        switch command {
        case "render", "timeline", "export", "smooth": arguments = [command, link, "-o", out]
        case "bench-strokes": arguments = ["bench", "strokes", link, "--passes", "1"]
        case "bench-strategies": arguments = ["bench", "strategies", link, "--strokes", "1"]
        default: arguments = [command, link]
        }
        let (output, timedOut) = try Self.run(arguments, within: 30)
        #expect(!timedOut, "\(command) read /dev/zero")
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stderr.contains("zero.jsonl") && output.stderr.contains("a character device"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("process substitution (a pipe, /dev/fd/N) keeps working where a command reads its input once",
          arguments: ["verify", "run", "stats", "render", "timeline", "export"])
    func processSubstitution(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let script = ["render", "timeline", "export"].contains(command)
            ? "exec \"$0\" \(command) <(cat \"$1\") -o \"$2\"" : "exec \"$0\" \(command) <(cat \"$1\")"
        let (output, timedOut) = try Self.run([script, Self.decimal, out], within: 30, shell: true)
        #expect(!timedOut)
        #expect(output.status == 0, "\(output.stderr)")
        if ["render", "timeline", "export"].contains(command) { #expect(FileManager.default.fileExists(atPath: out)) }
    }

    @Test("smooth and bench strokes read a pipe too (process substitution; smooth used to say 'cannot read the file')")
    func strokesFromPipe() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("points.jsonl").path
        let smooth = try Self.run(["exec \"$0\" smooth <(echo '[[0,0,0],[1,1,8],[2,2,16]]') -o \"$1\"", out], shell: true)
        #expect(smooth.output.status == 0 && FileManager.default.fileExists(atPath: out), "\(smooth.output.stderr)")
        let bench = try Self.run(["exec \"$0\" bench strokes <(echo '[[0,0,0],[1,1,8],[2,2,16]]') --passes 1", out], shell: true)
        #expect(bench.output.status == 0, "\(bench.output.stderr)")
    }

    @Test("a FIFO named directly is read once, as asked: a writer feeds it and verify passes")
    func namedFIFO() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("live.jsonl").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let text = try Data(contentsOf: URL(fileURLWithPath: Self.decimal))
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }   // blocks until the tool opens it
            handle.write(text)
            try? handle.close()
        }
        writer.start()
        let (output, timedOut) = try Self.run(["verify", fifo], within: 30)
        #expect(!timedOut)
        #expect(output.status == 0 && output.stdout.contains("verified 1 sessions"), "\(output.stdout)\(output.stderr)")
    }
}
