@_spi(Tooling) import InkCore
import InkTesting
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// The page's whole life (issue 51): the one document rule, held in the engine. The page names
/// its document in every message and says which one is shown (`"shown":true`); a report of a
/// navigation is idempotent and never locks out the page it reports; a page restored from the
/// back/forward cache is routed again; nothing crosses from one document into another. Driven
/// through the live loop under the manual clock, the page answering at 0, 30 and 200 ms.
///
/// Messages are written as the page script writes them (JSON text), so the same tests run
/// against an engine that knows nothing of `shown` (the base of issue 51), and fail there.
@Suite("The page's whole life")
struct PageLifeTests {
    static let pageA = "aaaaaaaaaaaaaaaa"
    static let pageB = "bbbbbbbbbbbbbbbb"
    /// Page A's "Check" button, page (300...500, 500...600); page B has a link at the top only.
    static let buttonA = #"{"x":300,"y":500,"width":200,"height":100,"element":"check"}"#
    static let linkB = #"{"x":0,"y":0,"width":100,"height":40,"element":"back"}"#
    static let onButton = CanvasPoint(x: 400, y: 550)

    static func snapshot(_ document: String, _ generation: UInt64, _ region: String, shown: Bool = false, maxAge: Int = 1000) -> EngineInput {
        let shownField = shown ? #","shown":true"# : ""
        return .pageMessage(#"{"type":"regions","generation":\#(generation),"document":"\#(document)"\#(shownField),"maxAge":\#(maxAge),"regions":[\#(region)]}"#)
    }

    static func answer(_ request: HitTestRequest, _ verdict: HitTestVerdict, _ document: String) -> EngineInput {
        .pageMessage(FakePage.answer(to: request, verdict: verdict, document: document))
    }

    static func touch(_ platform: UInt64, _ phase: TouchPhase, _ point: CanvasPoint, _ t: Double) -> EngineInput {
        .touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase,
                          samples: phase == .ended || phase == .cancelled ? [] : [TouchSample(x: point.x, y: point.y, timestamp: t)]))
    }

    static func outcomes(_ events: [EngineEvent]) -> [ReceiveOutcome] {
        events.compactMap { if case let .pageMessage(_, outcome?) = $0.kind { outcome } else { nil } }
    }

    static func replays(_ events: some Sequence<EngineEvent>) -> [PageReplay] {
        events.compactMap { if case let .replay(replay) = $0.kind { replay } else { nil } }
    }

    static func pageTouches(_ events: some Sequence<EngineEvent>) -> [PageTouch] {
        events.compactMap { if case let .pageTouch(touch) = $0.kind { touch } else { nil } }
    }

    static func balanced(_ ledger: SampleLedger) -> Bool {
        ledger.received == ledger.inked + ledger.released + ledger.cancelled + ledger.refused && ledger.dropped == 0
    }

    /// A loop over page A, shown and reported, its button fresh at touch-down.
    static func loopOnPageA(_ routing: TouchRouting = .decideAtTouchDown, clock: ManualClock) -> (InkLoop, RecordingShell) {
        let loop = InkLoop(configuration: InkEngineConfiguration(routing: routing), clock: clock, seed: 51)
        let shell = RecordingShell()
        loop.shell = shell
        loop.submit(.newDocument(.identity))                        // the first load commits
        loop.submit(snapshot(pageA, 1, buttonA, shown: true))       // page A's script starts
        return (loop, shell)
    }

    // MARK: - Case 1: Back restores a page from the back/forward cache

    @Test("Next then Back: the page restored from the back/forward cache says it is shown and is routed again; its answer to a tap is taken",
          arguments: [0.0, 0.03, 0.2], [true, false])
    func backForwardCache(latency: Double, reportFirst: Bool) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loopOnPageA(clock: clock)
        #expect(loop.route(at: Self.onButton, tool: .finger) == .page)

        // Next: page B.
        clock.advance(to: 2)
        loop.submit(.newDocument(.identity))
        clock.advance(to: 2 + latency)
        loop.submit(Self.snapshot(Self.pageB, 1, Self.linkB, shown: true))
        #expect(loop.route(at: Self.onButton, tool: .finger) == .ink)

        // Back: WebKit restores page A with its JavaScript world; its pageshow (persisted)
        // pushes a snapshot of a newer generation that says it is shown. The commit report and
        // that snapshot race.
        clock.advance(to: 3)
        if reportFirst {
            loop.submit(.newDocument(.identity))
            clock.advance(to: 3 + latency)
            loop.submit(Self.snapshot(Self.pageA, 2, Self.buttonA, shown: true))
        } else {
            loop.submit(Self.snapshot(Self.pageA, 2, Self.buttonA, shown: true))
            clock.advance(to: 3 + latency)
            loop.submit(.newDocument(.identity))
        }
        #expect(loop.route(at: Self.onButton, tool: .finger) == .page, "A's button routes to A again")
        // Page B's heartbeat still in flight is an old document's now.
        loop.submit(Self.snapshot(Self.pageB, 1, Self.linkB))
        #expect(Self.outcomes(shell.events).last == .oldDocument(try PageDocumentID(Self.pageB)))

        // The snapshot goes stale; a tap on "Check" is asked of page A, which answers.
        clock.advance(to: 5)
        let sentBefore = shell.sent.count
        loop.submit(Self.touch(1, .began, Self.onButton, 5))
        let request = try #require(shell.sent.dropFirst(sentBefore).first)
        clock.advance(to: 5 + latency)
        loop.submit(Self.answer(request, .page, Self.pageA))
        loop.submit(Self.touch(1, .ended, Self.onButton, 5 + latency))
        #expect(shell.decisions(1).first.map { $0.0 } == .page)
        #expect(shell.decisions(1).first.map { $0.1 } == .answered, "not the deadline's ink: \(shell.decisions(1))")
        #expect(loop.engine.bridgeMetrics.restoredDocuments == 1)
        #expect(Self.balanced(loop.ledger))
    }

    // MARK: - Case 2: a late report, a repeated report

    @Test("the new page speaks before its navigation is reported, however long before: the report is that page's and retires nothing",
          arguments: [0.0, 0.03, 0.2, 0.6, 2.0])
    func lateReport(delay: Double) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loopOnPageA(clock: clock)
        clock.advance(to: 2)
        loop.submit(Self.snapshot(Self.pageB, 1, Self.buttonA, shown: true, maxAge: 5000))
        clock.advance(to: 2 + delay)
        loop.submit(.newDocument(.identity))                      // the commit, heard late
        clock.advance(to: 2.05 + delay)
        loop.submit(Self.snapshot(Self.pageB, 2, Self.buttonA, maxAge: 5000))
        #expect(Self.outcomes(shell.events).last == .regionsAccepted, "\(Self.outcomes(shell.events))")
        #expect(loop.route(at: Self.onButton, tool: .finger) == .page)
        #expect(loop.engine.pageDocument == (try PageDocumentID(Self.pageB)))
    }

    @Test("a report repeated for the page shown (didCommit, then didFinish after the page spoke): the loop asks, the page says it is shown, and is routed again",
          arguments: [0.0, 0.03, 0.2])
    func repeatedReport(latency: Double) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loopOnPageA(clock: clock)
        clock.advance(to: 2)
        loop.submit(.newDocument(.identity))                      // didCommit
        loop.submit(.newDocument(.identity))                      // a second report, no page spoken since: nothing to retire
        clock.advance(to: 2 + latency)
        loop.submit(Self.snapshot(Self.pageB, 1, Self.buttonA, shown: true, maxAge: 5000))
        #expect(loop.route(at: Self.onButton, tool: .finger) == .page)
        clock.advance(to: 2.3 + latency)
        let asked = shell.regionRequests
        loop.submit(.newDocument(.identity))                      // didFinish: the same page
        #expect(shell.regionRequests > asked, "the loop asks the live page which document it shows")
        clock.advance(to: 2.3 + 2 * latency)
        // The live page's answer to the ask says it is shown.
        loop.submit(Self.snapshot(Self.pageB, 2, Self.buttonA, shown: true, maxAge: 5000))
        #expect(loop.route(at: Self.onButton, tool: .finger) == .page)
        clock.advance(to: 2.4 + 2 * latency)
        loop.submit(Self.snapshot(Self.pageB, 3, Self.buttonA, maxAge: 5000))
        #expect(Self.outcomes(shell.events).last == .regionsAccepted)
    }

    // MARK: - Case 3: nothing crosses from one document into the next

    @Test("a touch page A claimed is cancelled there when the navigation is reported; its rest is refused, counted, never replayed into page B",
          arguments: [0.0, 0.03, 0.2])
    func touchTheOldPageHadIsCancelled(latency: Double) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loopOnPageA(clock: clock)
        clock.advance(to: 3)                                      // A's snapshot is stale: the page is asked
        loop.submit(Self.touch(1, .began, Self.onButton, 3))
        let request = try #require(shell.sent.last)
        clock.advance(to: 3 + latency)
        loop.submit(Self.answer(request, .page, Self.pageA))
        loop.submit(Self.touch(1, .moved, CanvasPoint(x: 410, y: 555), 3 + latency))
        let beforeNavigation = Self.replays(shell.events)
        #expect(beforeNavigation.first?.events.first?.phase == .began)
        #expect(beforeNavigation.allSatisfy { $0.json.contains(#""document":"\#(Self.pageA)""#) }, "each replay names page A")

        // Next: page B commits while the finger is still down on A's button.
        clock.advance(to: 3.01 + latency)
        let mark = shell.events.count
        loop.submit(.newDocument(.identity))
        loop.submit(Self.snapshot(Self.pageB, 1, Self.linkB, shown: true))
        loop.submit(Self.touch(1, .moved, CanvasPoint(x: 420, y: 560), 3.02 + latency))
        loop.submit(Self.touch(1, .ended, CanvasPoint(x: 420, y: 560), 3.03 + latency))
        let after = Self.replays(shell.events[mark...])
        #expect(after.flatMap(\.events).map(\.phase) == [.cancelled], "only A's cancel: \(after.map(\.json))")
        #expect(after.allSatisfy { $0.json.contains(#""document":"\#(Self.pageA)""#) }, "the cancel names page A, which page B refuses")
        #expect(loop.engine.pageTouchesCancelledByNewDocument == 1)
        #expect(loop.ledger.refused >= 1, "the move after the navigation is refused and counted")
        #expect(Self.balanced(loop.ledger), "\(loop.ledger)")
        #expect(loop.engine.isSettled)
        loop.stop()
        #expect(loop.metrics.auditFailures.isEmpty, "\(loop.metrics.auditFailures)")
    }

    @Test("under hand-over routing the page's pointer is cancelled at the navigation; nothing more of the touch is injected",
          arguments: [0.0, 0.03, 0.2])
    func handedOverTouchIsCancelled(latency: Double) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loopOnPageA(.handOverAfterDecision, clock: clock)
        clock.advance(to: 3)
        loop.submit(Self.touch(1, .began, Self.onButton, 3))
        let request = try #require(shell.sent.last)
        clock.advance(to: 3 + latency)
        loop.submit(Self.answer(request, .page, Self.pageA))
        #expect(Self.pageTouches(shell.events).map(\.phase) == [.began])
        clock.advance(to: 3.01 + latency)
        let mark = shell.events.count
        loop.submit(Self.snapshot(Self.pageB, 1, Self.linkB, shown: true))   // B speaks before the report
        loop.submit(.newDocument(.identity))
        loop.submit(Self.touch(1, .moved, CanvasPoint(x: 420, y: 560), 3.02 + latency))
        loop.submit(Self.touch(1, .ended, CanvasPoint(x: 420, y: 560), 3.03 + latency))
        #expect(Self.pageTouches(shell.events[mark...]).map(\.phase) == [.cancelled])
        #expect(Self.balanced(loop.ledger), "\(loop.ledger)")
        loop.stop()
        #expect(loop.metrics.auditFailures.isEmpty, "\(loop.metrics.auditFailures)")
    }

    @Test("page B speaks first: page A's answer still in flight is refused, the tap gets the fallback and nothing reaches page B",
          arguments: [0.03, 0.2])
    func oldAnswerAfterTheNewPageSpoke(latency: Double) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loopOnPageA(clock: clock)
        clock.advance(to: 3)
        loop.submit(Self.touch(1, .began, Self.onButton, 3))
        loop.submit(Self.touch(1, .ended, Self.onButton, 3))
        let request = try #require(shell.sent.last)
        clock.advance(to: 3.01)
        loop.submit(Self.snapshot(Self.pageB, 1, Self.linkB, shown: true))
        clock.advance(to: 3 + latency)
        loop.submit(Self.answer(request, .page, Self.pageA))
        loop.submit(.newDocument(.identity))
        #expect(Self.outcomes(shell.events).contains(.oldDocument(try PageDocumentID(Self.pageA))))
        #expect(shell.decisions(1).first.map { $0.1 } == .newDocument)
        #expect(Self.replays(shell.events).isEmpty)
        #expect(loop.engine.pageDocument == (try PageDocumentID(Self.pageB)))
        #expect(Self.balanced(loop.ledger))
    }
}

