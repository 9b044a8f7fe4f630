import Foundation
import Testing

/// Issue 40, classes 2, 5, 6 and 9: writes that can fail were assumed to succeed (`host >
/// /dev/full` trapped, `verify --json > /dev/full` exited 0 with its report lost), outputs
/// named inputs (standard input's file, a log of another shard), and recordings were lost
/// (a target refused only after the session and the recording deleted; up to 80 KiB held in
/// memory, so a killed host left an empty temporary file).
@Suite("ink-replay: failed writes, outputs that name inputs, recordings kept")
struct FailedWriteTests {
    static let fixtures = CLITests.fixtures
    static let decimal = CLITests.fixtures + "/decimal-point.jsonl"

    /// A shell redirection of standard output whose writes fail with "No space left on
    /// device": /dev/full. It must exist on Linux (the test fails, not skips, without it);
    /// elsewhere a regular file under `ulimit -f 0` makes the writes fail instead.
    static func fullOutput() throws -> (prefix: String, redirect: String) {
        #if os(Linux)
        try #require(FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is missing: a full disk cannot be tested on this Linux")
        return ("", "> /dev/full")
        #else
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path
        return ("ulimit -f 0; ", "> '\(file)'")
        #endif
    }

    /// Runs `script` in bash with `$0` the tool (``CLITests/shell(_:_:stdin:)``).
    static func shell(_ script: String, _ arguments: [String] = [], stdin: String? = nil) throws -> CLITests.Output {
        try CLITests.shell(script, arguments, stdin: stdin)
    }

