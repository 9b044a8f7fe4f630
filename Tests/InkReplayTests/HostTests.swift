import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing

/// `ink-replay host` end to end: real fixtures piped through the process, and a front end
/// that answers the page's questions while the process runs.
@Suite("ink-replay host")
struct HostTests {
    /// Three two-sample taps, at (10, 10), (80, 80) and (40, 40), 20 ms apart from t = 1 s.
    static let threeTaps = [
        #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
        #"{"kind":"touch","t":1.01,"touch":1,"phase":"ended","samples":[{"t":1.01,"x":10,"y":11}]}"#,
        #"{"kind":"touch","t":1.02,"touch":2,"phase":"began","samples":[{"t":1.02,"x":80,"y":80}]}"#,
        #"{"kind":"touch","t":1.03,"touch":2,"phase":"ended","samples":[{"t":1.03,"x":80,"y":81}]}"#,
        #"{"kind":"touch","t":1.04,"touch":3,"phase":"began","samples":[{"t":1.04,"x":40,"y":40}]}"#,
        #"{"kind":"touch","t":1.05,"touch":3,"phase":"ended","samples":[{"t":1.05,"x":40,"y":41}]}"#,
    ]

    /// Runs `host` with `input` on standard input; returns the output lines as objects.
    static func host(_ input: String, _ arguments: String...) throws -> [[String: Any]] { try host(input, arguments) }

