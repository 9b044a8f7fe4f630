import Foundation
import Testing

/// Finite but absurd numbers (issue: render and host --geometry died with SIGILL on any
/// coordinate of about 1e17; export wrote `inf` for huge times).
@Suite("ink-replay with huge finite numbers: no crash, no inf, a clean answer")
struct HugeValueTests {
    /// A session whose canvas, regions and samples all sit at `value`.
    static func session(_ value: Double, time: Double = 1) throws -> URL {
        func n(_ x: Double) -> String { "\(x)" }
        let lines = [
            #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":\#(n(value)),"height":\#(n(value))}}"#,
            #"{"kind":"regions","t":0,"generation":1,"max_age":30,"regions":[{"x":0,"y":0,"width":\#(n(value)),"height":\#(n(value)),"element":"big"},{"x":\#(n(value)),"y":\#(n(value)),"width":\#(n(value)),"height":\#(n(value)),"element":"far"}]}"#,
            #"{"kind":"touch","t":\#(n(time)),"touch":1,"phase":"began","tool":"pencil","samples":[{"t":\#(n(time)),"x":\#(n(value)),"y":\#(n(-value))}]}"#,
            #"{"kind":"touch","t":\#(n(time * 1.5)),"touch":1,"phase":"moved","samples":[{"t":\#(n(time * 1.5)),"x":\#(n(-value)),"y":\#(n(value))}]}"#,
            #"{"kind":"touch","t":\#(n(time * 2)),"touch":1,"phase":"ended","samples":[{"t":\#(n(time * 2)),"x":\#(n(value / 3)),"y":\#(n(value / 7))}]}"#,
        ]
        let file = try CLITests.temporaryDirectory().appendingPathComponent("huge.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("render, run, verify and host --geometry take coordinates and sizes of 1e17 up to the largest Double",
          arguments: [1e17, 1e19, 1e300, Double.greatestFiniteMagnitude])
    func coordinates(value: Double) throws {
        let log = try Self.session(value)
        let svg = log.deletingLastPathComponent().appendingPathComponent("huge.svg")
        let render = try CLITests.run("render", log.path, "-o", svg.path)
        #expect(render.status == 0, "\(render.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.hasSuffix("</svg>\n") && !text.contains("inf") && !text.contains("nan"))
        #expect(try CLITests.run("verify", log.path).status == 0)
        #expect(try CLITests.run("run", log.path).status == 0)
        let host = Process()
        host.executableURL = CLITests.binary
        host.arguments = ["host", "--geometry"]
        host.standardInput = try FileHandle(forReadingFrom: log)
        let out = Pipe()
        host.standardOutput = out
        try host.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        host.waitUntilExit()
        #expect(host.terminationStatus == 0)
        #expect(lines.contains { $0.contains(#""stroke""#) })
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
    }

    @Test("export writes no inf for times whose milliseconds overflow: the T channel is in seconds, and convert reads it or says why not")
    func hugeTimes() throws {
        let log = try Self.session(10, time: 1e306)
        let inkml = log.deletingLastPathComponent().appendingPathComponent("huge.inkml")
        let export = try CLITests.run("export", log.path, "-o", inkml.path, "--all-touches")
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOf: inkml, encoding: .utf8)
        #expect(!text.contains("inf") && text.contains(#"<channel name="T" type="decimal" units="s"/>"#))
        let convert = try CLITests.run("convert", inkml.path, "-o", log.deletingLastPathComponent().appendingPathComponent("back").path)
        #expect(!convert.stderr.contains("not a number") && !convert.stderr.contains("inf"), "\(convert.stderr)")
    }

    // MARK: Issue 29, class 1: times converted to integers trapped

