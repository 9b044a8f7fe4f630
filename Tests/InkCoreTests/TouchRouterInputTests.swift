import Testing
@_spi(Tooling) import InkCore

// TouchRouter's handling of what comes in besides plain samples: estimated-property updates,
// predicted samples, and input it must refuse without changing anything.

private let one = TouchID(1)
private let two = TouchID(2)

@Suite("TouchRouter: estimated property updates")
struct TouchRouterUpdateTests {
    @Test("an update for a queued sample refines it before it is inked")
    func refinesQueued() throws {
        var router = TouchRouter()
        let down = sample(1.0, tool: .pencil, force: 0.2, update: 5)
        _ = try router.handle(.began(one, [down]))
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 5, force: 0.7, altitude: 1.1)).isEmpty)
        #expect(router.counters.updatesApplied == 1)
        var refined = down
        refined.force = 0.7
        refined.altitude = 1.1
        refined.estimationUpdateIndex = nil
        #expect(router.answer(.q(1), .ink).actions == [.decided(one, .ink, .answered), .ink(one, refined)])
        // A final update settled the estimate: the index is gone.
        expectRefused(.unknownUpdateIndex(one, 5), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 5, force: 0.9), into: &actions)
        }
    }

    @Test("an update for a queued sample refines it before it is released")
    func refinesQueuedReleased() throws {
        var router = TouchRouter()
        let down = sample(1.0, tool: .pencil, force: 0.2, update: 5)
        _ = try router.handle(.began(one, [down]))
        _ = try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 5, force: 0.4, isFinal: false))
        var refined = down
        refined.force = 0.4
        #expect(router.answer(.q(1), .page).actions == [.decided(one, .page, .answered), .release(one, refined)])
    }

    @Test("an update for an inked sample emits refineInk with its index, also after lift")
    func refinesInked() throws {
        var router = TouchRouter()
        let samples = [
            sample(1.0, x: 1, tool: .pencil, force: 0.3),
            sample(1.01, x: 2, tool: .pencil, force: 0.3, update: 8),
            sample(1.02, x: 3, tool: .pencil, force: 0.3, update: 9),
        ]
        _ = try router.handle(.began(one, [samples[0]]))
        _ = router.answer(.q(1), .ink)
        _ = try router.handle(.moved(one, Array(samples[1...])))

        var tentative = samples[2]
        tentative.force = 0.5
        let first = try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 9, force: 0.5, isFinal: false))
        #expect(first == [.refineInk(one, index: 2, tentative)])

        _ = try router.handle(.ended(one))
        var final = tentative
        final.force = 0.6
        final.azimuth = 0.25
        final.estimationUpdateIndex = nil
        let second = try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 9, force: 0.6, azimuth: 0.25))
        #expect(second == [.refineInk(one, index: 2, final)])

        var other = samples[1]
        other.force = 1
        other.estimationUpdateIndex = nil
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 8, force: 1)) == [.refineInk(one, index: 1, other)])
        #expect(router.counters.updatesApplied == 3)
        #expect(router.counters.updatesIgnored == 0)
        // Every awaited update arrived: the finished touch is forgotten.
        expectRefused(.unknownTouch(one), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 9, force: 0.1), into: &actions)
        }
    }

    @Test("an update for a released sample needs nothing and is counted")
    func releasedIgnored() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil, force: 0.2, update: 3)]))
        _ = router.answer(.q(1), .page)
        _ = try router.handle(.moved(one, [sample(1.01, tool: .pencil, force: 0.2, update: 4)]))
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 3, force: 0.5)).isEmpty)
        _ = try router.handle(.ended(one))
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 4, force: 0.5)).isEmpty)
        #expect(router.counters.updatesIgnored == 2)
        #expect(router.counters.updatesApplied == 0)
        #expect(router.ledger == SampleLedger(received: 2, released: 2))
    }

    @Test("an update for a retracted sample needs nothing; one refined before the retraction is released refined")
    func retracted() throws {
        var router = TouchRouter()
        let down = sample(1.0, x: 1, force: 0.2, update: 1)
        let next = sample(1.01, x: 2, force: 0.2, update: 2)
        _ = try router.handle(.began(one, [down, next]))
        _ = router.answer(.q(1), .ink)
        var refined = down
        refined.force = 0.9
        refined.estimationUpdateIndex = nil
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 1, force: 0.9)) == [.refineInk(one, index: 0, refined)])
        _ = try router.handle(.began(two, [sample(1.05, x: 300)]))
        let actions = router.answer(.q(2), .ink).actions   // both on the paper: a gesture
        #expect(Array(actions.dropFirst(2).prefix(4)) == [.retractInk(one), .decided(one, .page, .multiTouchGesture), .release(one, refined), .release(one, next)])
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 2, force: 0.5)).isEmpty)
        #expect(router.counters.updatesIgnored == 1)
    }

    @Test("an update for a sample of a touch cancelled while inking needs nothing")
    func cancelledInk() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil, force: 0.2, update: 3)]))
        _ = router.answer(.q(1), .ink)
        _ = try router.handle(.cancelled(one))
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 3, force: 0.5)).isEmpty)
        #expect(router.counters.updatesIgnored == 1)
    }

    @Test("an update for a sample of a touch cancelled while deciding needs nothing")
    func cancelledUndecided() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil, force: 0.2, update: 3)]))
        _ = try router.handle(.cancelled(one))
        #expect(try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 3, force: 0.5)).isEmpty)
        #expect(router.counters.updatesIgnored == 1)
    }

    @Test("an update naming an index no sample carries is refused")
    func unknownIndex() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil, force: 0.2, update: 3)]))
        expectRefused(.unknownUpdateIndex(one, 4), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 4, force: 0.5), into: &actions)
        }
        _ = router.answer(.q(1), .ink)
        expectRefused(.unknownUpdateIndex(one, 4), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 4, force: 0.5), into: &actions)
        }
    }

    @Test("an update with a non-finite or out-of-range value is refused",
          arguments: [
            EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 3, force: .nan),
            EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 3, force: .infinity),
            EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 3, force: -0.01),
            EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 3, force: 1.01),
            EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 3, altitude: .nan),
            EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 3, azimuth: -.infinity),
          ])
    func invalidUpdate(update: EstimatedPropertyUpdate) throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil, force: 0.2, update: 3)]))
        expectRefused(.invalidUpdate(one, 3), by: &router) { router, actions throws(RouterError) in
            try router.apply(update, into: &actions)
        }
        _ = router.answer(.q(1), .ink)
        expectRefused(.invalidUpdate(one, 3), by: &router) { router, actions throws(RouterError) in
            try router.apply(update, into: &actions)
        }
    }

    @Test("an update for a touch the router does not know is refused")
    func unknownTouch() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil, force: 0.2, update: 3)]))
        expectRefused(.unknownTouch(two), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(two.rawValue), updateIndex: 3, force: 0.5), into: &actions)
        }
        // A touch that finished with nothing awaiting an update is forgotten.
        _ = router.answer(.q(1), .ink)
        _ = try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 3, force: 0.5))
        _ = try router.handle(.ended(one))
        expectRefused(.unknownTouch(one), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(one.rawValue), updateIndex: 3, force: 0.5), into: &actions)
        }
    }

    @Test("finished touches stay reachable for updates up to the retired-touch limit")
    func retiredLimit() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(pencilOnly: true))
        let count = TouchRouter.retiredTouchLimit + 1
        for n in 1...count {
            let id = TouchID(UInt64(n))
            _ = try router.handle(.began(id, [sample(Double(n), tool: .pencil, force: 0.1, update: UInt64(n))]))
            _ = try router.handle(.ended(id))
        }
        expectRefused(.unknownTouch(TouchID(1)), by: &router) { router, actions throws(RouterError) in
            try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 1, force: 0.5), into: &actions)
        }
        for n in 2...count {
            let actions = try router.applying(EstimatedPropertyUpdate(touch: PlatformTouchID(UInt64(n)), updateIndex: UInt64(n), force: 0.5))
            #expect(actions.count == 1)
        }
    }
}

