import Testing
@_spi(Tooling) import InkCore

// Example-based tests of TouchRouter: every transition, verdict handling, deadlines,
// flushing, multi-touch gestures, pencil-only mode and the queue bound, each checked
// action by action.

private let one = TouchID(1)
private let two = TouchID(2)
private let three = TouchID(3)

@Suite("TouchRouter: transitions")
struct TouchRouterTransitionTests {
    @Test("began queues the samples and asks the page at the first point, at its timestamp")
    func beganAsks() throws {
        var router = TouchRouter()
        let down = strokeSamples(3, from: 1.0)
        let actions = try router.handle(.began(one, down))
        #expect(actions == [.queryPage(.q(1), touch: one, point: down[0].point, askedAt: 1.0)])
        #expect(router.ledger == SampleLedger(received: 3, pending: 3))
        #expect(router.ledger(of: one) == SampleLedger(received: 3, pending: 3))
        #expect(router.unfinishedTouches == [one])
        #expect(router.nextDeadline == 1.25)
        #expect(router.counters.queriesAsked == 1)
    }

    @Test("moves while deciding are queued silently")
    func movesWhileDeciding() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        #expect(try router.handle(.moved(one, strokeSamples(4, from: 1.01))).isEmpty)
        #expect(router.ledger == SampleLedger(received: 5, pending: 5))
    }

    @Test("the answer ink decides the touch and inks the queue in order")
    func verdictInk() throws {
        var router = TouchRouter()
        let queued = strokeSamples(5, from: 1.0)
        _ = try router.handle(.began(one, Array(queued[..<2])))
        _ = try router.handle(.moved(one, Array(queued[2...])))
        let (outcome, actions) = router.answer(.q(1), .ink)
        #expect(outcome == .applied)
        #expect(actions == [.decided(one, .ink, .answered)] + queued.map { .ink(one, $0) })
        #expect(router.ledger == SampleLedger(received: 5, inked: 5))
        #expect(router.counters.answersApplied == 1)
        #expect(router.nextDeadline == nil)
    }

    @Test("the answer page releases the queue in order with the original timestamps")
    func verdictPage() throws {
        var router = TouchRouter()
        let queued = strokeSamples(4, from: 2.5, every: 0.003)
        _ = try router.handle(.began(one, Array(queued[..<1])))
        _ = try router.handle(.moved(one, Array(queued[1...])))
        let (outcome, actions) = router.answer(.q(1), .page)
        #expect(outcome == .applied)
        #expect(actions == [.decided(one, .page, .answered)] + queued.map { .release(one, $0) })
        let releasedTimes = actions.compactMap { action -> Double? in
            if case let .release(_, sample) = action { return sample.timestamp }
            return nil
        }
        #expect(releasedTimes == queued.map(\.timestamp))
        #expect(router.ledger == SampleLedger(received: 4, released: 4))
    }

    @Test("after the decision, moves go straight to their owner", arguments: HitTestVerdict.allCases)
    func movesAfterDecision(verdict: HitTestVerdict) throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), verdict)
        let later = strokeSamples(3, from: 1.05)
        let actions = try router.handle(.moved(one, later))
        #expect(actions == later.map { verdict == .ink ? .ink(one, $0) : .release(one, $0) })
        #expect(router.ledger.pending == 0)
        #expect(router.ledger.received == 4)
    }

    @Test("ended while inking: last samples, endInk, then the touch's ledger")
    func endedWhileInking() throws {
        var router = TouchRouter()
        let down = sample(1.0), last = sample(1.1, x: 70)
        _ = try router.handle(.began(one, [down]))
        _ = router.answer(.q(1), .ink)
        let actions = try router.handle(.ended(one, [last]))
        #expect(actions == [.ink(one, last), .endInk(one), .touchFinished(one, SampleLedger(received: 2, inked: 2))])
        #expect(router.unfinishedTouches.isEmpty)
        #expect(router.ledger(of: one) == nil)
        #expect(router.counters.touchesInked == 1)
        #expect(router.ledger == SampleLedger(received: 2, inked: 2))
    }

    @Test("ended while released: last samples, endRelease, then the touch's ledger")
    func endedWhileReleased() throws {
        var router = TouchRouter()
        let down = sample(1.0), last = sample(1.1, x: 70)
        _ = try router.handle(.began(one, [down]))
        _ = router.answer(.q(1), .page)
        let actions = try router.handle(.ended(one, [last]))
        #expect(actions == [.release(one, last), .endRelease(one), .touchFinished(one, SampleLedger(received: 2, released: 2))])
        #expect(router.unfinishedTouches.isEmpty)
        #expect(router.counters.touchesReleased == 1)
    }

    @Test("a touch that ends while deciding stays queued, then becomes a dot or a tap", arguments: HitTestVerdict.allCases)
    func endedWhileDeciding(verdict: HitTestVerdict) throws {
        var router = TouchRouter()
        let down = sample(1.0), up = sample(1.05, x: 51)
        _ = try router.handle(.began(one, [down]))
        #expect(try router.handle(.ended(one, [up])).isEmpty)
        #expect(router.unfinishedTouches == [one])
        #expect(router.ledger == SampleLedger(received: 2, pending: 2))
        #expect(router.nextDeadline == 1.25)

        let (outcome, actions) = router.answer(.q(1), verdict)
        #expect(outcome == .applied)
        let expected: [RouterAction] = verdict == .ink
            ? [.decided(one, .ink, .answered), .ink(one, down), .ink(one, up), .endInk(one),
               .touchFinished(one, SampleLedger(received: 2, inked: 2))]
            : [.decided(one, .page, .answered), .release(one, down), .release(one, up), .endRelease(one),
               .touchFinished(one, SampleLedger(received: 2, released: 2))]
        #expect(actions == expected)
        #expect(router.unfinishedTouches.isEmpty)
        #expect(router.ledger.isBalanced)
    }

    @Test("cancelled while deciding: the query is abandoned and the queue counted cancelled")
    func cancelledWhileDeciding() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, strokeSamples(3, from: 1.0)))
        let actions = try router.handle(.cancelled(one, [sample(1.02)]))
        #expect(actions == [
            .abandonQuery(.q(1), touch: one), .cancel(one, previously: .undecided),
            .touchFinished(one, SampleLedger(received: 4, cancelled: 4)),
        ])
        #expect(router.ledger == SampleLedger(received: 4, cancelled: 4))
        #expect(router.counters.touchesCancelled == 1)
        #expect(router.unfinishedTouches.isEmpty)
        #expect(router.nextDeadline == nil)
    }

    @Test("cancelled while inking: the stroke is discarded and its samples move from inked to cancelled")
    func cancelledWhileInking() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, strokeSamples(3, from: 1.0)))
        _ = router.answer(.q(1), .ink)
        #expect(router.ledger == SampleLedger(received: 3, inked: 3))
        let last = sample(1.1)
        let actions = try router.handle(.cancelled(one, [last]))
        #expect(actions == [
            .ink(one, last), .cancel(one, previously: .ink),
            .touchFinished(one, SampleLedger(received: 4, cancelled: 4)),
        ])
        #expect(router.ledger == SampleLedger(received: 4, cancelled: 4))
        #expect(router.counters.touchesCancelled == 1)
        #expect(router.counters.touchesInked == 0)
    }

    @Test("cancelled while handed over: the page got its samples (released), and gets the cancel")
    func cancelledWhileReleased() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, strokeSamples(2, from: 1.0)))
        _ = router.answer(.q(1), .page)
        let last = sample(1.1)
        let actions = try router.handle(.cancelled(one, [last]))
        #expect(actions == [.release(one, last), .cancel(one, previously: .page),
                            .touchFinished(one, SampleLedger(received: 3, released: 3))])
        #expect(router.ledger == SampleLedger(received: 3, released: 3))
        #expect(router.ledger.handedOver == 3)
        #expect(router.counters.touchesReleased == 0)
        #expect(router.counters.touchesCancelled == 1)
    }

    @Test("cancelled while the page has it natively: released natively, the platform cancels it in the page")
    func cancelledWhileNative() throws {
        var router = TouchRouter()
        let samples = strokeSamples(3, from: 1.0)
        var scratch: [RouterAction] = []
        try router.handle(.began(one, [samples[0]]), routedToPage: true, into: &scratch)
        let actions = try router.handle(.cancelled(one, Array(samples[1...])))
        #expect(actions == [.nativeRelease(one, samples[1]), .nativeRelease(one, samples[2]), .cancel(one, previously: .nativePage),
                            .touchFinished(one, SampleLedger(received: 3, released: 3, releasedNatively: 3))])
        #expect(router.ledger == SampleLedger(received: 3, released: 3, releasedNatively: 3))
    }

    @Test("cancelled after its ink was retracted and replayed: released (replayed) once, never also cancelled")
    func cancelledAfterReplay() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(replaysLateReleases: true))
        let samples = strokeSamples(3, from: 1.0)
        _ = try router.handle(.began(one, [samples[0]]))
        var actions: [RouterAction] = []
        #expect(router.speculate(.q(1), into: &actions))
        _ = try router.handle(.moved(one, [samples[1]]))
        _ = router.answer(.q(1), .page)
        #expect(router.ledger == SampleLedger(received: 2, released: 2, replayed: 2))
        let finished = try router.handle(.cancelled(one, [samples[2]]))
        #expect(finished == [.release(one, samples[2]), .cancel(one, previously: .page),
                             .touchFinished(one, SampleLedger(received: 3, released: 3, replayed: 3))])
        #expect(router.ledger == SampleLedger(received: 3, released: 3, replayed: 3))
    }

    @Test("a reused touch id after the previous touch finished is a new touch with a new query")
    func reusedIDAfterFinish() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), .ink)
        _ = try router.handle(.ended(one))
        let actions = try router.handle(.began(one, [sample(2.0, x: 10)]))
        #expect(actions == [.queryPage(.q(2), touch: one, point: CanvasPoint(x: 10, y: 60), askedAt: 2.0)])
        #expect(router.ledger(of: one) == SampleLedger(received: 1, pending: 1))
    }
}

