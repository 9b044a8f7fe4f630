import InkCore

/// What ``EngineHost`` asks its front end to do.
package enum HostOutput: Sendable, Hashable {
    /// An engine action, to carry out in order (draw, dispatch to the page, …).
    case engine(RouterAction)
    /// Send this request to the page; `touches` are the touches waiting for it.
    case send(HitTestRequest, touches: [TouchID])
}

/// The engine and the bridge joined in one pure value, driven by a front end that owns the
/// clock: touch events, page messages and the passing of time in; engine actions and
/// requests for the page out. `ink-replay host` puts a JSON Lines protocol around it; any
/// host that cannot use the actors (``InkSession``) can drive it directly.
///
/// Time is the front end's: every call says what time it is (seconds, on the samples'
/// clock). Times must not go backwards.
///
/// **The tie-break rule**, the same for every driver (the live ``InkSession``, `ink-replay
/// host`, the replays): before an input at time *t* is taken, every deadline due at or
/// before *t* fires, the engine's before the bridge's at the same instant; then the input.
/// So an answer arriving exactly at its touch's deadline is late: the deadline has decided.
/// Inputs at the same instant are taken in the order they arrive.
///
/// ```swift
/// var host = EngineHost()
/// var out: [HostOutput] = []
/// try host.advance(to: down.timestamp, into: &out)   // deadlines due by then fire first
/// try host.handleNow(TouchEvent(touch: TouchID(1), phase: .began, samples: [down]), into: &out)
/// // out: [.engine(.queryPage(…)), .send(request, touches: [touch 1])]: ask the page
/// ```
package struct EngineHost: Sendable {
    private var router: TouchRouter
    private var broker: HitTestBroker
    /// Where undecided touches go when the engine's deadline passes.
    package let fallback: HitTestVerdict
    private var actions: [RouterAction] = []
    private var bridgeActions: [BridgeAction] = []
    /// The batches `drain` works through, swapped with the two above so that neither array
    /// is copied or reallocated per input.
    private var drainingActions: [RouterAction] = []
    private var drainingBridgeActions: [BridgeAction] = []
    private var queryOfTouch: [TouchID: QueryID] = [:]
    private var touchOfQuery: [QueryID: TouchID] = [:]
    private var tokenOfQuery: [QueryID: QueryToken] = [:]
    /// The latest round trips asked for, by touch (at most ``recentTripLimit``): a recorded
    /// answer for a touch already decided reaches the bridge as the late or duplicate
    /// answer it is.
    private var recentTrips: [(touch: TouchID, token: QueryToken)] = []
    private static let recentTripLimit = 64
    /// The latest time the host was told.
    package private(set) var now = -Double.infinity
    /// Recorded-style answers (by touch) that found no round trip waiting for them.
    package private(set) var answersWithoutRoundTrip = 0

    /// Creates a host.
    /// - Parameters:
    ///   - router: The engine's settings.
    ///   - bridge: The bridge's settings (timeout, fallback, cache…).
    ///   - transform: Canvas to page.
    ///   - generation: The page's layout generation at the start.
    ///   - seed: Seeds the query tokens (`nil`: the system's random generator).
    package init(router: TouchRouterConfiguration = TouchRouterConfiguration(), bridge: BridgeConfiguration = BridgeConfiguration(),
                transform: PageTransform = .identity, generation: UInt64 = 0, seed: UInt64? = nil) {
        self.router = TouchRouter(configuration: router)
        if let seed {
            broker = HitTestBroker(configuration: bridge, transform: transform, generation: generation, tokens: SplitMix64(seed: seed))
        } else {
            broker = HitTestBroker(configuration: bridge, transform: transform, generation: generation)
        }
        fallback = bridge.fallback
    }

    /// The engine's ledger.
    package var ledger: SampleLedger { router.ledger }
    /// The engine's counters.
    package var counters: RouterCounters { router.counters }
    /// The bridge's metrics.
    package var bridgeMetrics: BridgeMetrics { broker.metrics }
    /// Queries the host maps to touches and tokens (small, unless it leaks).
    package var trackedQueries: Int { queryOfTouch.count + touchOfQuery.count + tokenOfQuery.count }
    /// Queries waiting for a round trip.
    package var waitingQueries: Int { broker.waitingQueries }
    /// The earliest deadline pending (engine or bridge), if any: a live front end should
    /// call ``advance(to:into:)`` then.
    package var nextDeadline: Double? {
        switch (router.nextDeadline, broker.nextDeadline) {
        case let (engine?, bridge?): return min(engine, bridge)
        case let (engine, bridge): return engine ?? bridge
        }
    }

    /// Whether a round trip with this token still has a query waiting for it: a transport
    /// about to send a request checks this, so a query abandoned before the send never
    /// opens a round trip in the page.
    package func isWaiting(for token: QueryToken) -> Bool { !broker.queries(waitingFor: token).isEmpty }

    /// Lets time pass: fires every engine and bridge deadline due by `time`, in order.
    ///
    /// - Throws: ``HostTimeError`` when `time` is earlier than a time already given;
    ///   nothing happens then.
    package mutating func advance(to time: Double, into output: inout [HostOutput]) throws(HostTimeError) {
        guard time.isFinite else { throw HostTimeError(now: now, given: time) }
        guard time >= now else { throw HostTimeError(now: now, given: time) }
        while true {
            let engine = router.nextDeadline ?? .infinity
            let bridge = broker.nextDeadline ?? .infinity
            let next = min(engine, bridge)
            guard next <= time, next < .infinity else { break }
            if engine == next {
                // The engine's deadline first: it abandons the query, so the bridge's
                // timeout for the same touch does not also fire.
                router.deadlinePassed(now: next, fallback: fallback, into: &actions)
            } else {
                broker.deadlinePassed(now: next, into: &bridgeActions)
            }
            drain(now: next, into: &output)
        }
        now = time
    }

    /// The page's answer for a touch, as a session log records it (by touch, not by
    /// query token): delivered as the page's answer to the round trip that touch waits
    /// for, or (once decided) to its latest round trip, where the bridge counts it late or
    /// duplicate. Without any (the cache decided, or the touch is long gone) it is counted
    /// in ``answersWithoutRoundTrip`` and changes nothing. Call ``advance(to:into:)`` first.
    ///
    /// - Returns: The round trip the answer went to and what the bridge made of it; both
    ///   `nil` when it had no round trip to go to.
    @discardableResult
    package mutating func recordedAnswer(touch: TouchID, verdict: HitTestVerdict, now time: Double,
                                         into output: inout [HostOutput]) -> (roundTrip: QueryToken?, outcome: ReceiveOutcome?) {
        guard let token = roundTrip(of: touch) else {
            answersWithoutRoundTrip += 1
            return (nil, nil)
        }
        let outcome = broker.receive(.answer(PageAnswer(token: token, verdict: verdict, generation: broker.generation)), now: time,
                                     into: &bridgeActions)
        drain(now: time, into: &output)
        return (token, outcome)
    }

    /// The round trip a touch waits for, or else the latest one it was asked in (among the
    /// last ``recentTripLimit``); `nil` when it never needed one.
    package func roundTrip(of touch: TouchID) -> QueryToken? {
        queryOfTouch[touch].flatMap { tokenOfQuery[$0] } ?? recentTrips.last(where: { $0.touch == touch })?.token
    }

    /// The page's layout generation the bridge knows.
    package var generation: UInt64 { broker.generation }
    /// The mapping from canvas points to page coordinates the bridge uses now.
    package var transform: PageTransform { broker.transform }
    /// The generation of the region snapshot held, if any.
    package var snapshotGeneration: UInt64? { broker.cache.entry?.snapshot.generation }
    /// The region snapshot held, when it is fresh for the current layout at `now`.
    package func freshSnapshot(now: Double) -> RegionCache.Entry? { broker.freshSnapshot(now: now) }
    /// What a fresh region snapshot says about a canvas point at `now` (no side effects).
    package func freshVerdict(at point: CanvasPoint, now: Double) -> HitTestVerdict? { broker.freshVerdict(at: point, now: now) }

    /// Lets time pass to `time` when the caller knows no deadline is due by then (it just
    /// fired them); never backwards.
    package mutating func pass(to time: Double) {
        if time > now { now = time }
    }

    /// A platform touch event at the host's time (after ``advance(to:into:)``).
    package mutating func handleNow(_ event: TouchEvent, routedToPage: Bool = false,
                                    into output: inout [HostOutput]) throws(RouterError) {
        try router.handle(event, routedToPage: routedToPage, into: &actions)
        drain(now: now, into: &output)
    }

    /// An estimated-property update at the host's time (after ``advance(to:into:)``).
    package mutating func applyNow(_ update: EstimatedPropertyUpdate, into output: inout [HostOutput]) throws(RouterError) {
        try router.apply(update, into: &actions)
        drain(now: now, into: &output)
    }

    /// A decoded page message at the host's time (after ``advance(to:into:)``).
    package mutating func receiveNow(_ message: PageMessage, into output: inout [HostOutput]) -> ReceiveOutcome {
        let outcome = broker.receive(message, now: now, into: &bridgeActions)
        drain(now: now, into: &output)
        return outcome
    }

    /// A page message that did not decode: counted by the bridge, changes nothing.
    package mutating func refuse(_ error: WireMessageError) -> ReceiveOutcome { broker.refuse(error) }

    /// The request with this token could not be sent: its queries get the fallback now.
    /// Call ``advance(to:into:)`` first.
    package mutating func sendFailed(_ token: QueryToken, now time: Double, into output: inout [HostOutput]) {
        broker.failed(token, into: &bridgeActions)
        drain(now: time, into: &output)
    }

    /// The page's document was replaced: questions in flight get the fallback now, the
    /// region snapshot is dropped, the current document id is retired and the layout
    /// generation starts over (``HitTestBroker/newDocument(transform:now:into:)``).
    package mutating func newDocument(_ transform: PageTransform, now time: Double, into output: inout [HostOutput]) throws(HostError) {
        do { try advance(to: time, into: &output) } catch { throw .time(error) }
        do { try broker.newDocument(transform: transform, now: time, into: &bridgeActions) } catch { throw .transform(error) }
        drain(now: time, into: &output)
    }

    /// Page documents begun after the first, so far (explicitly or by a message naming a new
    /// document id).
    package var newDocuments: Int { broker.metrics.newDocuments }
    /// The current page document's id, once a message named one.
    package var document: PageDocumentID? { broker.document }

    /// The page scrolled, zoomed or changed its layout.
    package mutating func layoutChanged(_ transform: PageTransform, generation: UInt64? = nil, now time: Double,
                                       into output: inout [HostOutput]) throws(HostError) {
        do { try advance(to: time, into: &output) } catch { throw .time(error) }
        do { try broker.layoutChanged(transform: transform, generation: generation, now: time, into: &bridgeActions) } catch {
            throw .transform(error)
        }
        drain(now: time, into: &output)
    }

    /// The front end is closing: settles every undecided touch by the fallback.
    package mutating func finish(into output: inout [HostOutput]) {
        router.flush(fallback: fallback, into: &actions)
        drain(now: now, into: &output)
    }

    private mutating func drain(now time: Double, into output: inout [HostOutput]) {
        while !actions.isEmpty || !bridgeActions.isEmpty {
            swap(&actions, &drainingActions)
            // By index, the kind matched before anything is bound: most actions are samples,
            // copied once, into `output`.
            for index in drainingActions.indices {
                output.append(.engine(drainingActions[index]))
                switch drainingActions[index] {
                case .queryPage, .abandonQuery, .decided: break
                default: continue
                }
                switch drainingActions[index] {
                case let .queryPage(query, touch, point, _):
                    queryOfTouch[touch] = query
                    touchOfQuery[query] = touch
                    broker.ask(query, at: point, now: time, into: &bridgeActions)
                case let .abandonQuery(query, _):
                    broker.cancel(query)
                    forget(query)
                case let .decided(touch, _, _):
                    if let query = queryOfTouch[touch] { forget(query) }
                default:
                    break
                }
            }
            drainingActions.removeAll(keepingCapacity: true)
            swap(&bridgeActions, &drainingBridgeActions)
            for action in drainingBridgeActions {
                switch action {
                case let .verdict(query, verdict, source):
                    router.verdictArrived(query, verdict, because: source.decisionReason, into: &actions)
                case let .send(request):
                    let waiting = broker.queries(waitingFor: request.token)
                    for query in waiting {
                        tokenOfQuery[query] = request.token
                        if let touch = touchOfQuery[query] { recentTrips.append((touch, request.token)) }
                    }
                    if recentTrips.count > Self.recentTripLimit { recentTrips.removeFirst(recentTrips.count - Self.recentTripLimit) }
                    output.append(.send(request, touches: waiting.compactMap { touchOfQuery[$0] }))
                case let .speculate(query):
                    router.speculate(query, into: &actions)
                }
            }
            drainingBridgeActions.removeAll(keepingCapacity: true)
        }
    }

    private mutating func forget(_ query: QueryID) {
        if let touch = touchOfQuery.removeValue(forKey: query), queryOfTouch[touch] == query { queryOfTouch[touch] = nil }
        tokenOfQuery[query] = nil
    }
}

/// A time earlier than one the engine was already given (or not finite).
public struct HostTimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The engine's time.
    public var now: Double
    /// The time given.
    public var given: Double

    /// `time went backwards from … to …`.
    public var description: String { "time went backwards from \(now) s to \(given) s" }
}

/// Why ``EngineHost`` refused an input. The input changes nothing (deadlines due by its time
/// fire first all the same).
package enum HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The engine refused the event.
    case engine(RouterError)
    /// Time went backwards.
    case time(HostTimeError)
    /// A page transform that is not finite and positive.
    case transform(InvalidPageTransform)

    /// What was refused and why.
    package var description: String {
        switch self {
        case .engine(let error): return "\(error)"
        case .time(let error): return error.description
        case .transform(let error): return error.description
        }
    }
}
