import Foundation
import Testing
@_spi(Tooling) import InkCore
import InkTesting
@_spi(Tooling) @testable import HitTestBridge

/// Collects the actions a session performs; tests wait on it instead of sleeping.
final class ActionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [RouterAction] = []
    /// The refusals, as they arrive.
    let refusals = Arrivals<InputRefusal>()

    var refused: [InputRefusal] { refusals.all }

    /// Starts the session's input loop and a consumer of its events feeding this log, the
    /// way an app does (one task reading the events, in order).
    func start(_ session: InkSession) {
        Task { await session.run() }
        Task {
            for await batch in session.events {
                refusals.append(contentsOf: batch.compactMap { if case let .refused(_, why) = $0.kind { why } else { nil } })
                append(batch.compactMap(\.action))
            }
        }
    }
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

/// A page reached through a transport the test answers by hand.
final class ScriptedOracle: @unchecked Sendable {
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

extension InkSession {
    /// Submits touch events and waits until the session has taken them.
    func take(_ events: [TouchEvent]) async {
        submit(events.map { .touch($0) })
        await drained()
    }

    func take(_ event: TouchEvent) async { await take([event]) }

    /// Submits a page message and waits until the session has taken it.
    func receive(_ message: String) async {
        submit(.pageMessage(message))
        await drained()
    }
}

@Suite("InkSession: InkEngine with a clock, a transport and one input queue")
struct InkSessionTests {
    static func session(cache: String? = nil, timeout: Double = 0.25, start: Double = 1)
        async -> (InkSession, ActionLog, ScriptedOracle, ManualClock) {
        let oracle = ScriptedOracle(), clock = ManualClock(start: start), log = ActionLog()
        let session = InkSession(configuration: InkEngineConfiguration(decisionTimeout: timeout), clock: clock,
                                 seed: 3) { try await oracle.send($0) }
        log.start(session)
        if let cache { await session.receive(cache) }
        return (session, log, oracle, clock)
    }

    static func dot(_ touch: PlatformTouchID, at time: Double, x: Double = 50) -> [TouchEvent] {
        [TouchEvent(touch: touch, phase: .began, samples: [TouchSample(x: x, y: 50, timestamp: time, tool: .pencil)]),
         TouchEvent(touch: touch, phase: .ended, samples: [TouchSample(x: x + 1, y: 50, timestamp: time + 0.016, tool: .pencil)])]
    }

    static func decisions(_ log: ActionLog) -> [(HitTestVerdict, DecisionReason)] {
        log.all.compactMap { if case let .decided(_, verdict, reason) = $0 { (verdict, reason) } else { nil } }
    }

    @Test("a fresh cache decides at once: ink with 0 ms first-ink latency, no round trip")
    func cacheHit() async throws {
        let regions = #"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":500,"y":0,"width":100,"height":100}]}"#
        let (session, log, oracle, _) = await Self.session(cache: regions)
        await session.take(Self.dot(PlatformTouchID(1), at: 1))
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
        await session.take(Self.dot(PlatformTouchID(1), at: 1, x: 550))
        await oracle.waitForRequests(1)
        clock.advance(by: 0.030)
        oracle.reply(.answer(interactive: true))
        await log.wait(until: ActionLog.finished(TouchID(1)))
        #expect(log.all.contains(.decided(TouchID(1), .page, .answered)))
        let ledger = await session.ledger, metrics = await session.metrics
        #expect(ledger.released == 2 && ledger.isBalanced)
        #expect(metrics.firstInk.total == 0)
        #expect(await session.sendsInFlight == 0)
    }

    @Test("never answered: one timer, at the earliest deadline, decides by the fallback; nothing is lost")
    func neverAnswered() async throws {
        let (session, log, oracle, clock) = await Self.session(timeout: 0.2)
        await session.take(Self.dot(PlatformTouchID(1), at: 1))
        await oracle.waitForRequests(1)
        await clock.waitForWakeUps(1)
        #expect(clock.wakeUpDeadlines == [1.2])   // one timer, not one per request and one per deadline
        clock.advance(by: 0.2)
        await log.wait(until: ActionLog.finished(TouchID(1)))
        let decided = Self.decisions(log)
        #expect(decided.count == 1 && decided.first?.0 == .ink && decided.first?.1 == .deadline)
        let metrics = await session.metrics
        #expect(metrics.firstInk.counts[5] == 1)  // 200 ms: in the ≤ 250 ms bucket
        let ledger = await session.ledger
        #expect(ledger.isBalanced && ledger.inked == 2)
        #expect(clock.wakeUpDeadlines.isEmpty)
    }