@Suite("TouchRouter: verdicts")
struct TouchRouterVerdictTests {
    @Test("an answer after the deadline settled the touch is late and ignored")
    func lateAfterDeadline() throws {
        var router = TouchRouter()
        let down = sample(1.0)
        _ = try router.handle(.began(one, [down]))
        #expect(router.deadline(now: 1.25, fallback: .ink) == [
            .abandonQuery(.q(1), touch: one), .decided(one, .ink, .deadline), .ink(one, down),
        ])
        let (outcome, actions) = router.answer(.q(1), .page)
        #expect(outcome == .late)
        #expect(actions.isEmpty)
        #expect(router.counters.lateAnswers == 1)
        #expect(router.counters.answersApplied == 0)
        #expect(router.ledger == SampleLedger(received: 1, inked: 1))
        // Still inking: the late page answer changed nothing.
        let next = sample(1.3)
        #expect(try router.handle(.moved(one, [next])) == [.ink(one, next)])
    }

    @Test("a second answer to the same query is a duplicate and ignored, even after the touch finished")
    func duplicate() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        #expect(router.answer(.q(1), .ink).outcome == .applied)
        let (outcome, actions) = router.answer(.q(1), .page)
        #expect(outcome == .duplicate)
        #expect(actions.isEmpty)
        _ = try router.handle(.ended(one))
        #expect(router.answer(.q(1), .ink) == (.duplicate, []))
        #expect(router.counters.duplicateAnswers == 2)
        #expect(router.counters.answersApplied == 1)
        #expect(router.counters.lateAnswers == 0)
    }

    @Test("answers out of order across two touches each decide their own touch")
    func outOfOrder() throws {
        var router = TouchRouter()
        let a = strokeSamples(2, from: 1.0, x: 10)
        let b = strokeSamples(2, from: 1.5, x: 300)  // outside the gesture window
        #expect(try router.handle(.began(one, a)) == [.queryPage(.q(1), touch: one, point: a[0].point, askedAt: 1.0)])
        #expect(try router.handle(.began(two, b)) == [.queryPage(.q(2), touch: two, point: b[0].point, askedAt: 1.5)])

        let second = router.answer(.q(2), .page)
        #expect(second.outcome == .applied)
        #expect(second.actions == [.decided(two, .page, .answered)] + b.map { .release(two, $0) })
        #expect(router.ledger(of: one) == SampleLedger(received: 2, pending: 2))

        let first = router.answer(.q(1), .ink)
        #expect(first.outcome == .applied)
        #expect(first.actions == [.decided(one, .ink, .answered)] + a.map { .ink(one, $0) })
        #expect(router.counters.answersApplied == 2)
        #expect(router.ledger == SampleLedger(received: 4, inked: 2, released: 2))
    }

    @Test("an answer for a query never issued is unknown and ignored", arguments: [UInt64(0), 2, 99, .max])
    func unknownQuery(raw: UInt64) throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        let (outcome, actions) = router.answer(.q(raw), .ink)
        #expect(outcome == .unknownQuery)
        #expect(actions.isEmpty)
        #expect(router.counters.unknownAnswers == 1)
        #expect(router.ledger == SampleLedger(received: 1, pending: 1))
        #expect(router.nextDeadline == 1.25)
    }

    @Test("an answer after the touch was cancelled is late")
    func afterCancel() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = try router.handle(.cancelled(one))
        #expect(router.answer(.q(1), .ink) == (.late, []))
        #expect(router.counters.lateAnswers == 1)
        #expect(router.counters.duplicateAnswers == 0)
    }

    @Test("an answer after a flush or the queue bound settled the touch is late")
    func afterOtherSettlements() throws {
        var flushed = TouchRouter()
        _ = try flushed.handle(.began(one, [sample(1.0)]))
        _ = flushed.flushing(.page)
        #expect(flushed.answer(.q(1), .ink) == (.late, []))

        var bounded = TouchRouter(configuration: TouchRouterConfiguration(maxQueuedSamplesPerTouch: 2))
        _ = try bounded.handle(.began(one, strokeSamples(2, from: 1.0)))
        #expect(bounded.answer(.q(1), .page) == (.late, []))
        #expect(bounded.counters.lateAnswers == 1)
    }
}

