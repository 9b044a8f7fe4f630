import Foundation
@_spi(Tooling) import HitTestBridge
@testable import ink_replay
import Testing

/// Issue 40, class 7: names that are not text. A truncated log named with a byte that is not
/// UTF-8 was looked up under a repaired name and skipped as "a dangling link" (the run
/// passed); names holding terminal escape sequences reached standard output raw (`verify`,
/// `run`, `stats`, `merge-reports`: clear the screen, set the window title).
@Suite("ink-replay: names that are not text are read by their bytes and never printed raw")
struct UnprintableNameTests {
    struct Bytes {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `script` in bash in `directory` with the tool as `$INK`, keeping its output's bytes
    /// as they are (names that are not UTF-8 are made with bash's `$'\xff'`).
    static func bash(_ script: String, in directory: URL) throws -> Bytes {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["INK"] = CLITests.binary.path
        process.environment = environment
        let out = directory.appendingPathComponent(".stdout"), err = directory.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        process.waitUntilExit()
        return Bytes(status: process.terminationStatus, stdout: try Data(contentsOf: out), stderr: try Data(contentsOf: err))
    }

    /// No byte a terminal takes as the start of a control sequence: ESC, BEL, CSI (C1, in
    /// UTF-8 or alone), and no other C0 control but the line break.
    static func expectNoControls(_ data: Data, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = String(decoding: data, as: UTF8.self)
        let bad = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(bad.isEmpty, "\(what): \(bad.map { String($0.value, radix: 16) }) in \(text.prefix(600))", sourceLocation: sourceLocation)
        #expect(!data.contains(0x1B), "\(what): a raw ESC byte", sourceLocation: sourceLocation)
    }

    // MARK: The library's part

