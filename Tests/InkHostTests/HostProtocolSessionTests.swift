import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import InkHost
@_spi(Tooling) import InkRecording
import Testing

/// `ink-replay host`'s line protocol driven without a process: each input line's output is
/// the lines that one call returns. `Tests/InkReplayTests/HostTests.swift` runs the same
/// protocol through the process; `HostLibraryAgreementTests` there checks that the two write
/// the same bytes.
@Suite("host protocol session (no process)")
struct HostProtocolSessionTests {
    /// The engine of `ink-replay host --cache off`.
    static let cacheOff = InkEngineConfiguration(useRegionCache: false)

    /// A session log header for a 100 x 100 canvas.
    static let smallHeader = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#

    /// One line's output, read as JSON objects.
    static func objects(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
    }

    /// `input` as a process reads it: cut into lines by a `LineSplitter`, each handed to the
    /// session, then the end of the input. Returns every output line, in order.
    static func drive(_ session: HostProtocolSession, _ input: String) -> [String] {
        var splitter = LineSplitter(maxLineBytes: HostProtocolSession.maxLineBytes)
        var pieces: [LineSplitter.Piece] = []
        splitter.feed(Array(input.utf8), into: &pieces)
        var out = pieces.flatMap { session.take($0) }
        if let last = splitter.finish() { out += session.take(last) }
        return out + session.finish()
    }

    static func kinds(_ objects: [[String: Any]]) -> [String] { objects.compactMap { $0["kind"] as? String } }

    static func samples(_ line: [String: Any]) -> [Double] {
        (line["samples"] as? [[String: Any]] ?? []).compactMap { $0["t"] as? Double }
    }

