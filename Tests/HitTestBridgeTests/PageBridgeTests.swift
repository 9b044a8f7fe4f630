import Foundation
import Testing
import InkCore
@testable import HitTestBridge

/// An oracle the test drives: records requests, and replies when and how the test says.
final class ScriptedOracle: HitTestOracle, @unchecked Sendable {
    enum Reply { case answer(interactive: Bool), viaReceive, fail }
    private let lock = NSLock()
    private var requests: [HitTestRequest] = []
    private var pending: [CheckedContinuation<String?, any Error>] = []
    private var watchers: [(Int, CheckedContinuation<Void, Never>)] = []

    struct Unreachable: Error {}

    var sent: [HitTestRequest] { lock.withLock { requests } }

    func send(_ request: HitTestRequest) async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
                requests.append(request)
                pending.append(continuation)
                let ready = watchers.filter { $0.0 <= requests.count }.map(\.1)
                watchers.removeAll { $0.0 <= requests.count }
                return ready
            }
            ready.forEach { $0.resume() }
        }
    }

    /// Suspends until `count` requests were sent.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock {
                if requests.count >= count { return true }
                watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Completes the oldest request still waiting.
    func reply(_ reply: Reply, generation: UInt64? = nil) {
        let (continuation, request) = lock.withLock { (pending.removeFirst(), requests[requests.count - pending.count - 1]) }
        switch reply {
        case let .answer(interactive):
            continuation.resume(returning: #"{"type":"answer","id":"\#(request.token)","interactive":\#(interactive ? 1 : 0),"generation":\#(generation ?? request.generation)}"#)
        case .viaReceive: continuation.resume(returning: nil)
        case .fail: continuation.resume(throwing: Unreachable())
        }
    }
}

@Suite("PageBridge with a manual clock")
struct PageBridgeTests {
    static func bridge(_ configuration: BridgeConfiguration = BridgeConfiguration()) -> (PageBridge, ScriptedOracle, ManualClock) {
        let oracle = ScriptedOracle(), clock = ManualClock(start: 10)
        let broker = HitTestBroker(configuration: configuration, generation: 1, tokens: SeededTokens(seed: 1))
        return (PageBridge(broker: broker, oracle: oracle, clock: clock), oracle, clock)
    }

    let q1 = QueryID(rawValue: 1), q2 = QueryID(rawValue: 2)

    @Test("an answer before the timeout")
    func answered() async {
        let (bridge, oracle, _) = Self.bridge()
        async let verdict = bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5))
        await oracle.waitForRequests(1)
        oracle.reply(.answer(interactive: true))
        #expect(await verdict == .decided(.page, .page))
        #expect(await bridge.metrics.roundTrips == 1)
    }

    @Test("never answered: the timeout's fallback; the late answer is counted")
    func timeout() async {
        let (bridge, oracle, clock) = Self.bridge(BridgeConfiguration(timeout: 0.2, fallback: .ink))
        async let verdict = bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5))
        await oracle.waitForRequests(1)
        await clock.waitForSleepers(1)
        clock.advance(by: 0.19)
        clock.advance(by: 0.01)
        #expect(await verdict == .decided(.ink, .timeout))
        oracle.reply(.answer(interactive: true))
        // The late reply is processed on the bridge; wait until it is counted.
        while await bridge.metrics.lateAnswers == 0 { await Task.yield() }
        #expect(await bridge.metrics.timeouts == 1)
    }

    @Test("the oracle throwing gives the fallback")
    func oracleThrows() async {
        let (bridge, oracle, _) = Self.bridge(BridgeConfiguration(fallback: .page))
        async let verdict = bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5))
        await oracle.waitForRequests(1)
        oracle.reply(.fail)
        #expect(await verdict == .decided(.page, .failure))
    }

    @Test("a reply through the host's message channel decides the query")
    func viaReceive() async throws {
        let (bridge, oracle, _) = Self.bridge()
        async let verdict = bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5))
        await oracle.waitForRequests(1)
        let request = try #require(oracle.sent.first)
        oracle.reply(.viaReceive)
        let outcome = await bridge.receive(#"{"type":"answer","id":"\#(request.token)","interactive":0,"generation":1}"#)
        #expect(outcome == .answered(queries: 1))
        #expect(await verdict == .decided(.ink, .page))
    }

    @Test("a fresh cache answers with no round trip")
    func cacheHit() async {
        let (bridge, oracle, _) = Self.bridge()
        await bridge.receive(#"{"type":"regions","generation":1,"maxAge":1000,"regions":[{"x":0,"y":0,"width":10,"height":10}]}"#)
        #expect(await bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5)) == .decided(.page, .cache))
        #expect(await bridge.verdict(for: q2, at: CanvasPoint(x: 50, y: 5)) == .decided(.ink, .cache))
        #expect(oracle.sent.isEmpty)
    }

    @Test("a touch cancelled while waiting")
    func cancelled() async {
        let (bridge, oracle, _) = Self.bridge()
        async let verdict = bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5))
        await oracle.waitForRequests(1)
        await bridge.cancel(q1)
        #expect(await verdict == .cancelled)
        oracle.reply(.answer(interactive: true))
        while await bridge.metrics.lateAnswers == 0 { await Task.yield() }
    }

    @Test("two queries at the same spot share one round trip")
    func shared() async {
        let (bridge, oracle, _) = Self.bridge()
        async let first = bridge.verdict(for: q1, at: CanvasPoint(x: 5, y: 5))
        await oracle.waitForRequests(1)
        async let second = bridge.verdict(for: q2, at: CanvasPoint(x: 6, y: 5))
        while await bridge.metrics.sharedQueries == 0 { await Task.yield() }
        oracle.reply(.answer(interactive: false))
        #expect(await first == .decided(.ink, .page))
        #expect(await second == .decided(.ink, .page))
        #expect(oracle.sent.count == 1)
    }

    @Test("the manual clock wakes sleepers in order and never goes back")
    func manualClock() async {
        let clock = ManualClock(start: 1)
        clock.advance(to: 0.5)
        #expect(clock.now == 1)
        await clock.sleep(until: 0.9)  // already past: returns at once
        async let woke: Void = clock.sleep(until: 2)
        await clock.waitForSleepers(1)
        clock.advance(by: 1)
        await woke
        #expect(clock.sleeperCount == 0 && clock.now == 2)
    }
}
