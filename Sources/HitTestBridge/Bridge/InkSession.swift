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

/// What a live session has done: the engine's counters, the bridge's metrics and how soon
/// ink appeared.
public struct InkSessionMetrics: Sendable, Hashable {
    /// The engine's counters (retractions, gestures, deadlines…).
    public var router: RouterCounters
    /// The bridge's metrics (round trips, cache hits, timeouts, late answers…).
    public var bridge: BridgeMetrics
    /// Touch-down to first ink, per touch that became ink.
    public var firstInk: LatencyHistogram
}

/// How the session reaches the page: a transport only. It evaluates
/// ``HitTestRequest/scriptInvocation`` in the page (or hands the request to the page
/// script by other means); every decision stays with the session's ``EngineHost``.
public protocol HitTestOracle: Sendable {
    /// Sends a request to the page.
    /// - Returns: the page's reply message, untrusted, when the transport returns it
    ///   directly; `nil` when the reply arrives later through ``InkSession/receive(_:)``.
    /// - Throws: when the page cannot be asked; the request's queries get the fallback at once.
    ///   A send the session no longer needs (its round trip was settled) is cancelled.
    func send(_ request: HitTestRequest) async throws -> String?
}

/// A live session: ``EngineHost`` (the engine and the bridge, joined in one pure value) with
/// a clock and a transport to the page.
///
/// The host feeds platform events and the page's messages in; every input runs through the
/// host at once, on the actor, and the engine's actions reach `perform` in order, one batch
/// per input, whether they came from an event, an answer or a deadline. There is no task
/// per query: one timer, re-armed to the host's next deadline and cancelled when it moves,
/// and one send per round trip to the page (shared by the queries near it, none when the
/// region cache answers), started only while a query still waits for it and cancelled when
/// its round trip is settled. The tie-break rule is the host's: a deadline due by an
/// input's time fires before the input.
///
/// The clock must count in the same seconds as the samples' timestamps: the default,
/// ``UptimeClock``, is the timebase of `UITouch.timestamp`, so platform timestamps pass
/// through unchanged.
///
/// ```swift
/// let session = InkSession(oracle: webViewOracle) { actions in render(actions) }
/// try await session.handle(event)
/// await session.receive(messageBody)   // the page's messages, as they arrive
/// ```
public actor InkSession {
    private var host: EngineHost
    private let oracle: any HitTestOracle
    private let clock: any BridgeClock
    private let perform: @Sendable ([RouterAction]) -> Void
    private var downTimes: [TouchID: Double] = [:]
    private var firstInk = LatencyHistogram()
    /// The one timer, and the deadline it is armed for.
    private var timer: Task<Void, Never>?
    private var armedDeadline: Double?
    /// Sends in flight, by round trip.
    private var sends: [QueryToken: Task<Void, Never>] = [:]

    /// Creates a session.
    /// - Parameters:
    ///   - router: The engine's settings. Its `TouchRouterConfiguration/decisionTimeout`
    ///     is the engine's own deadline; the bridge's timeout should not be longer.
    ///   - bridge: The bridge's settings (timeout, fallback, cache, speculative ink).
    ///   - transform: Canvas to page, until ``layoutChanged(_:generation:)``.
    ///   - oracle: The transport to the page.
    ///   - clock: The clock the deadlines run on, on the samples' timebase (default
    ///     ``UptimeClock``, the platform touch timestamps' clock).
    ///   - seed: Seeds the query tokens (`nil`, the default: the system's random generator).
    ///   - perform: Called with each batch of actions, in order, on the session's executor.
    public init(router: TouchRouterConfiguration = TouchRouterConfiguration(), bridge: BridgeConfiguration = BridgeConfiguration(),
                transform: PageTransform = .identity, oracle: any HitTestOracle, clock: any BridgeClock = UptimeClock(),
                seed: UInt64? = nil, perform: @escaping @Sendable ([RouterAction]) -> Void) {
        host = EngineHost(router: router, bridge: bridge, transform: transform, seed: seed)
        self.oracle = oracle
        self.clock = clock
        self.perform = perform
    }

    deinit {
        timer?.cancel()
        for send in sends.values { send.cancel() }
    }

    /// The engine's ledger: every sample received and where it went.
    public var ledger: SampleLedger { host.ledger }

    /// What the session has done so far.
    public var metrics: InkSessionMetrics {
        InkSessionMetrics(router: host.counters, bridge: host.bridgeMetrics, firstInk: firstInk)
    }

    /// Sends to the page in flight (at most one per round trip).
    public var sendsInFlight: Int { sends.count }

    /// Handles one platform touch event.
    /// - Throws: ``HostError`` when the engine refuses it; it changes nothing (the
    ///   deadlines due by now still fire, and their actions are performed).
    public func handle(_ event: TouchEvent) throws(HostError) {
        try execute(.touch(event))
    }

    /// Handles several platform touch events in one turn of the actor, in order (the
    /// touches of one UIKit callback, for instance): one hop instead of one per event.
    /// - Throws: ``HostError`` for the first event the engine refuses; the events before it
    ///   were taken, that one and the rest were not.
    public func handle(_ events: [TouchEvent]) throws(HostError) {
        for event in events { try execute(.touch(event)) }
    }

    /// Applies an estimated-property update.
    /// - Throws: ``HostError`` when the engine refuses it; it changes nothing (the
    ///   deadlines due by now still fire, and their actions are performed).
    public func apply(_ update: EstimatedPropertyUpdate) throws(HostError) {
        try execute(.update(update))
    }

    /// Takes a message the page posted (untrusted): an answer or a region snapshot.
    @discardableResult
    public func receive(_ message: String) -> ReceiveOutcome? {
        try? execute(.pageMessage(Array(message.utf8)))
    }

    /// The page scrolled, zoomed or changed its layout.
    /// - Throws: ``HostError`` for a transform that is not finite and positive.
    public func layoutChanged(_ transform: PageTransform, generation: UInt64? = nil) throws(HostError) {
        try execute(.layout(transform, generation: generation))
    }

    /// Settles every undecided touch by the fallback now (the page is going away), and stops
    /// the timer and the sends.
    public func flush() {
        var output: [HostOutput] = []
        host.finish(into: &output)
        carryOut(output)
        timer?.cancel()
        timer = nil
        armedDeadline = nil
        for send in sends.values { send.cancel() }
        sends.removeAll()
    }

    // MARK: - The one place that executes

    @discardableResult
    private func execute(_ input: HostInput) throws(HostError) -> ReceiveOutcome? {
        var output: [HostOutput] = []
        do {
            let outcome = try host.deliver(input, now: max(clock.now, host.now), into: &output)
            if case let .touch(event) = input, event.phase == .began, let down = event.samples.first {
                downTimes[event.touch] = down.timestamp
            }
            carryOut(output)
            return outcome
        } catch {
            // The input was refused, but the deadlines due by now fired before it: their
            // actions are carried out all the same.
            carryOut(output)
            throw error
        }
    }

    private func carryOut(_ output: [HostOutput]) {
        var actions: [RouterAction] = []
        for item in output {
            switch item {
            case let .engine(action):
                actions.append(action)
                note(action)
            case let .send(request, _):
                startSend(request)
            }
        }
        if !actions.isEmpty { perform(actions) }
        // Round trips settled by this input need their sends no more.
        for (token, send) in sends where !host.isWaiting(for: token) {
            send.cancel()
            sends[token] = nil
        }
        rearmTimer()
    }

    private func note(_ action: RouterAction) {
        switch action {
        case let .ink(touch, _):
            if let down = downTimes.removeValue(forKey: touch) { firstInk.record(max(0, host.now - down)) }
        case let .touchFinished(touch, _), let .cancel(touch, _), let .decided(touch, .page, _):
            downTimes[touch] = nil
        default:
            break
        }
    }

    private func startSend(_ request: HitTestRequest) {
        let oracle = self.oracle
        sends[request.token]?.cancel()
        sends[request.token] = Task { [weak self] in
            // Asked from the actor: a round trip settled (or abandoned) meanwhile is not sent.
            guard await self?.isWaiting(for: request.token) == true else { return }
            // The session is not held while the page is asked: one dropped meanwhile goes.
            do {
                // A reply is delivered even if the send was cancelled meanwhile: the bridge
                // counts it for what it is (late, duplicate).
                if let reply = try await oracle.send(request) { await self?.receive(reply) }
            } catch {
                _ = try? await self?.execute(.sendFailed(request.token))  // nothing, if already settled
            }
            await self?.sendEnded(request.token)
        }
    }

    private func isWaiting(for token: QueryToken) -> Bool { sends[token] != nil && host.isWaiting(for: token) }

    private func sendEnded(_ token: QueryToken) { sends[token] = nil }

    /// Arms the one timer for the host's next deadline, when that changed.
    private func rearmTimer() {
        let next = host.nextDeadline
        guard next != armedDeadline else { return }
        timer?.cancel()
        armedDeadline = next
        guard let next else {
            timer = nil
            return
        }
        let clock = self.clock
        timer = Task { [weak self] in
            do { try await clock.sleep(until: next) } catch { return }
            await self?.timerFired(for: next)
        }
    }

    private func timerFired(for deadline: Double) {
        guard armedDeadline == deadline else { return }  // re-armed meanwhile
        armedDeadline = nil
        timer = nil
        _ = try? execute(.tick)
    }
}
