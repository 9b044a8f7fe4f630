import Foundation
@_spi(Tooling) import InkCore
import InkTesting
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// Hands on the glass (issue 52): a palm beside the pen, one gesture rule in both routings,
/// the same route whether the tool is known at hit-test time or not, and a teardown that
/// draws what it decides. Every time is the test's own (no clock but the one passed).
@Suite("Hands: palms, gestures, the tool at hit-test, teardown")
struct HandsTests {
    static func sample(_ x: Double, _ t: Double, _ tool: ToolKind = .finger, y: Double = 300, radius: Double? = nil) -> TouchSample {
        TouchSample(x: x, y: y, timestamp: t, tool: tool, majorRadius: radius)
    }

    static func touch(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> EngineInput {
        .touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples))
    }

    /// Every decision, by platform touch.
    static func decisions(_ events: [EngineEvent]) -> [(touch: UInt64, verdict: HitTestVerdict, reason: DecisionReason)] {
        events.compactMap { event in
            guard case let .decided(_, verdict, reason)? = event.action, let touch = event.platformTouch else { return nil }
            return (touch.rawValue, verdict, reason)
        }
    }

    static func inked(_ events: [EngineEvent], platform: UInt64) -> Int {
        events.filter { if case .ink? = $0.action, $0.platformTouch?.rawValue == platform { true } else { false } }.count
    }

    static func scrolls(_ events: [EngineEvent]) -> Int {
        events.filter { if case .scrollPage = $0.kind { true } else { false } }.count
    }

    static func cancels(_ events: [EngineEvent]) -> [CancelledRoute] {
        events.compactMap { if case let .cancel(_, previously)? = $0.action { previously } else { nil } }
    }

    /// The page's answers to every request sent so far that has none yet: `verdict(point)`.
    static func answerAll(_ engine: inout InkEngine, _ events: inout [EngineEvent], answered: inout Set<String>, now: Double,
                          _ verdict: (PagePoint) -> HitTestVerdict) {
        let requests = events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }
        for request in requests where !answered.contains("\(request.token)") {
            answered.insert("\(request.token)")
            engine.take(.pageMessage(FakePage.answer(to: request, verdict: verdict(request.pagePoint))), now: now, into: &events)
        }
    }

    // MARK: - Palms

    @Test("a finger beside the pen still waiting for its answer when the session finishes with the ink fallback is a palm, and the finish ends it: cancelled, nothing pending, the audit closes clean (the engine fuzzer's crash, seed engine-palm-flushed)")
    func palmFlushedAtFinish() {
        var engine = InkEngine(configuration: InkEngineConfiguration(fallback: .ink, useRegionCache: false,
                                                                     routing: .handOverAfterDecision), seed: 1)
        var events: [EngineEvent] = []
        engine.take(Self.touch(1, .began, Self.sample(400, 1.00, .pencil)), now: 1.00, into: &events)
        engine.take(Self.touch(2, .began, Self.sample(600, 1.04), Self.sample(603, 1.05)), now: 1.05, into: &events)
        engine.finish(into: &events)   // no answer came: both settled by the fallback
        #expect(engine.ledger.pending == 0 && engine.ledger.dropped == 0, "\(engine.ledger)")
        #expect(Self.cancels(events) == [.palm], "\(Self.cancels(events))")
        var audit = DeliveryAudit(routing: .handOverAfterDecision)
        for event in events { audit.observe(event) }
        _ = audit.close()
        #expect(audit.verify(against: engine.ledger).isEmpty, "\(audit.verify(against: engine.ledger))")
    }

    @Test("a finger on the paper while the pencil writes is held: no ink, no page, no scroll; counted cancelled on the system's cancel",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func palmWhilePencilDown(routing: TouchRouting) {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: 1)
        var events: [EngineEvent] = []
        // A fresh snapshot with nothing interactive: the pencil inks at once.
        engine.take(.pageMessage(FakePage.regions([], maxAge: 60)), now: 1, into: &events)
        engine.take(Self.touch(1, .began, Self.sample(400, 1.00, .pencil)), now: 1.00, into: &events)
        engine.take(Self.touch(2, .began, Self.sample(600, 1.02)), now: 1.02, into: &events)   // the hand lands
        for step in 1...10 {
            let t = 1.02 + Double(step) * 0.01
            engine.take([Self.touch(1, .moved, Self.sample(400 + Double(step), t, .pencil)),
                         Self.touch(2, .moved, Self.sample(600 - Double(step) * 3, t))], now: t, into: &events)
        }
        engine.take(Self.touch(2, .cancelled), now: 1.13, into: &events)   // the system saw a palm
        engine.take(Self.touch(1, .ended, Self.sample(411, 1.14, .pencil)), now: 1.14, into: &events)
        #expect(Self.inked(events, platform: 2) == 0)
        #expect(!events.contains { if case .replay = $0.kind { true } else if case .pageTouch = $0.kind { true } else { false } })
        #expect(!events.contains { if case .send = $0.kind, $0.platformTouch?.rawValue == 2 { true } else { false } })
        #expect(Self.decisions(events).allSatisfy { $0.touch != 2 }, "\(Self.decisions(events))")
        #expect(Self.scrolls(events) == 0)
        #expect(Self.cancels(events) == [.palm])
        #expect(engine.counters.palmsHeld == 1)
        let ledger = engine.ledger
        #expect(ledger.received == 23 && ledger.inked == 12 && ledger.cancelled == 11 && ledger.released == 0)
        #expect(ledger.received == ledger.inked + ledger.released + ledger.cancelled + ledger.refused)
        #expect(ledger.dropped == 0 && ledger.pending == 0 && engine.isSettled)
    }

    @Test("under pencil-only, the hand resting beside the pen scrolls nothing; a finger more than 0.3 s after the pencil lifted is the page's again")
    func pencilOnlyPalmScrollsNothing() {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true, routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        engine.take(Self.touch(1, .began, Self.sample(400, 1.00, .pencil)), now: 1.00, into: &events)
        engine.take(Self.touch(2, .began, Self.sample(600, 1.02)), now: 1.02, into: &events)
        for step in 1...10 {
            let t = 1.02 + Double(step) * 0.01
            engine.take([Self.touch(1, .moved, Self.sample(400 + Double(step), t, .pencil)),
                         Self.touch(2, .moved, Self.sample(600, t, y: 300 - Double(step) * 5))], now: t, into: &events)
        }
        engine.take([Self.touch(2, .ended), Self.touch(1, .ended)], now: 1.13, into: &events)
        #expect(Self.scrolls(events) == 0 && engine.counters.palmsHeld == 1)
        #expect(Self.cancels(events) == [.palm])
        // Within the hold after the lift: still a palm. Past it: the tool policy, and a scroll.
        engine.take([Self.touch(3, .began, Self.sample(600, 1.35)), Self.touch(3, .ended, Self.sample(600, 1.36))],
                    now: 1.36, into: &events)
        #expect(engine.counters.palmsHeld == 2)
        engine.take(Self.touch(4, .began, Self.sample(600, 1.70)), now: 1.70, into: &events)
        engine.take(Self.touch(4, .moved, Self.sample(600, 1.71, y: 250)), now: 1.71, into: &events)
        engine.take(Self.touch(4, .moved, Self.sample(600, 1.72, y: 200)), now: 1.72, into: &events)
        engine.take(Self.touch(4, .ended), now: 1.73, into: &events)
        #expect(engine.counters.palmsHeld == 2)
        #expect(Self.decisions(events).contains { $0.touch == 4 && $0.verdict == .page && $0.reason == .toolPolicy })
        #expect(Self.scrolls(events) >= 1)
        // A finger down before the pencil (the page's by the tool policy) scrolls nothing while
        // the pencil is down, and again once it lifted.
        engine.take(Self.touch(5, .began, Self.sample(600, 3.00)), now: 3.00, into: &events)
        engine.take(Self.touch(5, .moved, Self.sample(600, 3.01, y: 280)), now: 3.01, into: &events)
        let before = Self.scrolls(events)
        #expect(before > Self.scrolls(Array(events.prefix(events.count - 1))) || before >= 2)
        engine.take(Self.touch(6, .began, Self.sample(300, 3.02, .pencil)), now: 3.02, into: &events)
        for step in 1...5 {
            let t = 3.02 + Double(step) * 0.01
            engine.take([Self.touch(5, .moved, Self.sample(600, t, y: 280 - Double(step) * 10)),
                         Self.touch(6, .moved, Self.sample(300 + Double(step), t, .pencil))], now: t, into: &events)
        }
        #expect(Self.scrolls(events) == before, "the page scrolled under the pen")
        engine.take([Self.touch(6, .ended), Self.touch(5, .ended)], now: 3.08, into: &events)
        #expect(engine.ledger.dropped == 0 && engine.isSettled)
    }

    @Test("a contact as wide as a palm is held with no pencil near; a fingertip is not")
    func wideContactIsAPalm() {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(FakePage.regions([], maxAge: 60)), now: 1, into: &events)
        engine.take([Self.touch(1, .began, Self.sample(400, 1.00, radius: 48)), Self.touch(1, .moved, Self.sample(402, 1.01, radius: 50)),
                     Self.touch(1, .ended, Self.sample(404, 1.02, radius: 50))], now: 1.02, into: &events)
        engine.take([Self.touch(2, .began, Self.sample(400, 2.00, radius: 9)), Self.touch(2, .ended, Self.sample(404, 2.02, radius: 9))],
                    now: 2.02, into: &events)
        #expect(engine.counters.palmsHeld == 1)
        #expect(Self.inked(events, platform: 1) == 0 && Self.inked(events, platform: 2) == 2)
        #expect(engine.ledger.cancelled == 3 && engine.ledger.inked == 2 && engine.ledger.dropped == 0)
    }

    @Test("a finger on the paper while the pencil hovers is held, and for 0.3 s after the hover ends; a repeated end moves nothing; later a finger inks",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func palmWhilePencilHovers(routing: TouchRouting) {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(FakePage.regions([], maxAge: 60)), now: 1, into: &events)
        engine.take(.pencilHovering(true), now: 1.00, into: &events)    // the pen approaches
        engine.take([Self.touch(1, .began, Self.sample(600, 1.05)), Self.touch(1, .moved, Self.sample(590, 1.06)),
                     Self.touch(1, .ended, Self.sample(580, 1.07))], now: 1.07, into: &events)   // the hand lands first
        engine.take(.pencilHovering(false), now: 1.20, into: &events)
        engine.take([Self.touch(2, .began, Self.sample(600, 1.40)), Self.touch(2, .ended, Self.sample(601, 1.41))],
                    now: 1.41, into: &events)   // within 0.3 s of the hover's end
        engine.take(.pencilHovering(false), now: 2.00, into: &events)   // no hover was on: nothing moves
        engine.take([Self.touch(3, .began, Self.sample(600, 2.05)), Self.touch(3, .ended, Self.sample(604, 2.06))],
                    now: 2.06, into: &events)
        #expect(engine.counters.palmsHeld == 2, "\(engine.counters.palmsHeld)")
        #expect(Self.inked(events, platform: 1) == 0 && Self.inked(events, platform: 2) == 0)
        #expect(Self.inked(events, platform: 3) == 2)
        #expect(Self.cancels(events) == [.palm, .palm], "\(Self.cancels(events))")
        #expect(!events.contains { if case .replay = $0.kind { true } else if case .pageTouch = $0.kind { true } else { false } })
        let ledger = engine.ledger
        #expect(ledger.received == 7 && ledger.cancelled == 5 && ledger.inked == 2, "\(ledger)")
        #expect(ledger.dropped == 0 && ledger.pending == 0 && engine.isSettled)
    }

    @Test("the pencil-only setting read again applies from the next touch-down: a finger inks, then is the page's, then inks again; a touch down across the change keeps its decision",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func pencilOnlyReadAgain(routing: TouchRouting) {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: false, routing: routing), seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(FakePage.regions([], maxAge: 60)), now: 1, into: &events)
        func tap(_ platform: UInt64, at t: Double) {
            engine.take([Self.touch(platform, .began, Self.sample(500, t)), Self.touch(platform, .ended, Self.sample(502, t + 0.01))],
                        now: t + 0.01, into: &events)
        }
        tap(1, at: 1.0)
        engine.take(Self.touch(2, .began, Self.sample(300, 1.5)), now: 1.5, into: &events)   // down across the change
        engine.take(.pencilOnly(true), now: 1.55, into: &events)
        engine.take(.pencilOnly(true), now: 1.56, into: &events)   // the same value: nothing changes
        engine.take(Self.touch(2, .moved, Self.sample(310, 1.6)), now: 1.6, into: &events)
        engine.take(Self.touch(2, .ended, Self.sample(320, 1.65)), now: 1.65, into: &events)
        tap(3, at: 2.0)
        engine.take(.pencilOnly(false), now: 2.5, into: &events)
        tap(4, at: 3.0)
        let decisions = Self.decisions(events)
        #expect(decisions.contains { $0.touch == 1 && $0.verdict == .ink }, "\(decisions)")
        #expect(decisions.contains { $0.touch == 2 && $0.verdict == .ink }, "\(decisions)")
        #expect(decisions.contains { $0.touch == 3 && $0.verdict == .page && $0.reason == .toolPolicy }, "\(decisions)")
        #expect(decisions.contains { $0.touch == 4 && $0.verdict == .ink && $0.reason != .toolPolicy }, "\(decisions)")
        #expect(Self.inked(events, platform: 2) == 3 && Self.inked(events, platform: 3) == 0)
        #expect(engine.ledger.dropped == 0 && engine.ledger.pending == 0 && engine.isSettled)
    }

    @Test("a recording keeps a palm: the radius and the palm rule are in the log, and the replay holds it again")
    func palmRecorded() throws {
        let line = SessionLogLines.sample(Self.sample(400, 1, radius: 42.5))
        #expect(line.serialized().contains(#""radius":42.5"#), "\(line.serialized())")
        let configuration = SessionLogLines.configuration(InkEngineConfiguration())
        let read = try SessionLogLines.configuration(from: JSONFieldReader(configuration))
        #expect(read.palmHold == 0.3 && read.palmRadius == 30)
        // A header that names no palm rule (an engine before 1.2) replays with none.
        let old = try SessionLogLines.configuration(from: JSONFieldReader(.object(JSONObject([("pencil_only", .bool(false))]))))
        #expect(old.palmHold == 0 && old.palmRadius == nil)
    }

    // MARK: - One gesture rule

    @Test("no fresh snapshot: a tap on a button and a finger on a block 40 ms apart are no gesture; each is the page's by its answer",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func buttonAndBlockAreNoGesture(routing: TouchRouting) {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: 1)
        var events: [EngineEvent] = []
        var answered: Set<String> = []
        engine.take(Self.touch(1, .began, Self.sample(100, 1.00)), now: 1.00, into: &events)   // the button
        engine.take(Self.touch(2, .began, Self.sample(500, 1.04)), now: 1.04, into: &events)   // the block
        engine.take(Self.touch(1, .ended, Self.sample(100, 1.06)), now: 1.06, into: &events)
        Self.answerAll(&engine, &events, answered: &answered, now: 1.07) { _ in .page }
        for step in 1...5 {
            engine.take(Self.touch(2, .moved, Self.sample(500 + Double(step) * 4, 1.07 + Double(step) * 0.01)),
                        now: 1.07 + Double(step) * 0.01, into: &events)
        }
        engine.take(Self.touch(2, .ended), now: 1.13, into: &events)
        let decisions = Self.decisions(events)
        #expect(decisions.allSatisfy { $0.reason != .multiTouchGesture && $0.verdict == .page }, "\(decisions)")
        #expect(engine.counters.gestures == 0 && Self.scrolls(events) == 0)
        #expect(engine.ledger.dropped == 0 && engine.isSettled)
    }

    @Test("a finger on the paper 40 ms after a finger on a block (answered the page's) inks: no gesture",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func paperBesideBlockInks(routing: TouchRouting) {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: 1)
        var events: [EngineEvent] = []
        var answered: Set<String> = []
        engine.take(Self.touch(1, .began, Self.sample(100, 1.00)), now: 1.00, into: &events)   // the block
        engine.take(Self.touch(2, .began, Self.sample(500, 1.04)), now: 1.04, into: &events)   // the paper
        Self.answerAll(&engine, &events, answered: &answered, now: 1.06) { $0.x < 300 ? .page : .ink }
        engine.take([Self.touch(1, .ended, Self.sample(100, 1.08)), Self.touch(2, .ended, Self.sample(520, 1.08))], now: 1.08, into: &events)
        let decisions = Self.decisions(events)
        #expect(decisions.contains { $0.touch == 2 && $0.verdict == .ink && $0.reason == .answered }, "\(decisions)")
        #expect(!decisions.contains { $0.reason == .multiTouchGesture }, "\(decisions)")
        #expect(Self.inked(events, platform: 2) == 2 && engine.counters.gestures == 0)
    }

    @Test("two fingers the page says are both on the paper, 40 ms apart, both down: one gesture, their ink taken back, the page scrolls",
          arguments: [TouchRouting.handOverAfterDecision, .decideAtTouchDown])
    func twoPaperFingersAreAGesture(routing: TouchRouting) {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: routing), seed: 1)
        var events: [EngineEvent] = []
        var answered: Set<String> = []
        engine.take(Self.touch(1, .began, Self.sample(400, 1.00)), now: 1.00, into: &events)
        Self.answerAll(&engine, &events, answered: &answered, now: 1.02) { _ in .ink }
        engine.take(Self.touch(2, .began, Self.sample(600, 1.04)), now: 1.04, into: &events)
        Self.answerAll(&engine, &events, answered: &answered, now: 1.06) { _ in .ink }
        for step in 1...5 {
            let t = 1.06 + Double(step) * 0.01
            engine.take([Self.touch(1, .moved, Self.sample(400, t, y: 300 - Double(step) * 6)),
                         Self.touch(2, .moved, Self.sample(600, t, y: 300 - Double(step) * 6))], now: t, into: &events)
        }
        engine.take([Self.touch(1, .ended), Self.touch(2, .ended)], now: 1.12, into: &events)
        let decisions = Self.decisions(events)
        #expect(decisions.filter { $0.reason == .multiTouchGesture }.map(\.touch).sorted() == [1, 2], "\(decisions)")
        #expect(engine.counters.gestures == 1 && engine.ledger.inked == 0)
        if routing == .decideAtTouchDown { #expect(Self.scrolls(events) >= 1) }
        #expect(Self.zooms(events).isEmpty, "two fingers moving together scroll, never zoom: \(Self.zooms(events))")
        #expect(engine.ledger.dropped == 0 && engine.isSettled)
    }

    static func zooms(_ events: [EngineEvent]) -> [(scale: Double, about: CanvasPoint)] {
        events.compactMap { if case let .zoomPage(scale, about) = $0.kind { (scale, about) } else { nil } }
    }

    @Test("two fingers on the paper that pinch zoom the page's view about their midpoint, by the ratio of their distances, once past the 10 % threshold; their midpoint then scrolls; a drift under it zooms nothing")
    func pinchZooms() throws {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(FakePage.regions([], maxAge: 60)), now: 1, into: &events)
        engine.take(Self.touch(1, .began, Self.sample(400, 1.00)), now: 1.00, into: &events)
        engine.take(Self.touch(2, .began, Self.sample(600, 1.04)), now: 1.04, into: &events)
        // One frame of both fingers, as a platform delivers it (and the loop sums it): what it
        // zoomed (the product, and the last anchor) and scrolled (the sum).
        func frame(_ x1: Double, _ x2: Double, at t: Double) -> (scale: Double, about: CanvasPoint?, dx: Double, dy: Double) {
            let from = events.count
            engine.take([Self.touch(1, .moved, Self.sample(x1, t)), Self.touch(2, .moved, Self.sample(x2, t))], now: t, into: &events)
            var result: (scale: Double, about: CanvasPoint?, dx: Double, dy: Double) = (1, nil, 0, 0)
            for event in events[from...] {
                if case let .zoomPage(scale, about) = event.kind { result.scale *= scale; result.about = about }
                if case let .scrollPage(dx, dy) = event.kind { result.dx += dx; result.dy += dy }
            }
            return result
        }
        // A drift of 5 % (the fingers of a scroll): no zoom.
        let drift = frame(395, 605, at: 1.05)
        #expect(drift.about == nil && drift.scale == 1)
        // Apart, symmetrically about x 500, to 300 points: 1.5 times the 200 they began at.
        var total = 1.0
        for step in 1...5 {
            let d = 5 + Double(step) * 9
            let moved = frame(400 - d, 600 + d, at: 1.05 + Double(step) * 0.01)
            total *= moved.scale
            if step >= 2 { #expect(moved.about == CanvasPoint(x: 500, y: 300), "\(moved)") }
            if step >= 3 { #expect(moved.dx == 0 && moved.dy == 0, "the midpoint stayed: \(moved)") }
        }
        #expect(abs(total - 300.0 / 200.0) < 1e-9, "zoomed by \(total)")
        // Each input's zoom comes before its scroll.
        for index in events.indices where index > 0 {
            if case .zoomPage = events[index].kind, case .scrollPage = events[index - 1].kind, events[index - 1].time == events[index].time {
                Issue.record("a scroll before its input's zoom")
            }
        }
        // Both move right 30 points: the midpoint scrolls the view by 30 against them; the
        // distance is the same, so what the frame zooms comes to nothing.
        let pan = frame(380, 680, at: 1.20)
        #expect(abs(pan.scale - 1) < 1e-9 && pan.dx == -30 && pan.dy == 0, "\(pan)")
        engine.take([Self.touch(1, .ended), Self.touch(2, .ended)], now: 1.25, into: &events)
        #expect(engine.counters.gestures == 1 && engine.ledger.inked == 0)
        #expect(engine.ledger.dropped == 0 && engine.isSettled)
    }

    // MARK: - The tool at hit-test time

    @Test("route(at:tool:) gives the same verdict with the tool known or not, pencil-only or not, snapshot or not",
          arguments: [false, true])
    func toolKnownOrNot(pencilOnly: Bool) {
        var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: pencilOnly, routing: .decideAtTouchDown), seed: 1)
        let field = CanvasPoint(x: 150, y: 300), paper = CanvasPoint(x: 600, y: 300)
        for point in [field, paper] {
            let unknown = engine.route(at: point, tool: nil, now: 1)
            #expect(engine.route(at: point, tool: .pencil, now: 1) == unknown && engine.route(at: point, tool: .finger, now: 1) == unknown)
        }
        var events: [EngineEvent] = []
        engine.take(.pageMessage(FakePage.regions([FakePage.Region(x: 100, y: 280, width: 100, height: 50)], maxAge: 60)),
                    now: 1, into: &events)
        for point in [field, paper] {
            let unknown = engine.route(at: point, tool: nil, now: 1.1)
            #expect(engine.route(at: point, tool: .pencil, now: 1.1) == unknown, "\(point)")
            #expect(engine.route(at: point, tool: .finger, now: 1.1) == unknown, "\(point)")
        }
        #expect(engine.route(at: field, tool: .pencil, now: 1.1) == .page)
    }

    // MARK: - Teardown

    /// What a page side did, seen from the platform's side.
    final class Platform {
        var evaluated: [String] = []
        var redraws = 0
    }

    @Test("a page side released without close() stops its loop through itself: the replay and the redraw of what the stop decides reach the platform")
    func teardownDrawsWhatItDecides() {
        let clock = ManualClock(start: 1)
        let platform = Platform()
        var configuration = InkEngineConfiguration(fallback: .page, routing: .decideAtTouchDown)
        configuration.useRegionCache = false
        var side: PageSide? = PageSide(configuration: configuration, clock: clock, page: PageSide.Page(
            evaluate: { script, done in platform.evaluated.append(script); done(true) },
            redraw: { _ in platform.redraws += 1 }))
        // A tap the overlay took with no snapshot: tentative ink, a question in flight.
        side?.touched([TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [Self.sample(400, 1)]),
                       TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [Self.sample(400, 1)])], onOverlay: true)
        let evaluatedBefore = platform.evaluated.count, redrawsBefore = platform.redraws
        #expect(side?.ink.strokes.count == 1)
        side = nil   // released: the deinit stops the loop; the fallback (page) retracts and replays
        #expect(platform.redraws > redrawsBefore, "the retracted ink was never redrawn")
        let replays = platform.evaluated.dropFirst(evaluatedBefore).filter { $0.contains("replay") }
        #expect(replays.count == 1, "\(platform.evaluated)")
    }
}
