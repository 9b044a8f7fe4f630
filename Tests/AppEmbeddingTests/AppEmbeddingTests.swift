import HitTestBridge
import InkCore
import InkTesting
import Testing

// This target is shaped like an app: it depends on InkCore and HitTestBridge only (see
// Package.swift), never on the recording or replay tooling. It is written from the README
// and the DocC articles: touches go in by the platform's ids, page messages go in through the
// same queue, and the events come out on the main actor in order. It keeps no touch-id state
// and takes no lock.

/// The exercise page in the app's web view: a button and a draggable block. Its page script
/// (layout generation 1, as the bundled script starts) answers hit tests by posting a message
/// later, and can push region snapshots.
actor ExercisePage {
    static let generation: UInt64 = 1
    static let regions = [FakePage.Region(x: 20, y: 20, width: 100, height: 40, element: "check"),
                          FakePage.Region(x: 300, y: 400, width: 80, height: 80, element: "block")]
    /// The questions the page was asked, as they arrive.
    let asked = Arrivals<HitTestRequest>()

    /// The page script's message channel: evaluating the request posts the answer later.
    func send(_ request: HitTestRequest) async throws -> String? {
        asked.append(request)
        return nil
    }

    /// The question asked after the first `count`, once the page has it.
    func question(after count: Int) async -> HitTestRequest {
        await asked.wait(for: count + 1)[count]
    }

    /// What the page script posts for a request: the element under the point, at the page's
    /// own generation (or, with `interactive`, the answer the test wants).
    static func answer(_ request: HitTestRequest, interactive: Bool? = nil) -> String {
        guard let interactive else { return FakePage.answer(to: request, interactiveRegions: regions, generation: generation) }
        return FakePage.answer(to: request, verdict: interactive ? .page : .ink, generation: generation)
    }

    /// The page script's region snapshot.
    static func snapshot(maxAge: Double) -> String {
        FakePage.regions(regions, generation: generation, maxAge: maxAge)
    }
}

/// The app's canvas: draws the ink and hands the page its samples (the session audits live).
/// Everything it holds is main-actor state, fed by one task reading the session's events in
/// order.
@MainActor final class Canvas {
    var layer = InkLayer()
    var events: [EngineEvent] = []
    /// The platform id of every sample handed to the page, in order.
    var pageSamples: [PlatformTouchID] = []

    /// One arrival per event drawn: what `caughtUp(to:)` waits on.
    let drawn = Arrivals<Void>()

    func apply(_ batch: [EngineEvent]) {
        for event in batch {
            events.append(event)
            drawn.append(())
            guard let action = event.action else { continue }
            _ = layer.apply(action)
            if case .release = action, let touch = event.platformTouch { pageSamples.append(touch) }
        }
    }

    /// Waits until this canvas has drawn the first `count` events (what ``InkSession/settled()``
    /// returns): the session publishes, this task draws, in order.
    func caughtUp(to count: Int) async {
        await drawn.wait(for: count)
    }

    func decisions(ofPlatform platform: PlatformTouchID) -> [(HitTestVerdict, DecisionReason)] {
        events.compactMap { event in
            guard event.platformTouch == platform, case let .decided(_, verdict, reason)? = event.action else { return nil }
            return (verdict, reason)
        }
    }
}

private func sample(_ x: Double, _ y: Double, _ t: Double, _ tool: ToolKind = .finger) -> TouchSample {
    TouchSample(x: x, y: y, timestamp: t, tool: tool)
}

private func touch(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> EngineInput {
    .touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples))
}