/// Case 4 of issue 51: layout epochs. A snapshot measured before the view resized never routes
/// after it; a live resize asks the page once, when the size has settled.
@Suite("The page's whole life: resizes")
struct PageResizeTests {
    static let pageA = PageLifeTests.pageA
    /// The answer field before the resize, page (300...500, 500...600), and after it (the page
    /// reflowed narrower: the field moved up), page (300...500, 100...200).
    static let fieldBefore = #"{"x":300,"y":500,"width":200,"height":100,"element":"answer"}"#
    static let fieldAfter = #"{"x":300,"y":100,"width":200,"height":100,"element":"answer"}"#

    @Test("the page's heartbeat posted before the resize arrives after it: refused; a dot where the field was is not given to the page, a tap on the field where it is now is not inked",
          arguments: [0.0, 0.03, 0.2])
    func snapshotOfTheOldLayout(latency: Double) {
        let clock = ManualClock(start: 1)
        let (loop, shell) = PageLifeTests.loopOnPageA(clock: clock)
        loop.submit(PageLifeTests.snapshot(Self.pageA, 3, Self.fieldBefore))
        clock.advance(to: 2)
        loop.submit(.viewResized(PageTransform(scale: 1, offsetX: 0, offsetY: 0)))
        clock.advance(to: 2 + latency)
        loop.submit(PageLifeTests.snapshot(Self.pageA, 3, Self.fieldBefore))   // the heartbeat in flight
        #expect(PageLifeTests.outcomes(shell.events).last == .regionsRefused(.olderGeneration(got: 3, current: 4)))
        #expect(loop.route(at: CanvasPoint(x: 400, y: 550), tool: .finger) == nil, "not routed by where the field was")
        #expect(loop.route(at: CanvasPoint(x: 400, y: 150), tool: .finger) == nil, "asked, not inked")
        clock.advance(to: 2.1 + latency)
        loop.submit(PageLifeTests.snapshot(Self.pageA, 4, Self.fieldAfter))    // the page's push after its resize event
        #expect(loop.route(at: CanvasPoint(x: 400, y: 550), tool: .finger) == .ink)
        #expect(loop.route(at: CanvasPoint(x: 400, y: 150), tool: .finger) == .page)
    }

