import Testing
import InkCore

/// The engine example in README.md, checked action by action so the README stays true.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("a pencil dot that lifts before its answer becomes ink on the answer")
    func readmeExample() throws {
        var router = TouchRouter()
        var actions: [RouterAction] = []
        let down = TouchSample(x: 345, y: 565, timestamp: 1.600, force: 0.5, tool: .pencil)
        try router.handle(TouchEvent(touch: TouchID(2), phase: .began, samples: [down]), into: &actions)
        #expect(actions == [.queryPage(QueryID(rawValue: 1), touch: TouchID(2), point: CanvasPoint(x: 345, y: 565), askedAt: 1.6)])
        actions.removeAll()
        try router.handle(TouchEvent(touch: TouchID(2), phase: .ended, samples: []), into: &actions)
        #expect(actions.isEmpty)
        #expect(router.ledger.pending == 1)
        router.verdictArrived(QueryID(rawValue: 1), .ink, into: &actions)
        #expect(actions == [
            .decided(TouchID(2), .ink, .answered), .ink(TouchID(2), down), .endInk(TouchID(2)),
            .touchFinished(TouchID(2), SampleLedger(received: 1, inked: 1)),
        ])
        actions.removeAll()
        router.deadlinePassed(now: 1.9, fallback: .ink, into: &actions)
        #expect(actions.isEmpty)
        #expect(router.ledger == SampleLedger(received: 1, inked: 1))
        #expect(router.ledger.dropped == 0)
    }
}