@Suite("An app embedding InkCore and HitTestBridge only")
struct AppEmbeddingTests {
    @Test("two fingers in one callback, a refused event mid-batch, reused ids, one round trip, one queue, a retraction, the audit live")
    func session() async throws {
        let page = ExercisePage(), clock = ManualClock(start: 10)
        let session = InkSession(configuration: InkEngineConfiguration(speculativeInk: true), clock: clock, seed: 7) { try await page.send($0) }
        let canvas = Canvas()
        let running = Task { await session.run() }
        let drawing = Task { @MainActor in
            for await batch in session.events { canvas.apply(batch) }
        }

        // 1. One UIKit callback: two fingers begin together (a two-finger scroll).
        session.submit([touch(101, .began, sample(200, 200, 10.000)), touch(102, .began, sample(260, 200, 10.001))])
        // Each asks the page (issue 52: on the paper is known once the page says so); the page
        // says both are on the paper: the second answer makes the gesture.
        let one = await page.question(after: 0), two = await page.question(after: 1)
        session.submit([.pageMessage(ExercisePage.answer(one, interactive: false)),
                        .pageMessage(ExercisePage.answer(two, interactive: false))])
        // 2. The next callback: both move; between them an event for a touch that is not down.
        session.submit([touch(101, .moved, sample(200, 210, 10.008), sample(200, 220, 10.016)),
                        touch(999, .moved, sample(1, 1, 10.008), sample(2, 2, 10.012)),
                        touch(102, .moved, sample(260, 210, 10.008), sample(260, 220, 10.016))])
        session.submit([touch(101, .ended, sample(200, 230, 10.024)), touch(102, .ended, sample(260, 230, 10.024))])
        await canvas.caughtUp(to: session.settled())
        await MainActor.run {
            // Both fingers were taken and went to the page as one gesture, every sample.
            #expect(canvas.decisions(ofPlatform: PlatformTouchID(101)).last! == (.page, .multiTouchGesture))
            #expect(canvas.decisions(ofPlatform: PlatformTouchID(102)).last! == (.page, .multiTouchGesture))
            #expect(canvas.pageSamples.filter { $0 == PlatformTouchID(101) }.count == 4 && canvas.pageSamples.filter { $0 == PlatformTouchID(102) }.count == 4)
        }
        var ledger = await session.ledger
        #expect(ledger.received == 10 && ledger.released == 8 && ledger.refused == 2 && ledger.dropped == 0)

        // 3. UIKit reuses id 101 for a pencil dot; no snapshot yet: one question, and the page
        //    at generation 1 answers it in one round trip.
        clock.advance(to: 11)
        let askedBefore = page.asked.count   // 2: the two fingers' questions
        session.submit([touch(101, .began, sample(500, 100, 11.000, .pencil))])
        session.submit([touch(101, .ended, sample(500.5, 100.2, 11.012, .pencil))])
        let question = await page.question(after: askedBefore)
        #expect(question.generation == ExercisePage.generation)
        clock.advance(to: 11.030)
        session.submit(.pageMessage(ExercisePage.answer(question)))
        await canvas.caughtUp(to: session.settled())
        var metrics = await session.metrics
        let askedAfter = page.asked.count
        #expect(metrics.staleAnswers == 0 && askedBefore == 2 && askedAfter == 3, "one round trip, not stale")
        await MainActor.run { #expect(canvas.decisions(ofPlatform: PlatformTouchID(101)).last! == (.ink, .answered)) }

        // 4. The page pushes its regions and a finger lands on the button: submitted one after
        //    the other, the snapshot is in the cache when the touch asks.
        clock.advance(to: 12)
        session.submit(.pageMessage(ExercisePage.snapshot(maxAge: 0.5)))
        session.submit([touch(101, .began, sample(50, 30, 12.000)), touch(101, .ended, sample(50, 30, 12.050))])
        await canvas.caughtUp(to: session.settled())
        await MainActor.run { #expect(canvas.decisions(ofPlatform: PlatformTouchID(101)).last! == (.page, .regionCache)) }

        // 5. The snapshot is stale now; a pencil lands far from every element: drawn as
        //    speculative ink at once, then the page claims it (a new element there): retracted,
        //    every sample to the page, and it counts for no first ink.
        clock.advance(to: 13)
        session.submit([touch(7, .began, sample(700, 600, 13.000, .pencil)), touch(7, .moved, sample(704, 600, 13.008, .pencil))])
        let claimed = await page.question(after: askedBefore + 1)
        clock.advance(to: 13.040)
        session.submit(.pageMessage(ExercisePage.answer(claimed, interactive: true)))
        session.submit([touch(7, .ended, sample(708, 600, 13.045, .pencil))])
        await canvas.caughtUp(to: session.settled())

        ledger = await session.ledger
        metrics = await session.metrics
        #expect(ledger.received == 10 + 2 + 2 + 3 && ledger.inked == 2 && ledger.released == 8 + 2 + 3 && ledger.refused == 2)
        #expect(ledger.isBalanced && ledger.dropped == 0)
        #expect(metrics.retractions == 3)   // the gesture took back both fingers' ink, the page claimed one touch
        await MainActor.run {
            #expect(canvas.decisions(ofPlatform: PlatformTouchID(7)).map(\.0) == [.page])
            #expect(canvas.events.contains { $0.platformTouch?.rawValue == 7 && $0.action.map { if case .retractInk = $0 { true } else { false } } == true })
            #expect(canvas.layer.strokes.count == 1)
        }
        // First ink: the dot only (30 ms, in the bucket up to 33 ms); the retracted touch is not counted.
        #expect(metrics.firstInkLatencies.filter { $0.touches > 0 }.map(\.atMost) == [33])
        #expect(metrics.firstInkLatencies.map(\.touches).reduce(0, +) == 1)
        // The live audit agrees with the engine: nothing lost or miscounted; the one refused
        // event is a refusal, counted, not a failure.
        #expect(metrics.auditFailures.isEmpty && metrics.refusedInputs == 1)
        #expect(await session.sendsInFlight == 0)
        running.cancel()
        await drawing.value
    }
}