@Suite("TouchRouter: predicted samples")
struct TouchRouterPredictionTests {
    @Test("predictions of an inking touch are forwarded, never counted, and cleared once")
    func forwarded() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), .ink)
        let real = sample(1.01, x: 51)
        let guess = [sample(1.02, x: 52), sample(1.03, x: 53)]
        #expect(try router.handle(.moved(one, [real], predicted: guess)) == [.ink(one, real), .predictInk(one, guess)])
        #expect(router.ledger == SampleLedger(received: 2, inked: 2))
        let next = sample(1.02, x: 52)
        #expect(try router.handle(.moved(one, [next])) == [.ink(one, next), .predictInk(one, [])])
        let last = sample(1.03, x: 53)
        #expect(try router.handle(.moved(one, [last])) == [.ink(one, last)])
        #expect(router.ledger == SampleLedger(received: 4, inked: 4))
    }

    @Test("predictions are ignored while deciding and on the page")
    func ignored() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)], predicted: [sample(1.01)]))
        #expect(try router.handle(.moved(one, [sample(1.01)], predicted: [sample(1.02)])).isEmpty)
        #expect(router.ledger == SampleLedger(received: 2, pending: 2))
        _ = router.answer(.q(1), .page)
        let next = sample(1.02)
        #expect(try router.handle(.moved(one, [next], predicted: [sample(1.03)])) == [.release(one, next)])
        #expect(router.ledger == SampleLedger(received: 3, released: 3))
    }

    @Test("a pencil decided at touch-down forwards the began event's predictions")
    func atTouchDown() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(pencilOnly: true))
        let down = sample(1.0, tool: .pencil), guess = [sample(1.01, tool: .pencil)]
        #expect(try router.handle(.began(one, [down], predicted: guess)) == [
            .decided(one, .ink, .toolPolicy), .ink(one, down), .predictInk(one, guess),
        ])
        #expect(router.ledger == SampleLedger(received: 1, inked: 1))
    }

    @Test("invalid predictions are dropped as a whole, without an error")
    func invalid() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), .ink)
        let real = sample(1.01)
        #expect(try router.handle(.moved(one, [real], predicted: [sample(.nan)])) == [.ink(one, real)])
        let guess = [sample(1.03)]
        _ = try router.handle(.moved(one, [sample(1.02)], predicted: guess))
        let next = sample(1.03)
        #expect(try router.handle(.moved(one, [next], predicted: [sample(1.04, force: 3)])) == [.ink(one, next), .predictInk(one, [])])
    }
}