    /// A valid-looking log whose `began` line at `time` carries its sample at `sampleTime`:
    /// a first-ink latency of `time - sampleTime`.
    static func lateInk(time: Double, sampleTime: Double = 0) throws -> URL {
        let lines = [
            #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#,
            #"{"kind":"touch","t":\#(time),"touch":1,"phase":"began","tool":"pencil","samples":[{"t":\#(sampleTime),"x":10,"y":10}]}"#,
            #"{"kind":"touch","t":\#(time),"touch":1,"phase":"ended","samples":[{"t":\#(time),"x":12,"y":10}]}"#,
        ]
        let file = try CLITests.temporaryDirectory().appendingPathComponent("late.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("a first-ink latency beyond an Int64 of microseconds (began at 1e13 with its sample at 0, 1e300, max - -max = infinity): verify, run, render, timeline and export finish; the latency is reported saturated",
          arguments: [(1e13, 0.0), (1e300, 0), (Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude)])
    func latencyBeyondInt64(time: Double, sampleTime: Double) throws {
        let log = try Self.lateInk(time: time, sampleTime: sampleTime)
        let directory = log.deletingLastPathComponent()
        let verify = try CLITests.run("verify", log.path)
        #expect(verify.status == 0, "\(verify.status) \(verify.stderr)")   // it used to die with 132 (SIGILL)
        let run = try CLITests.run("run", log.path)
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        // Int64.max microseconds: 9.2e15 ms, the largest latency counted (about 292,000 years).
        #expect(run.stdout.contains("first-ink latency: p50 9.223372036854776e+15 ms"), "\(run.stdout)")
        #expect(!run.stdout.contains("inf") && !run.stdout.contains("nan"))
        let json = try CLITests.run("run", log.path, "--json")
        #expect(json.status == 0, "\(json.stderr)")
        for line in json.stdout.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
            #expect(!line.contains("null"), "\(line)")
        }
        for (command, output) in [("render", "late.svg"), ("timeline", "late-timeline.svg"), ("export", "late.inkml")] {
            let result = try CLITests.run(command, log.path, "-o", directory.appendingPathComponent(output).path)
            #expect(result.status == 0, "\(command): \(result.status) \(result.stderr)")
        }
    }

    @Test("host: a tick at 1e13 (the jump it warns of and takes), then a touch whose sample is at 1: the summary still comes at the end of input (touch 1, still down, is cancelled there)",
          arguments: [1e13, 1e300])
    func hostLatencyBeyondInt64(time: Double) throws {
        let input = [
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
            #"{"kind":"tick","t":\#(time)}"#,
            #"{"kind":"touch","t":\#(time),"touch":2,"phase":"began","tool":"pencil","samples":[{"t":1,"x":20,"y":10}]}"#,
            #"{"kind":"touch","t":\#(time),"touch":2,"phase":"ended","samples":[{"t":\#(time),"x":22,"y":10}]}"#,
        ].joined(separator: "\n") + "\n"
        let lines = try HostTests.host(input)   // expects exit 0
        #expect(lines.contains { $0["kind"] as? String == "warning" && $0["line"] as? Int == 2 })
        let summary = try #require(lines.last)
        #expect(summary["kind"] as? String == "summary", "\(summary)")
        #expect(summary["received"] as? Int == 3 && summary["inked"] as? Int == 2 && summary["cancelled"] as? Int == 1
                    && summary["dropped"] as? Int == 0, "\(summary)")
    }

    @Test("a region snapshot spanning more than the largest Double (regions at -1e308 and 1e308): verify and host take it")
    func regionsBeyondTheLargestDouble() throws {
        let lines = [
            #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#,
            #"{"kind":"regions","t":0,"generation":1,"max_age":30,"regions":[{"x":-1e308,"y":0,"width":10,"height":10,"element":"a"},{"x":1e308,"y":0,"width":10,"height":10,"element":"b"},{"x":0,"y":0,"width":10,"height":10,"element":"c"}]}"#,
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"finger","samples":[{"t":1,"x":5,"y":5}]}"#,
            #"{"kind":"touch","t":1.1,"touch":1,"phase":"ended","samples":[{"t":1.1,"x":5,"y":5}]}"#,
        ].joined(separator: "\n") + "\n"
        let file = try CLITests.temporaryDirectory().appendingPathComponent("wide.jsonl")
        try lines.write(to: file, atomically: true, encoding: .utf8)
        let verify = try CLITests.run("verify", file.path)
        #expect(verify.status == 0, "\(verify.status) \(verify.stderr)")   // it used to die in RegionIndex with Int(NaN)
        let host = try HostTests.host(lines)
        #expect(host.last?["kind"] as? String == "summary" && host.last?["received"] as? Int == 2)
    }

    @Test("run and timeline --oracle chromium refuse a canvas too large for a browser viewport (Int(1e300) stopped them), before starting a browser",
          arguments: [1e300, 2e7])
    func browserCanvas(value: Double) throws {
        let log = try Self.session(value)
        let page = CLITests.fixtures + "/../pages/blocks.html"
        for arguments in [["run", log.path, "--oracle", "chromium:" + page],
                          ["timeline", log.path, "-o", log.deletingLastPathComponent().appendingPathComponent("t.svg").path, "--oracle", "chromium:" + page]] {
            let result = try CLITests.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("huge.jsonl: line 1: the canvas") && result.stderr.contains("too large for a browser viewport"),
                    "\(result.stderr)")
        }
    }
}