    @Test("a live front end, line by line: the session asks, a forged answer is ignored, the page's answer by token sends the samples to the page (HostTests' 'a live front end' without the process)")
    func liveQuestion() throws {
        let session = HostProtocolSession(configuration: Self.cacheOff)
        func take(_ line: String) throws -> [[String: Any]] { try Self.objects(session.take(line: Array(line.utf8))) }

        let asked = try take(#"{"kind":"touch","t":1.0,"touch":7,"phase":"began","tool":"finger","samples":[{"t":1.0,"x":10,"y":20}]}"#)
        #expect(Self.kinds(asked) == ["query", "deadline"])
        let query = asked[0]
        #expect(query["touches"] as? [Int] == [7] && query["engine_touches"] as? [Int] == [1])
        #expect(query["page_x"] as? Double == 10 && query["page_y"] as? Double == 20)
        let token = try #require(query["token"] as? String)
        #expect(token.count == 32)
        let generation = try #require(query["generation"] as? Int)
        #expect(query["request"] as? String
                == #"{"type":"hitTest","id":"\#(token)","x":10,"y":20,"generation":\#(generation)}"#)
        // The front end is told when to tick: the touch's time plus the 250 ms deadline.
        #expect(asked[1]["at"] as? Double == 1.25 && asked[1]["t"] as? Double == 1)

        // A sample of a touch still being decided waits, in order: nothing to do yet.
        #expect(try take(#"{"kind":"touch","t":1.016,"touch":7,"phase":"moved","samples":[{"t":1.016,"x":12,"y":22}]}"#).isEmpty)
        let forged = try take(#"{"kind":"page","t":1.02,"message":{"type":"answer","id":"00000000000000000000000000000000","interactive":true,"generation":1}}"#)
        #expect(Self.kinds(forged) == ["ignored"])
        #expect(forged.first?["why"] as? String == "unknown query id (forged or garbled)")

        let answered = try take(#"{"kind":"page","t":1.03,"message":{"type":"answer","id":"\#(token)","interactive":true,"generation":\#(generation)}}"#)
        #expect(Self.kinds(answered).prefix(2) == ["decided", "release"], "\(answered)")
        #expect(answered[0]["owner"] as? String == "page" && answered[0]["reason"] as? String == "answered")
        #expect(Self.samples(answered[1]) == [1.0, 1.016] && answered[1]["pointer"] as? Int == 1)

        let ended = try take(#"{"kind":"touch","t":1.05,"touch":7,"phase":"ended","samples":[{"t":1.05,"x":13,"y":23}]}"#)
        #expect(Self.kinds(ended).filter { $0 != "deadline" } == ["release", "end_release", "finished"], "\(ended)")
        #expect(Self.samples(ended[0]) == [1.05])
        let finished = try #require(ended.first { $0["kind"] as? String == "finished" })
        #expect(finished["received"] as? Int == 3 && finished["released"] as? Int == 3 && finished["inked"] as? Int == 0)

        let end = try Self.objects(session.finish())
        #expect(Self.kinds(end).last == "summary")
        let summary = try #require(end.last)
        #expect(summary["released"] as? Int == 3 && summary["dropped"] as? Int == 0 && summary["unknown_answers"] as? Int == 1)
        #expect(summary["round_trips"] as? Int == 1 && summary["verified"] as? Bool == true)
        #expect(session.lineCount == 5)
    }

    @Test("a tick lets the deadline pass: the touch is decided at the deadline's own time, and the next wake-up is announced")
    func tick() throws {
        let session = HostProtocolSession(configuration: Self.cacheOff, seed: 1)
        _ = session.take(line: Array(#"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#.utf8))
        let ticked = try Self.objects(session.take(line: Array(#"{"kind":"tick","t":2}"#.utf8)))
        #expect(Self.kinds(ticked) == ["decided", "ink", "deadline"], "\(ticked)")
        #expect(ticked[0]["t"] as? Double == 1.25 && ticked[0]["reason"] as? String == "deadline" && ticked[0]["owner"] as? String == "ink")
        #expect(Self.samples(ticked[1]) == [1])
        // Nothing waits any more: the deadline line says so, at the line's time.
        #expect(ticked[2]["at"] is NSNull && ticked[2]["t"] as? Double == 2)
        // A tick with nothing due changes nothing and says nothing.
        #expect(session.take(line: Array(#"{"kind":"tick","t":3}"#.utf8)).isEmpty)
        let summary = try #require(try Self.objects(session.finish()).last)
        #expect(summary["deadlines"] as? Int == 1 && summary["cancelled"] as? Int == 1, "\(summary)")   // still down at the end
    }

    @Test("a header sets the page transform, a layout line changes it: queries carry page coordinates (page = canvas × scale + offset)")
    func layout() throws {
        let session = HostProtocolSession(configuration: Self.cacheOff, seed: 1)
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100},"page_transform":{"scale":2,"offset_x":5,"offset_y":0}}"#
        #expect(session.take(line: Array(header.utf8)).isEmpty)
        let first = try Self.objects(session.take(line: Array(#"{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":1,"x":10,"y":20}]}"#.utf8)))
        let query = try #require(first.first { $0["kind"] as? String == "query" })
        #expect(query["page_x"] as? Double == 25 && query["page_y"] as? Double == 40, "\(query)")
        let scrolled = try Self.objects(session.take(line: Array(#"{"kind":"layout","t":1.5,"page_transform":{"scale":1,"offset_x":0,"offset_y":300},"generation":7}"#.utf8)))
        #expect(!Self.kinds(scrolled).contains("error"), "\(scrolled)")
        let second = try Self.objects(session.take(line: Array(#"{"kind":"touch","t":2,"touch":2,"phase":"began","tool":"pencil","samples":[{"t":2,"x":10,"y":20}]}"#.utf8)))
        let asked = try #require(second.first { $0["kind"] as? String == "query" })
        #expect(asked["page_x"] as? Double == 10 && asked["page_y"] as? Double == 320 && asked["generation"] as? Int == 7, "\(asked)")
        // A header anywhere but first is refused.
        let late = try Self.objects(session.take(line: Array(header.utf8)))
        #expect(late.first?["message"] as? String == "a session header is only accepted as the first line" && late.first?["line"] as? Int == 5)
    }

    @Test("bad lines are refused with their line number and the sentence the process prints, and change nothing; the deadline still decides (HostTests' 'bad lines' without the process)")
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
        let lines = try Self.objects(Self.drive(HostProtocolSession(configuration: Self.cacheOff), input))
        let errors = lines.filter { $0["kind"] as? String == "error" }
        #expect(errors.compactMap { $0["line"] as? Int } == [2, 3, 4, 5])
        #expect(errors[0]["message"] as? String == "time went backwards from 1 s to 0.5 s")
        #expect((errors[1]["message"] as? String)?.contains("touch 9") == true)
        #expect((errors[2]["message"] as? String)?.hasPrefix("malformed JSON at column 1: ") == true, "\(errors[2])")
        #expect((errors[3]["message"] as? String)?.hasPrefix("page message refused: ") == true, "\(errors[3])")
        let decided = try #require(lines.first { $0["kind"] as? String == "decided" })
        #expect(decided["reason"] as? String == "deadline")
        let summary = try #require(lines.last)
        #expect(summary["inked"] as? Int == 1 && summary["refused_lines"] as? Int == 4)
        #expect(summary["received"] as? Int == 2 && summary["refused"] as? Int == 1 && summary["refused_inputs"] as? Int == 1, "\(summary)")
    }

    @Test("a line too long is refused alone, by its size, and counted; a recording's own kinds are refused; a blank line is counted and skipped")
    func refusedLines() throws {
        let session = HostProtocolSession(configuration: Self.cacheOff, seed: 1)
        let long = try Self.objects(session.take(.tooLong(bytes: 2_000_000)))
        #expect(long.count == 1 && long[0]["line"] as? Int == 1)
        #expect(long[0]["message"] as? String == "a line of 2000000 bytes, longer than \(HostProtocolSession.maxLineBytes)")
        #expect(session.take(line: Array("  \r".utf8)).isEmpty)
        let recorded = try Self.objects(session.take(line: Array(#"{"kind":"finish","t":1}"#.utf8)))
        #expect(recorded.first?["line"] as? Int == 3
                && recorded.first?["message"] as? String == "a 'finish' line belongs to a recording's replay (ink-replay verify), not to a live host",
                "\(recorded)")
        let unreadable = try Self.objects(session.refuseLine("standard input: cannot read (Is a directory); nothing after line \(session.lineCount) was read"))
        #expect(unreadable.first?["line"] as? Int == 4
                && unreadable.first?["message"] as? String == "standard input: cannot read (Is a directory); nothing after line 3 was read")
        let summary = try #require(try Self.objects(session.finish()).last)
        #expect(summary["refused_lines"] as? Int == 3 && summary["received"] as? Int == 0 && summary["verified"] as? Bool == true, "\(summary)")
    }

    @Test("the end of the input: touches still down are cancelled, then the wake-up is cleared and the summary comes last, with every counter")
    func summary() throws {
        let session = HostProtocolSession(configuration: InkEngineConfiguration(), seed: 1)
        let lines = try Self.objects(Self.drive(session, [
            Self.smallHeader,
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":10,"y":10}]}"#,
        ].joined(separator: "\n")))
        #expect(Self.kinds(lines) == ["query", "deadline", "cancel", "finished", "deadline", "summary"], "\(Self.kinds(lines))")
        #expect(lines[2]["previously"] as? String == "undecided" && lines[4]["at"] is NSNull)
        let summary = try #require(lines.last)
        let fields = ["kind", "received", "inked", "released", "cancelled", "refused", "pending", "dropped", "queries", "round_trips",
                      "cache_hits", "shared_queries", "timeouts", "deadlines", "overloaded", "speculations", "retractions", "gestures",
                      "late_answers", "duplicate_answers", "unknown_answers", "stale_answers", "refused_messages",
                      "old_document_messages", "snapshots_accepted", "snapshots_refused", "answers_without_round_trip",
                      "refused_inputs", "refused_lines", "refusals", "audit_problems", "audit_failures", "verified", "verdict"]
        #expect(Set(summary.keys) == Set(fields))
        #expect(summary["received"] as? Int == 1 && summary["cancelled"] as? Int == 1 && summary["pending"] as? Int == 0)
        // An empty input: a summary of zeros, verified.
        let empty = try Self.objects(HostProtocolSession(configuration: InkEngineConfiguration()).finish())
        #expect(Self.kinds(empty) == ["summary"] && empty[0]["received"] as? Int == 0 && empty[0]["verified"] as? Bool == true)
    }

    @Test("--geometry: each changed stroke's stable part once, then its volatile tail (HostTests' geometry test without the process)")
    func geometry() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let log = try String(contentsOf: root.appendingPathComponent("Fixtures/strokes/long-stroke.jsonl"), encoding: .utf8)
        let lines = try Self.objects(Self.drive(HostProtocolSession(configuration: InkEngineConfiguration(), seed: 1, geometry: true), log))
        let strokes = lines.filter { $0["kind"] as? String == "stroke" }
        #expect(!strokes.isEmpty)
        var kept = 0
        for stroke in strokes {
            let keep = try #require(stroke["keep_stable"] as? Int)
            #expect(keep <= kept)
            kept = try #require(stroke["stable_segments"] as? Int)
        }
        #expect(strokes.last?["volatile"] as? String == "" && kept > 100)
        // Without geometry, the same session writes no stroke line.
        let plain = try Self.objects(Self.drive(HostProtocolSession(configuration: InkEngineConfiguration(), seed: 1), log))
        #expect(!Self.kinds(plain).contains("stroke") && plain.count == lines.count - strokes.count)
    }

    @Test("a recording's sink has every line an input recorded before that input's output is returned; the end of the input ends the recording")
    func recordingBeforeOutput() throws {
        let recorded = Recorded()
        let session = HostProtocolSession(configuration: Self.cacheOff, seed: 1, recordingSink: { bytes in
            recorded.append(bytes)
            return true
        })
        func recordedLines() -> [String] { recorded.text.split(separator: "\n").map(String.init) }
        _ = session.take(line: Array(Self.smallHeader.utf8))
        _ = session.take(line: Array(#"{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":1,"x":10,"y":10}]}"#.utf8))
        let afterTouch = recordedLines()
        #expect(afterTouch.count >= 2 && afterTouch.last?.contains(#""kind":"touch""#) == true, "\(afterTouch)")
        _ = session.finish()
        #expect(session.flushRecording() && session.recorder?.isComplete == true)
        let all = recordedLines()
        #expect(all.count > afterTouch.count && all.first?.contains("ink-replay host") == true, "\(all.first ?? "")")
    }
}

/// What a recording's sink was given (the sink is `@Sendable`).
final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func append(_ more: [UInt8]) { lock.withLock { bytes += more } }
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}