@Suite("TouchRouter: refused input")
struct TouchRouterRefusalTests {
    /// A router with touch 1 deciding (two samples) and touch 2 inking (one sample).
    static func busyRouter() throws -> TouchRouter {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0), sample(1.01)]))
        _ = try router.handle(.began(two, [sample(1.5, x: 300, tool: .pencil)]))
        _ = router.answer(.q(2), .ink)
        return router
    }

    static let badValues: [Double] = [.nan, .infinity, -.infinity]

    @Test("a non-finite coordinate or timestamp is refused, in began and in moved", arguments: ["x", "y", "t"], badValues)
    func nonFinite(field: String, value: Double) throws {
        var bad = sample(2.0)
        switch field {
        case "x": bad.x = value
        case "y": bad.y = value
        default: bad.timestamp = value
        }
        var router = try Self.busyRouter()
        for touch in [one, two] {
            expectRefused(.invalidSample(touch, bad), by: &router) { router, actions throws(RouterError) in
                try router.handle(.moved(touch, [sample(1.9), bad]), into: &actions)
            }
        }
        expectRefused(.invalidSample(TouchID(3), bad), by: &router) { router, actions throws(RouterError) in
            try router.handle(.began(TouchID(3), [bad]), into: &actions)
        }
        expectRefused(.invalidSample(one, bad), by: &router) { router, actions throws(RouterError) in
            try router.handle(.ended(one, [bad]), into: &actions)
        }
        expectRefused(.invalidSample(two, bad), by: &router) { router, actions throws(RouterError) in
            try router.handle(.cancelled(two, [bad]), into: &actions)
        }
    }

    @Test("a force outside 0...1 or a non-finite angle is refused",
          arguments: [sample(2, force: -0.01), sample(2, force: 1.0001), sample(2, force: .nan),
                      TouchSample(x: 1, y: 1, timestamp: 2, altitude: .infinity),
                      TouchSample(x: 1, y: 1, timestamp: 2, azimuth: .nan)])
    func badProperty(bad: TouchSample) throws {
        var router = try Self.busyRouter()
        expectRefused(.invalidSample(one, bad), by: &router) { router, actions throws(RouterError) in
            try router.handle(.moved(one, [bad]), into: &actions)
        }
        expectRefused(.invalidSample(TouchID(3), bad), by: &router) { router, actions throws(RouterError) in
            try router.handle(.began(TouchID(3), [bad]), into: &actions)
        }
    }

    @Test("force at exactly 0 and 1 is accepted")
    func forceBounds() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, force: 0), sample(1.01, force: 1)]))
        #expect(router.ledger.received == 2)
    }

    @Test("timestamps going backwards within one event are refused")
    func backwardsWithinEvent() throws {
        var router = try Self.busyRouter()
        expectRefused(.timestampWentBackwards(TouchID(3), previous: 3.0, got: 2.9), by: &router) { router, actions throws(RouterError) in
            try router.handle(.began(TouchID(3), [sample(3.0), sample(2.9)]), into: &actions)
        }
        expectRefused(.timestampWentBackwards(two, previous: 1.7, got: 1.6), by: &router) { router, actions throws(RouterError) in
            try router.handle(.moved(two, [sample(1.7), sample(1.6)]), into: &actions)
        }
    }

    @Test("timestamps going backwards across events are refused; equal timestamps are accepted")
    func backwardsAcrossEvents() throws {
        var router = try Self.busyRouter()
        for phase in [TouchPhase.moved, .ended, .cancelled] {
            expectRefused(.timestampWentBackwards(one, previous: 1.01, got: 1.005), by: &router) { router, actions throws(RouterError) in
                try router.handle(TouchEvent(touch: PlatformTouchID(one.rawValue), phase: phase, samples: [sample(1.005)]), into: &actions)
            }
        }
        _ = try router.handle(.moved(one, [sample(1.01), sample(1.01)]))
        #expect(router.ledger(of: one)?.received == 4)
    }

    @Test("began without a sample is refused")
    func beganEmpty() throws {
        var router = try Self.busyRouter()
        expectRefused(.beganWithoutSample(TouchID(3)), by: &router) { router, actions throws(RouterError) in
            try router.handle(.began(TouchID(3), []), into: &actions)
        }
    }

    @Test("began for an active touch is refused, whether deciding or inking")
    func beganTwice() throws {
        var router = try Self.busyRouter()
        for touch in [one, two] {
            expectRefused(.touchAlreadyActive(touch), by: &router) { router, actions throws(RouterError) in
                try router.handle(.began(touch, [sample(5)]), into: &actions)
            }
        }
    }

    @Test("moved, ended or cancelled for an unknown touch is refused", arguments: [TouchPhase.moved, .ended, .cancelled])
    func unknownTouch(phase: TouchPhase) throws {
        var router = try Self.busyRouter()
        expectRefused(.unknownTouch(TouchID(9)), by: &router) { router, actions throws(RouterError) in
            try router.handle(TouchEvent(touch: PlatformTouchID(9), phase: phase, samples: [sample(5)]), into: &actions)
        }
    }

    @Test("events after a touch finished, or ended while deciding, are refused", arguments: [TouchPhase.moved, .ended, .cancelled])
    func afterFinish(phase: TouchPhase) throws {
        var router = try Self.busyRouter()
        _ = try router.handle(.ended(one))  // still deciding: queued, but no longer accepts events
        _ = try router.handle(.ended(two))  // finished
        _ = try router.handle(.began(TouchID(3), [sample(2)]))
        _ = try router.handle(.cancelled(TouchID(3)))  // finished by a cancel
        for touch in [one, two, TouchID(3)] {
            expectRefused(.unknownTouch(touch), by: &router) { router, actions throws(RouterError) in
                try router.handle(TouchEvent(touch: PlatformTouchID(touch.rawValue), phase: phase, samples: [sample(5)]), into: &actions)
            }
        }
    }

    @Test("a refused event in the middle of a session leaves the rest of the session unchanged")
    func sessionUnchanged() throws {
        var clean = try Self.busyRouter()
        var refused = clean
        var ignored: [RouterAction] = []
        #expect(throws: RouterError.self) {
            try refused.handle(.moved(one, [sample(1.02), sample(.nan), sample(1.03)]), into: &ignored)
        }
        #expect(ignored.isEmpty)
        let rest: [TouchEvent] = [.moved(one, [sample(1.02)]), .moved(two, [sample(1.6, x: 301, tool: .pencil)]), .ended(two), .ended(one)]
        for event in rest {
            #expect(try clean.handle(event) == refused.handle(event))
        }
        #expect(clean.answer(.q(1), .page) == refused.answer(.q(1), .page))
        #expect(RouterSnapshot(clean) == RouterSnapshot(refused))
    }
}

