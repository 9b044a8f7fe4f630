import Foundation
import Testing
import InkCore
@testable import HitTestBridge

/// Collects the actions a session performs; tests wait on it instead of sleeping.
final class ActionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [RouterAction] = []
    private var waiters: [(predicate: @Sendable ([RouterAction]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    var all: [RouterAction] { lock.withLock { actions } }

    func append(_ batch: [RouterAction]) {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            actions += batch
            let ready = waiters.filter { $0.predicate(actions) }.map(\.continuation)
            waiters.removeAll { $0.predicate(actions) }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Suspends until the actions so far satisfy `predicate`.
    func wait(until predicate: @escaping @Sendable ([RouterAction]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if predicate(actions) { return true }
                waiters.append((predicate, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    static func finished(_ touch: TouchID) -> @Sendable ([RouterAction]) -> Bool {
        { actions in actions.contains { if case .touchFinished(touch, _) = $0 { true } else { false } } }
    }
}

@Suite("InkSession: engine, bridge and clock joined")
struct InkSessionTests {
    static func session(cache: String? = nil, timeout: Double = 0.25)
        async -> (InkSession, ActionLog, ScriptedOracle, ManualClock) {
        let oracle = ScriptedOracle(), clock = ManualClock(start: 1), log = ActionLog()
        let broker = HitTestBroker(configuration: BridgeConfiguration(timeout: timeout), tokens: SeededTokens(seed: 3))
        let bridge = PageBridge(broker: broker, oracle: oracle, clock: clock)
        if let cache { await bridge.receive(cache) }
        var configuration = TouchRouterConfiguration()
        configuration.decisionTimeout = timeout
        let session = InkSession(configuration: configuration, bridge: bridge, clock: clock) { log.append($0) }
        return (session, log, oracle, clock)
    }

    static func dot(_ touch: TouchID, at time: Double, x: Double = 50) -> [TouchEvent] {
        [TouchEvent(touch: touch, phase: .began, samples: [TouchSample(x: x, y: 50, timestamp: time, tool: .pencil)]),
         TouchEvent(touch: touch, phase: .ended, samples: [TouchSample(x: x + 1, y: 50, timestamp: time + 0.016, tool: .pencil)])]
    }

    @Test("a fresh cache decides at once: ink with 0 ms first-ink latency, no round trip")
    func cacheHit() async throws {
        let regions = #"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":500,"y":0,"width":100,"height":100}]}"#
        let (session, log, oracle, _) = await Self.session(cache: regions)
        for event in Self.dot(TouchID(1), at: 1) { try await session.handle(event) }
        await log.wait(until: ActionLog.finished(TouchID(1)))
        #expect(log.all.contains(.decided(TouchID(1), .ink, .regionCache)))
        let metrics = await session.metrics
        #expect(metrics.firstInk.counts[0] == 1 && metrics.bridge.cacheHits == 1 && metrics.bridge.roundTrips == 0)
        #expect(oracle.sent.isEmpty)
        let ledger = await session.ledger
        #expect(ledger.isBalanced && ledger.inked == 2)
    }

    @Test("the page's answer after 30 ms decides; first ink waits for it")
    func answered() async throws {
        let (session, log, oracle, clock) = await Self.session()
        for event in Self.dot(TouchID(1), at: 1, x: 550) { try await session.handle(event) }
        await oracle.waitForRequests(1)
        clock.advance(by: 0.030)
        oracle.reply(.answer(interactive: true))
        await log.wait(until: ActionLog.finished(TouchID(1)))
        #expect(log.all.contains(.decided(TouchID(1), .page, .answered)))
        let ledger = await session.ledger, metrics = await session.metrics
        #expect(ledger.released == 2 && ledger.isBalanced)
        #expect(metrics.firstInk.total == 0)
    }

    @Test("never answered: the deadline decides by the fallback, nothing is lost")
    func neverAnswered() async throws {
        let (session, log, oracle, clock) = await Self.session(timeout: 0.2)
        for event in Self.dot(TouchID(1), at: 1) { try await session.handle(event) }
        await oracle.waitForRequests(1)
        await clock.waitForSleepers(2)  // the bridge's timeout and the engine's deadline
        clock.advance(by: 0.2)
        await log.wait(until: ActionLog.finished(TouchID(1)))
        let decided = log.all.compactMap { if case let .decided(_, verdict, reason) = $0 { (verdict, reason) } else { nil } }
        #expect(decided.count == 1 && decided.first?.0 == .ink && decided.first?.1 == .deadline)
        let metrics = await session.metrics
        #expect(metrics.firstInk.counts[5] == 1)  // 200 ms: in the ≤ 250 ms bucket
        let ledger = await session.ledger
        #expect(ledger.isBalanced && ledger.inked == 2)
    }

    @Test("a cancelled touch abandons its query; the page's answer is then late")
    func cancelled() async throws {
        let (session, log, oracle, _) = await Self.session()
        try await session.handle(TouchEvent(touch: TouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)]))
        await oracle.waitForRequests(1)
        try await session.handle(TouchEvent(touch: TouchID(1), phase: .cancelled, samples: []))
        await log.wait(until: ActionLog.finished(TouchID(1)))
        oracle.reply(.answer(interactive: false))
        while (await session.metrics).bridge.lateAnswers == 0 { await Task.yield() }
        let ledger = await session.ledger
        #expect(ledger.cancelled == 1 && ledger.isBalanced)
    }

    @Test("refused input is a typed error and changes nothing")
    func refused() async {
        let (session, _, _, _) = await Self.session()
        await #expect(throws: RouterError.self) {
            try await session.handle(TouchEvent(touch: TouchID(9), phase: .moved, samples: [TouchSample(x: 1, y: 1, timestamp: 1)]))
        }
        let ledger = await session.ledger
        #expect(ledger.received == 0)
    }

    @Test("the histogram buckets latencies by their upper bounds")
    func histogram() {
        var histogram = LatencyHistogram()
        for ms in [0.0, 5, 8, 9, 30, 250, 251] { histogram.record(ms / 1000) }
        #expect(histogram.counts == [1, 2, 1, 1, 0, 1, 1])
        #expect(histogram.total == 7)
    }
}
