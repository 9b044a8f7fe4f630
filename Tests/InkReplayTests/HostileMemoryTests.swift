import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing

/// Issue 29, class 3: memory that grew with the input where the docs promise a bound. Each
/// bound is checked on a generated input at two sizes: the structure that grew is counted
/// (and must not grow), and the tool's peak memory is measured in a subprocess where
/// `/usr/bin/time` can measure it (Linux).
@Suite("hostile memory: bounds that hold at any input size")
struct HostileMemoryTests {
    // MARK: Generators

    /// A session log of `touches` touches, each with a new id, that begin and never end
    /// (`ended`: each ends 5 ms later).
    static func openTouches(_ touches: Int, ended: Bool = false) -> String {
        var text = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"# + "\n"
        for i in 0..<touches {
            let t = 1 + Double(i) * 0.01
            text += #"{"kind":"touch","t":\#(t),"touch":\#(i + 1),"phase":"began","tool":"pencil","samples":[{"t":\#(t),"x":100,"y":100}]}"# + "\n"
            if ended { text += #"{"kind":"touch","t":\#(t + 0.005),"touch":\#(i + 1),"phase":"ended","samples":[]}"# + "\n" }
        }
        return text
    }

    /// A valid session log of `touches` touches whose ids never repeat, each answered 10 ms
    /// after it began and ended 30 ms after.
    static func answeredTouches(_ touches: Int) -> String {
        var text = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"# + "\n"
        for i in 0..<touches {
            let t = 1 + Double(i) * 0.06
            text += #"{"kind":"touch","t":\#(t),"touch":\#(i + 1),"phase":"began","tool":"pencil","samples":[{"t":\#(t),"x":100,"y":100}]}"# + "\n"
            text += #"{"kind":"answer","t":\#(t + 0.01),"touch":\#(i + 1),"verdict":"\#(i % 2 == 0 ? "ink" : "page")"}"# + "\n"
            text += #"{"kind":"touch","t":\#(t + 0.03),"touch":\#(i + 1),"phase":"ended","samples":[]}"# + "\n"
        }
        return text
    }

    /// One InkML chain of `traces` continued traces (`begin`, `middle`…, `end`) of `points`
    /// points each, times in milliseconds going on across the chain.
    static func chain(traces: Int, points: Int) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?><ink xmlns="http://www.w3.org/2003/InkML">"#
            + #"<traceFormat><channel name="X" units="px"/><channel name="Y" units="px"/><channel name="T" units="ms"/></traceFormat>"# + "\n"
        var t = 0
        for i in 0..<traces {
            let continuation = i == 0 ? "begin" : i == traces - 1 ? "end" : "middle"
            text += #"<trace xml:id="t\#(i)" continuation="\#(continuation)""# + (i > 0 ? " priorRef=\"#t\(i - 1)\"" : "") + ">"
            var values: [String] = []
            values.reserveCapacity(points)
            for p in 0..<points {
                values.append("\(100 + p % 300) \(100 + p % 200) \(t)")
                t += 1
            }
            text += values.joined(separator: ",") + "</trace>\n"
        }
        return text + "</ink>\n"
    }

    // MARK: Peak memory of a subprocess

    /// The peak resident memory (KiB) of `ink-replay` run with `arguments` (standard input
    /// from `input` when given), measured by GNU time; `nil` where it cannot be measured.
    /// Whether a child's peak memory can be measured here (GNU time on Linux); the tests that
    /// need it are reported as skipped, by name, where it cannot.
    static var canMeasurePeak: Bool {
        #if os(Linux)
        FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        #else
        false
        #endif
    }