@Suite("TouchRouter: deadlines and flush")
struct TouchRouterDeadlineTests {
    @Test("deadlinePassed settles only the touches whose deadline is at or before now", arguments: HitTestVerdict.allCases)
    func settlesDue(fallback: HitTestVerdict) throws {
        var router = TouchRouter()
        let a = strokeSamples(2, from: 1.0)
        let b = [sample(1.5, tool: .pencil)]
        _ = try router.handle(.began(one, a))
        _ = try router.handle(.began(two, b))
        #expect(router.nextDeadline == 1.25)

        #expect(router.deadline(now: 1.2499, fallback: fallback).isEmpty)
        #expect(router.counters.deadlinesPassed == 0)

        let actions = router.deadline(now: 1.25, fallback: fallback)
        #expect(actions == [.abandonQuery(.q(1), touch: one), .decided(one, fallback, .deadline)]
            + a.map { fallback == .ink ? .ink(one, $0) : .release(one, $0) })
        #expect(router.counters.deadlinesPassed == 1)
        #expect(router.ledger(of: two) == SampleLedger(received: 1, pending: 1))
        #expect(router.nextDeadline == 1.75)

        // The settled touch is not settled again.
        #expect(router.deadline(now: 1.7, fallback: fallback).isEmpty)
        let second = router.deadline(now: 10, fallback: fallback)
        #expect(second == [.abandonQuery(.q(2), touch: two), .decided(two, fallback, .deadline),
                           fallback == .ink ? .ink(two, b[0]) : .release(two, b[0])])
        #expect(router.nextDeadline == nil)
        #expect(router.counters.deadlinesPassed == 2)
        #expect(router.ledger.pending == 0)
    }

    @Test("a deadline that settles an ended touch finishes it", arguments: HitTestVerdict.allCases)
    func deadlineFinishesEnded(fallback: HitTestVerdict) throws {
        var router = TouchRouter()
        let down = sample(1.0)
        _ = try router.handle(.began(one, [down]))
        _ = try router.handle(.ended(one))
        let ledger = fallback == .ink ? SampleLedger(received: 1, inked: 1) : SampleLedger(received: 1, released: 1)
        #expect(router.deadline(now: 2, fallback: fallback) == [
            .abandonQuery(.q(1), touch: one), .decided(one, fallback, .deadline),
            fallback == .ink ? .ink(one, down) : .release(one, down),
            fallback == .ink ? .endInk(one) : .endRelease(one), .touchFinished(one, ledger),
        ])
        #expect(router.unfinishedTouches.isEmpty)
    }

    @Test("nextDeadline follows the configured timeout and ignores decided touches")
    func nextDeadline() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(decisionTimeout: 0.5))
        #expect(router.nextDeadline == nil)
        _ = try router.handle(.began(one, [sample(3.0)]))
        _ = try router.handle(.began(two, [sample(2.0, tool: .pencil)]))
        #expect(router.nextDeadline == 2.5)
        _ = router.answer(.q(2), .ink)
        #expect(router.nextDeadline == 3.5)
        #expect(router.deadline(now: 3.49, fallback: .ink).isEmpty)
        _ = router.answer(.q(1), .page)
        #expect(router.nextDeadline == nil)
    }

    @Test("flush settles every undecided touch, whatever its deadline", arguments: HitTestVerdict.allCases)
    func flush(fallback: HitTestVerdict) throws {
        var router = TouchRouter()
        let a = [sample(1.0, x: 1)], b = [sample(1.5, x: 2, tool: .pencil)], c = [sample(2.0, x: 3)]
        _ = try router.handle(.began(one, a))
        _ = try router.handle(.began(two, b))
        _ = try router.handle(.ended(two))
        _ = try router.handle(.began(three, c))
        _ = router.answer(.q(3), .page)
        let route: (TouchID, TouchSample) -> RouterAction = { fallback == .ink ? .ink($0, $1) : .release($0, $1) }
        let ledger = fallback == .ink ? SampleLedger(received: 1, inked: 1) : SampleLedger(received: 1, released: 1)
        #expect(router.flushing(fallback) == [
            .abandonQuery(.q(1), touch: one), .decided(one, fallback, .flushed), route(one, a[0]),
            .abandonQuery(.q(2), touch: two), .decided(two, fallback, .flushed), route(two, b[0]),
            fallback == .ink ? .endInk(two) : .endRelease(two), .touchFinished(two, ledger),
        ])
        #expect(router.counters.flushed == 2)
        #expect(router.counters.deadlinesPassed == 0)
        #expect(router.nextDeadline == nil)
        #expect(router.unfinishedTouches == [one, three])
        #expect(router.ledger.pending == 0)
        #expect(router.flushing(fallback).isEmpty)
        #expect(router.answer(.q(1), .ink).outcome == .late)
    }
}

