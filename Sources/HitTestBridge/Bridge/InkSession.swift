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

/// A live session: the decision engine, the bridge to the page and a clock, joined.
///
/// The host feeds platform events in; the session runs `TouchRouter`, asks the page
/// through ``PageBridge`` for every touch-down, feeds the verdicts back and runs the
/// engine's deadlines on the clock. Every `RouterAction` goes to `perform`, in order,
/// whether it came from an event, a verdict or a deadline. The clock must count in the same
/// seconds as the samples' timestamps: the default, ``UptimeClock``, is the timebase of
/// `UITouch.timestamp`, so platform timestamps pass through unchanged. Give the session and
/// its ``PageBridge`` the same clock.
///
/// ```swift
/// let session = InkSession(bridge: bridge) { actions in render(actions) }
/// try await session.handle(event)
/// ```
public actor InkSession {
    private var router: TouchRouter
    private let bridge: PageBridge
    private let clock: any BridgeClock
    private let perform: @Sendable ([RouterAction]) -> Void
    private var downTimes: [TouchID: Double] = [:]
    private var firstInk = LatencyHistogram()
    private var scheduledDeadline: Double?

    /// Creates a session.
    /// - Parameters:
    ///   - configuration: The engine's settings. Its `TouchRouterConfiguration/decisionTimeout`
    ///     is the engine's own deadline; the bridge's timeout should not be longer.
    ///   - fallback: Where a touch goes when the engine's deadline passes.
    ///   - bridge: The bridge to the page.
    ///   - clock: The clock the engine's deadlines run on, on the samples' timebase
    ///     (default ``UptimeClock``, the platform touch timestamps' clock).
    ///   - perform: Called with each batch of actions, in order, on the session's executor.
    public init(configuration: TouchRouterConfiguration = TouchRouterConfiguration(), fallback: HitTestVerdict = .ink,
                bridge: PageBridge, clock: any BridgeClock = UptimeClock(), perform: @escaping @Sendable ([RouterAction]) -> Void) {
        self.router = TouchRouter(configuration: configuration)
        self.fallback = fallback
        self.bridge = bridge
        self.clock = clock
        self.perform = perform
    }

    private let fallback: HitTestVerdict

    /// The engine's ledger: every sample received and where it went.
    public var ledger: SampleLedger { router.ledger }

    /// What the session has done so far.
    public var metrics: InkSessionMetrics {
        get async { InkSessionMetrics(router: router.counters, bridge: await bridge.metrics, firstInk: firstInk) }
    }

    /// Handles one platform touch event.
    /// - Throws: `RouterError` when the engine refuses it; nothing changes then.
    public func handle(_ event: TouchEvent) throws(RouterError) {
        var actions: [RouterAction] = []
        try router.handle(event, into: &actions)
        if event.phase == .began, let first = event.samples.first { downTimes[event.touch] = first.timestamp }
        emit(actions)
    }

    /// Applies an estimated-property update.
    /// - Throws: `RouterError` when the engine refuses it; nothing changes then.
    public func apply(_ update: EstimatedPropertyUpdate) throws(RouterError) {
        var actions: [RouterAction] = []
        try router.apply(update, into: &actions)
        emit(actions)
    }

    /// Settles every undecided touch by the fallback now (the page is going away).
    public func flush() {
        var actions: [RouterAction] = []
        router.flush(fallback: fallback, into: &actions)
        emit(actions)
    }

    // MARK: - Internals

    private func emit(_ actions: [RouterAction]) {
        guard !actions.isEmpty else { return }
        for action in actions {
            switch action {
            case let .queryPage(query, _, point, _):
                let bridge = self.bridge
                Task { [weak self] in
                    let outcome = await bridge.verdict(for: query, at: point) { [weak self] in await self?.speculate(query) }
                    if case let .decided(verdict, source) = outcome { await self?.verdictArrived(query, verdict, source) }
                }
            case let .abandonQuery(query, _):
                let bridge = self.bridge
                Task { await bridge.cancel(query) }
            case let .ink(touch, _):
                if let down = downTimes.removeValue(forKey: touch) { firstInk.record(max(0, clock.now - down)) }
            case let .touchFinished(touch, _), let .cancel(touch, _):
                downTimes[touch] = nil
            default:
                break
            }
        }
        perform(actions)
        scheduleDeadline()
    }

    private func speculate(_ query: QueryID) {
        var actions: [RouterAction] = []
        router.speculate(query, into: &actions)
        emit(actions)
    }

    private func verdictArrived(_ query: QueryID, _ verdict: HitTestVerdict, _ source: VerdictSource) {
        var actions: [RouterAction] = []
        router.verdictArrived(query, verdict, because: source.decisionReason, into: &actions)
        emit(actions)
    }

    private func scheduleDeadline() {
        guard let deadline = router.nextDeadline, deadline != scheduledDeadline else { return }
        scheduledDeadline = deadline
        let clock = self.clock
        Task { [weak self] in
            try? await clock.sleep(until: deadline)
            await self?.deadlineReached()
        }
    }

    private func deadlineReached() {
        scheduledDeadline = nil
        var actions: [RouterAction] = []
        router.deadlinePassed(now: clock.now, fallback: fallback, into: &actions)
        emit(actions)
        scheduleDeadline()
    }
}
