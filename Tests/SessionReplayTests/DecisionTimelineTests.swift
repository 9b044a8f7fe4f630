import Foundation
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) @testable import SessionReplay

@Suite("Decision timeline")
struct DecisionTimelineTests {
    static func timeline(_ log: SessionLog, _ configure: (inout ReplayConfiguration) -> Void = { _ in }) throws -> (DecisionTimeline, ReplayReport) {
        var configuration = ReplayConfiguration()
        configuration.recordsTimeline = true
        configure(&configuration)
        let report = SessionReplayer(configuration: configuration).replay(log)
        #expect(report.isVerified)
        return (try #require(report.timeline), report)
    }

    static func fixture(_ name: String) throws -> SessionLog {
        try SessionLog.read(contentsOf: FixturePaths.stroke(name)).get()
    }

    @Test("a decimal point answered after 30 ms: queued, its round trip, the verdict, then ink, each at its time")
    func answered() throws {
        let (timeline, _) = try Self.timeline(SyntheticSessions.decimalPoint) { $0.oracle = .recordedWithLatency(0.030) }
        #expect(timeline.touches.count == 2)
        let dot = timeline.touches[1]
        #expect(dot.platformID == PlatformTouchID(2) && dot.tool == .pencil && dot.samples == 4)
        #expect(abs(dot.down - 1.6) < 1e-9)
        #expect(abs((dot.lift ?? 0) - 1.6125) < 1e-9)
        let question = try #require(dot.questions.first)
        #expect(dot.questions.count == 1 && question.token != nil)
        #expect(abs((question.sent ?? 0) - 1.6) < 1e-9 && abs((question.answered ?? 0) - 1.63) < 1e-9)
        let decision = try #require(dot.decision)
        #expect(decision.verdict == .ink && decision.reason == .answered && abs(decision.time - 1.63) < 1e-9)
        // The queued samples are inked when the answer comes, all four at that instant.
        #expect(dot.ink == DecisionTimeline.Span(first: decision.time, last: decision.time, samples: 4))
        #expect(dot.speculative == nil && dot.released == nil && dot.cancelled == nil)
        #expect(dot.finished?.ledger.inked == 4)
        #expect(timeline.page.contains { if case .regionsAccepted(generation: 1, regions: _) = $0.kind { return true } else { return false } })
    }

    @Test("an answer later than the deadline: decided by the deadline when it fires, the late answer on the page lane and the touch")
    func late() throws {
        let (timeline, _) = try Self.timeline(SyntheticSessions.decimalPoint) { $0.oracle = .recordedWithLatency(1.0) }
        let dot = timeline.touches[1]
        let decision = try #require(dot.decision)
        #expect(decision.reason == .deadline && abs(decision.time - 1.85) < 1e-9)
        #expect(dot.questions.first?.answered == nil && dot.questions.first?.closed == decision.time)
        #expect(abs((dot.ink?.first ?? 0) - 1.85) < 1e-9)
        let late = timeline.page.filter { if case .answerNotTaken(.late, _) = $0.kind { return true } else { return false } }
        #expect(late.count == 2, "both touches' answers came after their deadlines")
        #expect(dot.notes.map(\.text) == ["late answer"] && abs(dot.notes[0].time - 2.6) < 1e-9)
    }

    @Test("the cache answers a drag without a round trip; a second finger takes an inking touch to the page: both decisions, the retraction")
    func cacheAndRetraction() throws {
        let (drag, _) = try Self.timeline(Self.fixture("drag-block.jsonl")) { $0.engine.useRegionCache = true }
        let touch = try #require(drag.touches.first)
        #expect(touch.decision?.reason == .regionCache && touch.decision?.verdict == .page)
        #expect(touch.questions.allSatisfy { $0.sent == nil }, "no round trip")
        #expect(touch.released?.samples == touch.samples)

        let (scroll, report) = try Self.timeline(Self.fixture("scroll-then-write.jsonl")) {
            $0.oracle = .regions(latency: 0.030)
            $0.engine.useRegionCache = true
        }
        let first = try #require(scroll.touches.first)
        #expect(first.decisions.map(\.verdict) == [.ink, .page])
        #expect(first.decisions.map(\.reason) == [.regionCache, .multiTouchGesture])
        let retracted = try #require(first.retracted)
        #expect(retracted == first.finalDecision?.time && (first.ink?.last ?? .infinity) <= retracted)
        #expect(first.released?.samples == first.samples, "every sample ends with the page")
        #expect(scroll.touches.count == report.touchCount)
    }

    @Test("speculative ink: drawn before the decision, confirmed by it")
    func speculative() throws {
        let (timeline, _) = try Self.timeline(SyntheticSessions.decimalPoint) {
            $0.oracle = .regions(latency: 0.100)
            $0.engine.speculativeInk = true
        }
        let dot = timeline.touches[1]
        let decision = try #require(dot.decision)
        let speculative = try #require(dot.speculative)
        #expect(decision.verdict == .ink && speculative.last < decision.time && dot.retracted == nil)
        #expect(speculative.samples + (dot.ink?.samples ?? 0) == dot.samples)
    }

    @Test("a cancelled touch is marked with what had been shown")
    func cancelled() throws {
        let (timeline, _) = try Self.timeline(Self.fixture("cancelled-touch.jsonl"))
        let cancelled = timeline.touches.filter { $0.cancelled != nil }
        #expect(!cancelled.isEmpty)
        for touch in cancelled {
            #expect(touch.finished?.ledger.cancelled == touch.samples - (touch.finished?.ledger.inked ?? 0) - (touch.finished?.ledger.released ?? 0))
        }
    }

    @Test("memory is bounded: touches and page events past the limits are counted, not kept")
    func bounded() throws {
        var timeline = DecisionTimeline(touchLimit: 3, pageEventLimit: 2)
        for k in 0..<10 {
            let id = TouchID(UInt64(k + 1))
            let time = Double(k)
            let sample = TouchSample(x: 1, y: 1, timestamp: time, tool: .pencil)
            timeline.observe(EngineEvent(time: time, touch: EngineTouch(engine: id, platform: PlatformTouchID(1)),
                                         kind: .took(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [sample]))))
            timeline.observe(EngineEvent(time: time, kind: .layout(.identity, generation: UInt64(k))))
        }
        #expect(timeline.touches.count == 3 && timeline.omittedTouches == 7)
        #expect(timeline.page.count == 2 && timeline.omittedPageEvents == 8)
        #expect(timeline.start == 0 && timeline.end == 9)
    }