@Suite("TouchRouter: multi-touch gestures")
struct TouchRouterGestureTests {
    @Test("a second finger while the first still decides asks too; both answered ink (on the paper) within the window make the gesture then")
    func secondFingerWhileDeciding() throws {
        var router = TouchRouter()
        let a = strokeSamples(3, from: 1.0, x: 10)
        let b = strokeSamples(2, from: 1.1, x: 300)
        _ = try router.handle(.began(one, Array(a[..<1])))
        _ = try router.handle(.moved(one, Array(a[1...])))
        // Not known to be on the paper yet: no gesture at touch-down (issue 52).
        #expect(try router.handle(.began(two, b)) == [.queryPage(.q(2), touch: two, point: b[0].point, askedAt: 1.1)])
        #expect(router.answer(.q(1), .ink).actions == [.decided(one, .ink, .answered)] + a.map { .ink(one, $0) })
        #expect(router.counters.gestures == 0)
        let actions = router.answer(.q(2), .ink).actions
        #expect(actions == [.decided(two, .ink, .answered)] + b.map { .ink(two, $0) }
            + [.retractInk(one), .decided(one, .page, .multiTouchGesture)] + a.map { .release(one, $0) }
            + [.retractInk(two), .decided(two, .page, .multiTouchGesture)] + b.map { .release(two, $0) })
        #expect(router.counters.gestures == 1 && router.counters.retractions == 2 && router.counters.retractedSamples == 5)
        #expect(router.ledger == SampleLedger(received: 5, released: 5))
        #expect(router.nextDeadline == nil)
        let more = sample(1.2, x: 20)
        #expect(try router.handle(.moved(one, [more])) == [.release(one, more)])
    }

    @Test("a second finger answered ink within the window retracts the first finger's ink and its own, and releases both in order")
    func secondFingerRetractsInk() throws {
        var router = TouchRouter()
        let a = strokeSamples(4, from: 1.0, every: 0.01, x: 10)
        let b = [sample(1.12, x: 300)]
        _ = try router.handle(.began(one, Array(a[..<2])))
        _ = router.answer(.q(1), .ink)
        _ = try router.handle(.moved(one, Array(a[2...])))
        #expect(router.ledger(of: one) == SampleLedger(received: 4, inked: 4))

        _ = try router.handle(.began(two, b))
        let actions = router.answer(.q(2), .ink).actions
        #expect(actions == [.decided(two, .ink, .answered), .ink(two, b[0]), .retractInk(one), .decided(one, .page, .multiTouchGesture)]
            + a.map { .release(one, $0) }
            + [.retractInk(two), .decided(two, .page, .multiTouchGesture), .release(two, b[0])])
        #expect(router.counters.retractions == 2)
        #expect(router.counters.retractedSamples == 5)
        #expect(router.counters.gestures == 1)
        #expect(router.ledger(of: one) == SampleLedger(received: 4, released: 4))
        #expect(router.ledger == SampleLedger(received: 5, released: 5))
        #expect(try router.handle(.ended(one)) == [.endRelease(one), .touchFinished(one, SampleLedger(received: 4, released: 4))])
    }

    @Test("fingers decided by a fallback, not by the page, are not known to be on the paper: no gesture")
    func fallbackIsNoPaper() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, x: 10)]))
        _ = try router.handle(.began(two, [sample(1.04, x: 300)]))
        _ = router.deadline(now: 1.3, fallback: .ink)
        #expect(router.counters.gestures == 0 && router.ledger.inked == 2)
    }

    @Test("a second finger after the window is decided independently")
    func secondFingerAfterWindow() throws {
        var router = TouchRouter()
        let a = [sample(1.0, x: 10)]
        _ = try router.handle(.began(one, a))
        let late = sample(1.2, x: 300)
        #expect(try router.handle(.began(two, [late])) == [.queryPage(.q(2), touch: two, point: late.point, askedAt: 1.2)])
        #expect(router.counters.gestures == 0)
        #expect(router.ledger.pending == 2)
        #expect(router.answer(.q(1), .ink).actions == [.decided(one, .ink, .answered), .ink(one, a[0])])
    }

    @Test("a first finger that already inked past the window keeps its ink")
    func inkPastWindowStays() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), .ink)
        _ = try router.handle(.moved(one, [sample(1.2)]))
        let b = sample(1.1, x: 300)  // within the window of touch 1's down, but its stroke is committed
        #expect(try router.handle(.began(two, [b])) == [.queryPage(.q(2), touch: two, point: b.point, askedAt: 1.1)])
        #expect(router.counters.retractions == 0)
    }

    @Test("a first finger that lifted before the second began is a tap, not a gesture")
    func liftedFirstFingerIsNoPartner() throws {
        var router = TouchRouter()
        let tap = sample(1.0)
        _ = try router.handle(.began(one, [tap]))
        _ = try router.handle(.ended(one))
        let b = sample(1.05, x: 300)
        #expect(try router.handle(.began(two, [b])) == [.queryPage(.q(2), touch: two, point: b.point, askedAt: 1.05)])
        #expect(router.counters.gestures == 0)
        #expect(router.answer(.q(1), .page).actions.prefix(2) == [.decided(one, .page, .answered), .release(one, tap)])
    }

    @Test("pencil touches never form gestures", arguments: [(ToolKind.pencil, ToolKind.finger), (.finger, .pencil), (.pencil, .pencil)])
    func pencilNeverGestures(first: ToolKind, second: ToolKind) throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: first)]))
        let b = sample(1.05, x: 300, tool: second)
        #expect(try router.handle(.began(two, [b])) == [.queryPage(.q(2), touch: two, point: b.point, askedAt: 1.05)])
        #expect(router.counters.gestures == 0)
        #expect(router.ledger.pending == 2)
    }

    @Test("a pencil stroke inking inside the window is never retracted by a finger")
    func pencilInkNotRetracted() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, tool: .pencil)]))
        _ = router.answer(.q(1), .ink)
        let b = sample(1.05, x: 300)
        #expect(try router.handle(.began(two, [b])) == [.queryPage(.q(2), touch: two, point: b.point, askedAt: 1.05)])
        #expect(router.counters.retractions == 0)
    }

    @Test("a gesture window of zero disables gestures")
    func windowZero() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(gestureWindow: 0))
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), .ink)
        let b = sample(1.0, x: 300)
        #expect(try router.handle(.began(two, [b])) == [.queryPage(.q(2), touch: two, point: b.point, askedAt: 1.0)])
        #expect(router.counters.gestures == 0)
    }

    @Test("a finger beside a touch the page claimed is no gesture: it asks, and inks")
    func pageTouchIsNoPartner() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0)]))
        _ = router.answer(.q(1), .page)
        let b = sample(1.05, x: 300)
        #expect(try router.handle(.began(two, [b])) == [.queryPage(.q(2), touch: two, point: b.point, askedAt: 1.05)])
        #expect(router.answer(.q(2), .ink).actions == [.decided(two, .ink, .answered), .ink(two, b)])
        #expect(router.counters.gestures == 0)
    }

    @Test("three fingers landing together on the paper are one gesture: the third joins it")
    func threeFingers() throws {
        var router = TouchRouter()
        let a = sample(1.0, x: 1), b = sample(1.04, x: 2), c = sample(1.08, x: 3)
        _ = try router.handle(.began(one, [a]))
        _ = try router.handle(.began(two, [b]))
        _ = try router.handle(.began(three, [c]))
        _ = router.answer(.q(1), .ink)
        _ = router.answer(.q(2), .ink)
        #expect(router.counters.gestures == 1)
        #expect(router.answer(.q(3), .ink).actions == [.decided(three, .ink, .answered), .ink(three, c), .retractInk(three),
                                                       .decided(three, .page, .multiTouchGesture), .release(three, c)])
        #expect(router.counters.gestures == 1)
        #expect(router.ledger == SampleLedger(received: 3, released: 3))
    }

    @Test("two gestures one after the other count twice")
    func twoGestures() throws {
        var router = TouchRouter()
        _ = try router.handle(.began(one, [sample(1.0, x: 1)]))
        _ = try router.handle(.began(two, [sample(1.05, x: 2)]))
        _ = router.answer(.q(1), .ink)
        _ = router.answer(.q(2), .ink)
        _ = try router.handle(.ended(one))
        _ = try router.handle(.ended(two))
        _ = try router.handle(.began(three, [sample(2.0, x: 3)]))
        let d = sample(2.05, x: 4)
        _ = try router.handle(.began(TouchID(4), [d]))
        _ = router.answer(.q(3), .ink)
        let actions = router.answer(.q(4), .ink).actions
        #expect(actions.suffix(3) == [.retractInk(TouchID(4)), .decided(TouchID(4), .page, .multiTouchGesture), .release(TouchID(4), d)])
        #expect(router.counters.gestures == 2)
    }
}

