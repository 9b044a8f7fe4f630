@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// The engine an app embeds: platform ids in, one event stream out, every sample counted.
@Suite("InkEngine")
struct InkEngineTests {
    static func sample(_ x: Double, _ t: Double, _ tool: ToolKind = .finger) -> TouchSample {
        TouchSample(x: x, y: 50, timestamp: t, tool: tool)
    }

    static func touch(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> EngineInput {
        .touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples))
    }

    static func took(_ events: [EngineEvent]) -> [EngineTouch] {
        events.compactMap { if case .took = $0.kind { $0.engineTouch } else { nil } }
    }

    static func refusals(_ events: [EngineEvent]) -> [InputRefusal] {
        events.compactMap { if case let .refused(_, why) = $0.kind { why } else { nil } }
    }

    @Test("two touches beginning in one batch get their own engine ids; both are taken")
    func twoInOneBatch() {
        var engine = InkEngine(seed: 1)
        var events: [EngineEvent] = []
        engine.take([Self.touch(5, .began, Self.sample(10, 1)), Self.touch(6, .began, Self.sample(90, 1.001))], now: 1.001, into: &events)
        let taken = Self.took(events)
        #expect(taken.map(\.platform.rawValue) == [5, 6] && Set(taken.map(\.engine)).count == 2)
        #expect(Self.refusals(events).isEmpty && engine.ledger.received == 2)
        // Each asks the page, each named by its platform id.
        let asked = events.filter { if case .queryPage? = $0.action { true } else { false } }
        #expect(asked.compactMap(\.platformTouch?.rawValue) == [5, 6])
    }

    @Test("a refused event in the middle of a batch: the rest are taken, its samples counted refused")
    func refusedMidBatch() {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
        var events: [EngineEvent] = []
        engine.take([Self.touch(1, .began, Self.sample(10, 1, .pencil)),
                     Self.touch(9, .moved, Self.sample(11, 1.01), Self.sample(12, 1.02)),
                     Self.touch(1, .moved, TouchSample(x: .nan, y: 1, timestamp: 1.01, tool: .pencil)),
                     Self.touch(1, .moved, Self.sample(13, 1.02, .pencil)),
                     Self.touch(1, .ended, Self.sample(14, 1.03, .pencil))], now: 1.03, into: &events)
        let refused = Self.refusals(events)
        #expect(refused.count == 2)
        #expect(refused.first == .touchNotDown(PlatformTouchID(9)))
        if case .invalidSample(PlatformTouchID(1), _)? = refused.last {} else { Issue.record("\(refused)") }
        // The identity refusal names no touch; the engine's refusal names the touch both ways.
        let refusedEvents = events.filter { if case .refused = $0.kind { true } else { false } }
        #expect(refusedEvents.first?.touch == nil && refusedEvents.last?.platformTouch?.rawValue == 1)
        let ledger = engine.ledger
        #expect(ledger.received == 6 && ledger.refused == 3 && ledger.inked == 3 && ledger.isBalanced)
        var audit = DeliveryAudit()
        for event in events { audit.observe(event) }
        _ = audit.close()
        #expect(audit.problemCount == 0 && audit.ledger.refused == 3 && audit.ledger.received == 6)
        #expect(audit.verify(against: ledger) == ["2 inputs refused (3 samples)"])
    }

    @Test("a platform id reused while its old touch still waits: two touches, the update goes to the latest")
    func reusedWhileWaiting() {
        var engine = InkEngine(seed: 1)
        var events: [EngineEvent] = []
        engine.take([Self.touch(3, .began, Self.sample(10, 1, .pencil)), Self.touch(3, .ended, Self.sample(11, 1.01, .pencil))],
                    now: 1.01, into: &events)
        var estimated = Self.sample(60, 1.05, .pencil)
        estimated.force = 0.2
        estimated.estimationUpdateIndex = 4
        engine.take([Self.touch(3, .began, estimated)], now: 1.05, into: &events)
        let taken = Self.took(events)
        #expect(taken.count == 3 && taken[0].engine == taken[1].engine && taken[2].engine != taken[0].engine)
        #expect(taken.allSatisfy { $0.platform.rawValue == 3 })
        engine.take(.update(EstimatedPropertyUpdate(touch: PlatformTouchID(3), updateIndex: 4, force: 0.6)), now: 1.06, into: &events)
        #expect(Self.refusals(events).isEmpty && engine.counters.updatesApplied == 1)
        engine.advance(to: 2, into: &events)
        #expect(engine.ledger.isBalanced && engine.ledger.inked == 3 && engine.isSettled)
    }

    @Test("a refinement after the touch finished still names the platform's id")
    func refinementAfterFinish() {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
        var events: [EngineEvent] = []
        var estimated = Self.sample(10, 1, .pencil)
        estimated.force = 0.2
        estimated.estimationUpdateIndex = 9
        engine.take([Self.touch(42, .began, estimated), Self.touch(42, .ended, Self.sample(11, 1.01, .pencil))], now: 1.01, into: &events)
        #expect(events.contains { if case .touchFinished? = $0.action { true } else { false } })
        events.removeAll()
        engine.take(.update(EstimatedPropertyUpdate(touch: PlatformTouchID(42), updateIndex: 9, force: 0.7)), now: 1.02, into: &events)
        let refine = events.first { if case .refineInk? = $0.action { true } else { false } }
        #expect(refine?.platformTouch?.rawValue == 42, "\(events)")
    }

    @Test("the first question is asked at the page script's generation; its answer decides in one round trip")
    func firstQuestionNotStale() {
        for (generation, stale) in [(PageScript.firstGeneration, false), (UInt64(0), true)] {
            var engine = InkEngine(pageGeneration: generation, seed: 1)
            var events: [EngineEvent] = []
            engine.take(Self.touch(1, .began, Self.sample(10, 1)), now: 1, into: &events)
            guard case let .send(request, _)? = events.last?.kind else {
                Issue.record("no request: \(events)")
                return
            }
            #expect(request.generation == generation && events.last?.roundTrip == request.token)
            // The page script at its first generation answers.
            let answer = PageMessage.answer(PageAnswer(token: request.token, verdict: .page, generation: PageScript.firstGeneration))
            events.removeAll()
            engine.take(.pageMessage(answer.json), now: 1.03, into: &events)
            #expect(engine.bridgeMetrics.staleAnswers == (stale ? 1 : 0))
            #expect(engine.bridgeMetrics.roundTrips == (stale ? 2 : 1))
            let decided = events.contains { $0.action == .decided(TouchID(1), .page, .answered) && $0.roundTrip == request.token }
            #expect(decided != stale)
        }
    }

    @Test("a deadline's events carry the deadline's time; time going backwards is refused and counted")
    func deadlinesAndTime() {
        var engine = InkEngine(configuration: InkEngineConfiguration(decisionTimeout: 0.2), seed: 1)
        var events: [EngineEvent] = []
        engine.take(Self.touch(1, .began, Self.sample(10, 1)), now: 1, into: &events)
        #expect(engine.nextDeadline == 1.2 && !engine.isSettled)
        events.removeAll()
        engine.take(Self.touch(2, .began, Self.sample(500, 1.5)), now: 1.5, into: &events)
        let deadline = events.first { $0.action == .decided(TouchID(1), .ink, .deadline) }
        #expect(deadline?.time == 1.2)
        #expect(events.last { if case .took = $0.kind { true } else { false } }?.time == 1.5)
        events.removeAll()
        engine.take(Self.touch(2, .moved, Self.sample(501, 1.6)), now: 1.4, into: &events)
        #expect(Self.refusals(events) == [.timeWentBackwards(now: 1.5, given: 1.4)])
        #expect(engine.ledger.refused == 1 && engine.ledger.received == 3)
    }

    @Test("a touch finished by the engine at its bound frees its platform id when the platform ends it")
    func endAfterEviction() {
        var configuration = InkEngineConfiguration(pencilOnly: true)
        configuration.limits = .init(activeTouches: 1)
        var engine = InkEngine(configuration: configuration, seed: 1)
        var events: [EngineEvent] = []
        engine.take([Self.touch(1, .began, Self.sample(10, 1, .pencil)), Self.touch(2, .began, Self.sample(90, 1.01, .pencil))],
                    now: 1.01, into: &events)
        #expect(engine.counters.touchesEvicted == 1)
        engine.take([Self.touch(1, .ended, Self.sample(11, 1.02, .pencil)),   // refused: the engine finished it
                     Self.touch(1, .began, Self.sample(12, 1.03, .pencil))], now: 1.03, into: &events)   // free again
        #expect(Self.refusals(events).count == 1 && Self.took(events).filter { $0.platform.rawValue == 1 }.count == 2)
    }

    @Test("any interleaving of reused ids, batches, answers and time: the audit over the events finds nothing, every sample counted",
          arguments: 0..<40)
    func property(seed: UInt64) {
        var random = SplitMix64(seed: seed &+ 1)
        var engine = InkEngine(configuration: InkEngineConfiguration(decisionTimeout: 0.1, speculativeInk: seed % 2 == 0), seed: seed)
        var audit = DeliveryAudit()
        var events: [EngineEvent] = []
        var down: Set<UInt64> = [], last: [UInt64: Double] = [:], requests: [HitTestRequest] = []
        var now = 0.0, handed = 0
        for _ in 0..<300 {
            now += random.unit() * 0.02
            var batch: [EngineInput] = []
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let id = random.next() % 4
                let t = max(now, (last[id] ?? 0))
                let sample = TouchSample(x: random.unit() * 400, y: random.unit() * 400, timestamp: t, tool: random.next() % 2 == 0 ? .pencil : .finger)
                let phase: TouchPhase = !down.contains(id) ? (random.next() % 5 == 0 ? .moved : .began)
                    : [.moved, .moved, .ended, .cancelled, .began][Int(random.next() % 5)]
                if phase == .began, !down.contains(id) { down.insert(id) } else if phase == .ended || phase == .cancelled { down.remove(id) }
                last[id] = t
                batch.append(.touch(TouchEvent(touch: PlatformTouchID(id), phase: phase, samples: [sample])))
                handed += 1
            }
            if !requests.isEmpty, random.next() % 3 == 0 {
                let request = requests.removeFirst()
                batch.append(.pageMessage(PageMessage.answer(PageAnswer(token: request.token, verdict: random.next() % 2 == 0 ? .ink : .page,
                                                                          generation: request.generation)).json))
            }
            let start = events.count
            engine.take(batch, now: now, into: &events)
            for event in events[start...] {
                audit.observe(event)
                if case let .send(request, _) = event.kind { requests.append(request) }
            }
            #expect(engine.ledger.received == handed && engine.ledger.dropped == 0)
        }
        let start = events.count
        engine.advance(to: now + 1, into: &events)
        engine.finish(into: &events)
        for event in events[start...] { audit.observe(event) }
        _ = audit.close()
        #expect(audit.problemCount == 0, "\(audit.problems)")
        let ledger = engine.ledger
        #expect(ledger.pending == 0 && ledger.dropped == 0 && ledger.received == handed)
        #expect(audit.ledger.received == handed && audit.ledger.refused == ledger.refused && audit.ledger.inked == ledger.inked)
    }
}
