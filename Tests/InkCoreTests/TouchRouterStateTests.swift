import Testing
@_spi(Tooling) @testable import InkCore

/// The per-touch state (``TouchState``) through each transition: what every case holds, read
/// with `TouchRouter.state(of:)`, beside the actions the transition produces.
@Suite("TouchRouter: per-touch state")
struct TouchRouterStateTests {
    typealias Inking = TouchState.Inking
    let t1 = TouchID(1)
    let t2 = TouchID(2)
    let t3 = TouchID(3)

    func deciding(_ query: UInt64, _ queue: [TouchSample], lifted: Bool = false) -> TouchState {
        .deciding(TouchState.Deciding(query: .q(query), queue: queue, lifted: lifted))
    }

    @Test("deciding holds the queue; speculating turns it into tentative ink; the answer carries the ink, its window and its prediction over")
    func decidingSpeculatingInking() throws {
        var router = TouchRouter()
        let s0 = sample(1.0), s1 = sample(1.004, x: 51), s2 = sample(1.008, x: 52), tail = sample(1.012, x: 53)
        _ = try router.handle(.began(t1, [s0, s1]))
        #expect(router.state(of: t1) == deciding(1, [s0, s1]))

        var actions: [RouterAction] = []
        #expect(router.speculate(.q(1), into: &actions))
        #expect(router.state(of: t1) == .speculating(TouchState.Speculating(
            query: .q(1), tentative: [s0, s1], ink: Inking(window: [s0, s1]), lifted: false)))

        #expect(try router.handle(.moved(t1, [s2], predicted: [tail])) == [.ink(t1, s2), .predictInk(t1, [tail])])
        #expect(router.state(of: t1) == .speculating(TouchState.Speculating(
            query: .q(1), tentative: [s0, s1, s2], ink: Inking(window: [s0, s1, s2], showsPrediction: true),
            lifted: false)))

        #expect(router.answer(.q(1), .ink).actions == [.decided(t1, .ink, .answered)])
        #expect(router.state(of: t1) == .inking(Inking(window: [s0, s1, s2], showsPrediction: true)))

        // The prediction shown is cleared by the next event without one, once.
        let s3 = sample(1.016, x: 54)
        #expect(try router.handle(.moved(t1, [s3])) == [.ink(t1, s3), .predictInk(t1, [])])
        #expect(router.state(of: t1) == .inking(Inking(window: [s0, s1, s2, s3])))
        let s4 = sample(1.020, x: 55)
        #expect(try router.handle(.moved(t1, [s4])) == [.ink(t1, s4)])

        // Past the gesture window (150 ms) the window closes: a second finger is no partner.
        let late = sample(1.2, x: 56)
        _ = try router.handle(.moved(t1, [late]))
        #expect(router.state(of: t1) == .inking(Inking(window: nil)))
        _ = try router.handle(.began(t2, [sample(1.21, x: 300)]))
        #expect(router.state(of: t1) == .inking(Inking(window: nil)))
        #expect(router.state(of: t2) == deciding(2, [sample(1.21, x: 300)]))
    }

    @Test("a pencil's ink has no gesture window")
    func pencilWindow() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(pencilOnly: true))
        _ = try router.handle(.began(t1, [sample(1.0, tool: .pencil)]))
        #expect(router.state(of: t1) == .inking(Inking(window: nil)))
        _ = try router.handle(.began(t2, [sample(1.0)]))
        #expect(router.state(of: t2) == .page(.handedOver))
    }

    @Test("a lift while undecided stays in the state: the touch takes no more events, and finishes when decided")
    func liftedWhileDeciding() throws {
        var router = TouchRouter()
        let down = sample(1.0, tool: .pencil, force: 0.2, update: 9)
        _ = try router.handle(.began(t1, [down]))
        _ = try router.handle(.ended(t1))
        #expect(router.state(of: t1) == deciding(1, [down], lifted: true))
        #expect(router.unfinishedTouches == [t1])
        expectRefused(.unknownTouch(t1), by: &router) { router, actions throws(RouterError) in
            try router.handle(.moved(t1, [sample(1.1, tool: .pencil)]), into: &actions)
        }

        var actions: [RouterAction] = []
        #expect(router.speculate(.q(1), into: &actions))  // a lifted touch may still be drawn
        #expect(router.state(of: t1) == .speculating(TouchState.Speculating(
            query: .q(1), tentative: [down], ink: Inking(window: nil), lifted: true)))

        let answered = router.answer(.q(1), .ink).actions
        #expect(answered.prefix(2) == [.decided(t1, .ink, .answered), .endInk(t1)])
        #expect(router.unfinishedTouches.isEmpty)
        #expect(router.state(of: t1) == .finished(.inked))  // kept: its sample awaits an update
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 9, force: 0.5))
            == [.refineInk(t1, index: 0, sample(1.0, tool: .pencil, force: 0.5))])
        #expect(router.state(of: t1) == nil)  // nothing awaits any more
    }

    @Test("how a touch finished decides whether a late update still refines its ink")
    func finishedStates() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(pencilOnly: true))
        _ = try router.handle(.began(t1, [sample(1.0, tool: .pencil, force: 0.2, update: 1)]))
        _ = try router.handle(.ended(t1))
        _ = try router.handle(.began(t2, [sample(1.0, tool: .pencil, force: 0.2, update: 2)]))
        _ = try router.handle(.cancelled(t2))
        _ = try router.handle(.began(t3, [sample(1.0, force: 0.2, update: 3)]))
        _ = try router.handle(.ended(t3))
        #expect(router.state(of: t1) == .finished(.inked))
        #expect(router.state(of: t2) == .finished(.cancelled))
        #expect(router.state(of: t3) == .finished(.released))

        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 1, force: 0.4)).count == 1)
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t2.rawValue), updateIndex: 2, force: 0.4)).isEmpty)
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t3.rawValue), updateIndex: 3, force: 0.4)).isEmpty)
        #expect(router.counters.updatesApplied == 1 && router.counters.updatesIgnored == 2)
    }

    @Test("the page's touches: native at touch-down (never a gesture), fingers on the paper taken into a gesture, which a third joins; one the page claimed is handed over")
    func pageRoutes() throws {
        var router = TouchRouter()
        var actions: [RouterAction] = []
        try router.handle(.began(t1, [sample(1.0)]), routedToPage: true, into: &actions)
        #expect(router.state(of: t1) == .page(.native))
        _ = try router.handle(.began(t2, [sample(1.01, x: 200)]))
        #expect(router.state(of: t2) == deciding(1, [sample(1.01, x: 200)]))  // no gesture with a native touch

        #expect(router.answer(.q(1), .ink).actions == [.decided(t2, .ink, .answered), .ink(t2, sample(1.01, x: 200))])
        #expect(router.state(of: t2) == .inking(Inking(window: [sample(1.01, x: 200)])))
        _ = try router.handle(.began(t3, [sample(1.02, x: 300)]))
        _ = router.answer(.q(2), .ink)   // both on the paper, within the window: a gesture
        #expect(router.state(of: t2) == .page(.gesture))
        #expect(router.state(of: t3) == .page(.gesture))
        #expect(router.state(of: t1) == .page(.native))
        #expect(router.counters.gestures == 1)

        let t4 = TouchID(4)
        _ = try router.handle(.began(t4, [sample(1.03, x: 400)]))
        _ = router.answer(.q(3), .ink)
        #expect(router.state(of: t4) == .page(.gesture))
        #expect(router.counters.gestures == 1)  // joined, not a new gesture

        let t5 = TouchID(5)
        _ = try router.handle(.began(t5, [sample(1.04, x: 500)]))
        _ = router.answer(.q(4), .page)
        #expect(router.state(of: t5) == .page(.handedOver))  // the page's: no partner

        let ended = try router.handle(.ended(t1))
        #expect(ended.count == 1 && ended.allSatisfy(\.isTouchFinished))  // no endRelease: the platform ends it
    }

    @Test("a gesture takes an inking finger back within its window: the window's samples, refined, go to the page")
    func gestureTakesInk() throws {
        var router = TouchRouter()
        let s0 = sample(1.0, force: 0.2, update: 4), s1 = sample(1.004, x: 51)
        _ = try router.handle(.began(t1, [s0, s1]))
        _ = router.answer(.q(1), .ink)
        _ = try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 4, force: 0.7, isFinal: false))
        let refined = sample(1.0, force: 0.7, update: 4)
        #expect(router.state(of: t1) == .inking(Inking(window: [refined, s1])))

        _ = try router.handle(.began(t2, [sample(1.05, x: 200)]))
        let produced = router.answer(.q(2), .ink).actions
        #expect(produced.dropFirst(2).prefix(4) == [.retractInk(t1), .decided(t1, .page, .multiTouchGesture),
                                                    .release(t1, refined), .release(t1, s1)])
        #expect(router.state(of: t1) == .page(.gesture))
        // Released now: a later update to its sample is ignored, not drawn.
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 4, force: 0.9)).isEmpty)
        #expect(router.ledger.isBalanced && router.ledger.inked == 0)
    }

    @Test("the page claiming a speculative touch leaves no ink state behind: predictions stop, updates are ignored")
    func retractedSpeculation() throws {
        var router = TouchRouter()
        let s0 = sample(1.0, tool: .pencil, force: 0.2, update: 6)
        _ = try router.handle(.began(t1, [s0], predicted: [sample(1.004, x: 51, tool: .pencil)]))
        var actions: [RouterAction] = []
        router.speculate(.q(1), into: &actions)
        let tail = sample(1.012, x: 53, tool: .pencil)
        _ = try router.handle(.moved(t1, [sample(1.008, x: 52, tool: .pencil)], predicted: [tail]))
        _ = router.answer(.q(1), .page)
        #expect(router.state(of: t1) == .page(.handedOver))
        // A prediction was drawn, but the page's touch has no ink to predict: nothing to clear.
        let moved = sample(1.016, x: 54, tool: .pencil)
        #expect(try router.handle(.moved(t1, [moved], predicted: [tail])) == [.release(t1, moved)])
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 6, force: 0.5)).isEmpty)
        #expect(router.counters.updatesIgnored == 1)
    }

    @Test("the page claiming a speculative touch gets its samples as refined so far, as it does from the queue")
    func retractedSamplesRefined() throws {
        let estimated = sample(1.0, tool: .pencil, force: 0.2, update: 5)
        let refined = sample(1.0, tool: .pencil, force: 0.6, update: 5)
        let update = EstimatedPropertyUpdate(touch: PlatformTouchID(t1.rawValue), updateIndex: 5, force: 0.6, isFinal: false)

        var queued = TouchRouter()
        _ = try queued.handle(.began(t1, [estimated]))
        _ = try queued.applying(update)
        #expect(queued.answer(.q(1), .page).actions.contains(.release(t1, refined)))

        var speculated = TouchRouter()
        _ = try speculated.handle(.began(t1, [estimated]))
        var actions: [RouterAction] = []
        speculated.speculate(.q(1), into: &actions)
        #expect(try speculated.applying(update) == [.refineInk(t1, index: 0, refined)])
        #expect(speculated.answer(.q(1), .page).actions == [
            .retractInk(t1), .decided(t1, .page, .answered), .release(t1, refined),
        ])
    }

    @Test("cancelling each state says what the touch was, and nothing of it stays active")
    func cancelEachState() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(t1, [sample(1.0)]))                          // deciding
        _ = try router.handle(.began(t2, [sample(1.0, tool: .pencil)]))          // speculating
        var actions: [RouterAction] = []
        router.speculate(.q(2), into: &actions)
        _ = try router.handle(.began(t3, [sample(1.0, tool: .pencil)]))          // inking
        _ = router.answer(.q(3), .ink)
        let t4 = TouchID(4)
        try router.handle(.began(t4, [sample(1.0, x: 400)]), routedToPage: true, into: &actions)  // native page
        let expected: [(TouchID, CancelledRoute)] = [(t1, .undecided), (t2, .ink), (t3, .ink), (t4, .nativePage)]
        for (touch, previously) in expected {
            let produced = try router.handle(.cancelled(touch))
            #expect(produced.contains(.cancel(touch, previously: previously)), "\(touch)")
            #expect(router.state(of: touch) == nil, "\(touch)")  // no sample awaits an update
        }
        #expect(router.unfinishedTouches.isEmpty && router.ledger.isBalanced)
    }
}

extension RouterAction {
    fileprivate var isTouchFinished: Bool {
        if case .touchFinished = self { return true }
        return false
    }
}
