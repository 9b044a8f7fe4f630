import Foundation
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing
@testable import ink_replay

/// The progress reporter driven by a manual clock, its text captured: no sleeping.
@Suite("progress on standard error")
struct JobProgressTests {
    /// A clock the test moves by hand, and everything the reporter wrote.
    final class Harness {
        var now = 0.0
        var written: [String] = []

        func progress(_ style: JobProgress.Style, unit: String = "sessions", total: Double? = 10, byteTotal: Int? = nil,
                      width: Int = 100) -> JobProgress {
            JobProgress(title: "verify", unit: unit, total: total, byteTotal: byteTotal, style: style, interval: 0.25, width: width,
                     clock: { [unowned self] in self.now }, sink: { [unowned self] in self.written.append($0) })
        }
    }

    @Test("many updates within one tick of the clock give one line; the next comes an interval later")
    func throttling() {
        let h = Harness()
        let progress = h.progress(.lines, total: 100_000, byteTotal: nil)
        h.now = 0.1
        for _ in 0..<1_000 { progress.advance() }
        #expect(h.written.isEmpty, "nothing before the first interval")
        h.now = 0.3
        for _ in 0..<1_000 { progress.advance() }
        #expect(h.written.count == 1)
        h.now = 0.5   // 0.2 s after the last line: not yet
        for _ in 0..<1_000 { progress.advance(bytes: 100) }
        #expect(h.written.count == 1)
        h.now = 0.56
        progress.advance()
        #expect(h.written.count == 2)
        #expect(h.written[0].hasPrefix("verify: 1001 of 100000 sessions"))
    }

    @Test("rate and time left: bytes when their total is known, else items")
    func arithmetic() {
        let h = Harness()
        let bytes = h.progress(.lines, total: 4, byteTotal: 100_000_000)
        h.now = 2
        bytes.advance(bytes: 25_000_000)
        #expect(bytes.rate(now: 2) == 12_500_000)
        #expect(bytes.secondsLeft(now: 2) == 6)
        #expect(h.written.last == "verify: 0 of 4 sessions, 25.0 of 100.0 MB, 12.5 MB/s, 6.0 s left\n")

        let items = h.progress(.lines, total: 10)   // starts at t = 2
        h.now = 4
        items.advance(by: 4)
        #expect(items.rate(now: 4) == 2)
        #expect(items.secondsLeft(now: 4) == 3)
        #expect(h.written.last == "verify: 4 of 10 sessions, 2.00 sessions/s, 3.0 s left\n")
        #expect(items.line(now: 62) == "verify: 4 of 10 sessions, 0.07 sessions/s, 1 min 30 s left")
    }

    @Test("the rate is measured over the last few seconds: a job that slows down is estimated at its new pace")
    func recentRate() {
        let h = Harness()
        let progress = h.progress(.lines, total: nil, byteTotal: 100_000_000)   // window 5 s
        for second in 1...10 {   // 10 MB/s for 5 s, then 1 MB/s
            h.now = Double(second)
            progress.advance(bytes: second <= 5 ? 10_000_000 : 1_000_000)
        }
        #expect(h.written.count == 10)
        #expect(progress.rate(now: 10) == 1_000_000)   // since the line at 5 s
        #expect(progress.secondsLeft(now: 10) == 45)
        #expect(h.written.last == "verify: 0 sessions, 55.0 of 100.0 MB, 1.0 MB/s, 45 s left\n")
        #expect(progress.rate(now: 10, overall: true) == 5_500_000)
        progress.finish()
        #expect(h.written.last == "verify: 0 sessions, 55.0 of 100.0 MB, 5.5 MB/s, done in 10 s\n")
    }

    @Test("an unknown total: a count and a rate, no time left")
    func unknownTotal() {
        let h = Harness()
        let progress = h.progress(.lines, total: nil)
        h.now = 1
        progress.advance(by: 5)
        #expect(progress.secondsLeft(now: 1) == nil)
        #expect(h.written == ["verify: 5 sessions, 5.00 sessions/s\n"])
        // Nothing done yet: no rate, no estimate.
        let idle = h.progress(.lines, total: 10)
        #expect(idle.rate(now: 5) == nil && idle.secondsLeft(now: 5) == nil)
        #expect(idle.line(now: 5) == "verify: 0 of 10 sessions")
    }