    @Test("any bytes make a name that gives the same bytes back; valid UTF-8 is its own text")
    func roundTrip() {
        var state: UInt64 = 40
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let interesting: [UInt8] = [0x2F, 0x61, 0x1B, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xA0, 0xF0, 0xF4, 0x8F, 0xBE, 0xBF, 0xFF, 0x9B]
        for _ in 0..<20_000 {
            let count = Int(next() % 12)
            let bytes = (0..<count).map { _ in next() % 2 == 0 ? interesting[Int(next() % UInt64(interesting.count))] : UInt8(truncatingIfNeeded: next()) }
                .filter { $0 != 0 }
            let name = NameBytes.string(bytes)
            #expect(NameBytes.bytes(name) == bytes, "\(bytes)")
            let handed = NameBytes.withCString(name) { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)).map { $0 } }
            #expect(handed == bytes, "\(bytes)")
            let text = String(decoding: bytes, as: UTF8.self)
            if Array(text.utf8) == bytes, !text.unicodeScalars.contains(where: { $0.value >= 0x10_FF80 }) {
                #expect(name == text)
            }
        }
        // The stand-ins' own UTF-8 is taken byte by byte, so it comes back as it was.
        let standIn = Array("\u{10FFFF}é".utf8)
        #expect(NameBytes.bytes(NameBytes.string(standIn)) == standIn)
        #expect(NameBytes.string(standIn).unicodeScalars.count == 5)
    }

    @Test("a name is shown with its controls as \\u{…} and its bytes that are not UTF-8 as \\x{…}; shown twice, it reads the same")
    func shown() {
        let name = NameBytes.string(Array("d/e\u{1B}]0;T\u{07}\u{1B}[2J".utf8) + [0xFF, 0xC3] + Array(".jsonl \u{9B}é".utf8))
        let shown = PathText.shown(name)
        #expect(shown == "d/e\\u{1B}]0;T\\u{7}\\u{1B}[2J\\x{FF}\\x{C3}.jsonl \\u{9B}é")
        #expect(PathText.shown(shown) == shown)
        #expect(InputText.printable("Error: " + name) == "Error: " + shown)
    }

    // MARK: The tool

    /// A truncated log named with the byte 0xFF, in a directory and named directly, fails
    /// `verify` naming the file (it was skipped as a dangling link, and the run passed).
    @Test("a truncated log named with a byte that is not UTF-8 fails verify, named as bad\\x{FF}.jsonl, in a directory and named directly")
    func truncatedNonUTF8Log() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = CLITests.fixtures + "/decimal-point.jsonl"
        let walked = try Self.bash("""
            mkdir c && cp '\(fixture)' c/good.jsonl && head -c 300 '\(fixture)' > c/$'bad\\xff.jsonl'
            "$INK" verify c
            """, in: directory)
        #expect(walked.status == 1, "\(walked.stdoutText) \(walked.stderrText)")
        #expect(walked.stderrText.contains("c/bad\\x{FF}.jsonl:1: malformed JSON"), "\(walked.stderrText)")
        #expect(!walked.stderrText.contains("dangling"), "\(walked.stderrText)")
        #expect(walked.stdoutText.hasPrefix("FAILED: 2 sessions"), "\(walked.stdoutText)")
        let named = try Self.bash(#""$INK" verify c/$'bad\xff.jsonl' >&2; echo "exit $?" >&2; "$INK" run --json c/$'bad\xff.jsonl' c/good.jsonl"#, in: directory)
        #expect(named.stderrText.contains("c/bad\\x{FF}.jsonl:1: malformed JSON") && named.stderrText.contains("exit 1"), "\(named.stderrText)")
        // JSON carries the name as shown, valid JSON with no raw byte of it.
        let json = try #require(try JSONSerialization.jsonObject(with: named.stdout) as? [String: Any])
        let files = (json["per_session"] as? [[String: Any]])?.compactMap { $0["file"] as? String }
        #expect(files == ["c/bad\\x{FF}.jsonl", "c/good.jsonl"], "\(named.stdoutText)")
        // A name that is not UTF-8 is also written and read back as itself (a directory too).
        let written = try Self.bash("""
            mkdir $'out\\xfe' && "$INK" export c/good.jsonl -o $'out\\xfe/x\\xff.inkml' && "$INK" convert $'out\\xfe/x\\xff.inkml' -o $'conv\\xfd' \
              && "$INK" fixtures $'fix\\xfc/sub' && test -f $'out\\xfe/x\\xff.inkml' && test -f $'conv\\xfd/x_.jsonl' \
              && test -f $'fix\\xfc/sub/decimal-point.jsonl' && echo "all written"
            """, in: directory)
        #expect(written.status == 0, "\(written.stderrText)")
        #expect(written.stdoutText.contains("to out\\x{FE}/x\\x{FF}.inkml") && written.stdoutText.contains("all written"), "\(written.stdoutText)")
        Self.expectNoControls(written.stdout, "export, convert, fixtures")
    }

    static let hostileName = "esc\u{1B}]0;OWNED\u{07}\u{1B}[2J"

    @Test("names holding terminal escape sequences (files and directories) are escaped on every stream of verify, run, stats and merge-reports, in text, JSON and JUnit",
          arguments: ["verify", "run", "stats", "merge-reports"])
    func escapeSequenceNames(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = CLITests.fixtures + "/decimal-point.jsonl"
        let setup = """
            name=$'esc\\e]0;OWNED\\a\\e[2J'
            mkdir -p "c/$name" && cp '\(fixture)' "c/$name/$name.jsonl" && cp '\(fixture)' "c/$name.jsonl" && head -c 300 '\(fixture)' > "c/$name-cut.jsonl"
            ln -s "$name-loop.jsonl" "c/$name-loop.jsonl"

            """
        let script: String
        switch command {
        case "merge-reports":
            // Shards of the hostile corpus, and a forged report whose names hold raw
            // escape sequences (JSON \u001b) in a failure and a note.
            script = setup + """
                "$INK" verify --shard 1/2 --json c > r1.json; "$INK" verify --shard 2/2 --json c > r2.json
                printf '%s' '{"sessions":2,"touches":0,"samples":0,"inked":0,"released":0,"cancelled":0,"refused":0,"dropped":0,"recordings":1,"identical":0,"verified":false,"failed_sessions":1,"failures":[{"file":"x\\u001b[2J.jsonl","line":1,"message":"bad","session":0}],"notes":[{"file":"n\\u001b]0;T\\u0007.jsonl","message":"note","session":1}]}' > forged.json
                "$INK" merge-reports r1.json r2.json; echo "exit $?" >&2
                "$INK" merge-reports --json r2.json r1.json; echo >&2
                "$INK" merge-reports forged.json; "$INK" merge-reports --json forged.json
                """
        case "stats":
            script = setup + #""$INK" stats c; "$INK" stats --json c; "$INK" stats "c/$name-loop.jsonl""#
        default:
            script = setup + """
                "$INK" \(command) --junit report.xml c; echo "exit $?" >&2; "$INK" \(command) --json c; "$INK" \(command) "c/$name-loop.jsonl"
                cat report.xml
                """
        }
        let result = try Self.bash(script, in: directory)
        Self.expectNoControls(result.stdout, "\(command) standard output")
        Self.expectNoControls(result.stderr, "\(command) standard error")
        let shown = "esc\\u{1B}]0;OWNED\\u{7}\\u{1B}[2J"
        let out = result.stdoutText, err = result.stderrText
        switch command {
        case "merge-reports":
            #expect(err.contains("Error: c/\(shown)-cut.jsonl:1: malformed JSON") && err.contains("exit 1"), "\(err)")
            #expect(err.contains("Error: x\\u{1B}[2J.jsonl:1: bad"), "\(err)")
            #expect(out.contains("n\\u{1B}]0;T\\u{7}.jsonl: note"), "\(out)")
        case "stats":
            #expect(out.contains("c/\(shown)") || out.contains(shown), "\(out)")
            #expect(err.contains("symbolic-link loop"), "\(err)")
        default:
            #expect(err.contains("Error: c/\(shown)-cut.jsonl:1: malformed JSON") && err.contains("exit 1"), "\(err)")
            #expect(err.contains("Note: skipped c/\(shown)-loop.jsonl: a symbolic-link loop, not a regular file"), "\(err)")
            #expect(err.contains("c/\(shown)-loop.jsonl: is a symbolic-link loop (too many levels of symbolic links); not read"), "\(err)")
            #expect(out.contains("<testcase classname=\"c\" name=\"\(shown)-cut.jsonl\""), "\(out)")
            if command == "run" { #expect(out.contains("\(shown).jsonl "), "\(out)") }
        }
        // Every JSON object printed is valid JSON.
        for line in out.split(separator: "\n") where line.hasPrefix("{") || line.hasPrefix("[") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line.prefix(300))")
        }
    }

    @Test("a symbolic-link loop is named as one (it was 'of an unknown kind'), in a walk and named directly, by every command that reads a log",
          arguments: ["verify", "run", "stats", "render", "export", "timeline"])
    func symbolicLinkLoop(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("c"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLITests.fixtures + "/decimal-point.jsonl", toPath: directory.appendingPathComponent("c/good.jsonl").path)
        let loop = directory.appendingPathComponent("c/loop.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.jsonl")
        let output = ["render", "export", "timeline"].contains(command) ? ["-o", directory.appendingPathComponent("out").path] : []
        let direct = try CLITests.run([command, loop] + output)
        #expect(direct.status == 1, "\(direct.stderr)")
        #expect(direct.stderr.contains("loop.jsonl") && direct.stderr.contains("is a symbolic-link loop (too many levels of symbolic links); not read"),
                "\(direct.stderr)")
        #expect(!direct.stderr.contains("unknown kind"), "\(direct.stderr)")
        guard ["verify", "run", "stats"].contains(command) else { return }
        let walked = try CLITests.run([command, directory.appendingPathComponent("c").path])
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(walked.stderr.contains("Note: skipped \(loop): a symbolic-link loop, not a regular file"), "\(walked.stderr)")
    }
}