    @Test("an answer exactly at the deadline is late: the deadline decides (the tie-break rule)")
    func tieBreak() async throws {
        let (session, log, oracle, clock) = await Self.session(timeout: 0.25)
        await session.take(Self.dot(PlatformTouchID(1), at: 1, x: 550))
        await oracle.waitForRequests(1)
        await clock.waitForWakeUps(1)
        clock.advance(to: 1.25)
        oracle.reply(.answer(interactive: true))   // arrives at 1.25, with the timer, in either order
        await log.wait(until: ActionLog.finished(TouchID(1)))
        let decided = Self.decisions(log)
        #expect(decided.count == 1 && decided.first?.0 == .ink && decided.first?.1 == .deadline)
        await session.sendsSettled()
        let metrics = await session.metrics
        #expect(metrics.bridge.lateAnswers == 1 && metrics.bridge.timeouts + metrics.router.deadlinesPassed == 1)
    }

    @Test("a timer re-armed when the deadline moves: the old one is cancelled")
    func rearmed() async throws {
        let regions = #"{"type":"regions","generation":1,"maxAge":5000,"regions":[]}"#
        let (session, log, _, clock) = await Self.session(timeout: 0.25)
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)]))
        await clock.waitForWakeUps(1)
        #expect(clock.wakeUpDeadlines == [1.25])
        await session.receive(regions)   // the cache cannot decide a question already asked…
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .cancelled, samples: []))
        await log.wait(until: ActionLog.finished(TouchID(1)))
        await session.drained()   // …the cancel settles it: the timer goes
        #expect(clock.wakeUpDeadlines.isEmpty)
    }

    @Test("a query abandoned before its request went out never reaches the page")
    func abandonedBeforeSend() async throws {
        let (session, log, oracle, _) = await Self.session()
        let down = TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)])
        let cancel = TouchEvent(touch: PlatformTouchID(1), phase: .cancelled, samples: [])
        await session.take([down, cancel])   // one batch, taken in one turn of the actor: the send has not started
        await log.wait(until: ActionLog.finished(TouchID(1)))
        await session.sendsSettled()
        #expect(oracle.sent.isEmpty)
        let ledger = await session.ledger
        #expect(ledger.cancelled == 1 && ledger.isBalanced)
    }

    @Test("a cancelled touch abandons its query and its send; an answer returned anyway is counted late")
    func cancelled() async throws {
        let (session, log, oracle, _) = await Self.session()
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)]))
        await oracle.waitForRequests(1)
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .cancelled, samples: []))
        await log.wait(until: ActionLog.finished(TouchID(1)))
        oracle.reply(.answer(interactive: false))
        await session.sendsSettled()
        #expect((await session.metrics).bridge.lateAnswers == 1)
        let ledger = await session.ledger
        #expect(ledger.cancelled == 1 && ledger.isBalanced)
    }

    @Test("the transport failing gives the fallback at once")
    func transportFails() async throws {
        let (session, log, oracle, _) = await Self.session()
        await session.take(Self.dot(PlatformTouchID(1), at: 1))
        await oracle.waitForRequests(1)
        oracle.reply(.fail)
        await log.wait(until: ActionLog.finished(TouchID(1)))
        #expect(log.all.contains(.decided(TouchID(1), .ink, .unreachable)))
    }

    @Test("two taps at the same spot share one round trip; a reply through receive(_:) decides both")
    func shared() async throws {
        let (session, log, oracle, _) = await Self.session()
        // The first tap lifts before its answer; the second lands beside it while the question is open.
        await session.take(Self.dot(PlatformTouchID(1), at: 1, x: 5) + Self.dot(PlatformTouchID(2), at: 1.02, x: 6))
        await oracle.waitForRequests(1)
        let request = try #require(oracle.sent.first)
        oracle.reply(.viaReceive)
        await session.receive(#"{"type":"answer","id":"\#(request.token)","interactive":true,"generation":\#(request.generation)}"#)
        for touch in [TouchID(1), TouchID(2)] { await log.wait(until: ActionLog.finished(touch)) }
        #expect(oracle.sent.count == 1)
        #expect(await session.metrics.bridge.sharedQueries == 1)
        let decided = Self.decisions(log)
        #expect(decided.count == 2 && decided.allSatisfy { $0 == (.page, .answered) })
    }

    @Test("a refused input still carries out the deadlines that passed before it")
    func refusedAfterDeadline() async throws {
        /// A clock whose time is set by hand and whose wake-ups never fire: the timer cannot
        /// fire, so only the refused input lets the deadline pass.
        final class FrozenTimerClock: InkLoopClock, @unchecked Sendable {
            private let lock = NSLock()
            private var time = 1.0
            var now: Double { lock.withLock { time } }
            func set(_ value: Double) { lock.withLock { time = value } }
            func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void { {} }
        }
        let clock = FrozenTimerClock(), log = ActionLog(), oracle = ScriptedOracle()
        let session = InkSession(clock: clock, seed: 1) { try await oracle.send($0) }
        log.start(session)
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)]))
        clock.set(2)   // past the 250 ms deadline
        await session.take(TouchEvent(touch: PlatformTouchID(9), phase: .moved, samples: [TouchSample(x: 1, y: 1, timestamp: 2)]))
        await log.wait { $0.contains(.decided(TouchID(1), .ink, .deadline)) }
        #expect(log.refused == [.touchNotDown(PlatformTouchID(9))])
        #expect(log.all.contains(.ink(TouchID(1), TouchSample(x: 5, y: 5, timestamp: 1))))
        let ledger = await session.ledger
        #expect(ledger.inked == 1 && ledger.received == 2 && ledger.refused == 1 && ledger.dropped == 0)
        await session.flush()
    }

    @Test("first ink is measured for a touch decided without asking (pencil only)")
    func firstInkWithoutQuestion() async throws {
        let clock = ManualClock(start: 1), log = ActionLog()
        let page = ScriptedOracle()
        let session = InkSession(configuration: InkEngineConfiguration(pencilOnly: true), clock: clock, seed: 1) { try await page.send($0) }
        log.start(session)
        await session.take(Self.dot(PlatformTouchID(1), at: 1))
        await log.wait(until: ActionLog.finished(TouchID(1)))
        let metrics = await session.metrics
        #expect(metrics.firstInk.counts[0] == 1 && metrics.bridge.queries == 0)
    }

    @Test("a refused input is a typed refusal event, changes nothing else, and its samples are counted refused")
    func refused() async {
        let (session, log, _, _) = await Self.session()
        await session.take(TouchEvent(touch: PlatformTouchID(9), phase: .moved, samples: [TouchSample(x: 1, y: 1, timestamp: 1)]))
        await log.refusals.wait(for: 1)
        #expect(log.refused == [.touchNotDown(PlatformTouchID(9))])
        let ledger = await session.ledger
        #expect(ledger.received == 1 && ledger.refused == 1 && ledger.isBalanced && log.all.isEmpty)
        // A refusal is counted as one, never reported as a failure of the audit.
        let metrics = await session.metrics
        #expect(metrics.auditFailures.isEmpty && metrics.refusedInputs == 1 && metrics.recentRefusals.count == 1)
    }

    @Test("an input submitted after run() ended is refused and counted; touches still down were cancelled when it ended")
    func submitAfterRun() async {
        let clock = ManualClock(start: 1), oracle = ScriptedOracle()
        let session = InkSession(clock: clock, seed: 1) { try await oracle.send($0) }
        let run = Task { await session.run() }
        session.submit([.touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 5, y: 5, timestamp: 1)])),
                        .touch(TouchEvent(touch: PlatformTouchID(1), phase: .moved, samples: [TouchSample(x: 6, y: 5, timestamp: 1.01)]))])
        await session.drained()
        run.cancel()
        await run.value
        // UIKit delivers touchesEnded/touchesCancelled while the view goes away.
        session.submit([.touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [TouchSample(x: 7, y: 5, timestamp: 1.02)])),
                        .touch(TouchEvent(touch: PlatformTouchID(2), phase: .began, samples: [TouchSample(x: 9, y: 9, timestamp: 1.02)]))])
        let ledger = await session.ledger, metrics = await session.metrics
        #expect(ledger.received == 4 && ledger.cancelled == 2 && ledger.refused == 2 && ledger.isBalanced, "\(ledger)")
        #expect(metrics.refusedInputs == 2 && metrics.auditFailures.isEmpty, "\(metrics.auditFailures)")
        #expect(await session.settled() >= 0)   // returns at once: nothing runs the session any more
    }

    @Test("the histogram buckets latencies by their upper bounds")
    func histogram() {
        var histogram = LatencyHistogram()
        for ms in [0.0, 5, 8, 9, 30, 250, 251] { histogram.record(ms / 1000) }
        #expect(histogram.counts == [1, 2, 1, 1, 0, 1, 1])
        #expect(histogram.total == 7)
    }

    @Test("the manual clock fires wake-ups in deadline order, each at its own time, and never goes back")
    func manualClock() async throws {
        let clock = ManualClock(start: 1)
        clock.advance(to: 0.5)
        #expect(clock.now == 1)
        var fired: [(String, Double)] = []
        _ = clock.wake(at: 3) { fired.append(("late", clock.now)) }
        _ = clock.wake(at: 2) { fired.append(("early", clock.now)) }
        _ = clock.wake(at: 0.9) { fired.append(("past", clock.now)) }   // already due: fires on the next advance
        await clock.waitForWakeUps(3)
        #expect(clock.wakeUpDeadlines == [0.9, 2, 3])
        clock.advance(by: 1.5)
        #expect(fired.map(\.0) == ["past", "early"] && fired.map(\.1) == [1, 2] && clock.now == 2.5)
        clock.advance(to: 10)
        #expect(fired.map(\.0) == ["past", "early", "late"] && fired.last?.1 == 3 && clock.wakeUpDeadlines.isEmpty)
    }

    @Test("a cancelled wake-up never fires and no longer counts")
    func manualClockCancel() {
        let clock = ManualClock(start: 1)
        var fired = false
        let cancel = clock.wake(at: 5) { fired = true }
        #expect(clock.wakeUpDeadlines == [5])
        cancel()
        #expect(clock.wakeUpDeadlines.isEmpty)
        clock.advance(to: 6)
        #expect(!fired)
    }
}
