import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
import InkTesting
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// What the live loop records replays identically: a touch no one answers is decided by the
/// loop's own wake-up (recorded by the loop, not by the app), and a page load mid-session.
@Suite("The live loop's recording replays identically")
struct LoopRecordingTests {
    typealias Shell = RecordingShell

    static func tap(_ touch: UInt64, x: Double, y: Double, at t: Double, tool: ToolKind = .pencil) -> [EngineInput] {
        [.touch(TouchEvent(touch: PlatformTouchID(touch), phase: .began, samples: [TouchSample(x: x, y: y, timestamp: t, tool: tool)])),
         .touch(TouchEvent(touch: PlatformTouchID(touch), phase: .ended, samples: [TouchSample(x: x + 1, y: y, timestamp: t + 0.01, tool: tool)]))]
    }

    /// A loop in `routing` on a manual clock at 1 s, recording into `lines`, with a shell.
    static func recordingLoop(_ routing: TouchRouting) -> (lines: CollectedLines, clock: ManualClock, shell: Shell, loop: InkLoop) {
        let lines = CollectedLines(), clock = ManualClock(start: 1), shell = Shell()
        let recorder = SessionRecorder(canvasWidth: 800, canvasHeight: 600, sink: lines.offer)
        let loop = InkLoop(configuration: InkEngineConfiguration(decisionTimeout: 0.25, routing: routing), clock: clock, seed: 5,
                           recorder: recorder)
        loop.shell = shell
        return (lines, clock, shell, loop)
    }

