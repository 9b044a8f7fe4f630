import Foundation
import HitTestBridge
import InkCore
import Testing

// This target is shaped like an app: it depends on InkCore and HitTestBridge only (see
// Package.swift), never on the recording or replay tooling, and drives an InkSession the
// way an iPad app over a web view does.

/// The exercise page, as the app's web view holds it: a button and a draggable block. Its
/// page script answers hit tests by posting a message, some milliseconds later, and pushes
/// region snapshots.
final class ExercisePage: HitTestOracle, @unchecked Sendable {
    let regions = [PageRegion(x: 20, y: 20, width: 100, height: 40), PageRegion(x: 300, y: 400, width: 80, height: 80)]
    private let lock = NSLock()
    private var questions: [HitTestRequest] = []
    /// Touches the page received from the app (the platform's own touch handling).
    private(set) var touchesDelivered: [UInt64] = []

    var asked: [HitTestRequest] { lock.withLock { questions } }

    /// The page script's message channel: evaluating the request posts the answer later.
    func send(_ request: HitTestRequest) async throws -> String? {
        lock.withLock { questions.append(request) }
        return nil
    }

    /// What the page script posts for a request.
    func answer(_ request: HitTestRequest) -> String {
        let p = request.pagePoint
        let hit = regions.contains { p.x >= $0.x && p.x <= $0.x + $0.width && p.y >= $0.y && p.y <= $0.y + $0.height }
        return #"{"type":"answer","id":"\#(request.token)","interactive":\#(hit),"generation":\#(request.generation)}"#
    }

    /// The page script's region snapshot.
    func snapshot(generation: UInt64, maxAgeMs: Int) -> String {
        let items = regions.map { #"{"x":\#($0.x),"y":\#($0.y),"width":\#($0.width),"height":\#($0.height)}"# }
        return #"{"type":"regions","generation":\#(generation),"maxAge":\#(maxAgeMs),"regions":[\#(items.joined(separator: ","))]}"#
    }

    func deliver(touch: UInt64) { lock.withLock { touchesDelivered.append(touch) } }
}

/// The app's canvas view: maps UIKit's touch identities to the engine's, draws ink with
/// InkLayer and hands the page's touches to the web view.
final class CanvasView: @unchecked Sendable {
    private let lock = NSLock()
    private var layer = InkLayer()
    private var identities = TouchIdentities()
    private var actions: [RouterAction] = []
    private var waiters: [(TouchID, CheckedContinuation<Void, Never>)] = []
    let page: ExercisePage

    init(page: ExercisePage) { self.page = page }

    var strokes: [InkLayer.Stroke] { lock.withLock { layer.strokes } }
    var all: [RouterAction] { lock.withLock { actions } }

    /// A UIKit touch event, by the platform's touch identity.
    func event(_ platform: UInt64, _ phase: TouchPhase, x: Double, y: Double, t: Double, tool: ToolKind) throws -> TouchEvent {
        let id = try lock.withLock { try identities.resolve(platform, phase: phase) }
        _ = lock.withLock { identities.engineID(for: platform, phase: phase) }
        return TouchEvent(touch: id, phase: phase, samples: [TouchSample(x: x, y: y, timestamp: t, tool: tool)])
    }

    /// InkSession's `perform`: in order, on the session's executor.
    func perform(_ batch: [RouterAction]) {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            for action in batch {
                actions.append(action)
                _ = layer.apply(action)
                if case let .release(id, _) = action, let platform = identities.platformID(of: id) { page.deliver(touch: platform) }
                if case let .touchFinished(id, _) = action { identities.finished(id) }
            }
            let finished = Set(actions.compactMap { if case let .touchFinished(id, _) = $0 { id } else { nil } })
            let ready = waiters.filter { finished.contains($0.0) }.map(\.1)
            waiters.removeAll { finished.contains($0.0) }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    func waitUntilFinished(_ id: TouchID) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: Bool = lock.withLock {
                if actions.contains(where: { if case .touchFinished(id, _) = $0 { true } else { false } }) { return true }
                waiters.append((id, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}

@Suite("An app embedding InkCore and HitTestBridge only")
struct AppEmbeddingTests {
    @Test("a pencil dot, a tap on the button and a stroke: the page gets its tap, the ink keeps every point")
    func session() async throws {
        let page = ExercisePage(), clock = ManualClock(start: 5_000)
        let canvas = CanvasView(page: page)
        let session = InkSession(oracle: page, clock: clock, seed: 7) { canvas.perform($0) }

        // 1. A decimal point with the pencil, before the page pushed any regions: a round trip.
        let dot = try canvas.event(11, .began, x: 200, y: 200, t: 5_000, tool: .pencil)
        try await session.handle(dot)
        try await session.handle(canvas.event(11, .moved, x: 200.5, y: 200.2, t: 5_000.008, tool: .pencil))
        try await session.handle(canvas.event(11, .ended, x: 200.6, y: 200.3, t: 5_000.016, tool: .pencil))
        while page.asked.isEmpty { await Task.yield() }   // the send runs off the actor
        clock.advance(to: 5_000.030)
        let question = try #require(page.asked.first)
        await session.receive(page.answer(question))
        await canvas.waitUntilFinished(dot.touch)

        // 2. The page pushes its regions; a finger tap on the button is answered from them.
        await session.receive(page.snapshot(generation: 0, maxAgeMs: 5_000))
        clock.advance(to: 5_001)
        let tap = try canvas.event(11, .began, x: 50, y: 30, t: 5_001, tool: .finger)   // UIKit reused the id
        try await session.handle(tap)
        try await session.handle(canvas.event(11, .ended, x: 50, y: 30, t: 5_001.05, tool: .finger))
        await canvas.waitUntilFinished(tap.touch)

        // 3. A stroke away from the page's elements: ink at once, every sample.
        clock.advance(to: 5_002)
        let stroke = try canvas.event(12, .began, x: 500, y: 100, t: 5_002, tool: .pencil)
        try await session.handle(stroke)
        for i in 1...20 {
            try await session.handle(canvas.event(12, .moved, x: 500 + Double(i) * 3, y: 100 + Double(i), t: 5_002 + Double(i) / 240,
                                                  tool: .pencil))
        }
        try await session.handle(canvas.event(12, .ended, x: 563, y: 121, t: 5_002.1, tool: .pencil))
        await canvas.waitUntilFinished(stroke.touch)

        let ledger = await session.ledger, metrics = await session.metrics
        #expect(ledger.isBalanced && ledger.dropped == 0)
        #expect(ledger.received == 3 + 2 + 22 && ledger.inked == 3 + 22 && ledger.released == 2)
        #expect(canvas.all.contains(.decided(dot.touch, .ink, .answered)))
        #expect(canvas.all.contains(.decided(tap.touch, .page, .regionCache)))
        #expect(canvas.all.contains(.decided(stroke.touch, .ink, .regionCache)))
        #expect(page.touchesDelivered == [11, 11])   // the tap's two samples, under UIKit's own id
        #expect(canvas.strokes.count == 2 && canvas.strokes.allSatisfy { !$0.builder.stableSegments.isEmpty })
        #expect(page.asked.count == 1 && metrics.bridge.cacheHits == 2)
        #expect(await session.sendsInFlight == 0)
        await session.flush()
    }
}
