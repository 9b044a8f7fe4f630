import Foundation
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// What the page gets and what refines which stroke (issue 39): one gesture rule, and
/// estimated-property updates found by their index.
@Suite("What the page gets")
struct PageFacingTests {
    static func sample(_ x: Double, _ t: Double, _ tool: ToolKind = .finger, index: UInt64? = nil) -> TouchSample {
        var sample = TouchSample(x: x, y: 300, timestamp: t, force: index == nil ? nil : 0.2, tool: tool)
        sample.estimationUpdateIndex = index
        return sample
    }

    static func touch(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> EngineInput {
        .touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples))
    }

    static func native(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> EngineInput {
        .nativePageTouch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples))
    }

    static func update(_ platform: UInt64, _ index: UInt64, force: Double) -> EngineInput {
        .update(EstimatedPropertyUpdate(touch: PlatformTouchID(platform), updateIndex: index, force: force))
    }

    static func refusals(_ events: [EngineEvent]) -> [InputRefusal] {
        events.compactMap { if case let .refused(_, why) = $0.kind { why } else { nil } }
    }

    // MARK: - One gesture rule

    @Test("touch-down routing, fresh snapshot: a finger on a block (the page's natively), 50 ms later a finger on the paper: ink, no gesture, no scroll")
    func nativeFingerIsNoGesturePartner() {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(#"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":100,"y":280,"width":100,"height":50}]}"#),
                    now: 1, into: &events)
        let block = CanvasPoint(x: 150, y: 300), paper = CanvasPoint(x: 400, y: 300)
        #expect(engine.route(at: block, tool: .finger, now: 1) == .page && engine.route(at: paper, tool: .finger, now: 1.05) == .ink)
        engine.take(Self.native(1, .began, Self.sample(150, 1.000)), now: 1.000, into: &events)
        engine.take(Self.touch(2, .began, Self.sample(400, 1.050)), now: 1.050, into: &events)
        for step in 1...5 {
            let t = 1.050 + Double(step) * 0.01
            engine.take([Self.native(1, .moved, Self.sample(150 + Double(step) * 4, t)),
                         Self.touch(2, .moved, Self.sample(400 + Double(step) * 4, t))], now: t, into: &events)
        }
        engine.take([Self.native(1, .ended, Self.sample(172, 1.11)), Self.touch(2, .ended, Self.sample(422, 1.11))], now: 1.11, into: &events)
        let decisions = events.compactMap { event -> (UInt64, HitTestVerdict, DecisionReason)? in
            guard case let .decided(_, verdict, reason)? = event.action, let touch = event.platformTouch else { return nil }
            return (touch.rawValue, verdict, reason)
        }
        #expect(decisions.map(\.0) == [1, 2] && decisions[0].1 == .page && decisions[1].1 == .ink, "\(decisions)")
        #expect(decisions.allSatisfy { $0.2 != .multiTouchGesture })
        #expect(!events.contains { if case .scrollPage = $0.kind { true } else { false } })
        #expect(!events.contains { if case .replay = $0.kind { true } else { false } })
        #expect(engine.counters.gestures == 0 && engine.ledger.inked == 7 && engine.ledger.releasedNatively == 7)
    }

    @Test("two fingers that begin on the overlay are still a gesture the page scrolls by, beside a native finger")
    func overlayFingersStillMakeAGesture() {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(#"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":100,"y":280,"width":100,"height":50}]}"#),
                    now: 1, into: &events)
        engine.take(Self.native(1, .began, Self.sample(150, 1.000)), now: 1.000, into: &events)
        engine.take([Self.touch(2, .began, Self.sample(400, 1.050)), Self.touch(3, .began, Self.sample(480, 1.060))], now: 1.060, into: &events)
        engine.take([Self.touch(2, .moved, Self.sample(400, 1.08)), Self.touch(3, .moved, Self.sample(480, 1.08))], now: 1.08, into: &events)
        engine.take([Self.touch(2, .moved, Self.sample(380, 1.1)), Self.touch(3, .moved, Self.sample(460, 1.1))], now: 1.1, into: &events)
        let gesture = events.filter { if case .decided(_, .page, .multiTouchGesture)? = $0.action { true } else { false } }
        #expect(Set(gesture.compactMap(\.platformTouch?.rawValue)) == [2, 3] && engine.counters.gestures == 1)
        #expect(events.contains { if case .scrollPage(dx: 20, dy: 0) = $0.kind { true } else { false } }, "\(events.map(\.kind))")
    }

    // MARK: - Refinements by their index

    @Test("UIKit reuses a UITouch: refinements that arrive after the object was reused refine the first stroke, by their index")
    func refinementsAfterReuse() {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
        var events: [EngineEvent] = []
        // ObjectIdentifier(touch) as the platform id: 7 for both strokes; UIKit's indices run on across touches.
        engine.take([Self.touch(7, .began, Self.sample(10, 1.00, .pencil, index: 10)),
                     Self.touch(7, .moved, Self.sample(12, 1.01, .pencil, index: 11)),
                     Self.touch(7, .ended, Self.sample(14, 1.02, .pencil, index: 12))], now: 1.02, into: &events)
        engine.take([Self.touch(7, .began, Self.sample(90, 1.10, .pencil, index: 13)),
                     Self.touch(7, .moved, Self.sample(92, 1.11, .pencil, index: 14))], now: 1.11, into: &events)
        let strokes = events.compactMap { if case .took(let event) = $0.kind, event.phase == .began { $0.touch } else { nil } }
        #expect(strokes.count == 2)
        events.removeAll()
        engine.take([Self.update(7, 11, force: 0.5), Self.update(7, 12, force: 0.6), Self.update(7, 13, force: 0.7),
                     Self.update(7, 10, force: 0.4)], now: 1.12, into: &events)
        #expect(Self.refusals(events).isEmpty, "\(Self.refusals(events))")
        let refined = events.compactMap { event -> (TouchID, Int, Double?)? in
            guard case let .refineInk(touch, index, sample)? = event.action else { return nil }
            #expect(event.platformTouch?.rawValue == 7 && event.touch == touch)
            return (touch, index, sample.force)
        }
        #expect(refined.map(\.0) == [strokes[0], strokes[0], strokes[1], strokes[0]], "\(refined)")
        #expect(refined.map(\.1) == [1, 2, 0, 0] && refined.map(\.2) == [0.5, 0.6, 0.7, 0.4])
        #expect(engine.counters.updatesApplied == 4 && engine.updatesRefused == 0)
    }

    @Test("a platform that numbers indices per touch: an index two strokes of the id await is refused and counted, never applied to either")
    func perTouchIndicesNeverRefineTheWrongStroke() {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
        var events: [EngineEvent] = []
        engine.take([Self.touch(7, .began, Self.sample(10, 1.00, .pencil, index: 1)),
                     Self.touch(7, .moved, Self.sample(12, 1.01, .pencil, index: 2)),
                     Self.touch(7, .ended, Self.sample(14, 1.02, .pencil, index: 3))], now: 1.02, into: &events)
        let first = events.compactMap { if case .took = $0.kind { $0.touch } else { nil } }.first
        engine.take([Self.touch(7, .began, Self.sample(90, 1.10, .pencil, index: 1)),
                     Self.touch(7, .moved, Self.sample(92, 1.11, .pencil, index: 2))], now: 1.11, into: &events)
        events.removeAll()
        // Meant for the first stroke; the second awaits indices 1 and 2 too.
        engine.take([Self.update(7, 2, force: 0.9), Self.update(7, 1, force: 0.9)], now: 1.12, into: &events)
        #expect(!events.contains { if case .refineInk? = $0.action { true } else { false } }, "\(events.map(\.kind))")
        let refused = Self.refusals(events)
        #expect(refused == [.ambiguousUpdateIndex(PlatformTouchID(7), 2), .ambiguousUpdateIndex(PlatformTouchID(7), 1)], "\(refused)")
        #expect(engine.updatesRefused == 2 && engine.counters.updatesApplied == 0)
        // Index 3 only the first stroke awaits: it is that stroke's.
        events.removeAll()
        engine.take(Self.update(7, 3, force: 0.8), now: 1.13, into: &events)
        let refine = events.compactMap { if case let .refineInk(touch, index, _)? = $0.action { (touch, index) } else { nil } }
        #expect(refine.count == 1 && refine.first?.1 == 2 && refine.first?.0 == first, "\(refine)")
        // An index nobody awaits: refused, counted.
        events.removeAll()
        engine.take(Self.update(7, 99, force: 0.8), now: 1.14, into: &events)
        #expect(Self.refusals(events) == [.unknownUpdateIndex(PlatformTouchID(7), 99)] && engine.updatesRefused == 3)
    }

    @Test("an update for one platform id never refines a touch of another id that awaits the same index")
    func updatesStayWithTheirPlatformID() {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
        var events: [EngineEvent] = []
        engine.take([Self.touch(5, .began, Self.sample(10, 1.00, .pencil, index: 1)),
                     Self.touch(6, .began, Self.sample(90, 1.00, .pencil, index: 1))], now: 1.00, into: &events)
        let six = events.compactMap { if case .took = $0.kind, $0.platformTouch?.rawValue == 6 { $0.touch } else { nil } }.first
        events.removeAll()
        engine.take(Self.update(6, 1, force: 0.5), now: 1.01, into: &events)
        let refine = events.compactMap { if case let .refineInk(touch, _, _)? = $0.action { touch } else { nil } }
        #expect(refine == [six].compactMap { $0 } && refine.count == 1)
    }

    // MARK: - Page pointers

    /// What the page sees, by pointer id: a pointer goes down, moves, and goes up or is
    /// cancelled, in order; nothing arrives for a pointer that is up, and no two touches hold
    /// one id at once.
    struct PageView {
        var down: [UInt64: (touch: TouchID, time: Double)] = [:]
        var problems: [String] = []
        var pointers = 0
        var finished: [(UInt64, TouchID)] = []

        /// After the events of one input: a touch the engine finished has its page pointer up.
        mutating func endOfInput() {
            for (pointer, id) in finished where down[pointer]?.touch == id { problems.append("\(id) finished with its page pointer down") }
            finished.removeAll()
        }

        mutating func carry(_ pointer: UInt64, _ touch: TouchID, _ time: Double, first: Bool) {
            if let held = down[pointer] {
                if first || held.touch != touch { problems.append("pointer \(pointer): down for \(touch) while \(held.touch) holds it") }
                if time < held.time { problems.append("pointer \(pointer): a sample at \(time) after one at \(held.time)") }
            } else {
                if !first { problems.append("pointer \(pointer): a move for \(touch) while it is up") }
                pointers += 1
            }
            down[pointer] = (touch, time)
        }

        mutating func lift(_ pointer: UInt64, _ touch: TouchID) {
            guard let held = down.removeValue(forKey: pointer) else { return problems.append("pointer \(pointer): lifted while up") }
            if held.touch != touch { problems.append("pointer \(pointer): \(touch) lifted \(held.touch)'s pointer") }
        }

        mutating func observe(_ event: EngineEvent, routing: TouchRouting) {
            guard let touch = event.engineTouch else { return }
            switch (routing, event.kind) {
            case let (.handOverAfterDecision, .action(.release(id, sample))):
                carry(touch.pagePointer, id, sample.timestamp, first: down[touch.pagePointer]?.touch != id)
            case let (.handOverAfterDecision, .action(.endRelease(id))), let (.handOverAfterDecision, .action(.cancel(id, .page))):
                lift(touch.pagePointer, id)
            case let (.decideAtTouchDown, .replay(replay)):
                if replay.touch.rawValue != touch.pagePointer { problems.append("replay of \(replay.touch) for \(touch)") }
                for step in replay.events {
                    switch step.phase {
                    case .began: carry(touch.pagePointer, touch.engine, step.time, first: true)
                    case .moved: carry(touch.pagePointer, touch.engine, step.time, first: false)
                    case .ended, .cancelled: lift(touch.pagePointer, touch.engine)
                    }
                }
            case let (_, .action(.touchFinished(id, _))):
                finished.append((touch.pagePointer, id))   // a replay follows the actions of its input
            default:
                break
            }
        }
    }

    @Test("random platform-id reuse, batches, native touches and answer delays never put two live page pointers under one id; each goes down, moves, and up or cancelled, in order",
          arguments: 0..<24)
    func pagePointersProperty(seed: UInt64) {
        var random = SplitMix64(seed: seed &* 7919 &+ 3)
        let routing: TouchRouting = seed % 2 == 0 ? .handOverAfterDecision : .decideAtTouchDown
        var engine = InkEngine(configuration: InkEngineConfiguration(decisionTimeout: 0.1, speculativeInk: seed % 4 < 2, routing: routing),
                               seed: seed)
        var view = PageView()
        var events: [EngineEvent] = []
        var down: [UInt64: Bool] = [:], last: [UInt64: Double] = [:]   // platform id → native; its last time
        var requests: [(HitTestRequest, due: Double)] = []
        var now = 1.0
        func take(_ inputs: [EngineInput], at time: Double) {
            let start = events.count
            engine.take(inputs, now: time, into: &events)
            for event in events[start...] {
                view.observe(event, routing: routing)
                if case let .send(request, _) = event.kind { requests.append((request, time + random.unit() * 0.3)) }
            }
            view.endOfInput()
        }
        for _ in 0..<400 {
            now += random.unit() * 0.03
            var batch: [EngineInput] = []
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let id = random.next() % 4
                let t = max(now, last[id] ?? 0)
                last[id] = t
                let sample = TouchSample(x: random.unit() * 400, y: random.unit() * 400, timestamp: t,
                                         tool: random.next() % 3 == 0 ? .pencil : .finger)
                if let native = down[id] {
                    let phase: TouchPhase = [.moved, .moved, .moved, .ended, .cancelled][Int(random.next() % 5)]
                    if phase != .moved { down[id] = nil }
                    let event = TouchEvent(touch: PlatformTouchID(id), phase: phase, samples: phase == .cancelled ? [] : [sample])
                    batch.append(native ? .nativePageTouch(event) : .touch(event))
                } else {
                    let native = routing == .decideAtTouchDown && random.next() % 4 == 0
                    down[id] = native
                    let event = TouchEvent(touch: PlatformTouchID(id), phase: .began, samples: [sample])
                    batch.append(native ? .nativePageTouch(event) : .touch(event))
                }
            }
            while let index = requests.firstIndex(where: { $0.due <= now }) {
                let (request, _) = requests.remove(at: index)
                batch.append(.pageMessage(PageMessage.answer(PageAnswer(token: request.token, verdict: random.next() % 2 == 0 ? .ink : .page,
                                                                          generation: request.generation)).json))
            }
            take(batch, at: now)
        }
        now += 0.01
        take(down.keys.sorted().map { id in
            let event = TouchEvent(touch: PlatformTouchID(id), phase: .ended, samples: [TouchSample(x: 1, y: 1, timestamp: max(now, last[id] ?? 0))])
            return down[id]! ? .nativePageTouch(event) : .touch(event)
        }, at: now)
        let start = events.count
        engine.advance(to: now + 1, into: &events)
        engine.finish(into: &events)
        for event in events[start...] { view.observe(event, routing: routing) }
        view.endOfInput()
        #expect(view.problems.isEmpty, "\(view.problems.prefix(5))")
        #expect(view.down.isEmpty, "pointers left down: \(view.down)")
        #expect(view.pointers > 0 && engine.ledger.isBalanced && engine.isSettled)
    }

    @Test("the gesture rule is stated word for word in the engine, README, ARCHITECTURE, EngineEvent.Kind.scrollPage and the iPad article")
    func gestureRuleWordForWord() throws {
        let rule = "Two fingers that begin on the scratch paper within 150 ms of each other, both still down, make a gesture: "
            + "the page gets them (replayed, or handed over) and the front end scrolls the page by them; a finger is on the "
            + "scratch paper once the page (or a fresh region snapshot) decided its touch-down ink, so a finger still waiting "
            + "for its answer, one the page claimed or has natively (routed to it at touch-down), and one a fallback decided "
            + "are never part of a gesture."
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for path in ["README.md", "ARCHITECTURE.md", "Sources/InkCore/Decision/TouchRouter.swift",
                     "Sources/HitTestBridge/Engine/EngineEvent.swift", "Sources/HitTestBridge/HitTestBridge.docc/EmbeddingInWKWebView.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let flat = text.split(whereSeparator: \.isNewline).map { line in
                var line = line.drop { $0 == " " }
                if line.hasPrefix("///") { line = line.dropFirst(3) }
                return line.trimmingCharacters(in: .whitespaces)
            }.joined(separator: " ")
            #expect(flat.contains(rule), "\(path) does not state the gesture rule word for word")
        }
    }
}
