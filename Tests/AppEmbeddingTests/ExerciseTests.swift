import Foundation
import HitTestBridge
import InkCore
import InkTesting
import Testing

// The README's embedding (`Scratchpad`) and docs/embedding.md's hand-over one
// (`HandOverScratchpad`), exactly as shown (ReadmeEmbeddingTests.swift holds them and checks
// the docs show them byte for byte), run over the exercise a whole app meets: several touches
// in one callback, platform ids reused, Pencil force refined 45 ms late, a two-finger scroll
// on the paper, a resize that reflows the page, a navigation to the next exercise, a page
// whose script is missing, the page answering at 0, 30 and 200 ms. Every touch has a right
// owner (what lies under it on the page as it is when the finger lands); a sample that went
// elsewhere is misrouted.

/// The exercise page in a web view, in simulated time: its layout (page coordinates), its
/// scroll position, its page script (region snapshots, answers) and what it received.
private final class ExerciseWebView {
    struct Element { var name: String, x: Double, y: Double, width: Double, height: Double }

    let clock: ManualClock
    let latency: Double
    /// Page messages and evaluation results in flight, by the time they arrive.
    private var pending: [(time: Double, order: Int, run: () -> Void)] = []
    private var order = 0
    /// The page as it is now.
    var width = 1024.0, height = 768.0
    var scrollY = 0.0
    var document = 1
    var scriptAlive = true
    var generation: UInt64 = 1
    /// Where the page's view lands: page = canvas + scroll (no zoom).
    var transform: PageTransform { PageTransform(scale: 1, offsetX: 0, offsetY: scrollY) }
    /// The page's interactive elements now.
    var elements: [Element] {
        switch (document, width >= 800) {
        case (1, true): [Element(name: "check", x: 100, y: 100, width: 120, height: 44),
                         Element(name: "block", x: 300, y: 200, width: 100, height: 100),
                         Element(name: "field", x: 100, y: 400, width: 300, height: 50)]
        case (1, false): [Element(name: "check", x: 40, y: 60, width: 120, height: 44),
                          Element(name: "block", x: 40, y: 140, width: 100, height: 100),
                          Element(name: "field", x: 40, y: 600, width: 300, height: 50)]
        default: [Element(name: "next", x: 400, y: 600, width: 200, height: 60)]
        }
    }
    /// What the page got: the platform's touches natively, replays, injected pointers.
    var nativeSamples = 0, replayedEvents = 0, injected: [PageTouch] = []
    /// The app side: its messages in.
    var onMessage: (String) -> Void = { _ in }
    var onScrolled: (PageTransform) -> Void = { _ in }

    init(clock: ManualClock, latency: Double) {
        self.clock = clock
        self.latency = latency
    }

    func later(_ delay: Double, _ run: @escaping () -> Void) {
        order += 1
        pending.append((clock.now + delay, order, run))
    }

    /// Time passes to `time`: what is in flight arrives in order, the loop's wake-ups fire.
    func run(until time: Double) {
        while let next = pending.min(by: { ($0.time, $0.order) < ($1.time, $1.order) }), next.time <= time {
            pending.removeAll { $0.order == next.order }
            clock.advance(to: max(clock.now, next.time))
            next.run()
        }
        clock.advance(to: max(clock.now, time))
    }

    func element(at page: PagePoint) -> Element? {
        elements.first { page.x >= $0.x && page.x <= $0.x + $0.width && page.y >= $0.y && page.y <= $0.y + $0.height }
    }

