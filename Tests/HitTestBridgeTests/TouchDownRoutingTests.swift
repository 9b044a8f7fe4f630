@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// Deciding at touch-down (the route a WKWebView allows): the synchronous route query, touches
/// the platform gave the page natively, and late page verdicts replayed by the page script.
@Suite("Routing at touch-down")
struct TouchDownRoutingTests {
    static let atTouchDown = InkEngineConfiguration(routing: .decideAtTouchDown)
    /// A block at page (100...200, 100...200), fresh for 1 s.
    static let block = RegionSnapshot(generation: 1, maxAge: 1, regions: [PageRegion(x: 100, y: 100, width: 100, height: 100)])

    static func sample(_ x: Double, _ y: Double, _ t: Double, _ tool: ToolKind = .finger) -> TouchSample {
        TouchSample(x: x, y: y, timestamp: t, tool: tool)
    }

    static func event(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples)
    }

    static func actions(_ events: [EngineEvent]) -> [RouterAction] { events.compactMap(\.action) }

    static func replays(_ events: [EngineEvent]) -> [PageReplay] {
        events.compactMap { if case let .replay(replay) = $0.kind { replay } else { nil } }
    }

    static func audited(_ events: [EngineEvent], routing: TouchRouting) -> DeliveryAudit {
        var audit = DeliveryAudit(routing: routing)
        for event in events { audit.observe(event) }
        _ = audit.close()
        return audit
    }

    @Test("the route query: unknown without a snapshot; page on a region and ink beside it while fresh; unknown once stale")
    func routeQuery() {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        #expect(engine.route(at: CanvasPoint(x: 150, y: 150), tool: .finger, now: 1) == nil)
        engine.take(.decodedPageMessage(.regions(Self.block)), now: 1, into: &events)
        let before = (engine.ledger, engine.bridgeMetrics, engine.counters)
        #expect(engine.route(at: CanvasPoint(x: 150, y: 150), tool: .finger, now: 1.5) == .page)
        #expect(engine.route(at: CanvasPoint(x: 150, y: 150), tool: nil, now: 1.5) == .page)
        #expect(engine.route(at: CanvasPoint(x: 20, y: 20), tool: .pencil, now: 1.5) == .ink)
        #expect(engine.route(at: CanvasPoint(x: 150, y: 150), tool: .finger, now: 2.5) == nil)
        // Side-effect free: nothing counted, nothing asked.
        #expect(before.0 == engine.ledger && before.1 == engine.bridgeMetrics && before.2 == engine.counters)
        // Through a scrolled page: canvas (150, 150) is page (150, 250), below the block.
        engine.take(.layout(PageTransform(scale: 1, offsetX: 0, offsetY: 100), generation: nil), now: 1.2, into: &events)
        engine.take(.decodedPageMessage(.regions(RegionSnapshot(generation: 2, maxAge: 1, regions: Self.block.regions))),
                    now: 1.2, into: &events)
        #expect(engine.route(at: CanvasPoint(x: 150, y: 150), tool: .finger, now: 1.3) == .ink)
        #expect(engine.route(at: CanvasPoint(x: 150, y: 50), tool: .finger, now: 1.3) == .page)
    }

    @Test("the regions for a shape-routing front end agree with the route query at every point of a grid, scrolled and zoomed")
    func regionsAgreeWithRoute() throws {
        var engine = InkEngine(configuration: Self.atTouchDown, transform: PageTransform(scale: 1.25, offsetX: 30, offsetY: 80), seed: 1)
        var events: [EngineEvent] = []
        #expect(engine.touchDownRegions(now: 1) == nil)
        let snapshot = RegionSnapshot(generation: 1, maxAge: 0.5, regions: [
            PageRegion(x: 100, y: 100, width: 100, height: 60), PageRegion(x: 400, y: 300, width: 20, height: 200),
        ])
        engine.take(.decodedPageMessage(.regions(snapshot)), now: 1, into: &events)
        let regions = try #require(engine.touchDownRegions(now: 1.1))
        #expect(regions.validUntil == 1.5 && regions.rects.count == 2 && regions.generation == 1)
        for x in stride(from: 0.5, to: 500, by: 7) {
            for y in stride(from: 0.5, to: 500, by: 7) {
                let point = CanvasPoint(x: x, y: y)
                let inside = regions.rects.contains { point.x >= $0.minX && point.x <= $0.maxX && point.y >= $0.minY && point.y <= $0.maxY }
                #expect(engine.route(at: point, tool: .finger, now: 1.1) == (inside ? .page : .ink), "\(point)")
            }
        }
        #expect(engine.touchDownRegions(now: 1.6) == nil)
        // A layout change past the snapshot's generation: nothing fresh until the page pushes.
        engine.take(.layout(PageTransform(scale: 1.25, offsetX: 30, offsetY: 90), generation: 2), now: 1.2, into: &events)
        #expect(engine.touchDownRegions(now: 1.2) == nil && engine.route(at: CanvasPoint(x: 1, y: 1), tool: nil, now: 1.2) == nil)
    }

    @Test("pencil-only: the route is the snapshot's, tool known or not; the overlay's touches are decided by tool once they begin")
    func pencilOnlyRoute() {
        let engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true, routing: .decideAtTouchDown), seed: 1)
        #expect(engine.route(at: CanvasPoint(x: 1, y: 1), tool: .finger, now: 0) == nil)
        #expect(engine.route(at: CanvasPoint(x: 1, y: 1), tool: .pencil, now: 0) == nil)
        #expect(engine.route(at: CanvasPoint(x: 1, y: 1), tool: nil, now: 0) == nil)
    }

    @Test("a touch the platform gave the page natively: counted released natively, nothing asked, nothing to hand over")
    func nativeTouch() {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take([.nativePageTouch(Self.event(3, .began, Self.sample(150, 150, 1))),
                     .touch(Self.event(3, .moved, Self.sample(160, 150, 1.01), Self.sample(170, 150, 1.02))),
                     .nativePageTouch(Self.event(3, .ended, Self.sample(175, 150, 1.03)))], now: 1.03, into: &events)
        let actions = Self.actions(events)
        #expect(actions.contains(.decided(TouchID(1), .page, .routedAtTouchDown)))
        #expect(actions.filter { if case .nativeRelease = $0 { true } else { false } }.count == 4)
        #expect(!actions.contains { if case .release = $0 { true } else if case .endRelease = $0 { true } else { false } })
        #expect(!events.contains { if case .send = $0.kind { true } else { false } } && Self.replays(events).isEmpty)
        let ledger = engine.ledger
        #expect(ledger.received == 4 && ledger.released == 4 && ledger.releasedNatively == 4 && ledger.replayed == 0)
        #expect(ledger.handedOver == 0 && ledger.isBalanced && engine.trackedTouches == 0)
        let audit = Self.audited(events, routing: .decideAtTouchDown)
        #expect(audit.verify(against: ledger).isEmpty)
        #expect(audit.ledger.releasedNatively == 4)
    }

    @Test("unknown at touch-down: drawn at once, the page claims it, the ink is retracted and every sample replayed in order, at page positions")
    func lateVerdictReplayed() throws {
        // The canvas is scrolled 100 down the page: page y = canvas y + 100.
        var engine = InkEngine(configuration: Self.atTouchDown, transform: PageTransform(scale: 1, offsetX: 0, offsetY: 100), seed: 1)
        var events: [EngineEvent] = []
        var all: [EngineEvent] = []
        engine.take(.touch(Self.event(7, .began, Self.sample(150, 50, 1))), now: 1, into: &events)
        // Tentative ink at once: the overlay holds the touch, the page is asked.
        let first = Self.actions(events)
        #expect(first.contains { if case .ink = $0 { true } else { false } })
        let request = try #require(events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.first)
        #expect(request.pagePoint == PagePoint(x: 150, y: 150))
        all += events
        events.removeAll()
        engine.take(.touch(Self.event(7, .moved, Self.sample(160, 50, 1.01))), now: 1.01, into: &events)
        #expect(Self.replays(events).isEmpty)
        all += events
        events.removeAll()
        let answer = PageAnswer(token: request.token, verdict: .page, generation: PageScript.firstGeneration)
        engine.take(.pageMessage(answer.json), now: 1.03, into: &events)
        let actions = Self.actions(events)
        #expect(actions.contains(.retractInk(TouchID(1))) && actions.contains(.decided(TouchID(1), .page, .answered)))
        let replay = try #require(Self.replays(events).first)
        #expect(Self.replays(events).count == 1 && replay.touch == TouchID(1) && replay.tool == .finger)
        #expect(replay.events.map(\.phase) == [.began, .moved])
        #expect(replay.events.map(\.pagePoint) == [PagePoint(x: 150, y: 150), PagePoint(x: 160, y: 150)])
        #expect(replay.events.map(\.time) == [1, 1.01])
        // The replay follows the actions it carries.
        let replayIndex = try #require(events.firstIndex { if case .replay = $0.kind { true } else { false } })
        #expect(events[..<replayIndex].contains { if case .release? = $0.action { true } else { false } })
        all += events
        events.removeAll()
        engine.take([.touch(Self.event(7, .moved, Self.sample(170, 55, 1.04))), .touch(Self.event(7, .ended, Self.sample(171, 55, 1.05)))],
                    now: 1.05, into: &events)
        let rest = Self.replays(events)
        #expect(rest.flatMap(\.events).map(\.phase) == [.moved, .moved, .ended])
        #expect(rest.flatMap(\.events).last?.pagePoint == PagePoint(x: 171, y: 155))
        let ledger = engine.ledger
        #expect(ledger.received == 4 && ledger.replayed == 4 && ledger.released == 4 && ledger.inked == 0 && ledger.isBalanced)
        #expect(engine.counters.retractions == 1)
        all += events
        #expect(Self.audited(all, routing: .decideAtTouchDown).verify(against: ledger).isEmpty)
    }

    @Test("the audit keeps natively released and replayed apart, and a wrong routing fails verification")
    func auditKeepsThemApart() throws {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take([.nativePageTouch(Self.event(1, .began, Self.sample(150, 150, 1))),
                     .touch(Self.event(2, .began, Self.sample(10, 10, 1, .pencil)))], now: 1, into: &events)
        let request = try #require(events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.first)
        engine.take([.touch(Self.event(1, .ended, Self.sample(150, 151, 1.02))),
                     .pageMessage(PageAnswer(token: request.token, verdict: .page, generation: 1).json),
                     .touch(Self.event(2, .ended, Self.sample(12, 10, 1.03, .pencil)))], now: 1.03, into: &events)
        let ledger = engine.ledger
        #expect(ledger.releasedNatively == 2 && ledger.replayed == 2 && ledger.released == 4 && ledger.isBalanced)
        #expect(Self.audited(events, routing: .decideAtTouchDown).verify(against: ledger).isEmpty)
        let wrong = Self.audited(events, routing: .handOverAfterDecision).verify(against: ledger)
        #expect(wrong.count == 1 && wrong.first?.contains("disagrees") == true)
        #expect(Self.replays(events).first?.tool == .pencil)
    }

    @Test("a pencil stroke while a finger rests on a block the page has natively: inked in full")
    func pencilBesideRestingFinger() {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take(.decodedPageMessage(.regions(Self.block)), now: 1, into: &events)
        engine.take(.nativePageTouch(Self.event(1, .began, Self.sample(150, 150, 1))), now: 1, into: &events)
        #expect(engine.route(at: CanvasPoint(x: 20, y: 20), tool: .pencil, now: 1.01) == .ink)
        engine.take(.touch(Self.event(2, .began, Self.sample(20, 20, 1.01, .pencil))), now: 1.01, into: &events)
        for i in 1...20 {
            engine.take(.touch(Self.event(2, .moved, Self.sample(20 + Double(i), 20, 1.01 + Double(i) * 0.004, .pencil))),
                        now: 1.01 + Double(i) * 0.004, into: &events)
        }
        engine.take([.touch(Self.event(2, .ended, Self.sample(41, 20, 1.1, .pencil))), .touch(Self.event(1, .ended, Self.sample(150, 150, 1.1)))],
                    now: 1.1, into: &events)
        let ledger = engine.ledger
        #expect(ledger.inked == 22 && ledger.releasedNatively == 2 && ledger.isBalanced)
        #expect(Self.audited(events, routing: .decideAtTouchDown).verify(against: ledger).isEmpty)
    }

    @Test("cancels: a native touch is cancelled by the platform in the page (nothing to send); a replayed one gets a replayed cancel")
    func cancels() throws {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take([.nativePageTouch(Self.event(1, .began, Self.sample(150, 150, 1))),
                     .touch(Self.event(1, .cancelled, Self.sample(151, 150, 1.01)))], now: 1.01, into: &events)
        #expect(Self.actions(events).contains(.cancel(TouchID(1), previously: .nativePage)))
        // The page had both samples natively: released, not cancelled.
        #expect(engine.ledger.cancelled == 0 && engine.ledger.releasedNatively == 2 && engine.ledger.released == 2)
        engine.take(.touch(Self.event(2, .began, Self.sample(10, 10, 1.02))), now: 1.02, into: &events)
        let request = try #require(events.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.last)
        engine.take(.pageMessage(PageAnswer(token: request.token, verdict: .page, generation: 1).json), now: 1.03, into: &events)
        events.removeAll()
        engine.take(.touch(Self.event(2, .cancelled)), now: 1.04, into: &events)
        #expect(Self.replays(events).flatMap(\.events).map(\.phase) == [.cancelled])
        #expect(engine.ledger.replayed == 1 && engine.ledger.released == 3 && engine.ledger.cancelled == 0 && engine.ledger.isBalanced)
    }

    @Test("two fingers on the overlay make a gesture: the engine says how far to scroll the page's view, by the lead finger, reversed")
    func gestureScrolls() {
        var engine = InkEngine(configuration: Self.atTouchDown, seed: 1)
        var events: [EngineEvent] = []
        engine.take([.touch(Self.event(1, .began, Self.sample(300, 300, 1))), .touch(Self.event(2, .began, Self.sample(400, 300, 1.02)))],
                    now: 1.02, into: &events)
        // The page says both are on the paper: the gesture.
        for request in events.compactMap({ if case let .send(request, _) = $0.kind { request } else { nil } }) {
            engine.take(.pageMessage(PageAnswer(token: request.token, verdict: .ink, generation: 1).json), now: 1.02, into: &events)
        }
        for i in 1...10 {
            let t = 1.02 + Double(i) * 0.016
            engine.take([.touch(Self.event(1, .moved, Self.sample(300, 300 - Double(i) * 3, t))),
                         .touch(Self.event(2, .moved, Self.sample(400, 300 - Double(i) * 3, t)))], now: t, into: &events)
        }
        engine.take([.touch(Self.event(1, .ended)), .touch(Self.event(2, .ended))], now: 1.2, into: &events)
        let scrolls = events.compactMap { if case let .scrollPage(dx, dy) = $0.kind { (dx, dy) } else { nil } }
        #expect(!scrolls.isEmpty)
        #expect(scrolls.reduce(0) { $0 + $1.0 } == 0 && scrolls.reduce(0) { $0 + $1.1 } == 30, "\(scrolls)")
        #expect(engine.ledger.isBalanced && engine.ledger.replayed == engine.ledger.received)
        // Hand-over routing: the platform scrolls for the touches it was handed; no scroll events.
        var handOver = InkEngine(seed: 1)
        var other: [EngineEvent] = []
        handOver.take([.touch(Self.event(1, .began, Self.sample(300, 300, 1))), .touch(Self.event(2, .began, Self.sample(400, 300, 1.02))),
                       .touch(Self.event(1, .moved, Self.sample(300, 280, 1.05)))], now: 1.05, into: &other)
        #expect(!other.contains { if case .scrollPage = $0.kind { true } else { false } })
    }

    @Test("hand-over routing (the default) never replays and never speculates without a snapshot")
    func handOverUnchanged() {
        var engine = InkEngine(seed: 1)
        var events: [EngineEvent] = []
        engine.take(.touch(Self.event(1, .began, Self.sample(10, 10, 1))), now: 1, into: &events)
        #expect(!Self.actions(events).contains { if case .ink = $0 { true } else { false } })
        engine.advance(to: 2, into: &events)
        #expect(Self.replays(events).isEmpty && engine.ledger.replayed == 0)
    }

    @Test("the replay's script hands the page script JSON built from numbers only")
    func replayScript() {
        let replay = PageReplay(touch: TouchID(4), tool: .pencil, events: [
            PageReplay.Event(phase: .began, pagePoint: PagePoint(x: 1.5, y: 2), time: 0.25, pressure: 0.5),
            PageReplay.Event(phase: .ended, pagePoint: PagePoint(x: .nan, y: 2), time: 0.5),
        ])
        #expect(replay.json == #"{"type":"replay","touch":4,"pointerType":"pen","events":[{"phase":"down","x":1.5,"y":2,"t":0.25,"pressure":0.5},{"phase":"up","x":0,"y":2,"t":0.5}]}"#)
        #expect(replay.scriptInvocation.hasPrefix("(window.scratchpadInk && window.scratchpadInk.replay ? window.scratchpadInk.replay({"))
        #expect(replay.scriptInvocation.hasSuffix("}) !== false : false);"))
        // A replay names the document it is for; the page script refuses another's.
        let named = PageReplay(touch: TouchID(4), tool: .finger, document: try! PageDocumentID("0123456789abcdef"),
                               events: [PageReplay.Event(phase: .cancelled, pagePoint: PagePoint(x: 1, y: 2), time: 0.5)])
        #expect(named.json == #"{"type":"replay","touch":4,"pointerType":"touch","document":"0123456789abcdef","events":[{"phase":"cancel","x":1,"y":2,"t":0.5}]}"#)
    }
}
