@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// The audit keeps one slot per open touch and compares what each touch delivered with what
/// it was fed as the actions come (issue 42). These drive it by hand where slots could be
/// mixed up: many touches open at once and finishing out of order (a finished touch's slot
/// goes to the last one), an id that comes back, and failures named as before.
@Suite("DeliveryAudit: one slot per open touch")
struct DeliveryAuditTests {
    /// Touch `k`'s sample `j`: a position and time no other touch's sample has.
    static func sample(_ k: UInt64, _ j: Int, force: Double? = nil) -> TouchSample {
        TouchSample(x: Double(k) * 100 + Double(j), y: Double(k), timestamp: 1 + Double(j) / 100 + Double(k) / 1000, force: force)
    }

    static func event(_ platform: UInt64, _ phase: TouchPhase, _ samples: [TouchSample]) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples)
    }

    /// Six touches down at once (engine ids 1...6, platform ids 11...16), each fed in turns
    /// and delivered in another order, odd ones to the ink and even ones to the page, then
    /// finished in an order that moves slots about.
    static func interleaved(keeping: Bool) -> (audit: DeliveryAudit, outcomes: [TouchOutcome]) {
        var audit = DeliveryAudit(keepsDeliveredSamples: keeping)
        let touches: [UInt64] = [1, 2, 3, 4, 5, 6]
        let count: [UInt64: Int] = [1: 3, 2: 5, 3: 4, 4: 6, 5: 2, 6: 7]
        for k in touches { audit.accepted(event(k + 10, .began, [sample(k, 0)]), as: TouchID(k)) }
        var delivered: [UInt64: Int] = [:]
        func deliver(_ k: UInt64, upTo end: Int, now: Double) {
            while delivered[k, default: 0] < end {
                let s = sample(k, delivered[k, default: 0])
                audit.record(k % 2 == 1 ? .ink(TouchID(k), s) : .release(TouchID(k), s), now: now)
                delivered[k, default: 0] += 1
            }
        }
        for k in [3, 1, 6, 2, 5, 4] as [UInt64] {
            audit.record(.decided(TouchID(k), k % 2 == 1 ? .ink : .page, .answered), now: 1.1 + Double(k) / 10)
        }
        for j in 1..<7 {
            for k in [3, 1, 6, 2, 5, 4] as [UInt64] where j < count[k]! {
                audit.accepted(event(k + 10, .moved, [sample(k, j)]), as: TouchID(k))
            }
            // Each touch delivers what it was fed one turn late, in yet another order.
            for k in [2, 4, 1, 6, 5, 3] as [UInt64] { deliver(k, upTo: min(j, count[k]!), now: 1.1 + Double(k) / 10) }
        }
        var outcomes: [TouchOutcome] = []
        for k in [2, 5, 1, 6, 3, 4] as [UInt64] {
            deliver(k, upTo: count[k]!, now: 2)
            let n = count[k]!
            let ledger = k % 2 == 1 ? SampleLedger(received: n, inked: n) : SampleLedger(received: n, released: n)
            if let outcome = audit.record(.touchFinished(TouchID(k), ledger), now: 2) { outcomes.append(outcome) }
        }
        return (audit, outcomes)
    }

    @Test("many touches open at once, finishing out of order: each touch's account is its own")
    func interleavedTouches() throws {
        let (audit, outcomes) = Self.interleaved(keeping: true)
        #expect(audit.problems.isEmpty, "\(audit.problems)")
        #expect(audit.ledger == SampleLedger(received: 27, inked: 9, released: 18))
        #expect(audit.openTouches == 0 && audit.openSamples == 0 && audit.touchesChecked == 6)
        #expect(outcomes.map(\.engineID.rawValue) == [2, 5, 1, 6, 3, 4])
        let count: [UInt64: Int] = [1: 3, 2: 5, 3: 4, 4: 6, 5: 2, 6: 7]
        for outcome in outcomes {
            let k = outcome.engineID.rawValue
            let own = (0..<count[k]!).map { Self.sample(k, $0) }
            #expect(outcome.touch == PlatformTouchID(k + 10))
            #expect(outcome.samples == own.count && outcome.finished)
            #expect(outcome.verdict == (k % 2 == 1 ? .ink : .page))
            #expect(outcome.inked == (k % 2 == 1 ? own : []), "touch \(k)")
            #expect(outcome.released == (k % 2 == 1 ? [] : own), "touch \(k)")
            // First ink: at the touch's own delivery time, from its own touch-down.
            if k % 2 == 1 {
                let latency = try #require(outcome.firstInkLatency)
                #expect(abs(latency - (0.1 + Double(k) / 10 - Double(k) / 1000)) < 1e-9, "touch \(k)")
            } else {
                #expect(outcome.firstInkLatency == nil)
            }
        }
    }

    @Test("without the delivered samples: the same check, the same outcomes but for the samples")
    func withoutSamples() {
        let kept = Self.interleaved(keeping: true), counted = Self.interleaved(keeping: false)
        #expect(counted.audit.problems.isEmpty && counted.audit.ledger == kept.audit.ledger)
        #expect(counted.outcomes.allSatisfy { $0.inked.isEmpty && $0.released.isEmpty })
        let stripped = kept.outcomes.map { outcome -> TouchOutcome in
            var outcome = outcome
            outcome.inked = []
            outcome.released = []
            return outcome
        }
        #expect(counted.outcomes == stripped)
    }

    @Test("an id that finished and comes back is a new touch; one that begins again while open is named and restarted")
    func reusedID() {
        var audit = DeliveryAudit()
        let id = TouchID(1)
        let first = (0..<3).map { Self.sample(1, $0) }, second = (0..<2).map { Self.sample(2, $0) }
        audit.accepted(Self.event(1, .began, first), as: id)
        audit.record(.decided(id, .ink, .answered), now: 1)
        for s in first { audit.record(.ink(id, s), now: 1) }
        audit.record(.touchFinished(id, SampleLedger(received: 3, inked: 3)), now: 1)
        audit.accepted(Self.event(1, .began, second), as: id)
        audit.record(.decided(id, .page, .answered), now: 2)
        for s in second { audit.record(.release(id, s), now: 2) }
        let outcome = audit.record(.touchFinished(id, SampleLedger(received: 2, released: 2)), now: 2)
        #expect(audit.problems.isEmpty, "\(audit.problems)")
        #expect(outcome?.released == second && outcome?.inked == [] && outcome?.samples == 2)
        #expect(audit.ledger == SampleLedger(received: 5, inked: 3, released: 2))

        // Begun again before it finished: named, and the touch starts over from the new samples.
        audit.accepted(Self.event(1, .began, first), as: id)
        audit.accepted(Self.event(2, .began, [Self.sample(9, 0)]), as: TouchID(2))
        audit.record(.ink(id, first[0]), now: 3)
        audit.accepted(Self.event(1, .began, second), as: id)
        audit.record(.decided(id, .page, .answered), now: 3)
        for s in second { audit.record(.release(id, s), now: 3) }
        let restarted = audit.record(.touchFinished(id, SampleLedger(received: 2, released: 2)), now: 3)
        #expect(audit.problems == ["touch 1 began again before it finished"])
        #expect(restarted?.released == second && restarted?.inked == [] && restarted?.firstInkLatency == nil)
        #expect(audit.openTouches == 1)
    }

    @Test("failures are named as before, for the touch that failed, among others open")
    func failuresAmongOthers() {
        var audit = DeliveryAudit(keepsDeliveredSamples: false)
        // Touch 7 (engine 1) and touch 8 (engine 2) are down together.
        let a = (0..<3).map { Self.sample(1, $0) }, b = (0..<3).map { Self.sample(2, $0) }
        audit.accepted(Self.event(7, .began, [a[0]]), as: TouchID(1))
        audit.accepted(Self.event(8, .began, [b[0]]), as: TouchID(2))
        for j in 1..<3 {
            audit.accepted(Self.event(8, .moved, [b[j]]), as: TouchID(2))
            audit.accepted(Self.event(7, .moved, [a[j]]), as: TouchID(1))
        }
        audit.record(.decided(TouchID(1), .ink, .answered), now: 1)
        audit.record(.decided(TouchID(2), .ink, .answered), now: 1)
        // Touch 7's second sample is touch 8's: altered, though as many came out.
        audit.record(.ink(TouchID(1), a[0]), now: 1)
        audit.record(.ink(TouchID(2), b[0]), now: 1)
        audit.record(.ink(TouchID(1), b[1]), now: 1)
        audit.record(.ink(TouchID(2), b[1]), now: 1)
        audit.record(.ink(TouchID(1), a[2]), now: 1)
        audit.record(.ink(TouchID(2), b[2]), now: 1)
        // A refinement of the force alone changes nothing; one that moves a sample alters it.
        audit.record(.refineInk(TouchID(2), index: 1, Self.sample(2, 1, force: 0.5)), now: 1)
        audit.record(.touchFinished(TouchID(2), SampleLedger(received: 3, inked: 3)), now: 1)
        #expect(audit.problems.isEmpty, "\(audit.problems)")
        audit.record(.touchFinished(TouchID(1), SampleLedger(received: 3, inked: 3)), now: 1)
        #expect(audit.problems == ["touch 7 (engine 1): 3 samples accepted, 3 delivered, out of order or altered"])
        #expect(audit.ledger == SampleLedger(received: 6, inked: 4))   // touch 2's 3, and touch 7's first

        var moved = DeliveryAudit()
        moved.accepted(Self.event(1, .began, a), as: TouchID(1))
        moved.record(.decided(TouchID(1), .ink, .answered), now: 1)
        for s in a { moved.record(.ink(TouchID(1), s), now: 1) }
        var shifted = a[1]
        shifted.x += 1
        moved.record(.refineInk(TouchID(1), index: 1, shifted), now: 1)
        let outcome = moved.record(.touchFinished(TouchID(1), SampleLedger(received: 3, inked: 3)), now: 1)
        #expect(moved.problems == ["touch 1: 3 samples accepted, 3 delivered, out of order or altered"])
        #expect(moved.ledger.inked == 1)
        #expect(outcome?.inked == [a[0], shifted, a[2]])

        // A touch that showed the page less than it was fed, then was cancelled: the page's
        // part is released, the rest cancelled; a sample it never got is named.
        var cancelled = DeliveryAudit()
        cancelled.accepted(Self.event(3, .began, a), as: TouchID(3))
        cancelled.accepted(Self.event(4, .began, b), as: TouchID(4))
        cancelled.record(.decided(TouchID(3), .page, .answered), now: 1)
        cancelled.record(.release(TouchID(3), a[0]), now: 1)
        cancelled.record(.release(TouchID(3), b[1]), now: 1)
        cancelled.record(.cancel(TouchID(3), previously: .page), now: 1)
        cancelled.record(.touchFinished(TouchID(3), SampleLedger(received: 3, released: 1, cancelled: 2)), now: 1)
        #expect(cancelled.problems == ["touch 3: cancelled, but what it showed is not an in-order prefix of its samples"])
        #expect(cancelled.ledger == SampleLedger(received: 3, released: 1, cancelled: 2))
        let rest = cancelled.close()
        #expect(rest.map(\.engineID) == [TouchID(4)] && rest.first?.samples == 3)
        #expect(cancelled.problems.last == "touch 4: 3 samples accepted, 0 delivered")
    }
}