    static func peakKiB(_ arguments: [String], input: String? = nil, in directory: URL) throws -> Int? {
        #if os(Linux)
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
        let report = directory.appendingPathComponent("peak-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: time)
        process.arguments = ["-f", "%M", "-o", report.path, CLITests.binary.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let input {
            let path = directory.appendingPathComponent("stdin-\(UUID().uuidString)")
            try Data(input.utf8).write(to: path)
            process.standardInput = try FileHandle(forReadingFrom: path)
        }
        try process.run()
        process.waitUntilExit()
        guard let text = try? String(contentsOf: report, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #else
        return nil
        #endif
    }

    // MARK: 1. InkML traces joined by continuation

    @Test("continued InkML traces: a chain is split at the per-stroke limit; points held stay flat in the chain's length")
    func continuationChainIsBounded() throws {
        var held: [Int] = []
        for traces in [10, 100] {
            let bytes = Array(Self.chain(traces: traces, points: 300).utf8)
            var reader = InkMLReader(source: MemoryByteSource(bytes), file: "chain.inkml", maxStrokePoints: 1_000)
            var strokes: [InkMLStroke] = []
            while let stroke = try reader.next() { strokes.append(stroke) }
            // Nothing is left out, no stroke passes the limit, and the samples stay in order.
            #expect(strokes.reduce(0) { $0 + $1.samples.count } == traces * 300)
            #expect(strokes.allSatisfy { $0.samples.count <= 1_000 })
            let times = strokes.flatMap { $0.samples.map(\.timestamp) }
            #expect(times == times.sorted())
            #expect(reader.summary.splitContinuations == strokes.count - 1)
            #expect(reader.summary.notes.contains { $0.contains("more than 1000 points in all were split") })
            held.append(reader.peakHeldPoints)
        }
        #expect(held[0] <= 1_000)
        #expect(held[1] == held[0])
    }

    @Test("continued InkML traces: convert's peak memory does not grow with the number of joined traces", .enabled(if: HostileMemoryTests.canMeasurePeak, "GNU time (/usr/bin/time, Linux) measures the peak"))
    func continuationChainMemory() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var peaks: [Int] = []
        for traces in [10, 20] {
            let input = directory.appendingPathComponent("chain\(traces).inkml")
            try Data(Self.chain(traces: traces, points: 100_000).utf8).write(to: input)
            let peak = try #require(try Self.peakKiB(["convert", input.path, "-o", directory.appendingPathComponent("out\(traces)").path],
                                                      in: directory))
            peaks.append(peak)
        }
        // Before the bound each chain was held as one stroke: 1 million points, then 2 million.
        // Now both are strokes of at most 500,000 points (convert holds the events of two
        // consecutive strokes at most: both sizes reach that).
        #expect(peaks[1] < peaks[0] + 64 * 1024, "peak KiB: \(peaks)")
    }

    // MARK: 2. Touches that begin and never end, each with a new id

    @Test("touches that never end, each with a new id: the log reader's tools and the engine's ids stay bounded; the ledger balances")
    func neverEndingTouchesAreBounded() throws {
        var heldTools: [Int] = []
        for touches in [5_000, 50_000] {
            let text = Self.openTouches(touches)
            var reader = SessionLogLineReader(file: "open.jsonl")
            for (number, line) in text.split(separator: "\n").enumerated() {
                _ = reader.take(line: Array(line.utf8), number: number + 1)
            }
            #expect(reader.firstFailure == nil)
            heldTools.append(reader.heldTools)

            let log = try #require(SessionLog.parse(text).log)
            let report = SessionReplayer().replay(log)
            #expect(report.isVerified)
            #expect(report.audit.received == touches)
            #expect(report.audit.received == report.audit.inked + report.audit.released + report.audit.cancelled + report.refusedSamples)
            #expect(report.dropped == 0)
        }
        #expect(heldTools[0] <= HeldTools.limit)
        #expect(heldTools[1] == heldTools[0])
    }

