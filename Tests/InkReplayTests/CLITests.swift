#if canImport(Glibc)
@_spi(Tooling) import ChromiumBridge
#endif
import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing

/// Runs the built `ink-replay` end to end and checks its output and exit codes.
@Suite("ink-replay command line")
struct CLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures/strokes").path

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The tool sits beside the test bundle in the build products directory: SwiftPM's
    /// `.build/<configuration>` on every platform, Xcode's `Build/Products/<configuration>` on a
    /// Mac (where the test runner is `xctest`, so neither `Bundle.main` nor `argv[0]` is ours).
    /// `INK_REPLAY_BINARY` overrides both.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["INK_REPLAY_BINARY"] { return URL(fileURLWithPath: path) }
        #if canImport(Darwin)
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
        #else
        let products: URL? = Bundle.main.bundleURL
        #endif
        let directory = products ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return directory.appendingPathComponent("ink-replay")
    }()

    static func run(_ arguments: String...) throws -> Output { try run(arguments) }

    /// Runs `script` in bash (`$0` is the tool, `$1`… the arguments), standard input from
    /// `stdin` (a path) or /dev/null.
    static func shell(_ script: String, _ arguments: [String] = [], stdin: String? = nil) throws -> Output {
        try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", script, binary.path] + arguments,
                   standardInput: FileHandle(forReadingAtPath: stdin ?? "/dev/null"))
    }

    static func run(_ arguments: [String]) throws -> Output { try launch(binary, arguments) }

    /// Runs `executable` to its end and returns its status and both streams (standard input
    /// inherited unless given).
    private static func launch(_ executable: URL, _ arguments: [String], standardInput: FileHandle? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let standardInput { process.standardInput = standardInput }
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ink-replay-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("--help, -h and no arguments print the overview and exit 0")
    func help() throws {
        let long = try Self.run("--help")
        #expect(long.status == 0)
        #expect(long.stdout.hasPrefix("OVERVIEW: Replay, verify and convert"))
        #expect(long.stdout.contains("SUBCOMMANDS:"))
        #expect(try Self.run("-h").stdout == long.stdout)
        #expect(try Self.run().stdout == long.stdout)
    }

    @Test("help <sub> and <sub> --help print the same text", arguments: ["run", "verify", "convert", "fixtures"])
    func subcommandHelp(name: String) throws {
        let viaHelp = try Self.run("help", name)
        let viaFlag = try Self.run(name, "--help")
        #expect(viaHelp.status == 0)
        #expect(viaFlag.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.contains("USAGE: ink-replay \(name)"))
    }

    @Test("run --json reports the bridge: round trips, cache hits, timeouts, late answers, retractions")
    func runBridgeJSON() throws {
        let path = Self.fixtures + "/decimal-point.jsonl"
        let asked = try Self.json(try Self.run("run", path, "--oracle", "regions", "--oracle-latency", "30", "--json").stdout)
        let cached = try Self.json(try Self.run("run", path, "--oracle", "regions", "--cache", "on", "--json").stdout)
        for json in [asked, cached] {
            for key in ["round_trips", "cache_hits", "timeouts", "late_answers", "retractions", "queries"] {
                #expect(json[key] is Int, "missing \(key)")
            }
        }
        #expect(asked["round_trips"] as? Int == 2 && asked["cache_hits"] as? Int == 0)
        #expect((asked["first_ink_ms"] as? [String: Any])?["p50"] as? Double == 30)
        #expect(cached["round_trips"] as? Int == 0 && cached["cache_hits"] as? Int == 2)
        #expect((cached["first_ink_ms"] as? [String: Any])?["max"] as? Double == 0)
        let never = try Self.json(try Self.run("run", Self.fixtures + "/never-answered.jsonl", "--json").stdout)
        #expect(never["timeouts"] as? Int == 1)
        let table = try Self.run("run", path, "--oracle", "regions", "--cache", "on")
        #expect(table.stdout.contains("hit tests: 2 asked, 2 from the region cache, 0 round trips (0 shared)"))
    }

    @Test("usage errors print Error, the usage and a pointer to help, and exit 64", arguments: [
        (["run", "--oracle", "psychic", "x"], "Error: '--oracle' takes one of recorded, regions, chromium:<page.html>, not 'psychic'"),
        (["run", "--cache", "maybe", "x"], "Error: '--cache' takes one of on, off, not 'maybe'"),
        (["run", "--jitter", "-1", "x"], "Error: '--jitter' takes a number from 0 to 3600000, not '-1'"),
        (["frobnicate"], "Error: unknown subcommand 'frobnicate'"),
        (["run", "--bogus", "x"], "Error: unknown option '--bogus'"),
        (["run", "--oracle-latency", "fast", "x"], "Error: '--oracle-latency' takes a number from 0 to 3600000, not 'fast'"),
        (["verify", "--fallback", "maybe", "x"], "Error: '--fallback' takes one of ink, page, not 'maybe'"),
        (["verify"], "Error: missing <file or directory>"),
        (["convert", "x.json"], "Error: missing '--output <directory>'"),
        (["run", "--timeout"], "Error: missing value for '--timeout'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == message)
        #expect(lines.dropFirst().first?.hasPrefix("Usage: ink-replay") == true)
        #expect(lines.last?.contains("for more information.") == true)
    }

    @Test("verify passes over the fixtures with nothing dropped")
    func verifyFixtures() throws {
        let output = try Self.run("verify", Self.fixtures, "--json")
        #expect(output.status == 0)
        let json = try Self.json(output.stdout)
        #expect(json["dropped"] as? Int == 0)
        #expect(json["verified"] as? Bool == true)
        #expect((json["sessions"] as? Int ?? 0) >= 20)
        let samples = try #require(json["samples"] as? Int)
        let accounted = (json["inked"] as? Int ?? -1) + (json["released"] as? Int ?? -1) + (json["cancelled"] as? Int ?? -1)
        #expect(samples == accounted)
        let human = try Self.run("verify", Self.fixtures)
        #expect(human.status == 0)
        #expect(human.stdout.hasPrefix("verified "))
        #expect(human.stdout.contains("dropped 0"))
    }

    @Test("verify fails on a truncated, corrupted copy of a fixture and names the line")
    func verifyCorrupt() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOfFile: Self.fixtures + "/drag-block.jsonl", encoding: .utf8)
        let lines = original.split(separator: "\n").map(String.init)
        let corrupted = lines.prefix(12).joined(separator: "\n") + "\n" + String(lines[12].prefix(25))
        let path = directory.appendingPathComponent("drag-block-truncated.jsonl").path
        try corrupted.write(toFile: path, atomically: true, encoding: .utf8)
        let output = try Self.run("verify", path)
        #expect(output.status == 1)
        #expect(output.stderr.contains("Error: \(path):13: malformed JSON"))
        let json = try Self.json(try Self.run("verify", path, "--json").stdout)
        #expect(json["verified"] as? Bool == false)
        let failures = try #require(json["failures"] as? [[String: Any]])
        #expect(failures.first?["line"] as? Int == 13)
    }

    @Test("verify fails on a missing path and on a directory without logs")
    func verifyMissing() throws {
        let missing = try Self.run("verify", "/nonexistent/dir")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("Error: /nonexistent/dir: no such file or directory"))
        let empty = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try Self.run("verify", empty.path)
        #expect(none.status == 1)
        #expect(none.stderr.contains("no session logs"))
    }

    @Test("run --json reports the ledger and first-ink latency; --oracle-latency re-times answers")
    func runJSON() throws {
        let path = Self.fixtures + "/decimal-point.jsonl"
        for (latency, expected) in [("0", 0.0), ("30", 30.0), ("200", 200.0)] {
            let output = try Self.run("run", path, "--oracle-latency", latency, "--json")
            #expect(output.status == 0)
            let json = try Self.json(output.stdout)
            for key in ["sessions", "samples", "inked", "released", "cancelled", "dropped"] {
                #expect(json[key] is Int, "missing \(key)")
            }
            let firstInk = try #require(json["first_ink_ms"] as? [String: Any])
            #expect(firstInk["p50"] as? Double == expected)
            #expect(firstInk["p95"] as? Double == expected)
            #expect(firstInk["max"] as? Double == expected)
        }
        let table = try Self.run("run", path)
        #expect(table.stdout.contains("decimal-point.jsonl"))
        #expect(table.stdout.contains("first-ink latency: p50 30.0 ms, p95 30.0 ms, max 30.0 ms over 2 inked touches"))
    }

    @Test("convert writes one verified session per Quick, Draw! drawing and reports bad ones")
    func convert() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.ndjson")
        try """
            {"word":"cat","key_id":"1","drawing":[[[0,5,9],[0,2,3],[0,16,33]],[[20],[20],[400]]]}
            {"word":"cat","key_id":"2","drawing":[[[0,5],[0],[0,16]]]}
            {"word":"cat","key_id":"3","drawing":[[[4,5],[1,1],[0,20]]]}
            """.write(to: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out").path
        let output = try Self.run("convert", input.path, "-o", out)
        #expect(output.status == 1)
        #expect(output.stdout == "wrote 2 session logs (3 strokes, 6 samples) to \(out); 1 fault\n")
        #expect(output.stderr == "Error: \(input.path):2: drawing 1: field 'drawing[0]': channel lengths differ (x 2, y 1, t 2)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["quickdraw-cat-1.jsonl", "quickdraw-cat-3.jsonl"])
        let verify = try Self.json(try Self.run("verify", out, "--json").stdout)
        #expect(verify["verified"] as? Bool == true)
        #expect(verify["samples"] as? Int == 6)
    }

    @Test("fixtures regenerates the committed synthetic sessions byte for byte")
    func fixtures() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.run("fixtures", directory.path)
        #expect(output.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count == 11)
        for name in names {
            let generated = try Data(contentsOf: directory.appendingPathComponent(name))
            let committed = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures).appendingPathComponent(name))
            #expect(generated == committed, "\(name) differs")
        }
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("ink-replay render")
struct RenderTests {
    static var fixtures: [String] {
        let enumerator = FileManager.default.enumerator(atPath: CLITests.fixtures)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(CLITests.fixtures + "/" + relative) }
        }
        return files.sorted()
    }

    final class Counter: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let key = attributes["class"].map { "\(name).\($0)" } ?? name
            elements[key, default: 0] += 1
        }
    }

    @Test("every fixture renders to an SVG that parses back as XML", arguments: fixtures)
    func renderFixture(path: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("picture.svg")
        let result = try CLITests.run("render", path, "-o", output.path)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: output)
        let parser = XMLParser(data: data)
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.elements["svg"] == 1)
        #expect(counter.elements["g.legend"] == 1)
        let log = try #require(SessionLogLite.touchCount(path))
        let drawn = (counter.elements["path.ink"] ?? 0) + (counter.elements["polyline.page"] ?? 0)
            + (counter.elements["polyline.cancelled"] ?? 0)
        #expect(drawn == log, "one mark per touch")
    }
}

