@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing

/// The engine example in docs/embedding.md ("The engine in ten lines"), checked event by event so
/// the page stays true.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("a pencil dot that lifts before its answer becomes ink on the answer, every sample accounted for")
    func readmeExample() throws {
        var engine = InkEngine()
        var events: [EngineEvent] = []
        let down = TouchSample(x: 345, y: 565, timestamp: 1.600, force: 0.5, tool: .pencil)
        engine.take([.touch(TouchEvent(touch: PlatformTouchID(2), phase: .began, samples: [down])),
                     .touch(TouchEvent(touch: PlatformTouchID(2), phase: .ended, samples: []))], now: 1.600, into: &events)
        let touch = try #require(events.first?.engineTouch)
        #expect(touch.platform.rawValue == 2)
        guard case .took? = events.first?.kind, case .action(.queryPage)? = events.dropFirst().first?.kind,
              case let .send(request, touches)? = events.dropFirst(2).first?.kind, case .took? = events.dropFirst(3).first?.kind else {
            Issue.record("expected took, queryPage, send, took: \(events)")
            return
        }
        #expect(events.count == 4 && touches == [touch] && request.generation == PageScript.firstGeneration)
        #expect(engine.ledger.pending == 1)   // the dot lifted before the answer: queued
        events.removeAll()

        let answerFromThePage = PageMessage.answer(PageAnswer(token: request.token, verdict: .ink, generation: 1)).json
        #expect(answerFromThePage.contains(#""interactive":0"#))
        engine.take(.pageMessage(answerFromThePage), now: 1.630, into: &events)
        #expect(events.first?.kind == .pageMessage(.answer(PageAnswer(token: request.token, verdict: .ink, generation: 1)),
                                                   .answered(queries: 1)))
        #expect(events.dropFirst().map(\.action) == [
            .decided(touch.engine, .ink, .answered), .ink(touch.engine, down), .endInk(touch.engine),
            .touchFinished(touch.engine, SampleLedger(received: 1, inked: 1)),
        ])
        #expect(events.dropFirst().allSatisfy { $0.engineTouch == touch && $0.time == 1.630 })
        events.removeAll()
        engine.advance(to: 1.9, into: &events)
        #expect(events.isEmpty)
        #expect(engine.ledger == SampleLedger(received: 1, inked: 1) && engine.ledger.dropped == 0 && engine.isSettled)
    }
}