    @Test("the engine keeps no platform id of a touch it finished at its bound, once many more began")
    func engineIdentitiesAreBounded() {
        var tracked: [Int] = []
        for touches in [2_000, 20_000] {
            var engine = InkEngine(seed: 1)
            var events: [EngineEvent] = []
            for i in 0..<touches {
                let t = 1 + Double(i) * 0.01
                let sample = TouchSample(x: 100, y: 100, timestamp: t, tool: .pencil)
                engine.take(.touch(TouchEvent(touch: PlatformTouchID(UInt64(i + 1)), phase: .began, samples: [sample])), now: t, into: &events)
                events.removeAll(keepingCapacity: true)
            }
            // A late end for a touch the engine let go of long ago is refused and counted.
            engine.take(.touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [])), now: 1 + Double(touches) * 0.01, into: &events)
            #expect(events.contains { if case .refused = $0.kind { return true } else { return false } })
            tracked.append(engine.trackedTouches)
            let ledger = engine.ledger
            #expect(ledger.received == touches)
        }
        #expect(tracked[0] <= 32)
        #expect(tracked[1] == tracked[0])
    }

    @Test("the session-log writers forget tools beyond their bound and still write what reads back equal")
    func writerToolsRoundTrip() throws {
        var builder = ""
        builder += #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"# + "\n"
        let touches = HeldTools.limit + 10
        for i in 0..<touches {
            let t = 1 + Double(i) * 0.001
            builder += #"{"kind":"touch","t":\#(t),"touch":\#(i + 1),"phase":"began","tool":"pencil","samples":[{"t":\#(t),"x":1,"y":1}]}"# + "\n"
        }
        // Later events of the first touches, whose tool the writer has forgotten by now.
        for i in 0..<5 {
            let t = 10 + Double(i) * 0.001
            builder += #"{"kind":"touch","t":\#(t),"touch":\#(i + 1),"phase":"moved","samples":[{"t":\#(t),"x":2,"y":2}]}"# + "\n"
        }
        let log = try #require(SessionLog.parse(builder).log)
        let again = try #require(SessionLog.parse(log.jsonLines()).log)
        #expect(again.events == log.events)
    }

    @Test("touches that never end, each with a new id: verify and host peak memory does not grow with their number", .enabled(if: HostileMemoryTests.canMeasurePeak, "GNU time (/usr/bin/time, Linux) measures the peak"))
    func neverEndingTouchesMemory() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var verify: [Int] = [], host: [Int] = []
        for touches in [40_000, 400_000] {
            let text = Self.openTouches(touches)
            let input = directory.appendingPathComponent("open\(touches).jsonl")
            try Data(text.utf8).write(to: input)
            let peak = try #require(try Self.peakKiB(["verify", input.path], in: directory))
            let hostPeak = try #require(try Self.peakKiB(["host", "--seed", "1"], input: text, in: directory))
            verify.append(peak)
            host.append(hostPeak)
        }
        // Before the bound: about 35 bytes more per touch (400,000 touches: 12 MB more).
        #expect(verify[1] < verify[0] + 6 * 1024, "verify peak KiB: \(verify)")
        #expect(host[1] < host[0] + 6 * 1024, "host peak KiB: \(host)")
    }

    /// Host input: a page snapshot of `regions` regions on one line (about 48 bytes each:
    /// 18,000 make 864 KB), then `ticks` tick lines.
    static func longLineThenTicks(regions: Int, ticks: Int) -> String {
        var text = #"{"kind":"tick","t":0.5}"# + "\n"
        let list = (0..<regions).map { #"{"x":\#($0 % 1000).5,"y":\#($0 / 1000).25,"width":10,"height":10}"# }.joined(separator: ",")
        text += #"{"kind":"page","t":1,"message":{"type":"regions","generation":1,"maxAge":30000,"regions":["# + list + "]}}\n"
        for i in 0..<ticks { text += #"{"kind":"tick","t":\#(1 + Double(i + 1) * 0.001)}"# + "\n" }
        return text
    }

    @Test("host: memory is flat in the lines after a 900 KB line: 100,000 ticks run under a 1 GB address space, peak as after 1,000 (issue 53)", .enabled(if: HostileMemoryTests.canMeasurePeak, "GNU time (/usr/bin/time, Linux) measures the peak"))
    func longLineThenManyLines() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var peaks: [Int] = []
        for ticks in [1_000, 100_000] {
            let input = Self.longLineThenTicks(regions: 18_500, ticks: ticks)
            peaks.append(try #require(try Self.peakKiB(["host", "--seed", "1"], input: input, in: directory)))
        }
        #expect(peaks[1] < peaks[0] + 8 * 1024, "host peak KiB after 1,000 and 100,000 ticks: \(peaks)")
        // The address space: before, every line after the long one allocated a buffer of its
        // size, and the host died under a 4 GB limit after about 1,700 lines.
        let path = directory.appendingPathComponent("long-then-ticks.jsonl")
        try Data(Self.longLineThenTicks(regions: 18_500, ticks: 100_000).utf8).write(to: path)
        let limited = try CLITests.shell(#"set -o pipefail; ulimit -v 1048576; "$0" host --seed 1 | tail -1"#, stdin: path.path)
        #expect(limited.status == 0, "host under a 1 GB address space: \(limited.stderr.suffix(300))")
        #expect(limited.stdout.hasPrefix(#"{"kind":"summary""#), "\(limited.stdout.prefix(200))")
    }

    // MARK: 3. run --oracle-latency: recorded answers per platform id

    @Test("re-timed recorded answers are held only for touches the engine tracks, whatever the number of ids")
    func retimedAnswersAreBounded() throws {
        var held: [Int] = []
        for touches in [2_000, 20_000] {
            let log = try #require(SessionLog.parse(Self.answeredTouches(touches)).log)
            let report = SessionReplayer(configuration: ReplayConfiguration(oracle: .recordedWithLatency(0.03))).replay(log)
            #expect(report.isVerified)
            #expect(report.dropped == 0)
            held.append(report.peakHeldAnswerIDs)
        }
        #expect(held[0] <= 32)
        #expect(held[1] == held[0])
    }

    @Test("run --oracle-latency: peak memory does not grow with the number of touch ids", .enabled(if: HostileMemoryTests.canMeasurePeak, "GNU time (/usr/bin/time, Linux) measures the peak"))
    func retimedAnswersMemory() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var peaks: [Int] = []
        for touches in [30_000, 300_000] {
            let input = directory.appendingPathComponent("answered\(touches).jsonl")
            try Data(Self.answeredTouches(touches).utf8).write(to: input)
            let peak = try #require(try Self.peakKiB(["run", "--oracle-latency", "30", input.path], in: directory))
            peaks.append(peak)
        }
        // Before the bound: about 90 bytes more per id (300,000 ids: 24 MB more).
        #expect(peaks[1] < peaks[0] + 8 * 1024, "peak KiB: \(peaks)")
    }
}