/// Counts the touches of a log without the library (the CLI target's tests only see the tool).
enum SessionLogLite {
    static func touchCount(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").filter { $0.contains("\"phase\":\"began\"") }.count
    }
}

extension CLITests {
    @Test("convert reads InkML under a layout; export writes the ink back as InkML that converts to the same samples")
    func inkmlConvertAndExport() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let source = Self.root.appendingPathComponent("Fixtures/inkml/spec/plain.inkml").path
        let layout = Self.root.appendingPathComponent("Fixtures/layouts/drag-blocks.json").path
        let converted = try Self.run("convert", source, "-o", out, "--layout", layout, "--source", "spec test")
        #expect(converted.status == 0)
        #expect(converted.stdout == "wrote 1 session logs (3 strokes, 12 samples) to \(out)\n")
        let session = out + "/plain.jsonl"
        let header = try #require(String(contentsOfFile: session, encoding: .utf8).split(separator: "\n").first)
        #expect(header.contains(#""exercise":"drag-blocks""#))
        #expect(header.contains(#""source":"spec test; InkML file plain.inkml (spec test: plain encoding)""#))
        let verify = try Self.json(try Self.run("verify", session, "--json").stdout)
        #expect(verify["dropped"] as? Int == 0)
        #expect(verify["samples"] as? Int == 12)

