import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// Recordings of touches the system cancelled after the page got samples (issue 39, item 3):
/// from engine 1.1 their `finished` lines count those samples released; a recording made by
/// an older engine counted them cancelled, and `verify` reads it as it was written.
@Suite("Recordings of cancelled page touches, by the engine version that wrote them")
struct CancelledLedgerRecordingTests {
    static func sample(_ x: Double, _ t: Double) -> TouchSample { TouchSample(x: x, y: 150, timestamp: t) }

    static func event(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples)
    }

    /// Records a session in which the page gets samples of touches the system then cancels:
    /// under touch-down routing a native touch and a replayed one, under hand-over routing a
    /// handed-over one. Returns the recording's text.
    static func record(_ routing: TouchRouting) -> String {
        let lines = CollectedLines()
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: 5)
        var recorder = SessionRecorder(canvasWidth: 400, canvasHeight: 300, sink: lines.offer)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        func take(_ input: EngineInput, at time: Double) {
            let start = events.count
            engine.take(input, now: time, into: &events)
            recorder.record(input, at: time, events: events[start...])
        }
        func answerLastQuestion(at time: Double) {
            let request = events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.last!
            take(.pageMessage(PageAnswer(token: request.token, verdict: .page, generation: PageScript.firstGeneration).json), at: time)
        }
        if routing == .decideAtTouchDown {
            take(.nativePageTouch(Self.event(1, .began, Self.sample(150, 1))), at: 1)
            take(.touch(Self.event(1, .moved, Self.sample(152, 1.01))), at: 1.01)
            take(.touch(Self.event(1, .cancelled)), at: 1.02)
        }
        take(.touch(Self.event(2, .began, Self.sample(50, 2))), at: 2)
        take(.touch(Self.event(2, .moved, Self.sample(52, 2.01))), at: 2.01)
        answerLastQuestion(at: 2.02)
        take(.touch(Self.event(2, .moved, Self.sample(54, 2.03))), at: 2.03)
        take(.touch(Self.event(2, .cancelled)), at: 2.04)
        recorder.recordEnd(at: 2.04, ledger: engine.ledger)
        _ = recorder.flush()
        return lines.text
    }

    /// The recording as an engine before 1.1 wrote it: unchained (format version 2, as
    /// recordings were then), its header naming engine 1.0 and its `finished` lines counting
    /// the page's samples of a cancelled touch as cancelled.
    static func asWrittenBefore11(_ text: String) -> String {
        unchained(oldCount(text)).replacing(#""engine":"\#(InkEngine.version)""#, with: #""engine":"1.0""#)
    }

    /// Every touch of these sessions is cancelled: `released` moves to `cancelled`.
    static func oldCount(_ text: String) -> String {
        text.replacing(/"released":(\d+),"cancelled":(\d+)/) { match in
            #""released":0,"cancelled":\#(Int(match.output.1)! + Int(match.output.2)!)"#
        }
    }

    static func replay(_ text: String) throws -> ReplayReport {
        SessionReplayer().replay(try SessionLog.parse(text, file: "live.jsonl").get(), file: "live.jsonl")
    }

    @Test("recorded now: the finished lines count the page's samples released, and the recording replays identically",
          arguments: [TouchRouting.decideAtTouchDown, .handOverAfterDecision])
    func current(routing: TouchRouting) throws {
        let text = Self.record(routing)
        #expect(text.contains(#""engine":"\#(InkEngine.version)""#))
        #expect(text.contains(#""released":3,"cancelled":0"#), "\(text)")
        if routing == .decideAtTouchDown { #expect(text.contains(#""released":2,"cancelled":0"#)) }
        let report = try Self.replay(text)
        #expect(report.isIdentical && report.isVerified, "\(report.identity ?? "") \(report.failures)")
        #expect(report.audit.cancelled == 0 && report.audit.released == report.audit.received)
    }

    @Test("recorded by engine 1.0 (page samples of a cancelled touch counted cancelled): read as it was written, identical",
          arguments: [TouchRouting.decideAtTouchDown, .handOverAfterDecision])
    func olderEngine(routing: TouchRouting) throws {
        let old = Self.asWrittenBefore11(Self.record(routing))
        #expect(old.contains(#""engine":"1.0""#) && old.contains(#""released":0,"cancelled":3"#), "\(old)")
        let report = try Self.replay(old)
        #expect(report.isIdentical && report.isVerified, "\(report.identity ?? "") \(report.failures)")
    }

    @Test("each rule holds only for its version: the new count under engine 1.0, or the old count under the current engine, diverges")
    func rulesDoNotMix() throws {
        let text = Self.record(.handOverAfterDecision)
        // Edited as unchained (format 2) texts: a chained one would break at the edit first.
        let newCountOldEngine = unchained(text).replacing(#""engine":"\#(InkEngine.version)""#, with: #""engine":"1.0""#)
        let oldCountNewEngine = unchained(Self.oldCount(text))
        for edited in [newCountOldEngine, oldCountNewEngine] {
            let report = try Self.replay(edited)
            #expect(!report.isIdentical && report.divergence?.contains("its samples went elsewhere") == true,
                    "\(report.identity ?? "")")
        }
    }
}