    @Test("terminal: one line redrawn in place, cleared to its end, a newline only at the finish")
    func terminalFormat() {
        let h = Harness()
        let progress = h.progress(.terminal, total: 3)
        progress.set(detail: "a.jsonl")
        h.now = 0.3
        progress.advance()
        h.now = 0.6
        progress.advance()
        #expect(h.written == ["\rverify: 1 of 3 sessions, 3.33 sessions/s, 0.6 s left, a.jsonl\u{1B}[K",
                              "\rverify: 2 of 3 sessions, 3.33 sessions/s, 0.3 s left, a.jsonl\u{1B}[K"])
        #expect(progress.lineShown)
        progress.clear()
        #expect(h.written.last == "\r\u{1B}[K")
        #expect(!progress.lineShown)
        h.now = 1
        progress.advance()
        progress.finish()
        progress.finish()   // once only
        #expect(h.written.last == "\rverify: 3 of 3 sessions, 3.00 sessions/s, done in 1.0 s\u{1B}[K\n")
        #expect(h.written.filter { $0.contains("\n") }.count == 1)
        progress.advance()
        #expect(h.written.count == 5, "nothing after the finish")
    }

    @Test("lines: complete lines without \\r, throttled the same way, a last line at the finish")
    func lineFormat() {
        let h = Harness()
        let progress = h.progress(.lines, total: 3)
        h.now = 0.3
        progress.advance()
        progress.advance()
        h.now = 0.4
        progress.finish()
        #expect(h.written == ["verify: 1 of 3 sessions, 3.33 sessions/s, 0.6 s left\n",
                              "verify: 2 of 3 sessions, 5.00 sessions/s, done in 0.4 s\n"])
        #expect(!h.written.joined().contains("\r"))
    }

    @Test("a job that ends within the first interval shows nothing on a terminal")
    func shortJob() {
        let h = Harness()
        let progress = h.progress(.terminal, total: 3)
        h.now = 0.2
        for _ in 0..<3 { progress.advance() }
        progress.finish()
        #expect(h.written.isEmpty)
    }

    @Test("a terminal line is cut to the width")
    func width() {
        let h = Harness()
        let progress = h.progress(.terminal, total: 3, width: 20)
        h.now = 1
        progress.advance()
        #expect(h.written == ["\rverify: 1 of 3 sess…\u{1B}[K"])
    }

    @Test("on by default on a terminal without --json; --progress forces it, --no-progress stops it")
    func whenShown() throws {
        #expect(JobProgress.style(forced: nil, json: false, terminal: true) == .terminal)
        #expect(JobProgress.style(forced: nil, json: true, terminal: true) == nil)
        #expect(JobProgress.style(forced: nil, json: false, terminal: false) == nil)
        #expect(JobProgress.style(forced: true, json: true, terminal: false) == .lines)
        #expect(JobProgress.style(forced: true, json: false, terminal: true) == .terminal)
        #expect(JobProgress.style(forced: false, json: false, terminal: true) == nil)
        #expect(JobProgress.style(forced: false, json: true, terminal: false) == nil)
        let table = OptionTable(JobProgress.options(json: false), rules: [JobProgress.rule])
        #expect(try JobProgress.forced(ArgumentList(["--no-progress"], table: table)) == false)
        #expect(try JobProgress.forced(ArgumentList(["--progress"], table: table)) == true)
        #expect(try JobProgress.forced(ArgumentList([], table: table)) == nil)
        #expect(throws: UsageError.self) { try ArgumentList(["--progress", "--no-progress"], table: table) }
    }

    @Test("durations")
    func durations() {
        #expect(JobProgress.duration(0.04) == "0.0 s")
        #expect(JobProgress.duration(9.94) == "9.9 s")
        #expect(JobProgress.duration(42.4) == "42 s")
        #expect(JobProgress.duration(185) == "3 min 05 s")
        #expect(JobProgress.duration(7_380) == "2 h 03 min")
        #expect(JobProgress.duration(.infinity) == "?")
        // An estimate beyond an Int of seconds (a rate near zero) saturates instead of trapping.
        #expect(JobProgress.duration(1e300) == "\(Int.max / 3_600) h \(Int.max % 3_600 / 60) min")
    }

    @Test("the byte counts a session log's reader reports add up to the file's size")
    func sessionLogBytes() throws {
        let file = CLITests.fixtures + "/decimal-point.jsonl"
        var counted = 0
        var events = SessionLogEvents(contentsOf: file, onRead: { counted += $0 })
        while events.next() != nil {}
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(counted == size)
        #expect(JobProgress.totalSize([file, file + ".missing", file]) == 2 * size)
        var stats = 0
        _ = SessionLog.read(contentsOf: file, onRead: { stats += $0 })
        #expect(stats == size)
    }

    @Test("the soak reports its simulated time, rising to its duration")
    func soakTime() {
        var soak = SoakRun(configuration: SoakConfiguration(duration: 600, seed: 3, checkpointInterval: 300))
        var times: [Double] = []
        _ = soak.run(progress: { times.append($0) })
        #expect(times.count > 10)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times.last == 600)
    }

    // MARK: The tool

    /// The last line written (earlier ones come only when the job took longer than an interval).
    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test("standard output is byte-identical with and without --progress (run --json, verify, stats --json)",
          arguments: [["run", "--json"], ["verify"], ["verify", "--json"], ["stats", "--json"]])
    func standardOutputUnchanged(command: [String]) throws {
        let plain = try CLITests.run(command + [CLITests.fixtures])
        let off = try CLITests.run(command + [CLITests.fixtures, "--no-progress"])
        let on = try CLITests.run(command + [CLITests.fixtures, "--progress"])
        #expect(plain.status == 0 && on.status == 0 && off.status == 0)
        #expect(!plain.stdout.isEmpty)
        #expect(on.stdout == plain.stdout)
        #expect(off.stdout == plain.stdout)
        // Progress went to standard error, as complete lines (not a terminal), ending with the total.
        #expect(plain.stderr.isEmpty && off.stderr.isEmpty)
        let sessions = try SessionFiles.expand([CLITests.fixtures]).count
        let last = try #require(on.stderr.split(separator: "\n").last)
        #expect(last.hasPrefix("\(command[0]): \(sessions) of \(sessions) sessions, "))
        #expect(last.contains(" done in "))
        #expect(!on.stderr.contains("\r") && !on.stderr.contains("\u{1B}"))
    }

    @Test("convert, soak and bench report to standard error when forced; --progress with --no-progress is a usage error")
    func otherCommands() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // About 0.4 MB of InkML: 1,000 traces of 40 points, in time order.
        let traces = (0..<1_000).map { trace in
            (0..<40).map { point in "\(100 + point) \(200 + trace % 50) \(trace * 1_000 + point * 4)" }.joined(separator: ", ")
        }
        let inkml = directory.appendingPathComponent("big.inkml").path
        try InkMLOrderTests.inkml(traces).write(toFile: inkml, atomically: true, encoding: .utf8)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: inkml)[.size] as? Int)
        #expect(size > 300_000)
        let convert = try CLITests.run("convert", inkml, "-o", directory.appendingPathComponent("out").path, "--progress")
        #expect(convert.status == 0)
        #expect(convert.stdout.hasPrefix("wrote 1 session logs (1000 strokes, 40000 samples)"))
        let megabytes = JobProgress.megabytes(2 * size)   // InkML is read twice
        #expect(megabytes != "0.0")
        #expect(Self.lastLine(convert.stderr).hasPrefix("convert: 1 of 1 files, \(megabytes) of \(megabytes) MB, "))
        let soak = try CLITests.run("soak", "--hours", "0.05", "--checkpoint", "1", "--progress")
        #expect(soak.status == 0)
        #expect(Self.lastLine(soak.stderr).hasPrefix("soak: 0.05 of 0.05 simulated hours, "))
        #expect(soak.stdout.hasSuffix("soak: PASS\n"))
        let bench = try CLITests.run("bench", "--strokes", "20", "--latencies", "0,30", "--progress", "--json")
        #expect(bench.status == 0)
        #expect(Self.lastLine(bench.stderr).hasPrefix("bench: 8 of 8 rows, "))
        #expect(bench.stdout.split(separator: "\n").count == 8)
        for command in ["run", "verify", "stats", "convert", "soak", "bench"] {
            let both = try CLITests.run(command, CLITests.fixtures, "--progress", "--no-progress")
            #expect(both.status == 64, "\(command)")
            #expect(both.stderr.contains("'--progress' cannot be given with '--no-progress'"), "\(command)")
            #expect(try CLITests.run("help", command).stdout.contains("--no-progress"), "\(command)")
        }
    }
}