        let exported = directory.appendingPathComponent("ink.inkml").path
        let export = try Self.run("export", session, "-o", exported)
        #expect(export.status == 0)
        let inked = try #require(verify["inked"] as? Int)
        #expect(export.stdout.hasSuffix("(\(inked) samples) to \(exported)\n"))
        let again = directory.appendingPathComponent("again").path
        #expect(try Self.run("convert", exported, "-o", again).status == 0)
        let first = try #require(SessionLog.read(contentsOf: session).log)
        let second = try #require(SessionLog.read(contentsOf: again + "/ink.jsonl").log)
        let inkedTouches = Set(first.samplesByTouch.map(\.samples).filter { samples in
            second.samplesByTouch.contains { $0.samples.first?.timestamp == samples.first?.timestamp }
        }.map { $0.first!.timestamp })
        #expect(inkedTouches.count == second.samplesByTouch.count)
        for (touch, samples) in second.samplesByTouch {
            let original = try #require(first.samplesByTouch.first { $0.samples.first?.timestamp == samples.first?.timestamp }, "\(touch)")
            #expect(original.samples.map(\.x) == samples.map(\.x))
            #expect(original.samples.map(\.y) == samples.map(\.y))
            #expect(zip(original.samples, samples).allSatisfy { abs($0.timestamp - $1.timestamp) < 0.001 })
        }
    }

    @Test("convert reports a bad trace with file, line, trace and point, and converts the rest")
    func inkmlBadTrace() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("bad.inkml")
        try """
            <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="T" units="ms"/></traceFormat>
            <trace>0 0 0, 1 1 10</trace>
            <trace>2 2 20, 3 three 30</trace>
            <trace>4 4 40, 5 5 50</trace>
            </ink>
            """.write(to: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out").path
        let output = try Self.run("convert", input.path, "-o", out)
        #expect(output.status == 1)
        #expect(output.stderr == "Error: \(input.path):3: trace 1, point 1: 'three' is not a number\n")
        #expect(output.stdout == "wrote 1 session logs (2 strokes, 4 samples) to \(out); 1 fault\n")
    }
}