    static func host(_ input: String, _ arguments: [String]) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["host"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("issue 39's reproduction through the host (the tap settled for the page by its deadline while the reused id's finger is down): release, end_release and cancel lines name a page pointer no two touches down share")
    func pagePointers() throws {
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":600,"height":600}}"#
        let lines = try Self.host([
            header,
            #"{"kind":"touch","t":1,"touch":5,"phase":"began","samples":[{"t":1,"x":150,"y":120,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.025,"touch":5,"phase":"ended","samples":[{"t":1.025,"x":150,"y":121,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.16,"touch":5,"phase":"began","samples":[{"t":1.16,"x":400,"y":400,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.16,"touch":6,"phase":"began","samples":[{"t":1.16,"x":480,"y":400,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.18,"touch":5,"phase":"moved","samples":[{"t":1.18,"x":400,"y":380,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.18,"touch":6,"phase":"moved","samples":[{"t":1.18,"x":480,"y":380,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.26,"touch":5,"phase":"moved","samples":[{"t":1.26,"x":400,"y":360,"tool":"finger"}]}"#,
            #"{"kind":"touch","t":1.27,"touch":5,"phase":"ended","samples":[{"t":1.27,"x":400,"y":350,"tool":"finger"}]}"#,
            // Past the scroll fingers' deadline (1.41): nobody answered, so no gesture (issue 52:
            // fingers make one once the page says both are on the paper); the fallback gave both
            // to the page, and the cancel reaches a page pointer.
            #"{"kind":"touch","t":1.45,"touch":6,"phase":"cancelled","samples":[]}"#,
        ].joined(separator: "\n") + "\n", "--fallback", "page")
        #expect(!lines.contains { $0["kind"] as? String == "error" }, "\(lines.filter { $0["kind"] as? String == "error" })")
        var down: [Int: Int] = [:], times: [Int: [Double]] = [:]   // page pointer → engine touch; its samples' times
        for line in lines {
            let kind = line["kind"] as? String
            guard kind == "release" || kind == "end_release" || (kind == "cancel" && line["previously"] as? String == "page") else { continue }
            let pointer = try #require(line["pointer"] as? Int, "\(line)"), engine = try #require(line["engine_touch"] as? Int)
            if kind == "release" {
                #expect(down[pointer] == nil || down[pointer] == engine, "pointer \(pointer) held by engine touch \(down[pointer]!) and \(engine)")
                down[pointer] = engine
                times[pointer, default: []] += Self.samples(line)
            } else {
                #expect(down.removeValue(forKey: pointer) == engine, "\(line)")
            }
        }
        #expect(down.isEmpty && times.values.allSatisfy { $0 == $0.sorted() } && times.values.map(\.count).sorted() == [2, 2, 4], "\(times)")
    }

    @Test("a platform id reused while its old touch still waits for the page (a dot, then id 0 again 90 ms later): both strokes kept, told apart by engine_touch")
    func reusedTouchID() throws {
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#
        let input = [
            header,
            #"{"kind":"touch","t":1,"touch":0,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
            #"{"kind":"touch","t":1.02,"touch":0,"phase":"ended","samples":[{"t":1.02,"x":10,"y":11}]}"#,
            #"{"kind":"touch","t":1.09,"touch":0,"phase":"began","samples":[{"t":1.09,"x":50,"y":50}]}"#,
            #"{"kind":"touch","t":1.1,"touch":0,"phase":"moved","samples":[{"t":1.1,"x":52,"y":50}]}"#,
            #"{"kind":"touch","t":1.12,"touch":0,"phase":"ended","samples":[{"t":1.12,"x":54,"y":50}]}"#,
            #"{"kind":"tick","t":2}"#,
        ].joined(separator: "\n") + "\n"
        let lines = try Self.host(input)
        #expect(!lines.contains { $0["kind"] as? String == "error" }, "\(lines.filter { $0["kind"] as? String == "error" })")
        let finished = lines.filter { $0["kind"] as? String == "finished" }
        #expect(finished.count == 2)
        #expect(Set(finished.compactMap { $0["engine_touch"] as? Int }).count == 2)
        #expect(finished.allSatisfy { $0["touch"] as? Int == 0 })
        #expect(finished.compactMap { $0["received"] as? Int }.sorted() == [2, 3])
        let summary = try #require(lines.last)
        #expect(summary["received"] as? Int == 5 && summary["dropped"] as? Int == 0 && summary["pending"] as? Int == 0)
        // A began for an id whose touch is still down is refused, and changes nothing.
        let twice = try Self.host([
            header,
            #"{"kind":"touch","t":1,"touch":4,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
            #"{"kind":"touch","t":1.01,"touch":4,"phase":"began","samples":[{"t":1.01,"x":50,"y":50}]}"#,
            #"{"kind":"touch","t":1.02,"touch":4,"phase":"ended","samples":[{"t":1.02,"x":11,"y":10}]}"#,
        ].joined(separator: "\n") + "\n")
        let refused = twice.filter { $0["kind"] as? String == "error" }
        #expect(refused.count == 1 && refused.first?["line"] as? Int == 3)
        // Refused samples are received and counted refused: nothing hides behind dropped 0.
        #expect(twice.last?["received"] as? Int == 3 && twice.last?["refused"] as? Int == 1 && twice.last?["dropped"] as? Int == 0)
    }

    /// A session header for a 100 x 100 canvas.
    static let smallHeader = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#

    /// The tokens and the generation a host seeded with `seed` asks the three taps' questions with.
    static func questions(seed: Int) throws -> (tokens: [String], generation: Int) {
        let first = try host(([smallHeader] + threeTaps).joined(separator: "\n") + "\n", "--cache", "off", "--seed", "\(seed)")
        let queries = first.filter { $0["kind"] as? String == "query" }
        let tokens = queries.compactMap { $0["token"] as? String }
        let generation = try #require(queries.first?["generation"] as? Int)
        try #require(tokens.count == 3)
        return (tokens, generation)
    }

    /// The page's answer (not interactive) for a round trip, as a host line at `t`.
    static func answer(_ t: Double, _ token: String, generation: Int) -> String {
        #"{"kind":"page","t":\#(t),"message":{"type":"answer","id":"\#(token)","interactive":false,"generation":\#(generation)}}"#
    }

    @Test("the summary counts what the lines showed: every ignored answer by kind, one round trip per query line, deadline decisions")
    func countersMatchLines() throws {
        let header = Self.smallHeader, touches = Self.threeTaps
        let (tokens, generation) = try Self.questions(seed: 9)
        let input = [header] + touches + [
            Self.answer(1.06, tokens[0], generation: generation),                          // answered
            Self.answer(1.07, tokens[0], generation: generation),                          // duplicate
            Self.answer(1.08, String(repeating: "0", count: 32), generation: generation),  // forged
            Self.answer(1.09, String(repeating: "ab", count: 16), generation: generation), // forged
            Self.answer(1.10, tokens[1], generation: generation + 5),                      // stale: asked again
            #"{"kind":"tick","t":2}"#,                                                // touch 3's deadline passes
            Self.answer(2.01, tokens[2], generation: generation),                          // late
        ]
        let lines = try Self.host(input.joined(separator: "\n") + "\n", "--cache", "off", "--seed", "9")
        let summary = try #require(lines.last)
        let ignored = lines.filter { $0["kind"] as? String == "ignored" }.compactMap { $0["why"] as? String }
        func ignoredCount(_ prefix: String) -> Int { ignored.filter { $0.hasPrefix(prefix) }.count }
        #expect(summary["duplicate_answers"] as? Int == 1 && ignoredCount("duplicate") == 1)
        #expect(summary["unknown_answers"] as? Int == 2 && ignoredCount("unknown") == 2)
        #expect(summary["stale_answers"] as? Int == 1 && ignoredCount("stale") == 1)
        #expect(summary["late_answers"] as? Int == 1 && ignoredCount("late") == 1)
        #expect(summary["round_trips"] as? Int == lines.filter { $0["kind"] as? String == "query" }.count)
        #expect(summary["queries"] as? Int == 3)
        let byDeadline = lines.filter { $0["kind"] as? String == "decided" && $0["reason"] as? String == "deadline" }.count
        #expect(byDeadline >= 2)   // touch 3, and touch 2 whose re-asked question nobody answered
        #expect((summary["deadlines"] as? Int ?? 0) + (summary["timeouts"] as? Int ?? 0) == byDeadline, "\(summary)")
    }

    @Test("--speculative draws tentative ink from a stale snapshot (or one the cache does not use), none when a fresh one decides or none was sent")
    func speculation() throws {
        let snapshot = #"{"kind":"page","t":0,"message":{"type":"regions","generation":1,"maxAge":100,"regions":[{"x":500,"y":500,"width":50,"height":50}]}}"#
        func run(snapshotAt time: Double?, _ arguments: String...) throws -> (speculations: Int?, inkBeforeDecision: Bool) {
            var lines = [#"{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":1,"x":10,"y":10}]}"#]
            if let time { lines.insert(snapshot.replacingOccurrences(of: #""t":0"#, with: #""t":\#(time)"#), at: 0) }
            let out = try Self.host(lines.joined(separator: "\n") + "\n", arguments)
            let kinds = out.compactMap { $0["kind"] as? String }
            let ink = kinds.firstIndex(of: "ink"), decided = kinds.firstIndex(of: "decided")
            return (out.last?["speculations"] as? Int, ink != nil && (decided == nil || ink! < decided!))
        }
        let stale = try run(snapshotAt: 0, "--speculative", "on")                      // 100 ms old snapshot, touch at 1 s
        #expect(stale.speculations == 1 && stale.inkBeforeDecision)
        let unused = try run(snapshotAt: 0.95, "--speculative", "on", "--cache", "off")
        #expect(unused.speculations == 1 && unused.inkBeforeDecision)
        let fresh = try run(snapshotAt: 0.95, "--speculative", "on")                   // the cache decides: nothing to speculate
        #expect(fresh.speculations == 0)
        let none = try run(snapshotAt: nil, "--speculative", "on")
        #expect(none.speculations == 0 && !none.inkBeforeDecision)
    }

    @Test("a tick an hour or more ahead (milliseconds sent as seconds) gets a warning line naming it")
    func absurdJump() throws {
        let input = [
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
            #"{"kind":"tick","t":5000}"#,
            #"{"kind":"tick","t":5000.5}"#,
        ].joined(separator: "\n") + "\n"
        let lines = try Self.host(input)
        let warnings = lines.filter { $0["kind"] as? String == "warning" }
        #expect(warnings.count == 1 && warnings.first?["line"] as? Int == 2)
        #expect((warnings.first?["message"] as? String)?.contains("4999 s ahead") == true, "\(warnings)")
        #expect(lines.last?["dropped"] as? Int == 0)
    }

    @Test("an over-long line is refused alone: the valid lines after it, in the same read, are handled (received 2 of 2)")
    func overLongLine() throws {
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#
        let cap = 8 << 20   // the host's line cap (SessionLogLines.maxLineBytes; 1 MiB before issue 53)
        let long = #"{"kind":"touch","pad":""# + String(repeating: "x", count: cap) + #""}"#
        let down = #"{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":1,"x":1,"y":2}]}"#
        let up = #"{"kind":"touch","t":1.01,"touch":1,"phase":"ended","samples":[{"t":1.01,"x":3,"y":4}]}"#
        let lines = try Self.host([header, long, down, up].joined(separator: "\n") + "\n")
        let errors = lines.filter { $0["kind"] as? String == "error" }
        #expect(errors.count == 1 && errors.first?["line"] as? Int == 2)
        let summary = try #require(lines.last)
        #expect(summary["received"] as? Int == 2 && summary["inked"] as? Int == 2 && summary["refused_lines"] as? Int == 1)
        // The cap is exact: a line of exactly the cap is read (and refused for what it says, not for its length).
        let exact = #"{"kind":"touch","pad":""# + String(repeating: "x", count: cap - 25) + #""}"#
        #expect(exact.utf8.count == cap)
        let atCap = try Self.host([header, exact, down, up].joined(separator: "\n") + "\n")
        let message = try #require(atCap.first { $0["kind"] as? String == "error" }?["message"] as? String)
        #expect(!message.contains("longer than"), "\(message)")
    }

    static func samples(_ line: [String: Any]) -> [Double] {
        (line["samples"] as? [[String: Any]] ?? []).compactMap { $0["t"] as? Double }
    }

    static let fixtures = ["decimal-point", "tap-button", "drag-block", "long-stroke", "two-finger-scroll", "cancelled-touch",
                           "ends-before-verdict", "never-answered", "real/myscript/1943", "real/wacom/ink",
                           "real/quickdraw-drag-blocks/quickdraw-bee-4727732971765760"]

    @Test("a fixture piped through the host: every sample out exactly once, the same ledger as the replay; recorded, it verifies identically", arguments: fixtures)
    func fixture(name: String) throws {
        let path = CLITests.fixtures + "/\(name).jsonl"
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent(name.replacingOccurrences(of: "/", with: "-") + ".jsonl").path
        let lines = try Self.host(try String(contentsOfFile: path, encoding: .utf8), "--seed", "1", "--cache", "off", "--record", recording)
        // Recorded live, the session replays identically.
        let verify = try CLITests.run("verify", recording)
        #expect(verify.status == 0 && verify.stdout.contains("identity: 1 of 1"), "\(verify.stdout)\(verify.stderr)")
        let summary = try #require(lines.last)
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["dropped"] as? Int == 0)
        #expect(summary["pending"] as? Int == 0)
        #expect(summary["refused_lines"] as? Int == 0)
        let replay = try CLITests.json(try CLITests.run("run", path, "--json").stdout)
        for key in ["inked", "released", "cancelled"] {
            #expect(summary[key] as? Int == replay[key] as? Int, "\(key)")
        }
        // Every sample of the log comes out once as ink or to the page, or is counted as
        // cancelled; per touch, in the order recorded.
        let log = try #require(SessionLog.read(contentsOf: path).log)
        var out: [Int: [Double]] = [:]
        var retracted: Set<Int> = []
        for line in lines {
            guard let touch = line["touch"] as? Int else { continue }
            switch line["kind"] as? String {
            case "ink": out[touch, default: []] += Self.samples(line)
            case "retract": retracted.insert(touch); out[touch] = []
            case "cancel": retracted.insert(touch); out[touch] = []   // counted as cancelled, shown or not
            case "release": out[touch, default: []] += Self.samples(line)
            default: break
            }
        }
        let shown = out.values.reduce(0) { $0 + $1.count }
        #expect(shown + (summary["cancelled"] as? Int ?? -1) == log.sampleCount)
        for (touch, samples) in log.samplesByTouch where out[Int(touch.rawValue)] != nil && !retracted.contains(Int(touch.rawValue)) {
            let times = out[Int(touch.rawValue)]!
            // (Foundation's JSON reader can be off in the last bit.)
            let recorded = samples.map(\.timestamp)
            #expect(times.count <= recorded.count && zip(times, recorded).allSatisfy { abs($0 - $1) < 1e-9 }, "touch \(touch)")
        }
    }

    @Test("host --record: a live session (the page answers by token: answered, duplicate, forged, stale, late; deadlines) recorded and verified identically; an edited cache setting fails naming the touch", arguments: [["--cache", "off"], ["--cache", "on", "--speculative", "on"]])
    func recordAndVerify(options: [String]) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#
        let regions = #"{"kind":"regions","t":0.5,"generation":1,"max_age":30,"regions":[{"x":70,"y":70,"width":20,"height":20,"element":"go"}]}"#
        let touches = Self.threeTaps
        let arguments = options + ["--seed", "9"]
        let first = try Self.host(([header, regions] + touches).joined(separator: "\n") + "\n", arguments)
        let queries = first.filter { $0["kind"] as? String == "query" }
        let tokens = queries.compactMap { $0["token"] as? String }
        let generation = queries.first?["generation"] as? Int ?? 1
        func answer(_ t: Double, _ token: String, generation: Int, interactive: Bool = false) -> String {
            #"{"kind":"page","t":\#(t),"message":{"type":"answer","id":"\#(token)","interactive":\#(interactive),"generation":\#(generation)}}"#
        }
        var input = [header, regions] + touches
        if tokens.count >= 3 {
            input += [answer(1.06, tokens[0], generation: generation), answer(1.07, tokens[0], generation: generation),
                      answer(1.08, String(repeating: "0", count: 32), generation: generation),
                      answer(1.10, tokens[1], generation: generation + 5, interactive: true),
                      #"{"kind":"tick","t":2}"#, answer(2.01, tokens[2], generation: generation)]
        } else {
            input += [#"{"kind":"tick","t":2}"#]
        }
        input.append(#"{"kind":"touch","t":2.5,"touch":4,"phase":"began","samples":[{"t":2.5,"x":30,"y":30}]}"#)  // still down at the end
        let recording = directory.appendingPathComponent("live.jsonl").path
        let lines = try Self.host(input.joined(separator: "\n") + "\n", arguments + ["--record", recording])
        #expect(!lines.contains { $0["kind"] as? String == "error" })
        let verify = try CLITests.run("verify", recording)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("identity: 1 of 1 live recordings replayed identically"), "\(verify.stdout)")
        // Nothing is left beside the recording: the temporary file was renamed into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["live.jsonl"])
        // The recording's header edited to the other cache setting: the chain breaks at line 2.
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        let cacheOn = options[1] == "on"
        let edited = directory.appendingPathComponent("edited.jsonl").path
        try text.replacingOccurrences(of: #""region_cache":\#(cacheOn)"#, with: #""region_cache":\#(!cacheOn)"#)
            .write(toFile: edited, atomically: true, encoding: .utf8)
        let caught = try CLITests.run("verify", edited)
        #expect(caught.status == 1)
        #expect(caught.stderr.contains("edited.jsonl:2: the chain breaks here"), "\(caught.stderr)")
        // The same edit of the recording unchained (format version 2): the replay itself is caught, naming a touch.
        let old = directory.appendingPathComponent("old.jsonl").path
        try RecordingChainCLITests.unchained(text).replacingOccurrences(of: #""region_cache":\#(cacheOn)"#, with: #""region_cache":\#(!cacheOn)"#)
            .write(toFile: old, atomically: true, encoding: .utf8)
        let diverged = try CLITests.run("verify", old)
        #expect(diverged.status == 1)
        #expect(diverged.stderr.contains("old.jsonl:") && diverged.stderr.contains("not identical to the live recording: touch "), "\(diverged.stderr)")
    }

    @Test("a live front end: the host asks, the page answers by token, the samples go where the page says")
    func liveQuestion() throws {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["host", "--cache", "off"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var buffer = Data()
        var deadlines: [Double?] = []   // the `deadline` lines, in order
        func nextLine() throws -> [String: Any] {
            while true {
                if let end = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<end]
                    buffer.removeSubrange(buffer.startIndex...end)
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
                    if object["kind"] as? String == "deadline" {
                        deadlines.append(object["at"] as? Double)
                        continue
                    }
                    return object
                }
                let chunk = stdout.fileHandleForReading.availableData
                try #require(!chunk.isEmpty, "the host closed its output")
                buffer.append(chunk)
            }
        }
        func send(_ line: String) { stdin.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        send(#"{"kind":"touch","t":1.0,"touch":7,"phase":"began","tool":"finger","samples":[{"t":1.0,"x":10,"y":20}]}"#)
        let query = try nextLine()
        #expect(query["kind"] as? String == "query")
        #expect(query["touches"] as? [Int] == [7])
        let token = try #require(query["token"] as? String)
        #expect(token.count == 32)
        send(#"{"kind":"touch","t":1.016,"touch":7,"phase":"moved","samples":[{"t":1.016,"x":12,"y":22}]}"#)
        // A forged answer is ignored and changes nothing.
        send(#"{"kind":"page","t":1.02,"message":{"type":"answer","id":"00000000000000000000000000000000","interactive":true,"generation":1}}"#)
        let forged = try nextLine()
        #expect(forged["kind"] as? String == "ignored")
        #expect(forged["why"] as? String == "unknown query id (forged or garbled)")
        let generation = try #require(query["generation"] as? Int)
        send(#"{"kind":"page","t":1.03,"message":{"type":"answer","id":"\#(token)","interactive":true,"generation":\#(generation)}}"#)
        let decided = try nextLine()
        #expect(decided["kind"] as? String == "decided")
        #expect(decided["owner"] as? String == "page")
        #expect(decided["reason"] as? String == "answered")
        let released = try nextLine()
        #expect(released["kind"] as? String == "release")
        #expect(Self.samples(released) == [1.0, 1.016])
        // The host said when to tick: at the touch's time plus the 250 ms deadline, then nothing.
        #expect(deadlines.count == 1 && abs((deadlines[0] ?? 0) - 1.25) < 1e-9, "\(deadlines)")
        send(#"{"kind":"touch","t":1.05,"touch":7,"phase":"ended","samples":[{"t":1.05,"x":13,"y":23}]}"#)
        #expect(Self.samples(try nextLine()) == [1.05])
        #expect(try nextLine()["kind"] as? String == "end_release")
        #expect(try nextLine()["kind"] as? String == "finished")
        try stdin.fileHandleForWriting.close()
        defer { #expect(deadlines.count == 2 && deadlines[1] == nil, "\(deadlines)") }
        let summary = try nextLine()
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["released"] as? Int == 3)
        #expect(summary["dropped"] as? Int == 0)
        process.waitUntilExit()
    }

    @Test("at one instant the deadline fires before the page's answer, as in the replay and the live session")
    func tieBreak() throws {
        let input = """
            {"kind":"touch","t":1,"touch":7,"phase":"began","tool":"pencil","samples":[{"t":1,"x":5,"y":5}]}
            {"kind":"answer","t":1.25,"touch":7,"verdict":"page"}
            {"kind":"touch","t":1.3,"touch":7,"phase":"ended","samples":[]}
            """
        let lines = try Self.host(input, "--cache", "off")
        let decided = try #require(lines.first { $0["kind"] as? String == "decided" })
        #expect(decided["owner"] as? String == "ink" && decided["reason"] as? String == "deadline")
        #expect(decided["t"] as? Double == 1.25)
        let summary = try #require(lines.last)
        #expect(summary["deadlines"] as? Int == 1 && summary["late_answers"] as? Int == 1 && summary["audit_problems"] as? Int == 0)
    }

    @Test("a touch id that begins again while down: host and verify refuse it with the same sentence")
    func beganTwiceOneRule() throws {
        let events = """
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"touch","t":1.01,"touch":1,"phase":"began","samples":[{"t":1.01,"x":50,"y":50}]}
            {"kind":"touch","t":1.02,"touch":1,"phase":"ended","samples":[{"t":1.02,"x":2,"y":2}]}
            """
        let sentence = "touch 1: began while a touch with this id is down (end or cancel it first)"
        let lines = try Self.host(events, "--cache", "off")
        let error = try #require(lines.first { $0["kind"] as? String == "error" })
        #expect(error["line"] as? Int == 2 && error["message"] as? String == sentence)
        let directory = try CLITests.temporaryDirectory()
        let log = directory.appendingPathComponent("twice.jsonl")
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#
        try (header + "\n" + events + "\n").write(to: log, atomically: true, encoding: .utf8)
        let verify = try CLITests.run("verify", log.path)
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("twice.jsonl:3: \(sentence)"), "\(verify.stderr)")
    }

    @Test("bad lines are refused with their line number and change nothing; the deadline still decides")
    func badLines() throws {
        let input = """
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":5,"y":5}]}
            {"kind":"touch","t":0.5,"touch":1,"phase":"moved","samples":[{"t":0.5,"x":6,"y":6}]}
            {"kind":"touch","t":1.1,"touch":9,"phase":"moved","samples":[{"t":1.1,"x":6,"y":6}]}
            not json
            {"kind":"page","t":1.2,"message":{"type":"answer","id":"xyz","interactive":true,"generation":1}}
            {"kind":"touch","t":1.3,"touch":1,"phase":"ended","samples":[]}
            {"kind":"tick","t":2}
            """
        let lines = try Self.host(input, "--cache", "off")
        let errors = lines.filter { $0["kind"] as? String == "error" }
        #expect(errors.compactMap { $0["line"] as? Int } == [2, 3, 4, 5])
        #expect((errors[0]["message"] as? String)?.contains("time went backwards") == true)
        #expect((errors[1]["message"] as? String)?.contains("touch 9") == true)
        #expect((errors[3]["message"] as? String)?.contains("page message refused") == true)
        let decided = try #require(lines.first { $0["kind"] as? String == "decided" })
        #expect(decided["reason"] as? String == "deadline")
        let summary = try #require(lines.last)
        #expect(summary["inked"] as? Int == 1)
        #expect(summary["refused_lines"] as? Int == 4)
        // Line 2 goes back in time: the host refuses it before the loop (whose clock never
        // goes back) sees it, so its sample is not received. Line 3 reaches the engine, which
        // refuses it: received and refused.
        #expect(summary["received"] as? Int == 2 && summary["refused"] as? Int == 1 && summary["refused_inputs"] as? Int == 1, "\(summary)")
    }

    @Test("a touch nobody answers: its deadline passes only because the next line is later (no tick line); it is decided at the deadline's own time, a touch still down at the end is cancelled, and the --record recording verifies identically")
    func deadlineBetweenLines() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("between.jsonl").path
        let input = [
            #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#,
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
            #"{"kind":"touch","t":1.1,"touch":1,"phase":"moved","samples":[{"t":1.1,"x":12,"y":10}]}"#,
            // 1.25 s, touch 1's deadline, passes between these two lines.
            #"{"kind":"touch","t":2,"touch":2,"phase":"began","samples":[{"t":2,"x":50,"y":50}]}"#,
            #"{"kind":"touch","t":2.05,"touch":1,"phase":"ended","samples":[{"t":2.05,"x":14,"y":10}]}"#,
        ].joined(separator: "\n") + "\n"
        let lines = try Self.host(input, "--cache", "off", "--seed", "3", "--record", recording)
        #expect(!lines.contains { $0["kind"] as? String == "error" || $0["kind"] as? String == "tick" })
        let kinds = lines.compactMap { $0["kind"] as? String }
        // The loop's wake-up was announced, and fired before touch 2's line was taken.
        let deadlines = lines.filter { $0["kind"] as? String == "deadline" }.map { $0["at"] as? Double }
        #expect(deadlines.first == 1.25, "\(deadlines)")
        let decided = try #require(lines.firstIndex { $0["kind"] as? String == "decided" && $0["touch"] as? Int == 1 })
        #expect(lines[decided]["reason"] as? String == "deadline" && lines[decided]["owner"] as? String == "ink")
        #expect(lines[decided]["t"] as? Double == 1.25, "\(lines[decided])")   // the deadline's time, not the next line's
        let secondQuery = try #require(lines.firstIndex { $0["kind"] as? String == "query" && $0["touches"] as? [Int] == [2] })
        #expect(decided < secondQuery)
        #expect(Self.samples(lines[decided + 1]) == [1, 1.1] && lines[decided + 1]["kind"] as? String == "ink")
        // Touch 2 is still down (and undecided) at the end of the input: cancelled.
        let cancel = try #require(lines.first { $0["kind"] as? String == "cancel" })
        #expect(cancel["touch"] as? Int == 2 && cancel["previously"] as? String == "undecided")
        #expect(kinds.suffix(2) == ["deadline", "summary"] && deadlines.last == .some(nil), "\(kinds)")
        let summary = try #require(lines.last)
        #expect(summary["deadlines"] as? Int == 1 && summary["inked"] as? Int == 3 && summary["cancelled"] as? Int == 1
                && summary["pending"] as? Int == 0 && summary["verified"] as? Bool == true, "\(summary)")
        // The recording holds no tick: the replay fires the deadline from the times alone.
        let verify = try CLITests.run("verify", recording)
        #expect(verify.status == 0 && verify.stdout.contains("identity: 1 of 1 live recordings replayed identically"),
                "\(verify.stdout)\(verify.stderr)")
        let recorded = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(!recorded.contains(#""kind":"tick""#))
        #expect(recorded.contains(#""reason":"deadline""#), "\(recorded)")
    }

    @Test("the summary counts every refusal with its reason: refused snapshots, malformed messages, forged, duplicate, stale and late answers, refused inputs; the audit's verdict names the refusals, its health stays clean")
    func summaryNamesRefusals() throws {
        let header = Self.smallHeader, taps = Self.threeTaps
        let (tokens, generation) = try Self.questions(seed: 5)
        let input = [header] + taps + [
            #"{"kind":"page","t":1.055,"message":{"type":"regions","generation":0,"maxAge":100,"regions":[]}}"#,   // an older generation
            #"{"kind":"page","t":1.056,"message":"{\"type\":\"answer\""}"#,                                        // malformed
            Self.answer(1.06, tokens[0], generation: generation),
            Self.answer(1.07, tokens[0], generation: generation),                           // duplicate
            Self.answer(1.08, String(repeating: "0", count: 32), generation: generation),   // forged
            Self.answer(1.09, tokens[1], generation: generation + 5),                       // stale: asked again
            #"{"kind":"touch","t":1.5,"touch":9,"phase":"moved","samples":[{"t":1.5,"x":6,"y":6}]}"#,               // no such touch
            Self.answer(2, tokens[2], generation: generation),                              // late: its deadline passed
        ]
        let lines = try Self.host(input.joined(separator: "\n") + "\n", "--cache", "off", "--seed", "5")
        let summary = try #require(lines.last)
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["snapshots_refused"] as? Int == 1 && summary["refused_messages"] as? Int == 1, "\(summary)")
        #expect(summary["duplicate_answers"] as? Int == 1 && summary["unknown_answers"] as? Int == 1, "\(summary)")
        #expect(summary["stale_answers"] as? Int == 1 && summary["late_answers"] as? Int == 1, "\(summary)")
        #expect(summary["refused_inputs"] as? Int == 1 && summary["refused"] as? Int == 1, "\(summary)")
        let refusals = try #require(summary["refusals"] as? [String])
        func named(_ prefix: String) -> Int { refusals.filter { $0.hasPrefix(prefix) }.count }
        #expect(named("region snapshot refused: ") == 1 && refusals.contains { $0.contains("older than the current") }, "\(refusals)")
        #expect(named("page message refused: ") == 1, "\(refusals)")
        #expect(named("page answer refused: a second answer") == 1 && named("page answer refused: an id the bridge never issued") == 1)
        #expect(named("page answer refused: computed for another layout") == 1 && named("page answer refused: late") == 1)
        #expect(refusals.contains { $0.contains("touch 9") }, "\(refusals)")
        #expect(refusals.count == 7, "\(refusals)")
        // Refusals are not failures of the live audit; the verdict on the finished session names them.
        #expect(summary["audit_failures"] as? [String] == [] && summary["audit_problems"] as? Int == 0)
        #expect(summary["verified"] as? Bool == false)
        let verdict = try #require(summary["verdict"] as? [String])
        #expect(verdict == ["1 inputs refused (1 samples)"], "\(verdict)")
        // A clean session is verified, with nothing refused.
        let clean = try #require(try Self.host(([header] + taps).joined(separator: "\n") + "\n", "--cache", "off").last)
        #expect(clean["verified"] as? Bool == true && clean["verdict"] as? [String] == [] && clean["refusals"] as? [String] == [])
    }

    @Test("--geometry writes each changed stroke's stable part once and its volatile tail")
    func geometry() throws {
        let path = CLITests.fixtures + "/long-stroke.jsonl"
        let lines = try Self.host(try String(contentsOfFile: path, encoding: .utf8), "--geometry", "--seed", "1")
        let strokes = lines.filter { $0["kind"] as? String == "stroke" }
        #expect(!strokes.isEmpty)
        var kept = 0
        for stroke in strokes {
            let keep = try #require(stroke["keep_stable"] as? Int)
            #expect(keep <= kept)
            kept = try #require(stroke["stable_segments"] as? Int)
        }
        let last = try #require(strokes.last)
        #expect((last["volatile"] as? String) == "")
        #expect(kept > 100)
    }

    @Test("an empty input ends in a clean summary (it was refused as time going backwards from -inf to -inf); a standard input that cannot be read is an error line and exit 1, not a trap")
    func emptyAndUnreadableInput() throws {
        let empty = try CLITests.shell(#""$0" host"#, stdin: "/dev/null")
        #expect(empty.status == 0 && !empty.stdout.contains("\"kind\":\"error\""), "\(empty.stdout)")
        #expect(empty.stdout.contains("\"refused_inputs\":0") && empty.stdout.contains("\"verified\":true"), "\(empty.stdout)")
        let directory = FileManager.default.temporaryDirectory.path
        let unreadable = try CLITests.shell(#""$0" host"#, stdin: directory)
        #expect(unreadable.status == 1, "\(unreadable.status) \(unreadable.stderr)")
        #expect(unreadable.stdout.contains("standard input: cannot read (Is a directory)"), "\(unreadable.stdout)")
        #expect(unreadable.stdout.contains("\"kind\":\"summary\""), "\(unreadable.stdout)")
    }
}
