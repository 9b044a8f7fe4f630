import Foundation
import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Session log v1")
struct SessionLogTests {
    static let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":80}}"#

    static func parse(_ lines: String...) -> SessionLogReadResult {
        SessionLog.parse(([header] + lines).joined(separator: "\n"), file: "t.jsonl")
    }

    @Test("every synthetic session survives a write and a read", arguments: SyntheticSessions.all.map(\.name))
    func roundTrip(name: String) throws {
        let log = try #require(SyntheticSessions.all.first { $0.name == name }).log
        let read = try SessionLog.parse(log.jsonLines()).get()
        #expect(read.header == log.header)
        #expect(read.events == log.events)
        #expect(read.eventLines == Array(2..<(2 + log.events.count)))
        #expect(read.jsonLines() == log.jsonLines())
    }

    @Test("the committed synthetic fixtures are exactly what the generator writes", arguments: SyntheticSessions.all.map(\.name))
    func fixturesAreGenerated(name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Fixtures/strokes/\(name).jsonl").path
        let committed = try #require(FileManager.default.contents(atPath: path))
        let log = try #require(SyntheticSessions.all.first { $0.name == name }).log
        #expect(String(decoding: committed, as: UTF8.self) == log.jsonLines())
    }

    @Test("a negative zero survives a write and a read, bit for bit (the ink digest folds bits)")
    func negativeZero() throws {
        let log = try Self.parse(
            #"{"kind":"touch","t":0,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":0,"x":-0,"y":-0.0,"force":0}]}"#).get()
        let text = log.jsonLines()
        #expect(text.contains(#""x":-0,"y":-0,"force":0}"#))
        let read = try SessionLog.parse(text).get()
        guard case let .touch(event, _) = read.events.first else { Issue.record("not a touch"); return }
        let sample = try #require(event.samples.first)
        #expect(sample.x.bitPattern == (-0.0).bitPattern && sample.y.bitPattern == (-0.0).bitPattern)
        #expect(sample.force?.bitPattern == 0.0.bitPattern)
        #expect(JSONValue.number(-0.0).serialized() == "-0")
    }

    @Test("a full example reads into the right values")
    func fullExample() throws {
        let result = Self.parse(
            #"{"kind":"regions","t":0,"generation":3,"max_age":2.5,"regions":[{"x":1,"y":2,"width":3,"height":4,"element":"b"}]}"#,
            #"{"kind":"touch","t":1,"touch":7,"phase":"began","tool":"pencil","samples":[{"t":1,"x":10,"y":20,"force":0.5,"altitude":1.2,"azimuth":0.3,"update_index":4}]}"#,
            "",
            #"{"kind":"touch","t":1.01,"touch":7,"phase":"moved","samples":[{"t":1.01,"x":11,"y":21}],"predicted":[{"t":1.02,"x":12,"y":22}]}"#,
            #"{"kind":"update","t":1.015,"touch":7,"update_index":4,"force":0.6,"final":0}"#,
            #"{"kind":"answer","t":1.03,"touch":7,"verdict":"ink"}"#)
        let log = try result.get()
        #expect(log.events.count == 5)
        #expect(log.eventLines == [2, 3, 5, 6, 7])
        guard case let .regions(snapshot, _) = log.events[0] else { Issue.record("not regions"); return }
        #expect(snapshot == RegionSnapshot(generation: 3, maxAge: 2.5, regions: [PageRegion(x: 1, y: 2, width: 3, height: 4, element: "b")]))
        guard case let .touch(began, time) = log.events[1] else { Issue.record("not a touch"); return }
        #expect(time == 1)
        #expect(began.samples == [TouchSample(x: 10, y: 20, timestamp: 1, force: 0.5, altitude: 1.2, azimuth: 0.3, tool: .pencil, estimationUpdateIndex: 4)])
        guard case let .touch(moved, _) = log.events[2] else { Issue.record("not a touch"); return }
        #expect(moved.samples.first?.tool == .pencil, "a touch keeps the tool its began event named")
        #expect(moved.predicted.count == 1)
        guard case let .update(update, _) = log.events[3] else { Issue.record("not an update"); return }
        #expect(update == EstimatedPropertyUpdate(touch: PlatformTouchID(7), updateIndex: 4, force: 0.6, isFinal: false))
        #expect(log.events[4] == .answer(touch: PlatformTouchID(7), verdict: .ink, time: 1.03))
    }

    @Test("a truncated line is reported with its line number and the lines before it are kept")
    func truncated() {
        let result = Self.parse(
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}"#,
            #"{"kind":"touch","t":1.01,"touch":1,"phase":"moved","samp"#,
            #"{"kind":"touch","t":1.02,"touch":1,"phase":"ended","samples":[]}"#)
        #expect(result.failure?.line == 3)
        #expect(result.failure?.file == "t.jsonl")
        #expect(result.log?.events.count == 1)
        if case .malformedJSON = result.failure?.reason {} else { Issue.record("expected malformed JSON, got \(String(describing: result.failure))") }
        #expect(result.failure?.description.hasPrefix("t.jsonl:3: malformed JSON at column") == true)
    }

    struct BadLine: Sendable, CustomTestStringConvertible {
        var line: String
        var expected: SessionLogError.Reason
        var testDescription: String { line }
    }

    @Test("each kind of bad line gets a precise error", arguments: [
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"began"}"#,
                expected: .invalidField(field: "samples", message: "a began event must carry the touch-down sample")),
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":"1","y":1}]}"#,
                expected: .invalidField(field: "samples[0].x", message: "expected a number, found a string")),
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"y":1}]}"#,
                expected: .invalidField(field: "samples[0].x", message: "missing")),
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"hover","samples":[]}"#,
                expected: .invalidField(field: "phase", message: #"expected one of "began", "moved", "ended", "cancelled", found "hover""#)),
        BadLine(line: #"{"kind":"touch","t":1,"touch":-1,"phase":"moved","samples":[]}"#,
                expected: .invalidField(field: "touch", message: "expected a whole number from 0 to 9007199254740991 (2^53 - 1: larger ones cannot be told apart in JSON), found -1")),
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1e999,"y":1}]}"#,
                expected: .malformedJSON(column: 71, message: "number '1e999' is out of range")),
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1,"force":1.5}]}"#,
                expected: .invalidField(field: "samples[0].force", message: "must be within 0...1, found 1.5")),
        BadLine(line: #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":2,"x":1,"y":1}]}"#,
                expected: .invalidField(field: "samples[0].t", message: "sample time 2 is after the event's time 1")),
        BadLine(line: #"{"kind":"wiggle","t":1}"#, expected: .unknownKind("wiggle")),
        BadLine(line: #"{"kind":"answer","t":1,"touch":1,"verdict":"maybe"}"#,
                expected: .invalidField(field: "verdict", message: #"expected one of "ink", "page", found "maybe""#)),
        BadLine(line: #"{"kind":"answer","touch":1,"verdict":"ink"}"#, expected: .invalidField(field: "t", message: "missing")),
        BadLine(line: #"[1,2]"#, expected: .invalidField(field: "(line)", message: "expected an object, found an array")),
        BadLine(line: #"{"kind":"regions","t":1,"generation":1,"regions":[{"x":0,"y":0,"width":-1,"height":1}]}"#,
                expected: .invalidField(field: "regions[0]", message: "width and height must not be negative")),
        BadLine(line: #"{"kind":"update","t":1,"touch":1,"update_index":2,"final":"yes"}"#,
                expected: .invalidField(field: "final", message: "expected a boolean (or 0/1), found a string")),
        BadLine(line: "{\"kind\":\"answer\",\"t\":1,\"touch\":1,\"verdict\":\"\u{FF}\"}", expected: .malformedJSON(column: 1, message: "")),
    ])
    func badLine(_ bad: BadLine) throws {
        var line = bad.line
        if bad.testDescription.contains("\u{FF}") {
            // Invalid UTF-8 needs raw bytes.
            var bytes = Array((Self.header + "\n").utf8)
            bytes += Array(#"{"kind":"answer","t":1,"touch":1,"verdict":""#.utf8) + [0xFF] + Array("\"}".utf8)
            let result = SessionLog.parse(bytes, file: "t.jsonl")
            #expect(result.failure?.line == 2)
            if case let .malformedJSON(_, message) = result.failure?.reason { #expect(message == "invalid UTF-8") }
            else { Issue.record("expected malformed JSON") }
            return
        }
        line = bad.line
        let result = Self.parse(line)
        let failure = try #require(result.failure)
        #expect(failure.line == 2)
        #expect(failure.reason == bad.expected)
        #expect(result.log?.events.isEmpty == true)
    }

    @Test("time going backwards between lines is refused")
    func timeBackwards() {
        let result = Self.parse(
            #"{"kind":"answer","t":2,"touch":1,"verdict":"ink"}"#,
            #"{"kind":"answer","t":1,"touch":1,"verdict":"ink"}"#)
        #expect(result.failure == SessionLogError(file: "t.jsonl", line: 3, reason: .timeWentBackwards(previous: 2, got: 1)))
        #expect(result.log?.events.count == 1)
    }

    @Test("header problems", arguments: [
        (#"{"format":"other","version":1,"canvas":{"width":1,"height":1}}"#, SessionLogError.Reason.notASessionLog(format: "other")),
        (#"{"format":"scratchpad-ink-session","version":4,"canvas":{"width":1,"height":1}}"#, .unsupportedVersion(4)),
        (#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":0,"height":1}}"#,
         .invalidField(field: "canvas", message: "width and height must be positive")),
        (#"{"format":"scratchpad-ink-session","version":1}"#, .invalidField(field: "canvas", message: "missing")),
        (#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1,"height":1},"page_transform":{"scale":0}}"#,
         .invalidField(field: "page_transform.scale", message: "must be positive")),
    ])
    func headerProblems(line: String, reason: SessionLogError.Reason) {
        let result = SessionLog.parse(line, file: "h.jsonl")
        #expect(result.failure == SessionLogError(file: "h.jsonl", line: 1, reason: reason))
        #expect(result.log == nil)
    }

    @Test("an empty file and an unreadable file")
    func emptyAndMissing() {
        #expect(SessionLog.parse("\n\n").failure?.reason == .empty)
        let missing = SessionLog.read(contentsOf: "/nonexistent/x.jsonl")
        #expect(missing.failure?.reason == .unreadable("no such file"))
        #expect(missing.failure?.line == 0)
    }

    @Test("the page transform maps canvas points to page points")
    func transform() {
        let t = PageTransform(scale: 2, offsetX: 10, offsetY: -5)
        #expect(t.pagePoint(for: CanvasPoint(x: 3, y: 4)) == PagePoint(x: 16, y: 3))
        let snapshot = RegionSnapshot(generation: 1, regions: [PageRegion(x: 10, y: 0, width: 10, height: 10)])
        #expect(snapshot.verdict(at: t.pagePoint(for: CanvasPoint(x: 3, y: 4))) == .page)
        #expect(snapshot.verdict(at: PagePoint(x: 3, y: 4)) == .ink)  // the canvas numbers read as a page point miss it
    }

    @Test("samplesByTouch keeps touches with reused ids apart")
    func samplesByTouch() throws {
        let log = try Self.parse(
            #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}"#,
            #"{"kind":"touch","t":1.1,"touch":1,"phase":"ended","samples":[{"t":1.1,"x":2,"y":1}]}"#,
            #"{"kind":"touch","t":1.2,"touch":1,"phase":"began","samples":[{"t":1.2,"x":3,"y":1}]}"#).get()
        #expect(log.samplesByTouch.map(\.samples.count) == [2, 1])
        #expect(log.sampleCount == 3)
    }
}
