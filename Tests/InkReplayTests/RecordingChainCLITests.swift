import Foundation
import Testing
@_spi(Tooling) import InkCore

/// `host --record` recordings checked by `verify` through the built binary: random live
/// sessions verify identically, and edits of one are refused naming the line.
@Suite("host --record and verify: random live sessions verify identically; edited recordings are refused naming the line")
struct RecordingChainCLITests {
    /// A random live session as host input: touches (some stamped before their line, some
    /// still down at the end), recorded answers, region snapshots and ticks, seeded.
    static func randomSession(seed: UInt64) -> String {
        var random = SplitMix(seed)
        var lines: [String] = [#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#]
        var t = 1.0, next = 1
        var down: [Int: Double] = [:]
        func number(_ v: Double) -> String { String(format: "%.4f", v) }
        for _ in 0..<(1 + Int(random.next() % 25)) {
            t += [0, 0.001, 0.01, 0.05, 0.2, 0.3][Int(random.next() % 6)]
            let op = random.unit()
            let x = number(random.unit() * 100), y = number(random.unit() * 100)
            if op < 0.35, down.count < 3 {
                let stamp = t - [0, 0, 0.1, 0.3][Int(random.next() % 4)]
                down[next] = stamp
                let tool = random.next() % 2 == 0 ? "finger" : "pencil"
                lines.append(#"{"kind":"touch","t":\#(number(t)),"touch":\#(next),"phase":"began","tool":"\#(tool)","samples":[{"t":\#(number(stamp)),"x":\#(x),"y":\#(y)}]}"#)
                next += 1
            } else if op < 0.65, let touch = down.keys.sorted().first {
                let stamp = max(down[touch]!, t - (random.next() % 2 == 0 ? 0 : 0.05))
                down[touch] = stamp
                lines.append(#"{"kind":"touch","t":\#(number(t)),"touch":\#(touch),"phase":"moved","samples":[{"t":\#(number(stamp)),"x":\#(x),"y":\#(y)}]}"#)
            } else if op < 0.82, let touch = down.keys.sorted().last {
                let stamp = max(down.removeValue(forKey: touch)!, t)
                lines.append(#"{"kind":"touch","t":\#(number(t)),"touch":\#(touch),"phase":"ended","samples":[{"t":\#(number(stamp)),"x":\#(x),"y":\#(y)}]}"#)
            } else if op < 0.9, next > 1 {
                let verdict = random.next() % 2 == 0 ? "ink" : "page"
                lines.append(#"{"kind":"answer","t":\#(number(t)),"touch":\#(1 + Int(random.next() % UInt64(next - 1))),"verdict":"\#(verdict)"}"#)
            } else if op < 0.95 {
                lines.append(#"{"kind":"regions","t":\#(number(t)),"generation":1,"max_age":\#([0.1, 1, 30][Int(random.next() % 3)]),"regions":[{"x":50,"y":50,"width":30,"height":30}]}"#)
            } else {
                lines.append(#"{"kind":"tick","t":\#(number(t))}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A chained recording's text as the format-version-2 recording of the same lines (no
    /// chain, no end line): what recordings were before the chain.
    static func unchained(_ text: String) -> String {
        text.split(separator: "\n").compactMap { line -> String? in
            var line = String(line)
            if line.hasPrefix(#"{"kind":"end""#) { return nil }
            if line.hasPrefix(#"{"format""#) { return line.replacingOccurrences(of: #""version":3"#, with: #""version":2"#) }
            if let range = line.range(of: #","chain":""#, options: .backwards) { line = String(line[..<range.lowerBound]) + "}" }
            return line
        }.joined(separator: "\n") + "\n"
    }

    @Test("an unchained recording (format version 2) still verifies, said as unchained, not counted as proof")
    func unchainedRecording() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = ([#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#] + HostTests.threeTaps)
            .joined(separator: "\n") + "\n"
        let recording = directory.appendingPathComponent("live.jsonl").path
        _ = try HostTests.host(input, ["--cache", "off", "--seed", "5", "--record", recording])
        let old = directory.appendingPathComponent("old.jsonl").path
        try Self.unchained(try String(contentsOfFile: recording, encoding: .utf8)).write(toFile: old, atomically: true, encoding: .utf8)
        let result = try CLITests.run("verify", old)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("identity: 0 of 1 live recordings replayed identically"), "\(result.stdout)")
        #expect(result.stdout.contains("old.jsonl: unchained recording (format version 2): it carries no chain, so nothing proves it whole; identical as far as it goes"), "\(result.stdout)")
    }

    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    static let options: [[String]] = [["--cache", "off"], ["--cache", "on"], ["--cache", "on", "--speculative", "on"], ["--fallback", "page"],
                                      ["--timeout", "100"], ["--pencil-only"], ["--gesture-window", "0"]]

    @Test("150 random live sessions through host --record: every recording is whole and verifies identically")
    func differential() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for seed in UInt64(1)...150 {
            let path = directory.appendingPathComponent("live-\(seed).jsonl").path
            _ = try HostTests.host(Self.randomSession(seed: seed), Self.options[Int(seed) % Self.options.count] + ["--seed", "\(seed)", "--record", path])
            paths.append(path)
        }
        let verify = try CLITests.run(["verify"] + paths)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("identity: 150 of 150 live recordings replayed identically"), "\(verify.stdout)")
    }

    @Test("a host recording: whole verifies; cut to 60 %, to 4 lines, its last line removed, its finished lines removed, one moved line removed: each exits 1 naming the line")
    func editsRefused() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stroke = [#"{"kind":"touch","t":3,"touch":9,"phase":"began","samples":[{"t":3,"x":20,"y":20}]}"#,
                      #"{"kind":"touch","t":3.01,"touch":9,"phase":"moved","samples":[{"t":3.01,"x":22,"y":21}]}"#,
                      #"{"kind":"touch","t":3.02,"touch":9,"phase":"moved","samples":[{"t":3.02,"x":25,"y":22}]}"#,
                      #"{"kind":"touch","t":3.03,"touch":9,"phase":"ended","samples":[{"t":3.03,"x":27,"y":22}]}"#]
        let input = ([#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#] + HostTests.threeTaps + stroke)
            .joined(separator: "\n") + "\n"
        let recording = directory.appendingPathComponent("live.jsonl").path
        _ = try HostTests.host(input, ["--cache", "off", "--seed", "5", "--record", recording])
        let whole = try CLITests.run("verify", recording)
        #expect(whole.status == 0 && whole.stdout.contains("identity: 1 of 1 live recordings replayed identically"), "\(whole.stdout)\(whole.stderr)")
        let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").map(String.init)
        let moved = try #require(lines.firstIndex { $0.contains(#""phase":"moved""#) })
        let firstFinished = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"finished""#) })
        let edits: [(String, [String], String)] = [
            ("sixty", Array(lines.prefix(lines.count * 6 / 10)), ":\(lines.count * 6 / 10): incomplete recording: ends at line \(lines.count * 6 / 10) with no end"),
            ("four", Array(lines.prefix(4)), ":4: incomplete recording: ends at line 4 with no end"),
            ("last", Array(lines.dropLast()), ":\(lines.count - 1): incomplete recording"),
            ("finished", lines.filter { !$0.hasPrefix(#"{"kind":"finished""#) }, ":\(firstFinished + 1): the chain breaks here"),
            ("moved", lines.enumerated().filter { $0.offset != moved }.map(\.element), ":\(moved + 1): the chain breaks here"),
        ]
        for (name, kept, expected) in edits {
            let path = directory.appendingPathComponent("\(name).jsonl").path
            try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let result = try CLITests.run("verify", path)
            #expect(result.status == 1, "\(name)")
            #expect(result.stdout.contains("identity: 0 of 1 live recordings replayed identically"), "\(name): \(result.stdout)")
            #expect(result.stderr.contains("\(name).jsonl" + expected), "\(name): \(result.stderr)")
        }
        // A crashed session's prefix, accepted: exit 0, said as a note, not counted identical.
        let accepted = try CLITests.run("verify", "--accept-incomplete", directory.appendingPathComponent("sixty.jsonl").path)
        #expect(accepted.status == 0 && accepted.stdout.contains("incomplete: ends at line") && accepted.stdout.contains("(accepted)"),
                "\(accepted.stdout)\(accepted.stderr)")
    }
}