@Suite("TouchRouter: pencil-only mode")
struct TouchRouterPencilOnlyTests {
    static let configuration = TouchRouterConfiguration(pencilOnly: true)

    @Test("a finger goes to the page without a query")
    func fingerToPage() throws {
        var router = TouchRouter(configuration: Self.configuration)
        let down = strokeSamples(2, from: 1.0)
        #expect(try router.handle(.began(one, down)) == [.decided(one, .page, .toolPolicy)] + down.map { .release(one, $0) })
        #expect(router.counters.queriesAsked == 0)
        #expect(router.nextDeadline == nil)
        #expect(try router.handle(.ended(one)) == [.endRelease(one), .touchFinished(one, SampleLedger(received: 2, released: 2))])
    }

    @Test("a pencil becomes ink without a query")
    func pencilToInk() throws {
        var router = TouchRouter(configuration: Self.configuration)
        let down = strokeSamples(2, from: 1.0, tool: .pencil)
        #expect(try router.handle(.began(one, down)) == [.decided(one, .ink, .toolPolicy)] + down.map { .ink(one, $0) })
        #expect(router.counters.queriesAsked == 0)
        #expect(router.ledger == SampleLedger(received: 2, inked: 2))
    }

    @Test("two fingers in pencil-only mode are each decided by the tool, never a gesture")
    func noGestures() throws {
        var router = TouchRouter(configuration: Self.configuration)
        _ = try router.handle(.began(one, [sample(1.0)]))
        let b = sample(1.02, x: 9)
        #expect(try router.handle(.began(two, [b])) == [.decided(two, .page, .toolPolicy), .release(two, b)])
        #expect(router.counters.gestures == 0)
        #expect(router.deadline(now: 100, fallback: .ink).isEmpty)
        #expect(router.flushing(.ink).isEmpty)
    }
}