#if canImport(Glibc)
extension CLITests {
    @Test("run --oracle chromium: replays against the real page and writes the picture",
          .enabled(if: ChromiumPage.browserPath != nil, "no Chromium installed (scripts/install-test-tools.sh installs it)"))
    func runInBrowser() throws {
        let picture = try Self.temporaryDirectory().appendingPathComponent("picture.html")
        let output = try Self.run("run", Self.fixtures + "/blocks-then-3-5.jsonl", "--oracle",
                                  "chromium:" + Self.fixtures + "/../pages/blocks.html", "--cache", "off", "--picture", picture.path)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("real round trips:") && output.stdout.contains("blocks-then-3-5.jsonl"))
        let html = try String(contentsOf: picture, encoding: .utf8)
        #expect(html.contains("data:image/png;base64,") && html.components(separatedBy: "<path ").count == 4)  // 3 strokes
        let misuse = try Self.run("run", Self.fixtures + "/decimal-point.jsonl", "--picture", picture.path)
        #expect(misuse.status == 64)
    }
}
#endif

extension CLITests {
    @Test("soak runs a generated session, prints a checkpoint table and the ledger, and fails when memory grows past the limit")
    func soak() throws {
        let output = try Self.run("soak", "--hours", "0.1", "--checkpoint", "2", "--seed", "4")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("soak: PASS") && output.stdout.contains("dropped 0"))
        let rows = output.stdout.split(separator: "\n").filter { $0.hasSuffix("MiB") && $0.contains(" h ") }
        #expect(rows.count >= 3)
        // Resident memory always grows a little from the first checkpoint: a limit of 0 fails.
        let strict = try Self.run("soak", "--hours", "0.1", "--checkpoint", "1", "--max-growth", "0")
        #expect(strict.status == 1 && strict.stderr.contains("resident memory grew"))
    }

    @Test("stats describes the real corpus: groups by folder, intervals and pauses")
    func stats() throws {
        let output = try Self.run("stats", Self.fixtures + "/real", "--json")
        #expect(output.status == 0)
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        let names = groups.compactMap { $0["group"] as? String }
        #expect(names.contains("myscript") && names.contains("wacom") && names.contains("bdalab") && names.last == "total")
        let total = try #require(groups.last)
        let sessions = groups.dropLast().compactMap { $0["sessions"] as? Int }.reduce(0, +)
        #expect(total["sessions"] as? Int == sessions)
        let spread = try #require(total["interval_ms"] as? [String: Double])
        #expect(spread["min"]! <= spread["p50"]! && spread["p50"]! <= spread["max"]!)
        let table = try Self.run("stats", Self.fixtures + "/real")
        #expect(table.stdout.split(separator: "\n").last?.hasPrefix("total") == true)
    }
}

extension CLITests {
    @Test("two inputs of the same name never overwrite each other's session")
    func convertNameCollision() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = Self.root.appendingPathComponent("Fixtures/inkml/spec/plain.inkml").path
        let other = directory.appendingPathComponent("plain.inkml")
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Fixtures/inkml/spec/first-differences.inkml").path, toPath: other.path)
        let out = directory.appendingPathComponent("out").path
        let output = try Self.run("convert", plain, other.path, "-o", out)
        #expect(output.status == 1)
        #expect(output.stderr.contains("\(other.path): \(out)/plain.jsonl was already written from another input of the same name"))
        #expect(output.stdout.hasPrefix("wrote 1 session logs"))
    }
}
