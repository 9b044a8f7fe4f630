import Foundation
import Testing
@_spi(Tooling) @_spi(FrontEnd) import InkCore
@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge

/// Issue 53, cases 5 to 8, through the built binary: a recording's header cannot switch its
/// own checks off, no option turns a check off in silence, a refused line is never counted
/// identical, and the small ones (blank lines after the end, a jump past the largest double,
/// a crafted report's note text).
@Suite("verify: a recording's claims (issue 53, cases 5-8)")
struct RecordingClaimsTests {
    /// A `host --record` recording of three taps and a stroke, as its lines.
    static func recording(in directory: URL) throws -> [String] {
        let stroke = [#"{"kind":"touch","t":3,"touch":9,"phase":"began","samples":[{"t":3,"x":20,"y":20}]}"#,
                      #"{"kind":"touch","t":3.01,"touch":9,"phase":"moved","samples":[{"t":3.01,"x":22,"y":21}]}"#,
                      #"{"kind":"touch","t":3.02,"touch":9,"phase":"ended","samples":[{"t":3.02,"x":25,"y":22}]}"#]
        let input = ([HostTests.smallHeader] + HostTests.threeTaps + stroke).joined(separator: "\n") + "\n"
        let path = directory.appendingPathComponent("live.jsonl").path
        _ = try HostTests.host(input, ["--cache", "off", "--seed", "5", "--record", path])
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The lines with each line's chain computed again (what anyone who edits a recording can
    /// do: the chain is not a signature). Lines without a chain stay as they are.
    static func rechained(_ lines: [String]) -> [String] {
        var chain = LineChain()
        return lines.enumerated().map { index, line in
            var line = line
            if index > 0, let range = line.range(of: #","chain":""#, options: .backwards) {
                line = String(line[..<range.lowerBound]) + "}"
                chain.seal(&line)
            } else {
                chain.take(line: line.utf8)
            }
            return line
        }
    }

    static func withoutChains(_ lines: [String]) -> [String] {
        lines.map { line in
            guard let range = line.range(of: #","chain":""#, options: .backwards) else { return line }
            return String(line[..<range.lowerBound]) + "}"
        }
    }

    static func write(_ lines: [String], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a header cannot switch its recording's checks off: its recorder block removed or null, version 2 or 1 over chained lines, recorded lines or an end line: each refused naming the line")
    func headerCannotDowngrade() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.recording(in: directory)
        let header = lines[0]
        #expect(header.contains(#""version":3"#) && header.contains(#","recorder":{"#))
        let withoutRecorder = String(header[..<header.range(of: #","recorder":{"#)!.lowerBound]) + "}"
        let nullRecorder = String(header[..<header.range(of: #""recorder":{"#)!.lowerBound]) + #""recorder":null}"#
        // Edited (a sample moved) and cut to 60 %: what the header would hide.
        var edited = Array(lines.prefix(lines.count * 6 / 10))
        let ended = try #require(edited.firstIndex { $0.contains(#""phase":"ended""#) })
        edited[ended] = edited[ended].replacingOccurrences(of: #""x":10"#, with: #""x":99"#)
        #expect(edited[ended] != lines[ended])
        let firstDecided = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"decided""#) }) + 1
        let v1 = withoutRecorder.replacingOccurrences(of: #""version":3"#, with: #""version":1"#)
        let v2 = header.replacingOccurrences(of: #""version":3"#, with: #""version":2"#)
        let cases: [(String, [String], String)] = [
            ("no-recorder", [withoutRecorder] + edited.dropFirst(), ":1: recorder: missing: format version 3 is a live recording"),
            ("null-recorder", [nullRecorder] + edited.dropFirst(), ":1: recorder: missing: format version 3 is a live recording"),
            ("version-1-chained", [v1] + edited.dropFirst(),
             #":2: a "chain" field under a header with no "recorder" block (not a live recording), which cannot hold one"#),
            ("version-1-unchained", Self.withoutChains([v1] + edited.dropFirst()),
             #":\#(firstDecided): a "decided" line under a header with no "recorder" block"#),
            ("version-2-chained", [v2] + edited.dropFirst(),
             #":2: a "chain" field under a header of format version 2 (an unchained recording), which cannot hold one"#),
            ("version-2-end", Self.withoutChains([v2] + lines.dropFirst()),
             #":\#(lines.count): an "end" line under a header of format version 2 (an unchained recording)"#),
        ]
        for (name, kept, expected) in cases {
            let result = try CLITests.run("verify", try Self.write(kept, "\(name).jsonl", in: directory))
            #expect(result.status == 1, "\(name): \(result.stdout)")
            #expect(result.stderr.contains("\(name).jsonl" + expected), "\(name): \(result.stderr)")
            #expect(!result.stdout.contains("identity: 1 of 1"), "\(name): \(result.stdout)")
        }
        // The recording as made still verifies, and so does its unchained form (version 2,
        // no chain, no end line: a recording made before the chain).
        let whole = try CLITests.run("verify", try Self.write(lines, "whole.jsonl", in: directory))
        #expect(whole.status == 0 && whole.stdout.contains("identity: 1 of 1"), "\(whole.stdout)\(whole.stderr)")
        let old = Self.withoutChains([v2] + lines.dropFirst().dropLast())
        let unchained = try CLITests.run("verify", try Self.write(old, "old.jsonl", in: directory))
        #expect(unchained.status == 0 && unchained.stdout.contains("unchained recording (format version 2)"), "\(unchained.stdout)\(unchained.stderr)")
    }

    @Test("a recording naming no engine version, or null, is named at line 1 as a foreign engine's, not compared as this engine's")
    func missingEngineVersion() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.recording(in: directory)
        let engine = #""engine":"\#(InkEngine.version)","#
        #expect(lines[0].contains(engine))
        for (name, header) in [("no-engine", lines[0].replacingOccurrences(of: engine, with: "")),
                               ("null-engine", lines[0].replacingOccurrences(of: engine, with: #""engine":null,"#))] {
            let path = try Self.write(Self.rechained([header] + lines.dropFirst()), "\(name).jsonl", in: directory)
            let result = try CLITests.run("verify", path)
            #expect(result.status == 1, "\(name): \(result.stdout)")
            #expect(result.stdout.contains("identity: 0 of 1"), "\(name): \(result.stdout)")
            #expect(result.stderr.contains("\(name).jsonl:1: not identical to the live recording: the header names no engine version"),
                    "\(name): \(result.stderr)")
        }
        // Re-chained with its engine, the same lines verify: the chain is computed as a recorder does.
        let same = try CLITests.run("verify", try Self.write(Self.rechained(lines), "same.jsonl", in: directory))
        #expect(same.status == 0 && same.stdout.contains("identity: 1 of 1"), "\(same.stdout)\(same.stderr)")
    }

    @Test("--oracle-latency and --oracle regions: a recording is still counted, its chain and end still checked, and the report says identity was not checked, and why")
    func retimedRecordingsCounted() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.recording(in: directory)
        let whole = try Self.write(lines, "whole.jsonl", in: directory)
        // A forgery: one touch's ink digest changed, the chain computed again.
        let finished = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"finished""#) })
        var forgedLines = lines
        forgedLines[finished] = forgedLines[finished].replacingOccurrences(of: #""ink":"[0-9a-f]{16}""#, with: #""ink":"0123456789abcdef""#,
                                                                           options: .regularExpression)
        #expect(forgedLines[finished] != lines[finished])
        let forged = try Self.write(Self.rechained(forgedLines), "forged.jsonl", in: directory)
        let cut = try Self.write(Array(lines.prefix(lines.count * 6 / 10)), "cut.jsonl", in: directory)
        let plain = try CLITests.run("verify", forged)
        #expect(plain.status == 1 && plain.stderr.contains("forged.jsonl:\(finished + 1): not identical"), "\(plain.stdout)\(plain.stderr)")
        for (option, why) in [(["--oracle-latency", "30"], "identity not checked: the replay re-timed the page's answers (each 30 ms after its question"),
                              (["--oracle", "regions"], "identity not checked: the replay's page answered from the recorded region snapshots")] {
            for path in [whole, forged] {
                let result = try CLITests.run(["verify"] + option + [path])
                #expect(result.status == 0, "\(option) \(path): \(result.stderr)")
                #expect(result.stdout.contains("identity: 0 of 1 live recordings replayed identically"), "\(option): \(result.stdout)")
                #expect(result.stdout.contains(": whole: an unbroken chain of \(lines.count) lines, ending with its totals; " + why), "\(option): \(result.stdout)")
                let json = try CLITests.json(try CLITests.run(["verify", "--json"] + option + [path]).stdout)
                #expect(json["recordings"] as? Int == 1 && json["identical"] as? Int == 0, "\(json)")
            }
            // Its chain and end are still checked: a cut recording fails as incomplete.
            let result = try CLITests.run(["verify"] + option + [cut])
            #expect(result.status == 1 && result.stderr.contains("cut.jsonl:\(lines.count * 6 / 10): incomplete recording"), "\(option): \(result.stderr)")
        }
    }

    @Test("--accept-incomplete is in a shard's recorded options: merge-reports refuses shards run with and without it")
    func acceptIncompleteRecorded() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.recording(in: directory)
        let corpus = directory.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent("live.jsonl").path)
        _ = try Self.write(Array(lines.prefix(lines.count * 6 / 10)), "a-cut.jsonl", in: corpus)
        _ = try Self.write(lines, "b-whole.jsonl", in: corpus)
        let first = try CLITests.run("verify", "--shard", "1/2", "--json", "--accept-incomplete", corpus.path)
        #expect(first.status == 0, "\(first.stderr)")
        let shard = try #require(try CLITests.json(first.stdout)["shard"] as? [String: Any])
        #expect(shard["options"] as? String == "--accept-incomplete", "\(shard)")
        let second = try CLITests.run("verify", "--shard", "2/2", "--json", corpus.path)
        #expect(second.status == 0, "\(second.stderr)")
        let one = directory.appendingPathComponent("1.json"), two = directory.appendingPathComponent("2.json")
        try first.stdout.write(to: one, atomically: true, encoding: .utf8)
        try second.stdout.write(to: two, atomically: true, encoding: .utf8)
        let merged = try CLITests.run("merge-reports", one.path, two.path)
        #expect(merged.status == 1, "\(merged.stdout)")
        #expect(merged.stderr.contains("with '--accept-incomplete'") && merged.stderr.contains("the reports are not of one run"), "\(merged.stderr)")
        // Shards of one policy still merge.
        let again = try CLITests.run("verify", "--shard", "2/2", "--json", "--accept-incomplete", corpus.path)
        try again.stdout.write(to: two, atomically: true, encoding: .utf8)
        let same = try CLITests.run("merge-reports", one.path, two.path)
        #expect(same.status == 0 && same.stdout.contains("identity: 1 of 2 live recordings"), "\(same.stdout)\(same.stderr)")
    }

    final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        func offer(_ piece: [UInt8]) -> Bool { lock.withLock { bytes += piece }; return true }
        var data: Data { lock.withLock { Data(bytes) } }
    }

    @Test("a recording holding a line the replay refuses (a document of scale 0) fails and is never counted identical")
    func refusedLineNotIdentical() throws {
        let sink = Sink()
        var recorder = SessionRecorder(canvasWidth: 100, canvasHeight: 100, sink: sink.offer)
        var engine = InkEngine(configuration: InkEngineConfiguration(), seed: 3)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        func take(_ input: EngineInput, _ time: Double) {
            let start = events.count
            engine.take(input, now: time, into: &events)
            recorder.record(input, at: time, events: events[start...])
        }
        func pen(_ phase: TouchPhase, _ x: Double, _ t: Double) -> EngineInput {
            .touch(TouchEvent(touch: PlatformTouchID(1), phase: phase, samples: [TouchSample(x: x, y: 10, timestamp: t, tool: .pencil)]))
        }
        take(pen(.began, 10, 1), 1)
        // A line no live engine took (it refuses a transform of scale 0), written as a recorder writes it.
        recorder.record(.newDocument(PageTransform(scale: 0, offsetX: 0, offsetY: 0)), at: 1.01, events: [])
        take(pen(.moved, 12, 1.02), 1.02)
        take(pen(.ended, 14, 1.03), 1.03)
        let start = events.count
        engine.finish(into: &events)
        recorder.recordFinish(at: engine.now, events: events[start...])
        recorder.recordEnd(at: engine.now, ledger: engine.ledger)
        recorder.flush()
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("refused.jsonl")
        try sink.data.write(to: file)
        let lines = String(decoding: sink.data, as: UTF8.self).split(separator: "\n")
        let document = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"document","t":1.01,"page_transform":{"scale":0"#) }) + 1
        let result = try CLITests.run("verify", file.path)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("refused.jsonl:\(document): page transform refused"), "\(result.stderr)")
        #expect(result.stdout.contains("identity: 0 of 1 live recordings replayed identically"), "\(result.stdout)")
        let json = try CLITests.json(try CLITests.run("verify", "--json", file.path).stdout)
        #expect(json["recordings"] as? Int == 1 && json["identical"] as? Int == 0, "\(json)")
    }

    @Test("blank lines after a recording's end line (an editor's final newline) are skipped; a line after them is still refused")
    func blankLinesAfterEnd() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.recording(in: directory)
        for (name, tail) in [("one", [""]), ("three", ["", "", ""]), ("spaces", ["  \r", "\t"])] {
            let result = try CLITests.run("verify", try Self.write(lines + tail, "\(name).jsonl", in: directory))
            #expect(result.status == 0 && result.stdout.contains("identity: 1 of 1"), "\(name): \(result.stdout)\(result.stderr)")
        }
        let added = try CLITests.run("verify", try Self.write(lines + ["", #"{"kind":"finish","t":9}"#], "added.jsonl", in: directory))
        #expect(added.status == 1 && added.stderr.contains("added.jsonl:\(lines.count + 2): a line after the recording's end (line \(lines.count)): added after it was written"),
                "\(added.stderr)")
    }

    @Test("host: a time jump past the largest double is written as a number, never null")
    func hugeJumpWritten() throws {
        let output = try HostTests.host(#"{"kind":"tick","t":-1.7e308}"# + "\n" + #"{"kind":"tick","t":1.7e308}"# + "\n")
        let warning = try #require(output.first { $0["kind"] as? String == "warning" })
        let message = try #require(warning["message"] as? String)
        #expect(message.hasPrefix("time jumps 3.4e+308 s ahead, from -1.7e+308 to 1.7e+308 s"), "\(message)")
        #expect(JSONValue.format(differenceOf: .greatestFiniteMagnitude, minus: -.greatestFiniteMagnitude) == "3.5953862697246314e+308")
        #expect(JSONValue.format(differenceOf: 1e308, minus: -9e307) == "1.9e+308")
        #expect(JSONValue.format(differenceOf: -1e308, minus: 9.5e307) == "-1.95e+308")
        #expect(JSONValue.format(differenceOf: 7200, minus: 1) == "7199")
    }

    @Test("merge-reports shows a crafted report's note text escaped, in text and in JSON")
    func craftedNoteEscaped() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        try #"{"sessions":2,"touches":0,"samples":0,"inked":0,"released":0,"cancelled":0,"refused":0,"dropped":0,"recordings":1,"identical":0,"verified":true,"failed_sessions":0,"failures":[],"notes":[{"file":"n.jsonl","message":"note \u001b[2J\u001b]0;OWNED\u0007 end","session":1}]}"#
            .write(to: report, atomically: true, encoding: .utf8)
        let text = try CLITests.run("merge-reports", report.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{7}"), "\(text.stdout.debugDescription)")
        #expect(text.stdout.contains(#"n.jsonl: note \u{1B}[2J\u{1B}]0;OWNED\u{7} end"#), "\(text.stdout)")
        let json = try CLITests.run("merge-reports", "--json", report.path)
        let notes = try #require(try CLITests.json(json.stdout)["notes"] as? [[String: Any]])
        #expect(notes.first?["message"] as? String == #"note \u{1B}[2J\u{1B}]0;OWNED\u{7} end"#, "\(notes)")
    }
}
