import InkCore

/// First-ink latencies, counted in fixed buckets (milliseconds, upper bounds inclusive).
public struct LatencyHistogram: Sendable, Hashable {
    /// Upper bounds of the buckets, milliseconds; a last bucket holds everything above.
    public static let bounds: [Double] = [0, 8, 16, 33, 100, 250]
    /// Counts per bucket: `counts[i]` for latencies ≤ `bounds[i]` (and above the previous
    /// bound); the last entry for latencies above every bound.
    public private(set) var counts = [Int](repeating: 0, count: bounds.count + 1)

    /// Creates an empty histogram.
    public init() {}

    /// Counts one latency in seconds.
    public mutating func record(_ seconds: Double) {
        let ms = seconds * 1000
        counts[Self.bounds.firstIndex { ms <= $0 + 1e-9 } ?? Self.bounds.count] += 1
    }

    /// How many latencies were recorded.
    public var total: Int { counts.reduce(0, +) }
}

/// What a live session has done: the engine's counters, the bridge's metrics, how soon ink
/// appeared and what the live audit found.
public struct InkSessionMetrics: Sendable, Hashable {
    /// The engine's counters (retractions, gestures, deadlines…).
    public var router: RouterCounters
    /// The bridge's metrics (round trips, cache hits, timeouts, late answers…).
    public var bridge: BridgeMetrics
    /// Touch-down to first ink, per finished touch that became ink (``TouchOutcome/firstInkLatency``:
    /// retracted ink does not count).
    public var firstInk: LatencyHistogram
    /// Why the session does not verify so far (``DeliveryAudit/verify(against:)``); empty
    /// while every sample is accounted for.
    public var auditFailures: [String]
}

/// How the session reaches the page: a transport only. It evaluates
/// ``HitTestRequest/scriptInvocation`` in the page (or hands the request to the page
/// script by other means); every decision stays with the session's engine.
public protocol HitTestOracle: Sendable {
    /// Sends a request to the page.
    /// - Returns: the page's reply message, untrusted, when the transport returns it
    ///   directly; `nil` when the reply arrives later through ``InkSession/submit(_:)-(EngineInput)``.
    /// - Throws: when the page cannot be asked; the request's queries get the fallback at once.
    ///   A send the session no longer needs (its round trip was settled) is cancelled.
    func send(_ request: HitTestRequest) async throws -> String?
}