    static func listing(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    // MARK: - Class 2: standard output

    @Test("every subcommand's standard output on a full disk: exit 1, 'standard output: cannot write', the bytes and lines lost",
          arguments: ["verify", "verify --json", "run", "run --json", "stats", "stats --json", "merge-reports", "merge-reports --json",
                      "host", "export", "fixtures", "help", "help verify", "--help"])
    func standardOutputFull(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json").path
        _ = try CLITests.run("verify", "--json", Self.decimal).stdout.write(toFile: report, atomically: true, encoding: .utf8)
        let words = command.split(separator: " ").map(String.init)
        var arguments: [String]
        switch words[0] {
        case "verify", "run", "stats": arguments = words + [Self.fixtures]
        case "merge-reports": arguments = words + [report]
        case "export": arguments = words + [Self.decimal, "-o", directory.appendingPathComponent("out.inkml").path]
        case "fixtures": arguments = words + [directory.appendingPathComponent("synthetic").path]
        default: arguments = words
        }
        let (prefix, redirect) = try Self.fullOutput()
        let result = try Self.shell(prefix + "exec \"$0\" \"$@\" " + redirect, arguments, stdin: words[0] == "host" ? Self.decimal : nil)
        #expect(result.status == 1, "\(command): exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("Error: standard output: cannot write ("), "\(command): \(result.stderr)")
        #expect(result.stderr.range(of: #"\d+ bytes? \(\d+ lines?\) of output (was|were) lost"#, options: .regularExpression) != nil,
                "\(command): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"), "\(command): \(result.stderr)")
    }

    @Test("a reader that left (the pipe's read end closed, as '| head' does) is not a failure: nothing said, the command's own exit status; host still renames its recording into place",
          arguments: ["verify --json", "run", "host"])
    func readerLeft(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("r.jsonl").path
        let words = command.split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = words[0] == "host" ? ["host", "--seed", "1", "--record", recording] : words + [Self.fixtures]
        let out = Pipe(), err = Pipe()
        try out.fileHandleForReading.close()   // the reader has left before the first write
        process.standardOutput = out.fileHandleForWriting
        process.standardError = err
        process.standardInput = FileHandle(forReadingAtPath: words[0] == "host" ? Self.decimal : "/dev/null")
        try process.run()
        try out.fileHandleForWriting.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(command): \(process.terminationStatus) \(stderr)")
        #expect(stderr.isEmpty, "\(command): \(stderr)")
        if words[0] == "host" {
            #expect(Self.listing(directory) == ["r.jsonl"])
            #expect(try CLITests.run("verify", recording).status == 0)
        }
    }

    @Test("a standard descriptor closed at start: standard output closed is a failure named at exit (no file the tool opens takes its number); standard input closed is an empty input (host used to trap in availableData)")
    func closedDescriptors() throws {
        let closedOutput = try Self.shell("exec \"$0\" verify \"$1\" >&-", [Self.decimal])
        #expect(closedOutput.status == 1 && closedOutput.stderr.contains("Error: standard output: cannot write (Bad file descriptor)"),
                "\(closedOutput.stderr)")
        let closedInput = try Self.shell("exec \"$0\" host <&-")
        #expect(closedInput.status == 0 && closedInput.stdout.contains("\"kind\":\"summary\""), "\(closedInput.stderr)")
    }

    @Test("host > /dev/full with --record: exit 1 naming standard output, and the recording is still renamed into place and verifies")
    func hostFullWithRecording() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("live.jsonl").path
        let (prefix, redirect) = try Self.fullOutput()
        let result = try Self.shell(prefix + "exec \"$0\" host --seed 1 --record \"$1\" " + redirect, [recording], stdin: Self.decimal)
        #expect(result.status == 1 && result.stderr.contains("Error: standard output: cannot write ("), "\(result.stderr)")
        #expect(Self.listing(directory) == ["live.jsonl"], "\(Self.listing(directory))")
        let verify = try CLITests.run("verify", recording)
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
    }

    @Test("--junit: a target that cannot be written is refused before the replay, naming it; a report that fails half-way (ulimit -f) leaves the verdict and the failures printed, names the file, exit 1, nothing left",
          arguments: ["verify", "run"])
    func junitFails(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try CLITests.run(command, Self.fixtures, "--junit", "/dev/full")
        #expect(refused.status == 1 && refused.stderr.contains("--junit /dev/full: exists and is not a regular file"), "\(refused.stderr)")
        // A corpus with one broken log: the verdict fails, and says why.
        let corpus = directory.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        for name in ["decimal-point", "long-stroke", "drag-block", "cancelled-touch", "never-answered"] {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/\(name).jsonl", toPath: corpus.appendingPathComponent("\(name).jsonl").path)
        }
        try (String(contentsOfFile: Self.decimal, encoding: .utf8) + "{\"kind\":\n").write(to: corpus.appendingPathComponent("broken.jsonl"), atomically: true, encoding: .utf8)
        let junit = directory.appendingPathComponent("out/junit.xml")
        try FileManager.default.createDirectory(at: junit.deletingLastPathComponent(), withIntermediateDirectories: true)
        // 1 KiB (bash counts KiB): the verdict line fits, the JUnit report of 6 sessions does not.
        let result = try Self.shell("ulimit -f 1; exec \"$0\" \(command) \"$1\" --junit \"$2\"", [corpus.path, junit.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains(command == "verify" ? "FAILED: 6 sessions" : "broken.jsonl"), "\(result.stdout)")
        #expect(result.stderr.contains("broken.jsonl:"), "the failures: \(result.stderr)")
        #expect(result.stderr.contains("Error: --junit \(junit.path): cannot write (File too large)")
                && result.stderr.contains("the JUnit report (6 test cases) was not written"), "\(result.stderr)")
        #expect(Self.listing(junit.deletingLastPathComponent()).isEmpty)
    }

    // MARK: - Class 5: outputs that name inputs

    @Test("standard input's file is an input: host --record s < s, verify --junit s < s and render -o s < s are refused naming the path, s untouched")
    func standardInputIsAnInput() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(atPath: Self.decimal, toPath: input)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
        for (arguments, option) in [(["host", "--record", input], "--record "), (["verify", Self.fixtures, "--junit", input], "--junit "),
                                    (["render", Self.decimal, "-o", input], "")] {
            let result = try Self.shell("exec \"$0\" \"$@\"", arguments, stdin: input)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Error: \(option)\(input): is the same file as standard input; not replaced"), "\(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
            #expect(Self.listing(directory) == ["s.jsonl"], "\(arguments): \(Self.listing(directory))")
        }
    }

    @Test("verify and run --shard k/n --junit naming a log of the other shard are refused before the replay, the log untouched",
          arguments: ["verify", "run"])
    func junitOverOtherShard(command: String) throws {
        let corpus = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let names = ["a", "b", "c", "d"]
        for name in names {
            try FileManager.default.copyItem(atPath: Self.decimal, toPath: corpus.appendingPathComponent("\(name).jsonl").path)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.decimal))
        // Shard 1/2 replays a and b; shard 2/2 c and d. Each names a log of the other, and of its own.
        for (shard, target) in [("1/2", "d"), ("2/2", "a"), ("1/2", "a")] {
            let path = corpus.appendingPathComponent("\(target).jsonl").path
            let result = try CLITests.run(command, "--shard", shard, corpus.path, "--junit", path)
            #expect(result.status == 1, "\(shard) over \(target): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("--junit \(path): is the same file as the input"), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "refused before the replay: \(result.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
        #expect(Self.listing(corpus) == names.map { "\($0).jsonl" })
    }

    // MARK: - Classes 6 and 9: recordings lost, refusals that name the path

    @Test("host --record with a name the file system cannot take is refused at the start naming the path, exit 1, before any input is read; render -o the same")
    func recordNameTooLong() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent(String(repeating: "é", count: 150) + ".jsonl").path   // 306 bytes, 156 characters
        let host = try Self.shell("exec \"$0\" host --record \"$1\"", [target], stdin: Self.decimal)
        #expect(host.status == 1, "\(host.stderr)")
        #expect(host.stderr.contains("Error: --record \(target): a name of 306 bytes in the path, longer than the 255"), "\(host.stderr)")
        #expect(host.stdout.isEmpty, "nothing ran: \(host.stdout)")
        let render = try CLITests.run("render", Self.decimal, "-o", target)
        #expect(render.status == 1 && render.stderr.contains("\(target): a name of 306 bytes"), "\(render.stderr)")
        #expect(Self.listing(directory).isEmpty)
    }

    @Test("host --record over another user's file in a sticky directory is refused at the start, naming it (run as an unprivileged user when the tests run as root)",
          .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv to act as two users"))
    func recordStickyDirectory() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(chmod(directory.path, 0o1777) == 0)
        let target = directory.appendingPathComponent("theirs.jsonl").path
        try "keep me\n".write(toFile: target, atomically: false, encoding: .utf8)   // root's, in a sticky directory
        let copy = directory.appendingPathComponent("input.jsonl").path
        try FileManager.default.copyItem(atPath: Self.decimal, toPath: copy)
        #expect(chmod(copy, 0o644) == 0)
        let result = try Self.shell("exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" host --record \"$1\"", [target], stdin: copy)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Error: --record \(target): belongs to another user (uid 0) in a sticky directory"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect(Self.listing(directory) == ["input.jsonl", "theirs.jsonl"])
    }

    @Test("host --record past ulimit -f: exit 1 naming the target and the lines lost; the temporary file is kept, named, and holds whole lines only; the target is not created")
    func recordFileSizeLimit() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("r.jsonl").path
        // bash's ulimit -f counts KiB: 4 KiB; the recording of long-stroke is about 200 KB.
        let result = try Self.shell("ulimit -f 4; exec \"$0\" host --seed 1 --record \"$1\" > /dev/null", [target],
                                    stdin: Self.fixtures + "/long-stroke.jsonl")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Error: --record \(target): cannot write (File too large): "), "\(result.stderr)")
        let lost = result.stderr.firstMatch(of: /(\d+) lines \((\d+) bytes\) of the recording were not written/)
        #expect(lost.map { Int($0.1)! > 100 } == true, "\(result.stderr)")
        let kept = Self.listing(directory)
        #expect(kept.count == 1 && kept[0].hasPrefix(".r.jsonl.") && kept[0].hasSuffix(".tmp"), "\(kept)")
        guard let temporary = kept.first else { return }
        #expect(result.stderr.contains("kept in \(directory.path)/\(temporary); \(target) is unchanged"), "\(result.stderr)")
        let text = try String(contentsOfFile: directory.appendingPathComponent(temporary).path, encoding: .utf8)
        #expect(text.utf8.count <= 4_096 && text.hasSuffix("\n") && text.hasPrefix("{\"format\":\"scratchpad-ink-session\""), "\(text.utf8.count) bytes")
        for line in text.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not a whole line: \(line)")
        }
    }

    @Test("a killed host leaves every line recorded so far in the temporary file (it used to hold 0 bytes): what it holds is a prefix of the whole recording, up to the last input handled")
    func killedHostKeepsLines() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try String(contentsOfFile: Self.decimal, encoding: .utf8).split(separator: "\n").map(String.init)
        let handled = lines.count - 2
        // The whole recording of the same input, the host ending normally.
        let whole = directory.appendingPathComponent("whole.jsonl").path
        let complete = try Self.shell("exec \"$0\" host --seed 1 --record \"$1\" > /dev/null", [whole], stdin: {
            let path = directory.appendingPathComponent("input.jsonl").path
            try? (Array(lines[..<handled]) + ["{"] + Array(lines[handled...])).joined(separator: "\n").appending("\n")
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }())
        #expect(complete.status == 0, "\(complete.stderr)")
        let wholeText = try String(contentsOfFile: whole, encoding: .utf8)
        // Live: the lines, then a malformed one whose `error` line says every line before it was handled.
        let live = directory.appendingPathComponent("live")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["host", "--seed", "1", "--record", live.appendingPathComponent("r.jsonl").path]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        stdin.fileHandleForWriting.write(Data((lines[..<handled].joined(separator: "\n") + "\n{\n").utf8))
        var received = ""
        while !received.contains("\"kind\":\"error\",\"line\":\(handled + 1)") {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let kept = Self.listing(live)
        #expect(kept.count == 1 && kept[0].hasPrefix(".r.jsonl.") && kept[0].hasSuffix(".tmp"), "the target is not created: \(kept)")
        guard let temporary = kept.first else { return }
        let text = try String(contentsOfFile: live.appendingPathComponent(temporary).path, encoding: .utf8)
        let touches = text.split(separator: "\n").filter { $0.contains("\"kind\":\"touch\"") }.count
        let inputTouches = lines[..<handled].filter { $0.contains("\"kind\":\"touch\"") }.count
        #expect(touches == inputTouches, "every touch line handled is recorded: \(touches) of \(inputTouches); \(text.utf8.count) bytes")
        #expect(wholeText.hasPrefix(text), "a prefix of the whole recording")
        #expect(text.utf8.count < wholeText.utf8.count)
    }

    /// Every write to standard output and error goes through the checked writer: no other
    /// way is left in the tool's sources.
    @Test("the tool writes to standard output and error only through StandardStream")
    func oneWriter() throws {
        let sources = CLITests.root.appendingPathComponent("Sources/ink-replay").path
        for name in try FileManager.default.contentsOfDirectory(atPath: sources) where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + name, encoding: .utf8)
            for forbidden in ["FileHandle.standardOutput", "FileHandle.standardError", "Swift.print(", "fputs(", "fwrite(", "putchar("] {
                #expect(!text.contains(forbidden), "\(name) writes with \(forbidden)")
            }
        }
    }
}
