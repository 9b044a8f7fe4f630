import InkCore

/// How the bridge reaches the page. A transport evaluates
/// ``HitTestRequest/scriptInvocation`` in the page (or hands the request to the page
/// script by other means).
public protocol HitTestOracle: Sendable {
    /// Sends a request to the page.
    /// - Returns: the page's reply message, untrusted, when the transport returns it
    ///   directly; `nil` when the reply arrives later through ``PageBridge/receive(_:)``.
    /// - Throws: when the page cannot be asked; the request's queries get the fallback.
    func send(_ request: HitTestRequest) async throws -> String?
}

/// The outcome of asking the bridge.
public enum BridgeVerdict: Sendable, Hashable {
    /// The query was decided, and how.
    case decided(HitTestVerdict, VerdictSource)
    /// The query was cancelled before it was decided.
    case cancelled
}

/// The bridge's asynchronous shell: ``HitTestBroker`` with an oracle and a clock.
///
/// ```swift
/// let bridge = PageBridge(oracle: webViewOracle, clock: UptimeClock())
/// switch await bridge.verdict(for: query, at: point) { … }
/// // the page's messages, as they arrive:
/// await bridge.receive(messageText)
/// ```
///
/// Every decision is the broker's; this actor only sends requests, waits for replies and
/// timeouts, and resumes the callers.
public actor PageBridge {
    private var broker: HitTestBroker
    private let oracle: any HitTestOracle
    private let clock: any BridgeClock
    private var waiting: [QueryID: CheckedContinuation<BridgeVerdict, Never>] = [:]
    /// Verdicts produced before their caller started waiting.
    private var early: [QueryID: BridgeVerdict] = [:]

    /// Creates a bridge.
    public init(broker: HitTestBroker = HitTestBroker(), oracle: any HitTestOracle, clock: any BridgeClock = UptimeClock()) {
        self.broker = broker
        self.oracle = oracle
        self.clock = clock
    }

    /// What the bridge has done, counted.
    public var metrics: BridgeMetrics { broker.metrics }

    /// The broker's state (for inspection).
    public var state: HitTestBroker { broker }

    /// Decides whether an interactive element lies under `point` (canvas points): from the
    /// cache at once, or by a round trip (shared with nearby queries in flight), or by the
    /// fallback when the round trip times out or fails.
    /// - Parameters:
    ///   - query: The engine's query.
    ///   - point: The touch-down point, canvas points.
    ///   - tentative: Called, before the verdict, when the bridge suggests drawing
    ///     the touch as tentative ink while the round trip runs (see
    ///     ``BridgeConfiguration/speculativeInk``).
    public func verdict(for query: QueryID, at point: CanvasPoint,
                        tentative: (@Sendable () async -> Void)? = nil) async -> BridgeVerdict {
        var actions: [BridgeAction] = []
        broker.ask(query, at: point, now: clock.now, into: &actions)
        perform(actions)
        if let tentative, actions.contains(.speculate(query)) { await tentative() }
        if let verdict = early.removeValue(forKey: query) { return verdict }
        return await withCheckedContinuation { waiting[query] = $0 }
    }

    /// Stops waiting for `query`; its caller gets ``BridgeVerdict/cancelled``.
    public func cancel(_ query: QueryID) {
        broker.cancel(query)
        resume(query, with: .cancelled)
    }

    /// Takes a message the page posted (untrusted).
    @discardableResult
    public func receive(_ message: String) -> ReceiveOutcome {
        var actions: [BridgeAction] = []
        let outcome = broker.receive(Array(message.utf8), now: clock.now, into: &actions)
        perform(actions)
        return outcome
    }

    /// The host's view of the page changed (see ``HitTestBroker/layoutChanged(transform:generation:now:into:)``).
    /// - Throws: ``InvalidPageTransform``; nothing changes then.
    public func layoutChanged(transform: PageTransform, generation: UInt64? = nil) throws(InvalidPageTransform) {
        var actions: [BridgeAction] = []
        try broker.layoutChanged(transform: transform, generation: generation, now: clock.now, into: &actions)
        perform(actions)
    }

    // MARK: - Internals

    private func perform(_ actions: [BridgeAction]) {
        for action in actions {
            switch action {
            case let .send(request):
                let oracle = self.oracle, clock = self.clock
                let deadline = clock.now + broker.configuration.timeout
                Task { [weak self] in
                    do {
                        if let reply = try await oracle.send(request) { await self?.receive(reply) }
                    } catch {
                        await self?.failed(request.token)
                    }
                }
                Task { [weak self] in
                    try? await clock.sleep(until: deadline)
                    await self?.deadlinePassed()
                }
            case let .verdict(query, verdict, source):
                resume(query, with: .decided(verdict, source))
            case .speculate:
                break  // handled by the caller of verdict(for:at:tentative:)
            }
        }
    }

    private func failed(_ token: QueryToken) {
        var actions: [BridgeAction] = []
        broker.failed(token, into: &actions)
        perform(actions)
    }

    private func deadlinePassed() {
        var actions: [BridgeAction] = []
        broker.deadlinePassed(now: clock.now, into: &actions)
        perform(actions)
    }

    private func resume(_ query: QueryID, with verdict: BridgeVerdict) {
        if let continuation = waiting.removeValue(forKey: query) {
            continuation.resume(returning: verdict)
        } else if verdict != .cancelled {
            early[query] = verdict
        }
    }
}