@Suite("TouchRouter: queue bound")
struct TouchRouterQueueBoundTests {
    @Test("reaching the bound settles the touch by the bound fallback, dropping nothing", arguments: HitTestVerdict.allCases)
    func boundReached(fallback: HitTestVerdict) throws {
        let configuration = TouchRouterConfiguration(maxQueuedSamplesPerTouch: 3, boundFallback: fallback)
        var router = TouchRouter(configuration: configuration)
        let samples = strokeSamples(5, from: 1.0)
        let route: (TouchSample) -> RouterAction = { fallback == .ink ? .ink(one, $0) : .release(one, $0) }
        #expect(try router.handle(.began(one, [samples[0]])) == [.queryPage(.q(1), touch: one, point: samples[0].point, askedAt: 1.0)])
        let actions = try router.handle(.moved(one, Array(samples[1...])))
        #expect(actions == [.abandonQuery(.q(1), touch: one), .decided(one, fallback, .queueBound)] + samples.map(route))
        #expect(router.counters.boundsReached == 1)
        #expect(router.ledger.dropped == 0)
        #expect(router.ledger.pending == 0)
        #expect(router.ledger.received == 5)
        #expect(router.nextDeadline == nil)
        #expect(router.answer(.q(1), fallback == .ink ? .page : .ink).outcome == .late)
    }