/// A live session: ``InkEngine`` with a clock, a transport to the page and one ordered
/// input queue.
///
/// Everything goes in through ``submit(_:)-([EngineInput])``: touch events, estimated-property updates,
/// the page's messages, layout changes. It is `nonisolated` and returns at once; inputs
/// are taken by ``run()`` strictly in the order they were submitted, so a region snapshot
/// submitted before a touch is in the cache when the touch asks. The page's replies to the
/// session's own sends and the one timer's ticks join the same queue.
///
/// What happened comes out of ``events``, one batch per submission taken, in order. Iterate
/// it from one task (a `@MainActor` one to draw): a single `for await` loop keeps the
/// batches in order; a task per batch would not.
///
/// The clock must count in the same seconds as the samples' timestamps: the default,
/// ``UptimeClock``, is the timebase of `UITouch.timestamp`.
///
/// ```swift
/// let session = InkSession(oracle: webViewOracle)
/// Task { await session.run() }                       // takes the inputs until cancelled
/// Task { @MainActor in
///     for await batch in session.events { canvas.apply(batch) }   // in order, on the main actor
/// }
/// session.submit([.touch(event)])                    // from the touch callback
/// session.submit([.pageMessage(messageBody)])        // from the page's message handler
/// ```
public actor InkSession {
    private enum Queued: Sendable {
        case inputs([EngineInput])
        case timerFired(Double)
        case drained(CheckedContinuation<Void, Never>)
        case settled(CheckedContinuation<Void, Never>)
    }

    private var engine: InkEngine
    private var audit = DeliveryAudit()
    private var firstInk = LatencyHistogram()
    private let oracle: any HitTestOracle
    private let clock: any BridgeClock
    private let queue: AsyncStream<Queued>
    private let enqueue: AsyncStream<Queued>.Continuation
    private let eventSink: AsyncStream<[EngineEvent]>.Continuation
    private var settledWaiters: [CheckedContinuation<Void, Never>] = []
    /// The one timer, and the deadline it is armed for.
    private var timer: Task<Void, Never>?
    private var armedDeadline: Double?
    /// Sends in flight, by round trip.
    private var sends: [QueryToken: Task<Void, Never>] = [:]
    private var batch: [EngineEvent] = []
    /// Events published to ``events`` so far.
    private var published = 0
    /// Records what the engine takes and decides, when the app asked for a recording.
    public private(set) var recorder: SessionRecorder?

    /// What happened, one batch per submission taken (a `submit` call, a reply from the page,
    /// a timer tick), in order. Iterate it from one task; it ends when ``run()`` returns.
    /// Unbounded: a consumer that stops reading makes it grow.
    public nonisolated let events: AsyncStream<[EngineEvent]>

    /// Creates a session. Nothing is taken until ``run()`` runs.
    /// - Parameters:
    ///   - configuration: How touches are decided and the page asked (one timeout).
    ///   - transform: Canvas to page, until a `.layout` input.
    ///   - pageGeneration: The page's layout generation at the start (the bundled page
    ///     script's first, by default).
    ///   - oracle: The transport to the page.
    ///   - clock: The clock the deadlines run on, on the samples' timebase (default
    ///     ``UptimeClock``, the platform touch timestamps' clock).
    ///   - seed: Seeds the round trips' ids (`nil`, the default: the system's random generator).
    ///   - recorder: Records the session for `ink-replay verify` (see ``SessionRecorder``):
    ///     every input taken and every decision, as session-log lines handed to the
    ///     recorder's sink from the session's actor. The session begins it with its engine;
    ///     it offers what it holds at the end of ``run()``, on ``flush()`` and on
    ///     ``flushRecording()``. `nil`, the default, records nothing.
    public init(configuration: InkEngineConfiguration = InkEngineConfiguration(), transform: PageTransform = .identity,
                pageGeneration: UInt64 = PageScript.firstGeneration, oracle: any HitTestOracle,
                clock: any BridgeClock = UptimeClock(), seed: UInt64? = nil, recorder: SessionRecorder? = nil) {
        engine = InkEngine(configuration: configuration, transform: transform, pageGeneration: pageGeneration, seed: seed)
        if var recorder {
            recorder.begin(engine)
            self.recorder = recorder
        }
        self.oracle = oracle
        self.clock = clock
        (queue, enqueue) = AsyncStream.makeStream(of: Queued.self)
        (events, eventSink) = AsyncStream.makeStream(of: [EngineEvent].self)
    }

    deinit {
        timer?.cancel()
        for send in sends.values { send.cancel() }
        enqueue.finish()
        eventSink.finish()
    }

    // MARK: - In

    /// Queues inputs, to be taken in order after everything submitted before. Returns at
    /// once; safe from any thread or actor. A refused input never blocks the rest: it comes
    /// out as a `.refused` event and its samples are counted in `SampleLedger.refused`.
    public nonisolated func submit(_ inputs: [EngineInput]) {
        enqueue.yield(.inputs(inputs))
    }

    /// Queues one input (see ``submit(_:)``).
    public nonisolated func submit(_ input: EngineInput) { submit([input]) }

    /// Takes the queued inputs, in order, until the calling task is cancelled; then stops
    /// the timer and the sends, and ends ``events``. Run it once, in a task of its own.
    public func run() async {
        for await item in queue {
            switch item {
            case let .inputs(inputs): take(inputs)
            case let .timerFired(deadline):
                if armedDeadline == deadline {
                    armedDeadline = nil
                    timer = nil
                }
                take([.tick])
            case let .drained(waiter): waiter.resume()
            case let .settled(waiter):
                if engine.isSettled { waiter.resume() } else { settledWaiters.append(waiter) }
            }
        }
        stop()
        recorder?.flush()
        eventSink.finish()
        for waiter in settledWaiters { waiter.resume() }
        settledWaiters.removeAll()
    }

    /// Returns once every input submitted before the call has been taken and no touch waits
    /// for a decision (the page answered, or the deadline decided): everything handed in
    /// has gone to the ink or to the page, or was cancelled or refused. Also returns when
    /// ``run()`` stops.
    ///
    /// - Returns: How many events the session has published to ``events`` by then: a
    ///   consumer that has read that many has seen everything up to the settled state.
    @discardableResult
    public func settled() async -> Int {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in enqueue.yield(.settled(waiter)) }
        return published
    }

    /// Returns once every input submitted before the call has been taken (decided or not).
    ///
    /// - Returns: How many events the session has published to ``events`` by then.
    @discardableResult
    public func drained() async -> Int {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in enqueue.yield(.drained(waiter)) }
        return published
    }

    // MARK: - State

    /// Every sample handed in and where it went.
    public var ledger: SampleLedger { engine.ledger }

    /// What the session has done so far.
    public var metrics: InkSessionMetrics {
        InkSessionMetrics(router: engine.counters, bridge: engine.bridgeMetrics, firstInk: firstInk,
                          auditFailures: audit.problemCount > 0 || audit.refusedInputs > 0 ? audit.verify(against: engine.ledger) : [])
    }

    /// Sends to the page in flight (at most one per round trip).
    public var sendsInFlight: Int { sends.count }

    /// Settles every undecided touch by the fallback now (the page is going away); the
    /// events go out as usual.
    public func flush() {
        let start = batch.count
        engine.finish(into: &batch)
        recorder?.recordFinish(at: engine.now, events: batch[start...])
        recorder?.flush()
        publish()
    }

    /// Offers what the recorder holds to its sink now (a sink that was behind may have
    /// caught up). Returns `true` when nothing is held (or nothing is recorded).
    @discardableResult
    public func flushRecording() -> Bool { recorder?.flush() ?? true }

    // MARK: - The one place that takes inputs

    private func take(_ inputs: [EngineInput]) {
        let now = max(clock.now, engine.now)
        if recorder != nil {
            for input in inputs {
                let start = batch.count
                engine.take(input, now: now, into: &batch)
                recorder!.record(input, at: now, events: batch[start...])
            }
        } else {
            engine.take(inputs, now: now, into: &batch)
        }
        publish()
    }

    /// Hands the batch out, feeds the observers, starts sends, re-arms the timer.
    private func publish() {
        for event in batch {
            if let outcome = audit.observe(event), let latency = outcome.firstInkLatency { firstInk.record(latency) }
            if case let .send(request, _) = event.kind { startSend(request) }
        }
        if !batch.isEmpty {
            published += batch.count
            eventSink.yield(batch)
        }
        batch.removeAll(keepingCapacity: true)
        // Round trips settled by this input need their sends no more.
        for (token, send) in sends where !engine.isWaiting(for: token) {
            send.cancel()
            sends[token] = nil
        }
        rearmTimer()
        if engine.isSettled, !settledWaiters.isEmpty {
            for waiter in settledWaiters { waiter.resume() }
            settledWaiters.removeAll()
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        armedDeadline = nil
        for send in sends.values { send.cancel() }
        sends.removeAll()
    }

    private func startSend(_ request: HitTestRequest) {
        let oracle = self.oracle, enqueue = self.enqueue
        sends[request.token]?.cancel()
        sends[request.token] = Task { [weak self] in
            // Asked from the actor: a round trip settled (or abandoned) meanwhile is not sent.
            guard await self?.isWaiting(for: request.token) == true else { return }
            do {
                // A reply joins the input queue even if the send was cancelled meanwhile:
                // the bridge counts it for what it is (late, duplicate).
                if let reply = try await oracle.send(request) { enqueue.yield(.inputs([.pageMessage(reply)])) }
            } catch {
                enqueue.yield(.inputs([.sendFailed(request.token)]))  // nothing, if already settled
            }
            await self?.sendEnded(request.token)
        }
    }

    private func isWaiting(for token: QueryToken) -> Bool { sends[token] != nil && engine.isWaiting(for: token) }

    private func sendEnded(_ token: QueryToken) { sends[token] = nil }

    /// Arms the one timer for the engine's next deadline, when that changed; when it fires,
    /// a tick joins the input queue.
    private func rearmTimer() {
        let next = engine.nextDeadline
        guard next != armedDeadline else { return }
        timer?.cancel()
        armedDeadline = next
        guard let next else {
            timer = nil
            return
        }
        let clock = self.clock, enqueue = self.enqueue
        timer = Task {
            do { try await clock.sleep(until: next) } catch { return }
            enqueue.yield(.timerFired(next))
        }
    }
}