    @Test("a live resize, a step every 16 ms for 300 ms: the page is asked once, 100 ms after the last step")
    func liveResizeAsksOnce() {
        let clock = ManualClock(start: 1)
        let (loop, shell) = PageLifeTests.loopOnPageA(clock: clock)
        let before = shell.regionRequests
        var t = 2.0
        for step in 0..<19 {
            clock.advance(to: t)
            loop.submit(.viewResized(PageTransform(scale: 1, offsetX: 0, offsetY: Double(step))))
            t += 0.016
        }
        let last = t - 0.016
        clock.advance(to: last + 0.099)
        #expect(shell.regionRequests == before, "not at every step, nor before the size settled")
        clock.advance(to: last + 0.101)
        #expect(shell.regionRequests == before + 1)
        clock.advance(to: last + 1)
        #expect(shell.regionRequests == before + 1)
    }
}

/// Issue 51, "Ink belongs to its document": a new document starts with clean paper; Back
/// restores the ink that was on the page, Forward the other's; a bounded number is kept.
@Suite("The page's whole life: ink belongs to its document")
struct PageInkDocumentTests {
    static func documentID(_ n: Int) -> String {
        let digits = String(n); return String(repeating: "0", count: 16 - digits.count) + digits }

    static func side(clock: ManualClock) -> PageSide {
        PageSide(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), clock: clock,
                 page: PageSide.Page(evaluate: { _, done in done(true) }))
    }

    /// A stroke on the paper (the page's snapshot is fresh and shows nothing there: ink at once).
    static func stroke(_ side: PageSide, _ platform: UInt64, y: Double, at t: Double) {
        side.touched([TouchEvent(touch: PlatformTouchID(platform), phase: .began, samples: [TouchSample(x: 100, y: y, timestamp: t)]),
                      TouchEvent(touch: PlatformTouchID(platform), phase: .moved, samples: [TouchSample(x: 160, y: y, timestamp: t + 0.01)]),
                      TouchEvent(touch: PlatformTouchID(platform), phase: .ended, samples: [])], onOverlay: true)
    }

    static func show(_ side: PageSide, _ document: String, generation: UInt64 = 1, reportFirst: Bool) {
        let snapshot = PageLifeTests.snapshot(document, generation, PageLifeTests.linkB, shown: true)
        if reportFirst {
            side.navigated(.identity)
            side.loop.submit(snapshot)
        } else {
            side.loop.submit(snapshot)
            side.navigated(.identity)
        }
    }

    @Test("A, Next to B, Back to A, Forward to B: each page shows only its own ink", arguments: [true, false])
    func backAndForward(reportFirst: Bool) {
        let clock = ManualClock(start: 1)
        let side = Self.side(clock: clock)
        let a = Self.documentID(1), b = Self.documentID(2)
        Self.show(side, a, reportFirst: true)
        Self.stroke(side, 1, y: 300, at: 1)
        #expect(side.ink.finished.count == 1)
        clock.advance(to: 2)
        Self.show(side, b, reportFirst: reportFirst)                 // Next
        #expect(side.ink.finished.isEmpty, "a new document starts with clean paper")
        Self.stroke(side, 2, y: 400, at: 2)
        Self.stroke(side, 3, y: 420, at: 2.1)
        clock.advance(to: 3)
        Self.show(side, a, generation: 2, reportFirst: reportFirst)  // Back: A restored
        #expect(side.ink.finished.map(\.touch) == [TouchID(1)], "A's ink comes back, B's stays on B")
        clock.advance(to: 4)
        Self.show(side, b, generation: 2, reportFirst: reportFirst)  // Forward
        #expect(side.ink.finished.map(\.touch) == [TouchID(2), TouchID(3)])
        #expect(PageLifeTests.balanced(side.loop.ledger))
    }

    @Test("the ink of the last eight documents left is kept; an older one's is forgotten")
    func bounded() {
        let clock = ManualClock(start: 1)
        let side = Self.side(clock: clock)
        for n in 1...10 {
            clock.advance(to: Double(n))
            Self.show(side, Self.documentID(n), reportFirst: true)
            Self.stroke(side, UInt64(n), y: 300, at: Double(n))
        }
        #expect(side.keptInk.count == PageSide.inkDocumentsKept)
        clock.advance(to: 11)
        Self.show(side, Self.documentID(1), generation: 2, reportFirst: true)   // too old: clean paper
        #expect(side.ink.finished.isEmpty)
        clock.advance(to: 12)
        Self.show(side, Self.documentID(3), generation: 2, reportFirst: true)   // kept (clean paper is not)
        #expect(side.ink.finished.map(\.touch) == [TouchID(3)])
        #expect(side.keptInk.count == PageSide.inkDocumentsKept - 1)
    }
}