    @Test("a bound of one settles the touch at touch-down, after asking")
    func boundOne() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(maxQueuedSamplesPerTouch: 1, boundFallback: .page))
        let down = sample(1.0)
        #expect(try router.handle(.began(one, [down])) == [
            .queryPage(.q(1), touch: one, point: down.point, askedAt: 1.0), .abandonQuery(.q(1), touch: one),
            .decided(one, .page, .queueBound), .release(one, down),
        ])
    }

    @Test("a bound reached in the ended event settles the touch, then finishes it")
    func boundOnEnd() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(maxQueuedSamplesPerTouch: 2))
        let samples = strokeSamples(3, from: 1.0)
        _ = try router.handle(.began(one, [samples[0]]))
        #expect(try router.handle(.ended(one, Array(samples[1...]))) == [
            .abandonQuery(.q(1), touch: one), .decided(one, .ink, .queueBound),
            .ink(one, samples[0]), .ink(one, samples[1]), .ink(one, samples[2]), .endInk(one),
            .touchFinished(one, SampleLedger(received: 3, inked: 3)),
        ])
    }

    @Test("a bound reached in the cancelled event counts every sample cancelled")
    func boundOnCancel() throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(maxQueuedSamplesPerTouch: 2))
        let samples = strokeSamples(2, from: 1.0)
        _ = try router.handle(.began(one, [samples[0]]))
        let actions = try router.handle(.cancelled(one, [samples[1]]))
        #expect(actions == [
            .abandonQuery(.q(1), touch: one), .decided(one, .ink, .queueBound),
            .ink(one, samples[0]), .ink(one, samples[1]), .cancel(one, previously: .ink),
            .touchFinished(one, SampleLedger(received: 2, cancelled: 2)),
        ])
        #expect(router.ledger == SampleLedger(received: 2, cancelled: 2))
    }

    @Test("a bound below one is raised to one")
    func boundClamped() {
        #expect(TouchRouterConfiguration(maxQueuedSamplesPerTouch: 0).maxQueuedSamplesPerTouch == 1)
        #expect(TouchRouterConfiguration(maxQueuedSamplesPerTouch: -5).maxQueuedSamplesPerTouch == 1)
    }
}

