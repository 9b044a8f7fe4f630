import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
import Testing

/// Issue 30: `stats` streams (memory flat in the log's size, the same figures); `render` and
/// `export`, which need a whole session at once, refuse a log over their documented size.
@Suite("whole-log commands: stats streams, render and export are bounded")
struct WholeLogBoundsTests {
    @Test("stats: peak memory does not grow with the log (10x the touches)", .enabled(if: HostileMemoryTests.canMeasurePeak, "GNU time (/usr/bin/time, Linux) measures the peak"))
    func statsMemoryIsFlat() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var peaks: [Int] = []
        for touches in [20_000, 200_000] {
            let input = directory.appendingPathComponent("answered\(touches).jsonl")
            try Data(HostileMemoryTests.answeredTouches(touches).utf8).write(to: input)
            peaks.append(try #require(try HostileMemoryTests.peakKiB(["stats", "--json", input.path], in: directory)))
        }
        // Holding the log: about 400 bytes per touch (200,000 touches: some 70 MB more).
        #expect(peaks[1] < peaks[0] + 6 * 1024, "stats peak KiB: \(peaks)")
    }

    @Test("stats: the figures of touches that overlap, reuse ids and end late are those of the whole log")
    func statsFigures() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Touch 1 and 2 overlap (2 begins before 1 ends), 1 begins again, 3 never ends.
        let text = """
            {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"touch","t":1.01,"touch":2,"phase":"began","samples":[{"t":1.01,"x":1,"y":1}]}
            {"kind":"touch","t":1.02,"touch":1,"phase":"moved","samples":[{"t":1.015,"x":1,"y":1},{"t":1.02,"x":1,"y":1}]}
            {"kind":"touch","t":1.03,"touch":2,"phase":"ended","samples":[{"t":1.03,"x":1,"y":1}]}
            {"kind":"touch","t":1.5,"touch":1,"phase":"began","samples":[{"t":1.5,"x":1,"y":1}]}
            {"kind":"touch","t":1.6,"touch":3,"phase":"began","samples":[{"t":1.6,"x":1,"y":1}]}
            {"kind":"touch","t":1.7,"touch":3,"phase":"moved","samples":[{"t":1.7,"x":1,"y":1},{"t":1.7,"x":1,"y":1}]}
            {"kind":"touch","t":1.8,"touch":1,"phase":"ended","samples":[{"t":1.8,"x":1,"y":1}]}
            {"kind":"touch","t":1.9,"touch":7,"phase":"moved","samples":[{"t":1.9,"x":1,"y":1}]}

            """
        let input = directory.appendingPathComponent("overlap.jsonl")
        try Data(text.utf8).write(to: input)
        let output = try CLITests.run("stats", "--json", input.path)
        #expect(output.status == 0, "\(output.stderr)")
        // The figures as SessionLog.samplesByTouch gives them (what stats read before it streamed).
        let log = try SessionLog.read(contentsOf: input.path).get()
        let touches = log.samplesByTouch
        var intervals: [Double] = [], pauses: [Double] = []
        var previousEnd: Double?
        for (_, samples) in touches {
            for (a, b) in zip(samples, samples.dropFirst()) { intervals.append(b.timestamp - a.timestamp) }
            if let end = previousEnd { pauses.append(samples.first!.timestamp - end) }
            previousEnd = samples.last!.timestamp
        }
        let positive = intervals.filter { $0 > 0 }.sorted()
        func ms(_ s: Double) -> Double { (s * 1e6).rounded() / 1000 }
        let object = try #require(try JSONParser.parse(output.stdout).arrayValue?.last)
        #expect(object["touches"] == .number(Double(touches.count)))
        #expect(object["samples"] == .number(Double(touches.reduce(0) { $0 + $1.samples.count })))
        #expect(object["zero_intervals"] == .number(Double(intervals.count - positive.count)))
        #expect(object["interval_ms"]?["max"] == .number(ms(positive.last!)))
        #expect(object["interval_ms"]?["min"] == .number(ms(positive.first!)))
        #expect(object["pause_ms"]?["max"] == .number(ms(pauses.max()!)))
        #expect(object["pause_ms"]?["p50"] == .number(ms(pauses.sorted()[(pauses.count - 1) / 2 + ((pauses.count - 1) % 2)])))
    }

    @Test("render, export and timeline refuse a log over 64 MiB with the reason, and write nothing (timeline read it whole: issue 40)", arguments: ["render", "export", "timeline"])
    func wholeSessionCommandsRefuseHugeLogs(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("huge.jsonl")
        var text = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"# + "\n"
        text += String(repeating: String(repeating: " ", count: 65_535) + "\n", count: 1_040)   // 65 MiB of blank lines
        try Data(text.utf8).write(to: input)
        let target = directory.appendingPathComponent("out")
        let output = try CLITests.run(command, input.path, "-o", target.path)
        #expect(output.status == 1)
        #expect(output.stderr.contains("larger than 64 MiB; `\(command)` holds a whole session in memory"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        if command == "timeline" {
            // A regular file is refused by its size; a pipe as it is read, one that never
            // ends and sends no event too (issue 42: the reading waited for an event forever).
            let pipe = try CLITests.shell(#"{ printf '%s\n' "$1"; yes "$(printf '%65535s' '')"; } | "$0" timeline /dev/stdin -o "$2""#,
                                          [String(text.prefix(while: { $0 != "\n" })), target.path])
            #expect(pipe.status == 1 && pipe.stderr.contains("/dev/stdin: larger than 64 MiB; `timeline` holds"), "\(pipe.status) \(pipe.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }
    }

    @Test("bench (strategies) and bench geometry refuse session logs over 64 MiB in all, naming the file where they pass it (they read every log whole, without bound)",
          arguments: ["strategies", "geometry"])
    func benchRefusesHugeLogs(mode: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"# + "\n"
        let blank = String(repeating: " ", count: 65_535) + "\n"
        // 40 MiB, then 30 MiB: each under the limit, together over it.
        let first = directory.appendingPathComponent("a.jsonl"), second = directory.appendingPathComponent("b.jsonl")
        try Data((header + String(repeating: blank, count: 640)).utf8).write(to: first)
        try Data((header + String(repeating: blank, count: 480)).utf8).write(to: second)
        let extra = mode == "strategies" ? ["--strokes", "0", "--latencies", "0"] : ["--passes", "1"]
        let both = try CLITests.run(["bench", mode, first.path, second.path] + extra)
        #expect(both.status == 1 && both.stdout.isEmpty, "\(both.status) \(both.stdout)")
        #expect(both.stderr.contains("\(second.path): the session logs given pass 64 MiB here; 'bench \(mode)' holds the strokes of every log given and takes at most that in all"),
                "\(both.stderr)")
        // A pipe is counted as read, and refused once past the limit: one that never ends
        // and sends no event (blank lines) too (the reading waited for an event forever).
        let pipe = try CLITests.shell(#"{ printf '%s\n' "$1"; yes "$(printf '%65535s' '')"; } | "$0" bench "$2" /dev/stdin "${@:3}""#,
                                      [header.trimmingCharacters(in: .newlines), mode] + extra)
        #expect(pipe.status == 1 && pipe.stderr.contains("/dev/stdin: the session logs given pass 64 MiB here"), "\(pipe.status) \(pipe.stderr)")
        // Under the limit, the same logs are benched.
        let one = try CLITests.run(["bench", mode, first.path, CLITests.fixtures + "/decimal-point.jsonl"] + extra)
        #expect(one.status == 0, "\(one.stderr)")
    }
}

private extension JSONValue {
    var arrayValue: [JSONValue]? { if case let .array(values) = self { values } else { nil } }
    subscript(key: String) -> JSONValue? { if case let .object(object) = self { object[key] } else { nil } }
}