/// Issue 51, case 9: page pointer ids unique per page, not per loop.
@Suite("The page's whole life: two loops over one page")
struct PageSourceTests {
    @Test("two loops over one web view name different sources in their replays (the page script gives a touch number reused by the second loop a pointer id it has not seen); a seeded engine's source repeats")
    func sources() throws {
        func replayOfFirstTouch(seed: UInt64?) throws -> PageReplay {
            let clock = ManualClock(start: 1)
            let loop = InkLoop(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), clock: clock, seed: seed)
            let shell = RecordingShell()
            loop.shell = shell
            loop.submit(PageLifeTests.touch(1, .began, PageLifeTests.onButton, 1))
            let request = try #require(shell.sent.last)
            loop.submit(PageLifeTests.answer(request, .page, PageLifeTests.pageA))
            return try #require(PageLifeTests.replays(shell.events).first)
        }
        let first = try replayOfFirstTouch(seed: nil), second = try replayOfFirstTouch(seed: nil)
        #expect(first.touch == second.touch, "each loop numbers its touches from the start")
        #expect(first.source != nil && first.source != second.source)
        #expect(first.json.contains(#""source":""#))
        #expect(try replayOfFirstTouch(seed: 9).source == (try replayOfFirstTouch(seed: 9)).source)
    }
}