    /// The page script's snapshot of its elements, posted after the page's latency.
    func pushRegions() {
        guard scriptAlive else { return }
        let snapshot = FakePage.regions(elements.map { FakePage.Region(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                                        generation: generation, maxAge: 30)
        let document = self.document
        later(latency) { [self] in if self.document == document { onMessage(snapshot) } }
    }

    /// `evaluateJavaScript` in the page script's world: the result comes back at once
    /// (`true` when the script is there), the script's answer after the latency, computed on
    /// the layout as it is then.
    func evaluate(_ script: String, _ done: @escaping (Bool) -> Void) {
        let alive = scriptAlive
        later(0.001) { done(alive) }
        guard alive else { return }
        if script.contains("hitTest("), let start = script.range(of: "hitTest("), let end = script.range(of: "), true") {
            let json = String(script[start.upperBound..<end.lowerBound])
            guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
                  let id = object["id"] as? String, let x = object["x"] as? Double, let y = object["y"] as? Double else { return }
            let document = self.document
            later(latency) { [self] in
                guard self.document == document else { return }
                let hit = element(at: PagePoint(x: x, y: y)) != nil
                onMessage(#"{"type":"answer","id":"\#(id)","interactive":\#(hit ? 1 : 0),"generation":\#(generation)}"#)
            }
        } else if script.contains("pushRegions") {
            pushRegions()
        } else if let replay = script.range(of: #""events":["#) {
            replayedEvents += script[replay.upperBound...].components(separatedBy: #""phase""#).count - 1
        }
    }

    /// The app scrolls the page's view (a gesture on the overlay); the scroll view's delegate
    /// reports where it landed.
    func scroll(dx: Double, dy: Double) {
        scrollY = max(0, scrollY + dy)
        onScrolled(transform)
    }

    /// A pointer handed over: trusted, so two of them scroll the page natively.
    func inject(_ touch: PageTouch) {
        injected.append(touch)
        let down = Dictionary(grouping: injected, by: \.pointer).filter { $0.value.last?.phase == .began || $0.value.last?.phase == .moved }
        if touch.phase == .moved, down.count >= 2, let lead = down.keys.min(), lead == touch.pointer,
           let previous = injected.dropLast().last(where: { $0.pointer == lead }) {
            scroll(dx: 0, dy: previous.point.y - touch.point.y)
        }
    }
}

/// One touch of the script: where it lands, how it moves, and who should get it.
private struct ScriptedTouch {
    var id: UInt64
    var tool: ToolKind
    var points: [CanvasPoint]
    var start: Double
    var step = 0.016
    var refined = false
    /// The right owner when the page's layout does not say it: two fingers that scroll are the page's.
    var gesture = false
}

@Suite("The README's embedding over the whole exercise: nothing misrouted, nothing lost, at 0, 30 and 200 ms")
struct ExerciseTests {
    /// How the app meets the page: the README's touch-down embedding, or the hand-over one.
    enum Routing: String, CaseIterable { case touchDown, handOver }

    /// The app: one of the two embeddings as shown, wired to the web view as UIKit or a host
    /// would wire it.
    private final class App {
        let web: ExerciseWebView
        let routing: Routing
        var touchDown: Scratchpad?
        var handOver: HandOverScratchpad?
        var side: PageSide { touchDown?.side ?? handOver!.side }
        /// Who each live touch went to at touch-down (the platform's hit test).
        var onOverlay: [UInt64: Bool] = [:]

        init(web: ExerciseWebView, routing: Routing) {
            self.web = web
            self.routing = routing
            switch routing {
            case .touchDown:
                touchDown = Scratchpad(view: web.transform, clock: web.clock, evaluate: web.evaluate, scroll: web.scroll, redraw: { _ in })
            case .handOver:
                handOver = HandOverScratchpad(view: web.transform, clock: web.clock, evaluate: web.evaluate, scroll: web.scroll,
                                              toPage: web.inject)
            }
            web.onMessage = { [unowned self] in touchDown?.pageSaid($0) ?? handOver?.pageSaid($0) }
            web.onScrolled = { [unowned self] in touchDown?.scrolled($0) ?? handOver?.scrolled($0) }
        }

        /// One platform callback: the events of several touches, in order.
        func callback(_ events: [TouchEvent]) {
            guard let touchDown else { return handOver!.touched(events) }
            var run: [TouchEvent] = [], runOnOverlay = true
            for event in events {
                let id = event.touch.rawValue
                if event.phase == .began, let first = event.samples.first {
                    onOverlay[id] = touchDown.overlayTakes(first.point)
                }
                let overlay = onOverlay[id] ?? true
                if !run.isEmpty, overlay != runOnOverlay {
                    touchDown.touched(run, onOverlay: runOnOverlay)
                    run.removeAll()
                }
                runOnOverlay = overlay
                run.append(event)
                if !overlay { web.nativeSamples += event.samples.count }
            }
            if !run.isEmpty { touchDown.touched(run, onOverlay: runOnOverlay) }
        }

        func refined(_ updates: [EstimatedPropertyUpdate]) { touchDown?.refined(updates) ?? handOver!.refined(updates) }
        func resized(_ view: PageTransform) { touchDown?.resized(view) ?? handOver!.resized(view) }
        func navigated(_ view: PageTransform) { touchDown?.navigated(view) ?? handOver!.navigated(view) }
        func closing() { touchDown?.closing() ?? handOver!.closing() }
        func polygons() -> [[CanvasPoint]] {
            var all: [[CanvasPoint]] = []
            if let touchDown { touchDown.draw { all.append($0) } } else { handOver!.draw { all.append($0) } }
            return all
        }
    }

    /// Plays touches that overlap in time, their events merged into callbacks of every
    /// 16 ms (several touches per callback), refinements 45 ms after their samples.
    private static func play(_ touches: [ScriptedTouch], app: App, expect: inout [Key: Bool]) {
        var events: [(time: Double, event: TouchEvent)] = []
        var updates: [(time: Double, update: EstimatedPropertyUpdate)] = []
        var index: UInt64 = 0
        for touch in touches {
            for (i, point) in touch.points.enumerated() {
                let t = touch.start + Double(i) * touch.step
                index += 1
                let estimated = touch.refined
                let sample = TouchSample(x: point.x, y: point.y, timestamp: t, force: estimated ? 0.3 : nil, tool: touch.tool,
                                         estimationUpdateIndex: estimated ? 10_000 + index : nil)
                let phase: TouchPhase = i == 0 ? .began : i == touch.points.count - 1 ? .ended : .moved
                events.append((t, TouchEvent(touch: PlatformTouchID(touch.id), phase: phase, samples: [sample])))
                if estimated {
                    updates.append((t + 0.045, EstimatedPropertyUpdate(touch: PlatformTouchID(touch.id), updateIndex: 10_000 + index,
                                                                       force: 0.6)))
                }
            }
        }
        events.sort { $0.time < $1.time }
        // Callbacks every 16 ms, each carrying every event due.
        var next = 0
        var frame = (events.first?.time ?? 0)
        while next < events.count || !updates.isEmpty {
            app.web.run(until: frame)
            var batch: [TouchEvent] = []
            while next < events.count, events[next].time <= frame + 1e-9 {
                let event = events[next].event
                if event.phase == .began, let first = event.samples.first {
                    // The right owner: what lies under the finger on the page as it is now.
                    let gesture = touches.contains { $0.id == event.touch.rawValue && $0.start == first.timestamp && $0.gesture }
                    expect[Key(touch: event.touch.rawValue, time: first.timestamp)] =
                        gesture || app.web.element(at: app.web.transform.pagePoint(for: first.point)) != nil
                }
                batch.append(event)
                next += 1
            }
            if !batch.isEmpty { app.callback(batch) }
            let due = updates.filter { $0.time <= frame + 1e-9 }
            updates.removeAll { $0.time <= frame + 1e-9 }
            if !due.isEmpty { app.refined(due.map(\.update)) }
            frame += 0.016
        }
        app.web.run(until: frame + 0.3)   // every decision made
    }

    /// A touch: its platform id (reused) and when it landed.
    struct Key: Hashable { var touch: UInt64, time: Double }

    private static func stroke(_ id: UInt64, from a: CanvasPoint, dx: Double, dy: Double, count: Int = 8, at start: Double,
                               tool: ToolKind = .pencil, refined: Bool = false) -> ScriptedTouch {
        ScriptedTouch(id: id, tool: tool, points: (0..<count).map { i in
            CanvasPoint(x: a.x + dx * Double(i) / Double(max(1, count - 1)), y: a.y + dy * Double(i) / Double(max(1, count - 1)))
        }, start: start, refined: refined)
    }

    private static func tap(_ id: UInt64, _ x: Double, _ y: Double, at start: Double, tool: ToolKind = .finger) -> ScriptedTouch {
        ScriptedTouch(id: id, tool: tool, points: [CanvasPoint(x: x, y: y), CanvasPoint(x: x + 1, y: y)], start: start, step: 0.03)
    }

    @Test("the embeddings as shown route every touch of the exercise right and lose nothing", arguments: Routing.allCases, [0.0, 0.03, 0.2])
    func exercise(routing: Routing, latency: Double) throws {
        let clock = ManualClock(start: 1)
        let web = ExerciseWebView(clock: clock, latency: latency)
        let app = App(web: web, routing: routing)
        // Where each touch's samples went, read from the events as an app reads them: ink
        // (taken back if retracted), or the page (natively, replayed or handed over).
        var went: [TouchID: (platform: UInt64, first: Double, inked: Int, released: Int)] = [:]
        app.side.onEvents = { events in
            for event in events {
                guard let id = event.touch, let platform = event.platformTouch?.rawValue else { continue }
                var entry = went[id] ?? (platform, .infinity, 0, 0)
                switch event.action {
                case let .ink(_, sample)?: entry.inked += 1; entry.first = min(entry.first, sample.timestamp)
                case .retractInk?: entry.inked = 0
                case let .release(_, sample)?, let .nativeRelease(_, sample)?:
                    entry.released += 1
                    entry.first = min(entry.first, sample.timestamp)
                default: break
                }
                went[id] = entry
            }
        }
        var expect: [Key: Bool] = [:]   // each touch: the page's (true) or ink (false)
        web.pushRegions()                  // the page script's first snapshot, as it loads
        web.run(until: 1.3)

        // 1. Several touches in one callback: a stroke on the paper, a tap on Check, the block dragged.
        Self.play([Self.stroke(1, from: CanvasPoint(x: 600, y: 300), dx: 80, dy: 20, at: 1.4),
                   Self.tap(2, 150, 120, at: 1.4),
                   // A finger writing beside the pen would be held as a palm (issue 52; HandsTests):
                   // this one writes just before the pen lands.
                   Self.stroke(3, from: CanvasPoint(x: 350, y: 250), dx: 120, dy: 0, count: 10, at: 1.30, tool: .finger)],
                  app: app, expect: &expect)
        // 2. The ids come back (UITouch reuse): a Pencil stroke with force refined 45 ms late; a tap on the field.
        Self.play([Self.stroke(1, from: CanvasPoint(x: 500, y: 600), dx: 100, dy: -40, count: 12, at: 2.0, refined: true),
                   Self.tap(2, 200, 420, at: 2.05)], app: app, expect: &expect)
        let before = app.polygons()
        // 3. Two fingers on the paper scroll the page by 200 points.
        var fingers = [Self.stroke(4, from: CanvasPoint(x: 700, y: 650), dx: 0, dy: -200, count: 11, at: 2.6, tool: .finger),
                       Self.stroke(5, from: CanvasPoint(x: 800, y: 650), dx: 0, dy: -200, count: 11, at: 2.61, tool: .finger)]
        fingers[0].gesture = true
        fingers[1].gesture = true
        Self.play(fingers,
                  app: app, expect: &expect)
        #expect(web.scrollY > 150, "the page scrolled by the two fingers: \(web.scrollY)")
        // The ink is anchored to the page: it moved up with it.
        let after = app.polygons()
        #expect(before.count == after.count && !before.isEmpty)
        if let a = before.first?.first, let b = after.first?.first {
            #expect(abs((a.y - b.y) - web.scrollY) < 1e-6 && a.x == b.x, "ink moved \(a.y - b.y), the page \(web.scrollY)")
        }
        // 4. After the scroll: the field is 200 points higher on the glass; the paper where it was is paper.
        Self.play([Self.tap(1, 200, 420 - web.scrollY, at: 3.3), Self.tap(2, 200, 620 - web.scrollY, at: 3.4),
                   Self.stroke(3, from: CanvasPoint(x: 350, y: 250), dx: 60, dy: 0, at: 3.5, tool: .finger)], app: app, expect: &expect)
        // 5. The view is resized: the page reflows (the block and the field move); the loop asks for its regions.
        web.width = 700
        web.generation += 1
        app.resized(web.transform)
        web.run(until: 4.0 + latency)
        Self.play([Self.tap(1, 80, 190 - web.scrollY + 0, at: 4.3 + latency), Self.tap(2, 150, 420 - web.scrollY, at: 4.4 + latency),
                   Self.stroke(3, from: CanvasPoint(x: 60, y: 620 - web.scrollY), dx: 100, dy: 0, at: 4.5 + latency, tool: .pencil)],
                  app: app, expect: &expect)
        // 6. The next exercise: a new document, scrolled to the top; its script pushes its regions.
        web.document = 2
        web.generation = 1
        web.scrollY = 0
        app.navigated(web.transform)
        web.pushRegions()
        web.run(until: 5.5 + latency)
        Self.play([Self.tap(1, 450, 620, at: 5.6 + latency), Self.tap(2, 150, 120, at: 5.7 + latency)], app: app, expect: &expect)
        // 7. A page whose script is missing: a send fails at once, so ink needs no 250 ms deadline.
        web.document = 3
        web.scriptAlive = false
        app.navigated(web.transform)
        let deadlinesBefore = app.side.loop.metrics.deadlinesPassed
        Self.play([Self.stroke(1, from: CanvasPoint(x: 300, y: 300), dx: 50, dy: 50, at: 6.5 + latency)], app: app, expect: &expect)
        #expect(app.side.loop.metrics.deadlinesPassed == deadlinesBefore, "a dead page cost a deadline")
        app.closing()

        // Nothing misrouted: each touch's samples went where the page as it was says.
        var misrouted = 0, checked = 0
        for touch in went.values {
            guard let page = expect[Key(touch: touch.platform, time: touch.first)] else { continue }
            checked += 1
            let wrong = page ? touch.inked : touch.released
            misrouted += wrong
            #expect(wrong == 0, "touch \(touch.platform) at \(touch.first): \(page ? "the page's" : "ink"), but \(touch.inked) inked, \(touch.released) released")
        }
        #expect(misrouted == 0 && checked == expect.count, "\(misrouted) misrouted; \(checked) of \(expect.count) touches checked")
        let ledger = app.side.loop.ledger
        #expect(ledger.isBalanced && ledger.dropped == 0 && ledger.refused == 0 && ledger.cancelled == 0, "\(ledger)")
        #expect(app.side.loop.metrics.auditFailures.isEmpty && app.side.loop.metrics.refusedInputs == 0,
                "\(app.side.loop.metrics.recentRefusals)")
        // The page got its touches: natively, replayed or handed over.
        #expect(web.nativeSamples + web.replayedEvents + web.injected.count > 0)
    }
}