@Suite("TouchRouter: active-touch bound")
struct TouchRouterTouchBoundTests {
    private static let four = TouchID(4)

    @Test("at the bound the oldest touch makes room: undecided settled by the bound fallback, ink ended, page cancelled")
    func oldestMakesRoom() throws {
        let configuration = TouchRouterConfiguration(gestureWindow: 0, boundFallback: .ink, maxActiveTouches: 2)
        var router = TouchRouter(configuration: configuration)
        let a = sample(1.0), b = sample(1.1, x: 90), c = sample(1.2, x: 130), d = sample(1.3, x: 170)
        _ = try router.handle(.began(one, [a]))
        _ = try router.handle(.began(two, [b]))
        #expect(router.answer(.q(2), .page).actions == [.decided(two, .page, .answered), .release(two, b)])

        #expect(try router.handle(.began(three, [c])) == [
            .abandonQuery(.q(1), touch: one), .decided(one, .ink, .touchBound), .ink(one, a), .endInk(one),
            .touchFinished(one, SampleLedger(received: 1, inked: 1)),
            .queryPage(.q(3), touch: three, point: c.point, askedAt: 1.2),
        ])
        #expect(try router.handle(.began(Self.four, [d])) == [
            .cancel(two, previously: .page), .touchFinished(two, SampleLedger(received: 1, released: 1)),
            .queryPage(.q(4), touch: Self.four, point: d.point, askedAt: 1.3),
        ])
        #expect(router.unfinishedTouches == [three, Self.four])
        #expect(router.counters.touchesEvicted == 2)
        #expect(router.ledger == SampleLedger(received: 4, inked: 1, released: 1, pending: 2))
        expectRefused(.unknownTouch(one), by: &router) { router, actions throws(RouterError) in
            try router.handle(.moved(one, [sample(1.4)]), into: &actions)
        }
        expectRefused(.unknownTouch(two), by: &router) { router, actions throws(RouterError) in
            try router.handle(.ended(two), into: &actions)
        }
    }

    @Test("an ended touch still undecided is finished by the bound fallback, the page fallback releasing it", arguments: HitTestVerdict.allCases)
    func endedUndecided(fallback: HitTestVerdict) throws {
        var router = TouchRouter(configuration: TouchRouterConfiguration(gestureWindow: 0, boundFallback: fallback, maxActiveTouches: 1))
        let a = sample(1.0), b = sample(1.01)
        _ = try router.handle(.began(one, [a]))
        _ = try router.handle(.ended(one, [b]))
        let c = sample(1.2, x: 200)
        let routed: [RouterAction] = fallback == .ink
            ? [.ink(one, a), .ink(one, b), .endInk(one), .touchFinished(one, SampleLedger(received: 2, inked: 2))]
            : [.release(one, a), .release(one, b), .endRelease(one), .touchFinished(one, SampleLedger(received: 2, released: 2))]
        #expect(try router.handle(.began(two, [c])) ==
            [.abandonQuery(.q(1), touch: one), .decided(one, fallback, .touchBound)] + routed
            + [.queryPage(.q(2), touch: two, point: c.point, askedAt: 1.2)])
        #expect(router.answer(.q(1), .ink).outcome == .late)
    }

    @Test("a flood of touches that never end stays within the bound and drops nothing")
    func flood() throws {
        var router = TouchRouter()
        var actions: [RouterAction] = []
        for i in 0..<10_000 {
            let t = Double(i) * 0.001
            try router.handle(.began(TouchID(UInt64(i + 1)), [sample(t, x: Double(i % 700))]), into: &actions)
            if i % 3 == 0 { router.verdictArrived(QueryID(rawValue: UInt64(i + 1)), .page, into: &actions) }
            #expect(router.unfinishedTouches.count <= router.configuration.maxActiveTouches)
            #expect(router.ledger.dropped == 0)
            actions.removeAll(keepingCapacity: true)
        }
        #expect(router.counters.touchesEvicted == 10_000 - 32)
        router.flush(fallback: .page, into: &actions)
        let ledger = router.ledger
        #expect(ledger.received == 10_000 && ledger.pending == 0 && ledger.dropped == 0)
    }

    @Test("a bound below one is raised to one")
    func clamped() {
        #expect(TouchRouterConfiguration(maxActiveTouches: 0).maxActiveTouches == 1)
    }
}