    @Test("a question sent again closes the earlier round trip; an event refused by the touch-id rule is noted on no lane")
    func resentAndRefused() throws {
        var timeline = DecisionTimeline()
        let touch = TouchID(7), point = CanvasPoint(x: 5, y: 5), pagePoint = PageTransform.identity.pagePoint(for: point)
        let named = EngineTouch(engine: touch, platform: PlatformTouchID(3))
        let down = TouchEvent(touch: named.platform, phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1, tool: .pencil)])
        let first = HitTestRequest(token: QueryToken(high: 1, low: 1), pagePoint: pagePoint, generation: 1)
        let again = HitTestRequest(token: QueryToken(high: 1, low: 2), pagePoint: pagePoint, generation: 2)
        timeline.observe(EngineEvent(time: 1, touch: named, kind: .took(down)))
        timeline.observe(EngineEvent(time: 1, touch: named, kind: .action(.queryPage(QueryID(rawValue: 1), touch: touch, point: point, askedAt: 1))))
        timeline.observe(EngineEvent(time: 1, touch: named, roundTrip: first.token, kind: .send(first, touches: [named])))
        // The page answered for an old layout: the bridge sends the question again.
        let stale = PageMessage.answer(PageAnswer(token: first.token, verdict: .ink, generation: 1))
        timeline.observe(EngineEvent(time: 1.02, roundTrip: first.token, kind: .pageMessage(stale, .staleGeneration)))
        timeline.observe(EngineEvent(time: 1.02, touch: named, roundTrip: again.token, kind: .send(again, touches: [named])))
        let questions = timeline.touches[0].questions
        #expect(questions.count == 2)
        #expect(questions[0].closed == 1.02 && questions[0].answered == nil)
        #expect(questions[1].token == again.token && questions[1].sent == 1.02)
        #expect(timeline.touches[0].notes.map(\.text) == ["stale answer"])
        // A stray event refused by the touch-id rule names no touch the engine knows.
        let stray = TouchEvent(touch: PlatformTouchID(7), phase: .moved, samples: [TouchSample(x: 5, y: 5, timestamp: 1.05, tool: .pencil)])
        timeline.observe(EngineEvent(time: 1.05, kind: .refused(.touch(stray), .touchNotDown(PlatformTouchID(7)))))
        #expect(timeline.touches[0].notes.count == 1)
        // A refused event of a touch the engine knows is noted on its lane.
        timeline.observe(EngineEvent(time: 1.06, touch: named, kind: .refused(.touch(stray), .timeWentBackwards(now: 1.06, given: 1))))
        #expect(timeline.touches[0].notes.count == 2)
    }

    @Test("without the option, nothing is recorded")
    func off() {
        let report = SessionReplayer().replay(SyntheticSessions.decimalPoint)
        #expect(report.timeline == nil)
    }
}