@Suite("TouchRouter: touch ids")
struct TouchIdentityTests {
    @Test("an id is refused for a new touch until its old touch finished, even when that touch ended while deciding")
    func reuseWaitsForFinish() throws {
        var router = TouchRouter()
        let first = TouchID(7)
        _ = try router.handle(.began(first, [sample(1.0)]))
        _ = try router.handle(.ended(first, [sample(1.01)]))  // a dot, still deciding
        expectRefused(.touchAlreadyActive(first), by: &router) { router, actions throws(RouterError) in
            try router.handle(.began(first, [sample(1.05, x: 200)]), into: &actions)
        }
        let answer = router.answer(.q(1), .ink)
        #expect(answer.actions.last == .touchFinished(first, SampleLedger(received: 2, inked: 2)))
        #expect(try router.handle(.began(first, [sample(1.1, x: 200)])).first
            == .queryPage(.q(2), touch: first, point: CanvasPoint(x: 200, y: 60), askedAt: 1.1))
    }

    @Test("resolve is the one touch-id rule: a began for an id still down, or a later event for an id not down, is refused")
    func resolveRule() throws {
        var identities = TouchIdentities()
        let first = try identities.resolve(PlatformTouchID(7), phase: .began)
        #expect(identities.engineID(for: PlatformTouchID(7), phase: .began) == first)
        #expect(throws: TouchIdentityError.stillDown(PlatformTouchID(7))) { try identities.resolve(PlatformTouchID(7), phase: .began) }
        #expect(throws: TouchIdentityError.notDown(PlatformTouchID(8))) { try identities.resolve(PlatformTouchID(8), phase: .moved) }
        #expect(TouchIdentityError.stillDown(PlatformTouchID(7)).description == "touch 7: began while a touch with this id is down (end or cancel it first)")
        #expect(try identities.resolve(PlatformTouchID(7), phase: .ended) == first)
        _ = identities.engineID(for: PlatformTouchID(7), phase: .ended)
        #expect(try identities.resolve(PlatformTouchID(7), phase: .began) != first)   // free again, a fresh id
        #expect(identities.latestID(for: PlatformTouchID(7)) == first)                 // updates still find the last one
    }

    @Test("platform touches the engine finished but the platform never ended are let go once they pile up")
    func identitiesStayBounded() throws {
        var identities = TouchIdentities()
        for platform in UInt64(0)..<10_000 {
            let id = try identities.resolve(PlatformTouchID(platform), phase: .began)
            _ = identities.engineID(for: PlatformTouchID(platform), phase: .began)
            identities.finished(id)   // evicted by the engine; the platform never sends `ended`
        }
        #expect(identities.count == 0)
        // The oldest were let go: a late event for one is refused as not down, not mapped.
        #expect(throws: TouchIdentityError.notDown(PlatformTouchID(0))) { try identities.resolve(PlatformTouchID(0), phase: .moved) }
        // A touch still down is never let go.
        let down = try identities.resolve(PlatformTouchID(99_999), phase: .began)
        _ = identities.engineID(for: PlatformTouchID(99_999), phase: .began)
        for platform in UInt64(20_000)..<21_000 {
            let id = try identities.resolve(PlatformTouchID(platform), phase: .began)
            _ = identities.engineID(for: PlatformTouchID(platform), phase: .began)
            identities.finished(id)
        }
        #expect(try identities.resolve(PlatformTouchID(99_999), phase: .moved) == down)
    }

    @Test("TouchIdentities gives each platform touch a fresh id and maps it back until the engine finished it, then while it is recent")
    func identities() throws {
        var identities = TouchIdentities()
        var router = TouchRouter()
        // Android-style: pointer 0 for the dot, then pointer 0 again for the next stroke at once.
        let dotID = identities.engineID(for: PlatformTouchID(0), phase: .began)
        let dot = try #require(dotID)
        _ = try router.handle(.began(dot, [sample(1.0)]))
        #expect(identities.engineID(for: PlatformTouchID(0), phase: .ended) == dot)
        _ = try router.handle(.ended(dot, [sample(1.01)]))
        let strokeID = identities.engineID(for: PlatformTouchID(0), phase: .began)
        let stroke = try #require(strokeID)
        #expect(stroke != dot)
        _ = try router.handle(.began(stroke, [sample(1.05, x: 200)]))  // accepted: a fresh id
        #expect(identities.engineID(for: PlatformTouchID(0), phase: .moved) == stroke)
        #expect(identities.engineID(for: PlatformTouchID(5), phase: .moved) == nil)
        #expect(identities.platformID(of: dot) == PlatformTouchID(0) && identities.platformID(of: stroke) == PlatformTouchID(0))
        for action in router.answer(.q(1), .ink).actions {
            if case let .touchFinished(id, _) = action { identities.finished(id) }
        }
        // Finished: no longer mapped, but still named while it is among the most recent
        // touches (an estimated-property refinement can follow its lift).
        #expect(identities.count == 1)
        #expect(identities.platformID(of: dot) == PlatformTouchID(0))
        var short = TouchIdentities(recentLimit: 1)
        let oldID = short.engineID(for: PlatformTouchID(3), phase: .began)
        let old = try #require(oldID)
        _ = short.engineID(for: PlatformTouchID(3), phase: .ended)
        short.finished(old)
        _ = short.engineID(for: PlatformTouchID(4), phase: .began)   // pushes the old touch out of the recent ones
        #expect(short.platformID(of: old) == nil)
    }
}
