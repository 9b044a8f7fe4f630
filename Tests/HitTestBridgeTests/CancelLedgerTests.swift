@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// The ledger of a cancelled touch says what the page got: samples delivered to the page
/// before the system cancelled the touch are `released` (by their way: natively, replayed or
/// handed over) and the page gets the cancel; `cancelled` is what nobody got (samples queued
/// while undecided, ink the cancel discards). Issue 39, item 3.
@Suite("The ledger of cancelled touches: what the page got")
struct CancelLedgerTests {
    static let atTouchDown = InkEngineConfiguration(routing: .decideAtTouchDown)

    static func sample(_ x: Double, _ y: Double, _ t: Double, _ tool: ToolKind = .finger) -> TouchSample {
        TouchSample(x: x, y: y, timestamp: t, tool: tool)
    }

    static func event(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples)
    }

    static func audited(_ events: [EngineEvent], routing: TouchRouting) -> DeliveryAudit {
        var audit = DeliveryAudit(routing: routing)
        for event in events { audit.observe(event) }
        _ = audit.close()
        return audit
    }

    static func request(in events: [EngineEvent]) throws -> HitTestRequest {
        try #require(events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.last)
    }

    /// The final ledger of each touch, by engine id.
    static func finished(_ events: [EngineEvent]) -> [TouchID: SampleLedger] {
        var result: [TouchID: SampleLedger] = [:]
        for case let .touchFinished(id, ledger)? in events.map(\.action) { result[id] = ledger }
        return result
    }

    @Test("native at touch-down: a finger holding a block, then cancelled by the system, is released natively; the platform cancels it")
    func nativeThenCancelled() {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take([.nativePageTouch(Self.event(4, .began, Self.sample(150, 150, 1))),
                     .nativePageTouch(Self.event(4, .moved, Self.sample(155, 150, 1.01), Self.sample(160, 150, 1.02))),
                     .touch(Self.event(4, .cancelled, Self.sample(161, 150, 1.03)))], now: 1.03, into: &events)
        let actions = events.compactMap(\.action)
        let natively = actions.filter { if case .nativeRelease = $0 { true } else { false } }.count
        #expect(natively == 4)
        // The platform cancels a native touch in the page itself: nothing to send or replay.
        #expect(actions.contains(.cancel(TouchID(1), previously: .nativePage)))
        #expect(!events.contains { if case .replay = $0.kind { true } else { false } })
        let ledger = engine.ledger
        #expect(ledger == SampleLedger(received: 4, released: 4, releasedNatively: 4), "\(ledger)")
        #expect(Self.finished(events)[TouchID(1)] == SampleLedger(received: 4, released: 4, releasedNatively: 4))
        let audit = Self.audited(events, routing: .decideAtTouchDown)
        #expect(audit.verify(against: ledger).isEmpty, "\(audit.verify(against: ledger))")
        #expect(audit.ledger.released == 4 && audit.ledger.releasedNatively == 4 && audit.ledger.cancelled == 0)
    }

    @Test("replayed after a late page verdict (touch-down routing), then cancelled: released as replayed, the replay cancels the page's pointer")
    func replayedThenCancelled() throws {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take(.touch(Self.event(7, .began, Self.sample(150, 50, 1))), now: 1, into: &events)
        engine.take(.touch(Self.event(7, .moved, Self.sample(160, 50, 1.01))), now: 1.01, into: &events)
        let answer = PageAnswer(token: try Self.request(in: events).token, verdict: .page, generation: PageScript.firstGeneration)
        engine.take(.pageMessage(answer.json), now: 1.03, into: &events)
        engine.take(.touch(Self.event(7, .moved, Self.sample(170, 50, 1.04))), now: 1.04, into: &events)
        engine.take(.touch(Self.event(7, .cancelled, Self.sample(171, 50, 1.05))), now: 1.05, into: &events)
        let phases = events.flatMap { event -> [TouchPhase] in
            if case let .replay(replay) = event.kind { replay.events.map(\.phase) } else { [] }
        }
        #expect(phases == [.began, .moved, .moved, .moved, .cancelled])
        let pageGot = phases.filter { $0 == .began || $0 == .moved }.count
        let ledger = engine.ledger
        #expect(ledger == SampleLedger(received: 4, released: pageGot, replayed: pageGot), "\(ledger)")
        #expect(engine.counters.retractions == 1)
        let audit = Self.audited(events, routing: .decideAtTouchDown)
        #expect(audit.verify(against: ledger).isEmpty, "\(audit.verify(against: ledger))")
        #expect(audit.ledger.replayed == 4 && audit.ledger.cancelled == 0)
    }

    @Test("handed over (hand-over routing), then cancelled: released as handed over, the front end cancels the page's touch")
    func handedOverThenCancelled() throws {
        var engine = InkEngine(seed: 1)
        var events: [EngineEvent] = []
        engine.take(.touch(Self.event(2, .began, Self.sample(150, 150, 1))), now: 1, into: &events)
        engine.take(.touch(Self.event(2, .moved, Self.sample(152, 150, 1.01))), now: 1.01, into: &events)
        let answer = PageAnswer(token: try Self.request(in: events).token, verdict: .page, generation: PageScript.firstGeneration)
        engine.take(.pageMessage(answer.json), now: 1.02, into: &events)
        engine.take([.touch(Self.event(2, .moved, Self.sample(154, 150, 1.03))), .touch(Self.event(2, .cancelled))],
                    now: 1.03, into: &events)
        let actions = events.compactMap(\.action)
        let handed = actions.filter { if case .release = $0 { true } else { false } }.count
        #expect(handed == 3)
        #expect(actions.last(where: { if case .cancel = $0 { true } else { false } }) == .cancel(TouchID(1), previously: .page))
        let ledger = engine.ledger
        #expect(ledger == SampleLedger(received: 3, released: 3), "\(ledger)")
        #expect(ledger.handedOver == 3)
        let audit = Self.audited(events, routing: .handOverAfterDecision)
        #expect(audit.verify(against: ledger).isEmpty, "\(audit.verify(against: ledger))")
        #expect(audit.ledger.released == 3 && audit.ledger.cancelled == 0)
    }

    @Test("what nobody got is cancelled: samples queued while undecided, and ink the cancel discards")
    func nobodyGotIt() {
        var engine = InkEngine(seed: 1)
        var events: [EngineEvent] = []
        // Undecided (hand-over routing queues): three samples nobody saw.
        engine.take([.touch(Self.event(1, .began, Self.sample(10, 10, 1))),
                     .touch(Self.event(1, .moved, Self.sample(11, 10, 1.01), Self.sample(12, 10, 1.02))),
                     .touch(Self.event(1, .cancelled))], now: 1.02, into: &events)
        #expect(engine.ledger == SampleLedger(received: 3, cancelled: 3))
        // Decided ink by the deadline, then cancelled: the stroke is discarded.
        engine.take(.touch(Self.event(1, .began, Self.sample(10, 50, 2))), now: 2, into: &events)
        engine.advance(to: 2.5, into: &events)
        engine.take(.touch(Self.event(1, .cancelled, Self.sample(12, 50, 2.5))), now: 2.5, into: &events)
        #expect(engine.ledger == SampleLedger(received: 5, cancelled: 5))
        #expect(events.compactMap(\.action).contains(.cancel(TouchID(2), previously: .ink)))
        let audit = Self.audited(events, routing: .handOverAfterDecision)
        #expect(audit.verify(against: engine.ledger).isEmpty, "\(audit.verify(against: engine.ledger))")
    }

    @Test("the audit refuses an engine ledger that calls the page's samples cancelled")
    func auditCatchesTheOldCount() {
        let id = TouchID(1)
        let samples = [Self.sample(1, 1, 1), Self.sample(2, 1, 1.01)]
        var audit = DeliveryAudit()
        audit.accepted(TouchEvent(touch: PlatformTouchID(id.rawValue), phase: .began, samples: [samples[0]]), as: id)
        audit.accepted(TouchEvent(touch: PlatformTouchID(id.rawValue), phase: .moved, samples: [samples[1]]), as: id)
        audit.record(.decided(id, .page, .answered), now: 1.01)
        audit.record(.release(id, samples[0]), now: 1.01)
        audit.record(.release(id, samples[1]), now: 1.01)
        audit.record(.cancel(id, previously: .page), now: 1.02)
        audit.record(.touchFinished(id, SampleLedger(received: 2, cancelled: 2)), now: 1.02)
        #expect(audit.problemCount == 1 && audit.problems.first?.contains("released") == true, "\(audit.problems)")
        #expect(audit.ledger == SampleLedger(received: 2, released: 2))
    }

    /// Random sessions, both routings: what a fake page gets (replayed downs and moves under
    /// touch-down routing, handed-over samples under hand-over routing, native samples in
    /// both) equals `released`, way by way; every page pointer that went down goes up or is
    /// cancelled, once, last; the live audit verifies and its account equals the engine's.
    @Test("random sessions: the page-side count of delivered samples equals released, way by way", arguments: 0..<24)
    func pageCountEqualsReleased(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x1ED6E2 &+ seed)
        let routing: TouchRouting = seed % 2 == 0 ? .decideAtTouchDown : .handOverAfterDecision
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: seed)
        var events: [EngineEvent] = []
        var down: [UInt64: ToolKind] = [:]   // platform id → its tool
        var tokens: [QueryToken] = []
        var t = 1.0
        var seen = 0
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        func point() -> (Double, Double) { (random.unit() * 500, random.unit() * 500) }
        for _ in 0..<160 {
            t += random.unit() * 0.03
            let roll = random.unit()
            var inputs: [EngineInput] = []
            if roll < 0.18, down.count < 4 {
                let free = (1...6).map(UInt64.init).filter { down[$0] == nil }
                let platform = free[pick(free.count)]
                let tool: ToolKind = random.unit() < 0.5 ? .finger : .pencil
                let (x, y) = point()
                let began = TouchEvent(touch: PlatformTouchID(platform), phase: .began, samples: [Self.sample(x, y, t, tool)])
                inputs.append(routing == .decideAtTouchDown && random.unit() < 0.3 ? .nativePageTouch(began) : .touch(began))
                down[platform] = tool
            } else if roll < 0.6, !down.isEmpty {
                let platform = down.keys.sorted()[pick(down.count)]
                let count = 1 + pick(3)
                let samples = (0..<count).map { i in
                    let (x, y) = point()
                    return Self.sample(x, y, t + Double(i) * 0.001, down[platform]!)
                }
                inputs.append(.touch(TouchEvent(touch: PlatformTouchID(platform), phase: .moved, samples: samples)))
                t = samples.last!.timestamp
            } else if roll < 0.75, !down.isEmpty {
                let platform = down.keys.sorted()[pick(down.count)]
                let phase: TouchPhase = random.unit() < 0.5 ? .cancelled : .ended
                let (x, y) = point()
                let samples = random.unit() < 0.5 ? [Self.sample(x, y, t, down[platform]!)] : []
                inputs.append(.touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples)))
                down[platform] = nil
            } else if roll < 0.92, !tokens.isEmpty {
                let token = tokens.remove(at: pick(tokens.count))
                let verdict: HitTestVerdict = random.unit() < 0.6 ? .page : .ink
                inputs.append(.pageMessage(PageAnswer(token: token, verdict: verdict, generation: PageScript.firstGeneration).json))
            } else {
                inputs.append(.tick)
            }
            engine.take(inputs, now: t, into: &events)
            for event in events[seen...] { if case let .send(request, _) = event.kind { tokens.append(request.token) } }
            seen = events.count
        }
        t += 0.01
        engine.take(down.keys.sorted().map { .touch(TouchEvent(touch: PlatformTouchID($0), phase: random.unit() < 0.5 ? .cancelled : .ended, samples: [])) },
                    now: t, into: &events)
        engine.finish(into: &events)
        engine.advance(to: t + 1, into: &events)

        // The fake page: what it got, by way, and each page pointer's life.
        var natively = 0, replayed = 0, handedOver = 0
        var pointer: [TouchID: [String]] = [:]
        for event in events {
            switch event.kind {
            case let .action(.nativeRelease(id, _)):
                natively += 1
                pointer[id, default: []].append("native")
            case let .action(.cancel(id, .nativePage)):
                pointer[id, default: []].append("cancel")
            case let .action(.release(id, _)) where routing == .handOverAfterDecision:
                handedOver += 1
                pointer[id, default: []].append(pointer[id] == nil ? "down" : "move")
            case let .action(.endRelease(id)) where routing == .handOverAfterDecision:
                pointer[id, default: []].append("up")
            case let .action(.cancel(id, .page)) where routing == .handOverAfterDecision:
                pointer[id, default: []].append("cancel")
            case let .replay(replay):
                for e in replay.events {
                    if e.phase == .began || e.phase == .moved { replayed += 1 }
                    pointer[replay.touch, default: []].append(e.phaseName)
                }
            default:
                break
            }
        }
        let ledger = engine.ledger
        #expect(ledger.isBalanced && ledger.received == ledger.inked + ledger.released + ledger.cancelled + ledger.refused, "\(ledger)")
        #expect(natively + replayed + handedOver == ledger.released, "seed \(seed): the page got \(natively + replayed + handedOver), \(ledger)")
        #expect(natively == ledger.releasedNatively && replayed == ledger.replayed && handedOver == ledger.handedOver,
                "seed \(seed): page \(natively)/\(replayed)/\(handedOver), \(ledger)")
        for (id, life) in pointer where life.first != "native" {
            let ends = life.filter { $0 == "up" || $0 == "cancel" }.count
            #expect(life.first == "down" && ends == 1 && (life.last == "up" || life.last == "cancel"), "seed \(seed): \(id): \(life)")
        }
        let audit = Self.audited(events, routing: routing)
        #expect(audit.verify(against: ledger).isEmpty, "seed \(seed): \(audit.verify(against: ledger))")
        #expect(audit.ledger == ledger, "seed \(seed): audit \(audit.ledger), engine \(ledger)")
    }
}
