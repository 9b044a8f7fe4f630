import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import HitTestBridge

/// A sink a test controls: takes pieces while open, refuses them (behind) while closed.
final class TestSink: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var open = true
    private(set) var offers = 0

    var isOpen: Bool {
        get { lock.withLock { open } }
        set { lock.withLock { open = newValue } }
    }

    func offer(_ piece: [UInt8]) -> Bool {
        lock.withLock {
            offers += 1
            guard open else { return false }
            bytes += piece
            return true
        }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// The lines taken, each parsed.
    func objects() throws -> [JSONFieldReader] {
        try text.split(separator: "\n").map { try JSONFieldReader(try JSONParser.parse(Array($0.utf8))) }
    }
}

@Suite("SessionRecorder: a live session as session-log lines, bounded, drops counted")
struct SessionRecorderTests {
    static func stroke(_ touch: UInt64, at time: Double, samples: Int = 3) -> [TouchEvent] {
        (0..<samples).map { (i: Int) -> TouchEvent in
            let phase: TouchPhase = i == 0 ? .began : i == samples - 1 ? .ended : .moved
            let sample = TouchSample(x: 10 + Double(i), y: 20, timestamp: time + Double(i) * 0.01, tool: .pencil)
            return TouchEvent(touch: PlatformTouchID(touch), phase: phase, samples: [sample])
        }
    }

    /// Drives an engine and a recorder the way a front end does.
    static func drive(_ engine: inout InkEngine, _ recorder: inout SessionRecorder, _ inputs: [(EngineInput, Double)]) {
        var events: [EngineEvent] = []
        for (input, time) in inputs {
            let start = events.count
            engine.take(input, now: time, into: &events)
            recorder.record(input, at: time, events: events[start...])
        }
    }

    @Test("the header names the format version 3, the engine's version and its configuration; decisions follow their inputs")
    func headerAndDecisions() throws {
        let sink = TestSink()
        var configuration = InkEngineConfiguration(decisionTimeout: 0.1)
        configuration.speculativeInk = true
        var engine = InkEngine(configuration: configuration, seed: 1)
        var recorder = SessionRecorder(canvasWidth: 800, canvasHeight: 600, sink: sink.offer)
        recorder.begin(engine)
        let inputs: [(EngineInput, Double)] = Self.stroke(7, at: 1).map { (.touch($0), $0.samples[0].timestamp) }
        Self.drive(&engine, &recorder, inputs + [(.tick, 2)])
        let flushed = recorder.flush()
        #expect(flushed)
        let lines = try sink.objects()
        let header = lines[0]
        #expect(try header.unsigned("version") == 3)
        let block = try header.nested("recorder")
        #expect(try block.string("engine") == InkEngine.version)
        #expect(try SessionLogLines.configuration(from: try block.nested("configuration")) == configuration)
        let kinds = try lines.dropFirst().map { try $0.string("kind") }
        #expect(kinds == ["touch", "touch", "touch", "decided", "finished"])   // the deadline decided at the tick
        let decided = lines[4]
        #expect(try decided.string("owner") == "ink" && decided.string("reason") == "deadline")
        #expect(try decided.double("at") == 1.1 && decided.double("t") == 2)
        let finished = lines[5]
        #expect(try finished.unsigned("inked") == 3 && finished.string("ink").count == 16)
        #expect(recorder.isComplete && recorder.linesWritten == 6)
    }

    @Test("elementIDs: false leaves the page's element ids out of region snapshots")
    func privacy() throws {
        for keep in [true, false] {
            let sink = TestSink()
            var engine = InkEngine(seed: 1)
            var recorder = SessionRecorder(canvasWidth: 100, canvasHeight: 100, elementIDs: keep, sink: sink.offer)
            recorder.begin(engine)
            let snapshot = RegionSnapshot(generation: 1, maxAge: 5, regions: [PageRegion(x: 1, y: 2, width: 3, height: 4, element: "check-answer")])
            Self.drive(&engine, &recorder, [(.decodedPageMessage(.regions(snapshot)), 0)])
            recorder.flush()
            #expect(sink.text.contains("check-answer") == keep)
            #expect(sink.text.contains(#""width":3"#))
            #expect(sink.text.contains(#""element_ids":\#(keep)"#))
        }
    }

    @Test("a sink that falls behind: the buffer stays within its budget, lines past it are dropped and counted, and the first line after the gap says so")
    func dropPolicy() throws {
        let sink = TestSink()
        var engine = InkEngine(seed: 1)
        let budget = 64 << 10
        var recorder = SessionRecorder(canvasWidth: 100, canvasHeight: 100, budgetBytes: budget, chunkBytes: 4 << 10, sink: sink.offer)
        recorder.begin(engine)
        sink.isOpen = false
        var time = 1.0
        var peak = 0
        for touch in 0..<400 {
            Self.drive(&engine, &recorder, Self.stroke(UInt64(touch % 4), at: time, samples: 5).map { (.touch($0), $0.samples[0].timestamp) })
            time += 0.1
            peak = max(peak, recorder.bufferedBytes)
        }
        #expect(peak <= budget)
        #expect(recorder.droppedLines > 0 && recorder.droppedSamples > 0 && !recorder.isComplete)
        let dropped = recorder.droppedLines
        sink.isOpen = true
        Self.drive(&engine, &recorder, Self.stroke(9, at: time).map { (.touch($0), $0.samples[0].timestamp) })
        let flushed = recorder.flush()
        #expect(flushed)
        let lines = try sink.objects()
        let gaps = try lines.dropFirst().filter { try $0.string("kind") == "dropped" }
        #expect(gaps.count == 1)
        #expect(try gaps.first?.unsigned("lines") == UInt64(dropped))
        #expect(try gaps.first?.unsigned("samples") == UInt64(recorder.droppedSamples))
        // Time order holds across the gap.
        let times = try lines.dropFirst().map { try $0.double("t") }
        #expect(times == times.sorted())
    }

    @Test("before begin, inputs are counted as dropped, never written without a header")
    func notBegun() {
        let sink = TestSink()
        var engine = InkEngine(seed: 1)
        var recorder = SessionRecorder(canvasWidth: 100, canvasHeight: 100, sink: sink.offer)
        Self.drive(&engine, &recorder, Self.stroke(1, at: 1).map { (.touch($0), $0.samples[0].timestamp) })
        recorder.flush()
        #expect(sink.text.isEmpty && recorder.droppedLines == 3 && recorder.droppedSamples == 3)
    }

    @Test("page answers are recorded by round trip order, not by their unguessable token")
    func answersByRoundTrip() throws {
        let sink = TestSink()
        var engine = InkEngine(configuration: InkEngineConfiguration(useRegionCache: false), seed: 5)
        var recorder = SessionRecorder(canvasWidth: 100, canvasHeight: 100, sink: sink.offer)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        let down = EngineInput.touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)]))
        engine.take(down, now: 1, into: &events)
        recorder.record(down, at: 1, events: events)
        let request = try #require(events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.first)
        let answer = EngineInput.pageMessage(#"{"type":"answer","id":"\#(request.token)","interactive":true,"generation":1}"#)
        events.removeAll()
        engine.take(answer, now: 1.03, into: &events)
        recorder.record(answer, at: 1.03, events: events)
        recorder.flush()
        #expect(!sink.text.contains(request.token.description))
        let line = try #require(try sink.objects().dropFirst().first { try $0.string("kind") == "page_answer" })
        #expect(try line.unsigned("round_trip") == 0 && line.string("verdict") == "page")
    }
}
