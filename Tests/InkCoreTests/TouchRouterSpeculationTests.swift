import Testing
@_spi(Tooling) @testable import InkCore

@Suite("TouchRouter: speculative ink")
struct TouchRouterSpeculationTests {
    let t1 = TouchID(1)

    /// A pencil touch that began with two samples and is waiting for query 1.
    func waiting() throws -> TouchRouter {
        var router = TouchRouter()
        _ = try router.handle(.began(t1, [sample(1.0, tool: .pencil), sample(1.004, x: 51, tool: .pencil)]))
        return router
    }

    @Test("speculating inks the queued samples at once and the following ones as they come")
    func inksAtOnce() throws {
        var router = try waiting()
        var actions: [RouterAction] = []
        #expect(router.speculate(.q(1), into: &actions))
        #expect(actions == [.ink(t1, sample(1.0, tool: .pencil)), .ink(t1, sample(1.004, x: 51, tool: .pencil))])
        #expect(try router.handle(.moved(t1, [sample(1.008, x: 52, tool: .pencil)])) == [.ink(t1, sample(1.008, x: 52, tool: .pencil))])
        #expect(!router.speculate(.q(1), into: &actions))  // already speculative
        #expect(!router.speculate(.q(7), into: &actions))  // no such query
        #expect(router.counters.speculations == 1)
        #expect(router.ledger.inked == 3 && router.ledger.isBalanced)
    }

    @Test("the page's ink verdict confirms the tentative ink without redrawing it")
    func confirmed() throws {
        var router = try waiting()
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        _ = try router.handle(.ended(t1, [sample(1.012, x: 53, tool: .pencil)]))  // stays tentative until answered
        let (outcome, answered) = router.answer(.q(1), .ink)
        #expect(outcome == .applied)
        #expect(answered.first == .decided(t1, .ink, .answered))
        #expect(answered.dropFirst().first == .endInk(t1))
        #expect(router.counters.retractions == 0)
        #expect(router.ledger.inked == 3 && router.ledger.released == 0 && router.ledger.isBalanced)
    }

    @Test("the page claiming the touch retracts the ink and releases every sample in order, with its timestamps")
    func retracted() throws {
        var router = try waiting()
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        _ = try router.handle(.moved(t1, [sample(1.008, x: 52, tool: .pencil)]))
        let (_, answered) = router.answer(.q(1), .page)
        #expect(answered == [
            .retractInk(t1), .decided(t1, .page, .answered),
            .release(t1, sample(1.0, tool: .pencil)), .release(t1, sample(1.004, x: 51, tool: .pencil)),
            .release(t1, sample(1.008, x: 52, tool: .pencil)),
        ])
        #expect(try router.handle(.moved(t1, [sample(1.012, x: 53, tool: .pencil)])) == [.release(t1, sample(1.012, x: 53, tool: .pencil))])
        #expect(router.counters.retractions == 1 && router.counters.retractedSamples == 3)
        #expect(router.ledger.inked == 0 && router.ledger.released == 4 && router.ledger.isBalanced)
    }

    @Test("a deadline falling back to the page retracts too")
    func deadlineToPage() throws {
        var router = try waiting()
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        let produced = router.deadline(now: 2, fallback: .page)
        #expect(produced.prefix(3) == [.abandonQuery(.q(1), touch: t1), .retractInk(t1), .decided(t1, .page, .deadline)])
        #expect(router.ledger.released == 2 && router.ledger.isBalanced)
    }

    @Test("cancelling a speculative touch discards its ink")
    func cancelled() throws {
        var router = try waiting()
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        let produced = try router.handle(.cancelled(t1))
        #expect(produced.prefix(2) == [.abandonQuery(.q(1), touch: t1), .cancel(t1, previously: .ink)])
        #expect(router.ledger.cancelled == 2 && router.ledger.inked == 0 && router.ledger.isBalanced)
        #expect(router.answer(.q(1), .ink).outcome == .late)
    }

    @Test("a speculative finger is no gesture partner until answered ink; then a second finger on the paper takes both to the page")
    func gesture() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(t1, [sample(1.0)]))
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        let produced = try router.handle(.began(TouchID(2), [sample(1.05, x: 200)]))
        #expect(produced == [.queryPage(.q(2), touch: TouchID(2), point: CanvasPoint(x: 200, y: 60), askedAt: 1.05)])
        #expect(router.answer(.q(1), .ink).actions == [.decided(t1, .ink, .answered)])   // the tentative ink stands
        let gesture = router.answer(.q(2), .ink).actions
        #expect(gesture.dropFirst(2).prefix(3) == [.retractInk(t1), .decided(t1, .page, .multiTouchGesture), .release(t1, sample(1.0))])
        #expect(router.ledger.isBalanced && router.ledger.inked == 0)
    }

    @Test("estimated force on tentative ink is refined like any ink")
    func refinedWhileTentative() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(t1, [sample(1.0, tool: .pencil, force: 0.2, update: 5)]))
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        var refined: [RouterAction] = []
        try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 5, force: 0.6), into: &refined)
        #expect(refined == [.refineInk(t1, index: 0, sample(1.0, tool: .pencil, force: 0.6))])  // final: no longer an estimate
    }
}