@Suite("DeliveryAudit: the same as before its slots")
struct DeliveryAuditReferenceTests {
    static func stripped(_ outcome: TouchOutcome?) -> TouchOutcome? {
        guard var outcome else { return nil }
        outcome.inked = []
        outcome.released = []
        return outcome
    }

    /// Random actions over four touch ids, mostly the ones a working engine gives (each
    /// touch's samples in order, one way), often not: a sample altered, invented or out of
    /// order, a refinement to another position, retractions, cancels, ledgers that disagree,
    /// a touch begun again while open, actions for touches that are not open.
    @Test("random action sequences, a broken engine's too: the same sentences, counts and outcomes as the audit before its slots",
          arguments: 0..<24)
    func sameAsReference(seed: UInt64) {
        for routing in [TouchRouting.handOverAfterDecision, .decideAtTouchDown] {
            for keeping in [true, false] {
                var random = SplitMix64(seed: seed)
                var audit = DeliveryAudit(routing: routing, keepsDeliveredSamples: keeping)
                var reference = ReferenceAudit(routing: routing)
                var fed: [UInt64: [TouchSample]] = [:], inked: [UInt64: Int] = [:], released: [UInt64: Int] = [:]
                var now = 1.0
                var differences: [String] = []
                func roll(_ n: UInt64) -> UInt64 { random.next() % n }
                func stray() -> TouchSample {
                    TouchSample(x: Double(roll(3)), y: Double(roll(2)), timestamp: Double(roll(3)) / 100, force: roll(2) == 0 ? nil : 0.5)
                }
                func next(_ k: UInt64, _ position: Int) -> TouchSample {
                    let own = fed[k, default: []]
                    return position < own.count && roll(12) != 0 ? own[position] : stray()
                }
                func same(_ a: TouchOutcome?, _ b: TouchOutcome?) -> Bool { keeping ? a == b : a == Self.stripped(b) }
                for step in 0..<400 {
                    let k = 1 + roll(4)
                    let id = TouchID(k)
                    now += Double(roll(5)) / 1000
                    let choice = roll(100)
                    if choice < 12 {
                        let samples = (0..<(1 + roll(2))).map { _ in stray() }
                        fed[k] = samples
                        inked[k] = 0
                        released[k] = 0
                        let event = TouchEvent(touch: PlatformTouchID(k + roll(2) * 10), phase: .began, samples: samples)
                        audit.accepted(event, as: id)
                        reference.accepted(event, as: id)
                    } else if choice < 32 {
                        let samples = (0..<roll(3)).map { _ in stray() }
                        fed[k, default: []] += samples
                        let event = TouchEvent(touch: PlatformTouchID(k), phase: .moved, samples: samples)
                        audit.accepted(event, as: id)
                        reference.accepted(event, as: id)
                    } else {
                        let action: RouterAction
                        switch choice {
                        case ..<52:
                            action = .ink(id, next(k, inked[k, default: 0]))
                            inked[k, default: 0] += 1
                        case ..<66:
                            let sample = next(k, released[k, default: 0])
                            action = roll(4) == 0 ? .nativeRelease(id, sample) : .release(id, sample)
                            released[k, default: 0] += 1
                        case ..<72:
                            let index = Int(roll(UInt64(inked[k, default: 0] + 2))) - 1
                            var sample = next(k, max(0, index))
                            if roll(2) == 0 { sample.force = 0.25 } else { sample.x += 1 }
                            action = .refineInk(id, index: index, sample)
                        case ..<75:
                            action = .retractInk(id)
                            inked[k] = 0
                        case ..<81:
                            action = .decided(id, roll(2) == 0 ? .ink : .page, roll(2) == 0 ? .answered : .deadline)
                        case ..<84:
                            action = .cancel(id, previously: roll(2) == 0 ? .page : .ink)
                        case ..<96:
                            let n = fed[k, default: []].count, i = inked[k, default: 0], r = released[k, default: 0]
                            let ledger = roll(3) == 0
                                ? SampleLedger(received: Int(roll(4)), inked: Int(roll(3)), released: Int(roll(3)), cancelled: Int(roll(2)),
                                               releasedNatively: Int(roll(2)))
                                : SampleLedger(received: n, inked: i, released: r, cancelled: max(0, n - i - r))
                            action = .touchFinished(id, ledger)
                        default:
                            action = .endInk(id)
                        }
                        let mine = audit.record(action, now: now), theirs = reference.record(action, now: now)
                        if !same(mine, theirs) { differences.append("\(step) \(action): \(String(describing: mine)) against \(String(describing: theirs))") }
                    }
                }
                let mine = audit.close(), theirs = reference.close()
                if mine.count != theirs.count || !zip(mine, theirs).allSatisfy({ same($0, $1) }) { differences.append("close: \(mine) against \(theirs)") }
                #expect(differences.isEmpty, "\(routing) keeping \(keeping): \(differences.prefix(3))")
                #expect(audit.problems == reference.problems && audit.problemCount == reference.problemCount)
                #expect(audit.ledger == reference.ledger && audit.finishedLedger == reference.finishedLedger)
                #expect(audit.touchesChecked == reference.touchesChecked && audit.openTouches == reference.openTouches
                        && audit.openSamples == reference.openSamples)
            }
        }
    }
}