    @Test("an unanswered touch and a page load, both routings: the loop's recording replays with the same decisions, at the same times",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func unansweredAndPageLoad(routing: TouchRouting) throws {
        let (lines, clock, shell, loop) = Self.recordingLoop(routing)
        let page = try PageDocumentID("1111222233334444"), next = try PageDocumentID("5555666677778888")
        loop.submit(.pageMessage(PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 0.3, regions: [PageRegion(x: 300, y: 300, width: 100, height: 100)],
                                                                    document: page)).json))
        loop.submit(Self.tap(1, x: 50, y: 50, at: 1))            // the cache: ink
        clock.advance(to: 2)
        loop.submit(Self.tap(2, x: 60, y: 60, at: 2))            // stale: asks; never answered
        clock.advance(to: 2.5)                                    // the loop's wake-up at 2.25 decides it; nobody records a tick
        clock.advance(to: 3)
        loop.submit(Self.tap(3, x: 70, y: 70, at: 3))            // asks; the page goes away before it answers
        let asked = try #require(shell.sent.last)
        clock.advance(to: 3.05)
        loop.submit(.newDocument(.identity))
        loop.submit(.pageMessage(PageMessage.answer(PageAnswer(token: asked.token, verdict: .page, generation: 1, document: page)).json))
        loop.submit(.pageMessage(PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 5, regions: [PageRegion(x: 0, y: 0, width: 100, height: 100)],
                                                                    document: next)).json))
        loop.submit(Self.tap(4, x: 50, y: 50, at: 3.1))          // the new page's region: page, at touch-down
        clock.advance(to: 9)                                      // the new page's snapshot is stale by now: touch 5 asks
        loop.submit([EngineInput.touch(TouchEvent(touch: PlatformTouchID(5), phase: .began, samples: [TouchSample(x: 500, y: 500, timestamp: 9)]))])
        loop.stop()                                               // touch 5 still down: cancelled
        let text = lines.text
        #expect(!text.contains(#""kind":"tick""#))
        let log = try SessionLog.parse(text, file: "loop.jsonl").get()
        let decided = log.events.compactMap { if case let .recorded(.decided(touch, _, reason, at), _) = $0 { (touch.platform.rawValue, reason, at) } else { nil } }
        #expect(decided.map(\.0) == [1, 2, 3, 4], "\(decided)")
        #expect(decided.map(\.1) == [.regionCache, .deadline, .newDocument, .regionCache], "\(decided)")
        #expect(decided[1].2 == 2.25)
        let report = SessionReplayer().replay(log, file: "loop.jsonl")
        #expect(report.isIdentical, "\(report.identity ?? "no identity") \(report.divergence ?? "")")
        #expect(report.divergence == nil, "\(report.failures) \(report.issues)")
        #expect(loop.metrics.auditFailures.isEmpty && loop.ledger.isBalanced && loop.ledger.cancelled == 1)
    }

    @Test("a resize drops the snapshot live and in the replay: the touch after it is asked in both, and the recording replays identically",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func resize(routing: TouchRouting) throws {
        let (lines, clock, _, loop) = Self.recordingLoop(routing)
        let block = RegionSnapshot(generation: 1, maxAge: 5, regions: [PageRegion(x: 0, y: 0, width: 100, height: 100)])
        loop.submit(.pageMessage(PageMessage.regions(block).json))
        loop.submit(Self.tap(1, x: 50, y: 50, at: 1))            // the snapshot: page
        clock.advance(to: 1.5)
        loop.submit(.viewResized(.identity))                      // reflowed: the snapshot is gone
        loop.submit(Self.tap(2, x: 50, y: 50, at: 1.5))          // asked; never answered: the deadline decides
        clock.advance(to: 2)
        loop.stop()
        #expect(lines.text.contains(#"{"kind":"resize","t":1.5,"page_transform":{"scale":1"#), "\(lines.text)")
        let log = try SessionLog.parse(lines.text, file: "resize.jsonl").get()
        #expect(log.events.contains(.recorded(.frontEnd(.viewResized(.identity)), time: 1.5)))
        let decided = log.events.compactMap { if case let .recorded(.decided(touch, _, reason, _), _) = $0 { (touch.platform.rawValue, reason) } else { nil } }
        #expect(decided.map(\.1) == [.regionCache, .deadline], "\(decided)")
        let report = SessionReplayer().replay(log, file: "resize.jsonl")
        #expect(report.isIdentical, "\(report.identity ?? "no identity") \(report.divergence ?? "")")
        #expect(loop.metrics.auditFailures.isEmpty && loop.ledger.isBalanced)
    }

    @Test("the pencil's hover and the pencil-only setting are recorded as they were taken, and the replay decides the same: a palm beside the hovering pen, a finger the page's by the setting",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func pencilInputs(routing: TouchRouting) throws {
        let (lines, clock, _, loop) = Self.recordingLoop(routing)
        loop.submit(.pageMessage(PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 60, regions: [])).json))
        loop.submit(.pencilHovering(true))
        loop.submit(Self.tap(1, x: 300, y: 300, at: 1, tool: .finger))    // the hand beside the hovering pen: a palm
        clock.advance(to: 1.1)
        loop.submit(.pencilHovering(false))
        clock.advance(to: 2)
        loop.submit(.pencilOnly(true))
        loop.submit(Self.tap(2, x: 300, y: 300, at: 2, tool: .finger))    // a finger: the page's by the setting
        clock.advance(to: 2.5)
        loop.stop()
        #expect(lines.text.contains(#"{"kind":"pencil_hover","t":1,"hovering":true,"#), "\(lines.text)")
        #expect(lines.text.contains(#"{"kind":"pencil_only","t":2,"on":true,"#), "\(lines.text)")
        let log = try SessionLog.parse(lines.text, file: "pencil.jsonl").get()
        #expect(log.events.contains(.recorded(.frontEnd(.pencilHovering(false)), time: 1.1)))
        #expect(loop.metrics.auditFailures.isEmpty && loop.ledger.isBalanced)
        let report = SessionReplayer().replay(log, file: "pencil.jsonl")
        #expect(report.isIdentical, "\(report.identity ?? "no identity") \(report.divergence ?? "")")
        let decided = log.events.compactMap { if case let .recorded(.decided(touch, verdict, reason, _), _) = $0 { (touch.platform.rawValue, verdict, reason) } else { nil } }
        #expect(decided.contains { $0.0 == 2 && $0.1 == .page && $0.2 == .toolPolicy }, "\(decided)")
        #expect(!decided.contains { $0.0 == 1 }, "\(decided)")   // a palm is never decided
    }
}
