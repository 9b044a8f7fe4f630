@_spi(Tooling) import InkCore

/// The bridge's settings.
package struct BridgeConfiguration: Sendable, Hashable {
    /// How long a round trip may take before its queries get ``fallback``, seconds.
    package var timeout: Double
    /// The verdict for a query whose round trip timed out or failed.
    package var fallback: HitTestVerdict
    /// Queries within this distance (canvas points) of a round trip in flight, for the
    /// same layout generation, share it instead of starting another.
    package var shareRadius: Double
    /// Whether fresh region snapshots answer without a round trip.
    package var useCache: Bool
    /// Page messages larger than this are refused unparsed, bytes.
    package var maxMessageBytes: Int
    /// Region snapshots with more regions are refused.
    package var maxRegions: Int
    /// How long a snapshot without a max-age stays fresh, seconds.
    package var defaultMaxAge: Double
    /// The most round trips in flight; a query beyond that gets ``fallback`` at once
    /// (counted in `BridgeMetrics.overloaded`).
    package var maxInFlight: Int
    /// Whether to suggest tentative ink (``BridgeAction/speculate(_:)``) for a query that
    /// needs a round trip while the last snapshot, even stale, shows nothing interactive
    /// within ``speculationMargin``.
    package var speculativeInk: Bool
    /// How far from any interactive region (page units) a touch-down must be for tentative
    /// ink.
    package var speculationMargin: Double
    /// Whether every query that needs a round trip gets tentative ink at once, whatever the
    /// snapshot shows (decide-at-touch-down routing: the overlay holds the touch and the
    /// page can only have it replayed, so the ink shows while the page is asked).
    package var speculateAlways: Bool = false

    /// Creates a configuration; the defaults suit a 60-120 Hz touch screen over a web view.
    package init(timeout: Double = 0.25, fallback: HitTestVerdict = .ink, shareRadius: Double = 4, useCache: Bool = true,
                maxMessageBytes: Int = PageMessage.defaultMaxBytes, maxRegions: Int = 20_000, defaultMaxAge: Double = 1,
                maxInFlight: Int = 64, speculativeInk: Bool = false, speculationMargin: Double = 24) {
        self.timeout = timeout
        self.fallback = fallback
        self.shareRadius = shareRadius
        self.useCache = useCache
        self.maxMessageBytes = maxMessageBytes
        self.maxRegions = maxRegions
        self.defaultMaxAge = defaultMaxAge
        self.maxInFlight = maxInFlight
        self.speculativeInk = speculativeInk
        self.speculationMargin = speculationMargin
    }
}

/// A page transform the bridge cannot use: a non-finite offset, or a scale that is not a
/// positive finite number.
package struct InvalidPageTransform: Error, Sendable, Hashable, CustomStringConvertible {
    /// The transform refused.
    package var transform: PageTransform

    package var description: String {
        "page transform refused: scale \(transform.scale), offset (\(transform.offsetX), \(transform.offsetY))"
    }
}

/// Where a verdict came from.
package enum VerdictSource: String, Sendable, Hashable, CaseIterable {
    /// A fresh region snapshot: no round trip.
    case cache
    /// The page's answer to a round trip (possibly shared with other queries).
    case page
    /// The round trip timed out: the configured fallback.
    case timeout
    /// The oracle failed, or the bridge was overloaded: the configured fallback.
    case failure
    /// The page's document was replaced while the query waited: the configured fallback.
    case newDocument
}

extension VerdictSource {
    /// The engine's name for a decision reached this way (for
    /// `TouchRouter/verdictArrived(_:_:because:into:)`).
    package var decisionReason: DecisionReason {
        switch self {
        case .cache: .regionCache
        case .page: .answered
        case .timeout: .deadline
        case .failure: .unreachable
        case .newDocument: .newDocument
        }
    }
}

/// A command from ``HitTestBroker`` to its shell.
package enum BridgeAction: Sendable, Hashable {
    /// Send this request to the page.
    case send(HitTestRequest)
    /// The query is decided.
    case verdict(QueryID, HitTestVerdict, VerdictSource)
    /// The query waits for a round trip, but ink is the likely answer: the host may draw
    /// its touch as tentative ink now (`TouchRouter/speculate(_:into:)`).
    case speculate(QueryID)
}

/// What the broker did with a message from the page.
@_spi(Tooling) public enum ReceiveOutcome: Sendable, Hashable {
    /// An answer decided this many queries.
    case answered(queries: Int)
    /// An answer for a round trip that already timed out, failed or was cancelled.
    case late
    /// A second answer for a round trip already answered.
    case duplicate
    /// An answer with an id the bridge never issued (forged or garbled).
    case unknownQuery
    /// An answer computed for another layout generation; the round trip was sent again.
    case staleGeneration
    /// A region snapshot was taken into the cache.
    case regionsAccepted
    /// A region snapshot was refused.
    case regionsRefused(RegionSnapshotRefusal)
    /// The message was refused before it could mean anything.
    case refused(WireMessageError)
    /// The message (an answer or a region snapshot) names a page document that was replaced
    /// (`PageDocumentID`): nothing it says is taken for the current document's.
    case oldDocument(PageDocumentID)
}

/// Region snapshots the bridge refused, by reason (`BridgeMetrics.snapshotRefusals`).
@_spi(Tooling) public struct SnapshotRefusalCounts: Sendable, Hashable {
    /// Older than the snapshot held or the layout generation known
    /// (`RegionSnapshotRefusal.olderGeneration(got:current:)`).
    public var olderGeneration = 0
    /// Pushed by a page document that was replaced (`ReceiveOutcome.oldDocument(_:)`).
    public var oldDocument = 0
    /// More regions than the limit (`RegionSnapshotRefusal.tooManyRegions(count:limit:)`).
    public var tooManyRegions = 0
    /// A region or max-age that is not finite and non-negative
    /// (`RegionSnapshotRefusal.invalidRegion(index:)`, `RegionSnapshotRefusal.invalidMaxAge`).
    public var invalid = 0

    /// Every snapshot refused.
    public var total: Int { olderGeneration + oldDocument + tooManyRegions + invalid }

    /// Creates zeroed counts.
    public init() {}

    /// Counts one refusal under its reason.
    mutating func count(_ refusal: RegionSnapshotRefusal) {
        switch refusal {
        case .olderGeneration: olderGeneration += 1
        case .tooManyRegions: tooManyRegions += 1
        case .invalidRegion, .invalidMaxAge: invalid += 1
        }
    }
}

/// What the bridge has done, counted.
@_spi(Tooling) public struct BridgeMetrics: Sendable, Hashable {
    /// Queries asked.
    public var queries = 0
    /// Requests sent to the page (including re-sends after a layout change).
    public var roundTrips = 0
    /// Queries decided by the region cache.
    public var cacheHits = 0
    /// Queries that joined a round trip already in flight.
    public var sharedQueries = 0
    /// Queries decided by a timeout.
    public var timeouts = 0
    /// Queries decided by an oracle failure.
    public var failures = 0
    /// Queries decided at once because too many round trips were in flight.
    public var overloaded = 0
    /// Queries for which tentative ink was suggested.
    public var speculations = 0
    /// Queries cancelled before their verdict.
    public var cancelled = 0
    /// Answers after their round trip was settled without them.
    public var lateAnswers = 0
    /// Answers repeated for a round trip already answered.
    public var duplicateAnswers = 0
    /// Answers with an id never issued.
    public var unknownAnswers = 0
    /// Answers for another layout generation.
    public var staleAnswers = 0
    /// Answers from a page document that was replaced (`ReceiveOutcome.oldDocument(_:)`).
    public var oldDocumentAnswers = 0
    /// Messages refused (too large, not JSON, wrong shape, a malformed document id).
    public var refusedMessages = 0
    /// Of ``refusedMessages``, those refused for a malformed document id
    /// (`WireMessageError.document(_:)`).
    public var invalidDocumentIDs = 0
    /// Region snapshots taken / refused (``snapshotRefusals`` says why).
    public var snapshotsAccepted = 0, snapshotsRefused = 0
    /// The region snapshots refused, by reason; their `SnapshotRefusalCounts.total` is
    /// ``snapshotsRefused``.
    public var snapshotRefusals = SnapshotRefusalCounts()
    /// Page document ids the bridge took as the current document's (`PageDocumentID`).
    public var documentsSeen = 0
    /// Page documents begun after the first: each ``EngineInput/newDocument(_:)`` that
    /// retired one, each message naming a new document id while another was current, and
    /// each retired document shown again.
    public var newDocuments = 0
    /// Retired documents shown again (`RegionSnapshot.shown`): a page restored from the
    /// back/forward cache, or the page still shown after a report retired it.
    public var restoredDocuments = 0
    /// Of ``newDocuments``, those begun because a message named a new document id (the
    /// front end had not reported the new document).
    public var implicitNewDocuments = 0
    /// Queries decided by the fallback because their page document was replaced while they
    /// waited.
    public var abandonedByNewDocument = 0
    /// Views resized (``EngineInput/viewResized(_:)``).
    public var viewResizes = 0
    /// Of ``viewResizes``, those that dropped a region snapshot the engine held.
    public var snapshotsDroppedByResize = 0
    /// Region snapshots refused because they were measured before the view resized (of a
    /// generation not newer than the one known at the resize); counted in
    /// ``snapshotRefusals`` as older-generation too.
    public var snapshotsFromBeforeResize = 0

    /// Every answer that decided nothing: late, duplicate, unknown, stale and old-document
    /// answers.
    public var refusedAnswers: Int { lateAnswers + duplicateAnswers + unknownAnswers + staleAnswers + oldDocumentAnswers }
    /// Every message from a page document that was replaced: answers and snapshots.
    public var oldDocumentMessages: Int { oldDocumentAnswers + snapshotRefusals.oldDocument }

    /// Creates zeroed metrics.
    public init() {}
}

/// The bridge's logic as a pure state machine: queries in, requests and verdicts out, time
/// given by the caller. `InkEngine` joins it with the decision engine; a replay drives
/// it in simulated time.
///
/// A query is answered, in order of preference: by a fresh region snapshot of the current
/// layout generation (no round trip); by joining a round trip in flight for a point within
/// ``BridgeConfiguration/shareRadius``; or by a new round trip, with a random
/// ``QueryToken`` as its id and a deadline of ``BridgeConfiguration/timeout``. Every
/// answer is checked: late, duplicate, unknown (forged) and stale answers decide nothing
/// and are counted.
package struct HitTestBroker: Sendable {
    /// The settings.
    package let configuration: BridgeConfiguration
    /// Maps canvas points to page points (the host updates it on scroll and zoom).
    package private(set) var transform: PageTransform
    /// The newest layout generation known (from the host or the page).
    package private(set) var generation: UInt64
    /// The region cache.
    package private(set) var cache: RegionCache
    /// What has happened, counted.
    package private(set) var metrics = BridgeMetrics()

    private struct RoundTrip: Sendable {
        var request: HitTestRequest
        var canvasPoint: CanvasPoint
        var deadline: Double
        var waiters: [QueryID]
        /// How many times the question was sent again for a newer layout.
        var resends = 0
    }

    /// How many times one question is sent again for a newer layout before the bridge
    /// stops re-asking and lets the deadline decide (a page answering every request with
    /// another generation cannot keep it busy).
    package static let maxResends = 3

    private enum Settled: Sendable { case answered, abandoned }

    private var tokens: any RandomNumberGenerator & Sendable
    private var trips: [QueryToken: RoundTrip] = [:]
    /// Round trips in the order they were sent (for sharing and deadlines).
    private var tripOrder: [QueryToken] = []
    private var tripOfQuery: [QueryID: QueryToken] = [:]
    /// Recently settled round trips, to tell late and duplicate answers from forged ones.
    private var settled: [QueryToken: Settled] = [:]
    private var settledOrder: [QueryToken] = []
    /// How many settled round trips are remembered.
    package static let settledMemory = 1_024

    /// The current page document's id: `nil` until a message names one (and again after
    /// a report, ``newDocument(transform:now:into:)``, that retired it, until the page says
    /// which document it shows).
    package private(set) var document: PageDocumentID?
    /// Whether the front end's report of a navigation is already matched to the current
    /// document: `false` only for a document that began by speaking while another was
    /// current (its report is still to come, however late); a report of such a document is
    /// its own and retires nothing.
    private var documentReported = false
    /// Whether a report came that no page has spoken since: the next document to begin is
    /// the one it reported.
    private var awaitingReportedPage = false
    /// The number of times the current document changed (a report that retired one, a new
    /// id, a document shown again): what a delivery to the page was made under.
    package private(set) var documentEpoch = 0
    /// The ids of replaced documents, oldest first (at most ``retiredDocumentMemory``):
    /// their messages are refused.
    package private(set) var retiredDocuments: [PageDocumentID] = []
    /// How many replaced documents' ids are remembered.
    package static let retiredDocumentMemory = 16
    /// The layout generation a new document starts at.
    package let firstGeneration: UInt64
    /// The newest layout generation known when the view last resized (`nil`: not since the
    /// document began): a snapshot of this generation or older was measured before the
    /// resize and is refused.
    package private(set) var generationAtResize: UInt64?

    /// Creates a broker.
    /// - Parameters:
    ///   - configuration: Timeouts, fallback, cache and limits.
    ///   - transform: Canvas points to page coordinates.
    ///   - generation: The page's layout generation known at the start.
    ///   - firstGeneration: The layout generation every new page document starts at
    ///     (the bundled page script's, ``PageScript/firstGeneration``).
    ///   - tokens: where query ids come from; the system's generator unless a test
    ///     needs repeatable ids.
    package init(configuration: BridgeConfiguration = BridgeConfiguration(), transform: PageTransform = .identity,
                generation: UInt64 = 0, firstGeneration: UInt64 = PageScript.firstGeneration,
                tokens: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.configuration = configuration
        self.transform = transform
        self.generation = generation
        self.firstGeneration = firstGeneration
        self.cache = RegionCache(defaultMaxAge: configuration.defaultMaxAge, maxRegions: configuration.maxRegions)
        self.tokens = tokens
    }

    /// Queries waiting for a round trip.
    package var waitingQueries: Int { tripOfQuery.count }

    /// The queries waiting for the round trip with this id (empty when none is in flight).
    package func queries(waitingFor token: QueryToken) -> [QueryID] { trips[token]?.waiters ?? [] }

    /// The earliest round-trip deadline, or `nil` when none is in flight.
    package var nextDeadline: Double? {
        // A plain loop: read on every input, it must not copy the broker into a closure.
        var earliest: Double?
        for token in tripOrder {
            if let deadline = trips[token]?.deadline, deadline < earliest ?? .infinity { earliest = deadline }
        }
        return earliest
    }

    // MARK: - Queries

    /// The snapshot held, when it is fresh for the current layout at `now` (the cache on).
    package func freshSnapshot(now: Double) -> RegionCache.Entry? {
        guard configuration.useCache, let entry = cache.entry, entry.snapshot.generation >= generation, now <= entry.freshUntil
        else { return nil }
        return entry
    }

    /// What a fresh region snapshot says about `point` (canvas points) at `now`, without
    /// asking anything or counting anything; `nil` when no fresh snapshot of the current
    /// layout answers (or the cache is off, or the point maps nowhere).
    package func freshVerdict(at point: CanvasPoint, now: Double) -> HitTestVerdict? {
        guard configuration.useCache else { return nil }
        let pagePoint = transform.pagePoint(for: point)
        guard pagePoint.x.isFinite, pagePoint.y.isFinite,
              case let .fresh(verdict) = cache.lookup(pagePoint, now: now, generation: generation) else { return nil }
        return verdict
    }

    /// Asks whether an interactive element lies under `point` (canvas points) at `now`.
    package mutating func ask(_ query: QueryID, at point: CanvasPoint, now: Double, into actions: inout [BridgeAction]) {
        metrics.queries += 1
        let pagePoint = transform.pagePoint(for: point)
        guard pagePoint.x.isFinite, pagePoint.y.isFinite else {
            // Not a place the page (or the cache) can judge: the fallback, at once.
            metrics.failures += 1
            actions.append(.verdict(query, configuration.fallback, .failure))
            return
        }
        if configuration.useCache, case let .fresh(verdict) = cache.lookup(pagePoint, now: now, generation: generation) {
            metrics.cacheHits += 1
            actions.append(.verdict(query, verdict, .cache))
            return
        }
        for token in tripOrder {
            guard var trip = trips[token], trip.request.generation == generation,
                  trip.canvasPoint.distance(to: point) <= configuration.shareRadius else { continue }
            trip.waiters.append(query)
            trips[token] = trip
            tripOfQuery[query] = token
            metrics.sharedQueries += 1
            suggestInk(query, at: pagePoint, into: &actions)
            return
        }
        guard trips.count < configuration.maxInFlight else {
            metrics.overloaded += 1
            actions.append(.verdict(query, configuration.fallback, .failure))
            return
        }
        let request = HitTestRequest(token: QueryToken.random(using: &tokens), pagePoint: pagePoint, generation: generation)
        trips[request.token] = RoundTrip(request: request, canvasPoint: point, deadline: now + configuration.timeout, waiters: [query])
        tripOrder.append(request.token)
        tripOfQuery[query] = request.token
        metrics.roundTrips += 1
        actions.append(.send(request))
        suggestInk(query, at: pagePoint, into: &actions)
    }

    private mutating func suggestInk(_ query: QueryID, at pagePoint: PagePoint, into actions: inout [BridgeAction]) {
        guard configuration.speculateAlways
                || (configuration.speculativeInk && cache.isClear(around: pagePoint, margin: configuration.speculationMargin))
        else { return }
        metrics.speculations += 1
        actions.append(.speculate(query))
    }

    /// Stops waiting for `query` (its touch was cancelled or decided otherwise). A round
    /// trip nobody waits for any more is abandoned; its answer will count as late.
    package mutating func cancel(_ query: QueryID) {
        guard let token = tripOfQuery.removeValue(forKey: query), var trip = trips[token] else { return }
        metrics.cancelled += 1
        trip.waiters.removeAll { $0 == query }
        if trip.waiters.isEmpty { settle(token, as: .abandoned) } else { trips[token] = trip }
    }

    /// Settles every round trip whose deadline is at or before `now` by the fallback.
    package mutating func deadlinePassed(now: Double, into actions: inout [BridgeAction]) {
        for token in tripOrder {
            guard let trip = trips[token], trip.deadline <= now else { continue }
            metrics.timeouts += trip.waiters.count
            decide(trip.waiters, configuration.fallback, .timeout, into: &actions)
            settle(token, as: .abandoned)
        }
    }

    /// The oracle could not ask the page for this round trip: its queries get the fallback.
    package mutating func failed(_ token: QueryToken, into actions: inout [BridgeAction]) {
        guard let trip = trips[token] else { return }
        metrics.failures += trip.waiters.count
        decide(trip.waiters, configuration.fallback, .failure, into: &actions)
        settle(token, as: .abandoned)
    }

    // MARK: - Messages from the page

    /// Takes a message the page posted (untrusted bytes): validates it, then applies it.
    @discardableResult
    package mutating func receive<Bytes: Collection<UInt8>>(_ bytes: Bytes, now: Double, into actions: inout [BridgeAction]) -> ReceiveOutcome {
        do {
            return receive(try PageMessage.decode(bytes, maxBytes: configuration.maxMessageBytes), now: now, into: &actions)
        } catch {
            return refuse(error)
        }
    }

    /// Counts a page message that did not decode.
    package mutating func refuse(_ error: WireMessageError) -> ReceiveOutcome {
        metrics.refusedMessages += 1
        if case .document = error { metrics.invalidDocumentIDs += 1 }
        return .refused(error)
    }

    /// Applies a decoded page message.
    @discardableResult
    package mutating func receive(_ message: PageMessage, now: Double, into actions: inout [BridgeAction]) -> ReceiveOutcome {
        if let named = message.document, let refused = admit(named, message: message, now: now, into: &actions) { return refused }
        switch message {
        case let .regions(snapshot):
            if let resizedAt = generationAtResize, snapshot.generation <= resizedAt {
                // Measured before the view resized (the page bumps its generation when its
                // viewport changes): the old layout, never routed after the resize.
                metrics.snapshotsRefused += 1
                metrics.snapshotRefusals.olderGeneration += 1
                metrics.snapshotsFromBeforeResize += 1
                return .regionsRefused(.olderGeneration(got: snapshot.generation, current: resizedAt + 1))
            }
            do {
                try cache.accept(snapshot, now: now, knownGeneration: generation)
            } catch {
                metrics.snapshotsRefused += 1
                metrics.snapshotRefusals.count(error)
                return .regionsRefused(error)
            }
            metrics.snapshotsAccepted += 1
            // The page's newer generation is known now, but round trips in flight are not sent
            // again for it: the page answers a question for its request's generation while
            // its coordinate mapping still holds, and names its new generation (making the
            // answer stale, and the question sent again) when it does not. Sending them again
            // here made every question on a page that changes at each touch take two round
            // trips (found measuring a 200 ms page). What the fresh snapshot can decide, it
            // decides now.
            if snapshot.generation > generation { generation = snapshot.generation }
            decideWaitingFromCache(now: now, into: &actions)
            return .regionsAccepted
        case let .answer(answer):
            guard let trip = trips[answer.token] else {
                switch settled[answer.token] {
                case .answered?: metrics.duplicateAnswers += 1; return .duplicate
                case .abandoned?: metrics.lateAnswers += 1; return .late
                case nil: metrics.unknownAnswers += 1; return .unknownQuery
                }
            }
            guard answer.generation == trip.request.generation else {
                metrics.staleAnswers += 1
                if answer.generation > generation {
                    adopt(answer.generation, now: now, into: &actions)
                } else {
                    resend(answer.token, into: &actions)
                }
                return .staleGeneration
            }
            decide(trip.waiters, answer.verdict, .page, into: &actions)
            settle(answer.token, as: .answered)
            return .answered(queries: trip.waiters.count)
        }
    }

    // MARK: - The page's documents

    /// The front end's report that a navigation committed (the next exercise, Back, a
    /// reload, the web content process restarted). The document rule, written once
    /// (docs/bridge.md "Documents" says it in the same words):
    ///
    /// - The page names its document in every message; a report never names one. So a
    ///   report is idempotent: when the current document began by speaking while another was
    ///   current (its first message overtook the report, however long before), the report is
    ///   its own and only the transform is taken; a second report with no page spoken since
    ///   retires nothing.
    /// - Otherwise the current document, if any, is retired: every round trip in flight is
    ///   abandoned and its queries get the fallback now, the region snapshot is dropped and the
    ///   layout generation starts over at ``firstGeneration`` under the new transform. Its
    ///   messages are refused until the page says it is shown (`RegionSnapshot/shown`), which
    ///   the front end asks for after a report (a report repeated for the page still shown
    ///   costs the questions in flight, no more).
    /// - Throws: `InvalidPageTransform` for a transform ``layoutChanged(transform:generation:now:into:)``
    ///   refuses; nothing changes then.
    package mutating func newDocument(transform: PageTransform, now: Double, into actions: inout [BridgeAction]) throws(InvalidPageTransform) {
        guard transform.isValid else {
            throw InvalidPageTransform(transform: transform)
        }
        if document != nil, !documentReported {
            // The document spoke before its navigation was reported: the report is its own.
            documentReported = true
            try layoutChanged(transform: transform, generation: nil, now: now, into: &actions)
            return
        }
        if awaitingReportedPage {
            // A second report with no page spoken since: nothing live to retire.
            try layoutChanged(transform: transform, generation: nil, now: now, into: &actions)
            return
        }
        if let document { retire(document) }
        document = nil
        documentEpoch += 1
        awaitingReportedPage = true
        metrics.newDocuments += 1
        startOver(into: &actions)
        self.transform = transform
    }

    /// Checks a message's document id: `nil` when the message may be taken (it names the
    /// current document, or a document never seen, which begins, or a retired one that says
    /// it is shown again, which comes back), else the refusal of a retired document's message,
    /// counted.
    private mutating func admit(_ named: PageDocumentID, message: PageMessage, now: Double,
                                into actions: inout [BridgeAction]) -> ReceiveOutcome? {
        if named == document { return nil }
        let shown: Bool = if case let .regions(snapshot) = message { snapshot.shown } else { false }
        let restored = retiredDocuments.contains(named)
        if restored, !shown {
            switch message {
            case .answer: metrics.oldDocumentAnswers += 1
            case .regions:
                metrics.snapshotsRefused += 1
                metrics.snapshotRefusals.oldDocument += 1
            }
            return .oldDocument(named)
        }
        if restored {
            // Shown again (the back/forward cache restored it, or the report that retired it
            // was the shown page's own): it is current again, no stranger.
            retiredDocuments.removeAll { $0 == named }
            metrics.restoredDocuments += 1
        }
        if let current = document {
            // Another document speaks while one was current: the same as a report, keeping the
            // transform; the report of its navigation is still to come.
            retire(current)
            metrics.newDocuments += 1
            if !restored { metrics.implicitNewDocuments += 1 }
            startOver(into: &actions)
            documentReported = false
        } else {
            // The document a report announced, or the first one (the page the loop began on):
            // the next report is of a navigation away from it.
            documentReported = true
        }
        awaitingReportedPage = false
        document = named
        documentEpoch += 1
        metrics.documentsSeen += 1
        return nil
    }

    private mutating func retire(_ id: PageDocumentID) {
        retiredDocuments.removeAll { $0 == id }
        retiredDocuments.append(id)
        if retiredDocuments.count > Self.retiredDocumentMemory { retiredDocuments.removeFirst(retiredDocuments.count - Self.retiredDocumentMemory) }
    }

    /// Abandons every round trip in flight (its queries get the fallback), drops the region
    /// snapshot and starts the generations over.
    private mutating func startOver(into actions: inout [BridgeAction]) {
        for token in tripOrder {
            guard let trip = trips[token] else { continue }
            metrics.abandonedByNewDocument += trip.waiters.count
            decide(trip.waiters, configuration.fallback, .newDocument, into: &actions)
            settle(token, as: .abandoned)
        }
        cache.clear()
        generation = firstGeneration
        generationAtResize = nil
    }

    // MARK: - Layout

    /// The host's view of the page changed (scroll, zoom, resize): future points go
    /// through `transform`. With a new `generation`, round trips in flight for an older
    /// one are sent again (their deadlines stay), and snapshots of older generations stop
    /// answering.
    /// - Throws: `InvalidPageTransform` for a non-finite offset or a scale that is not a
    ///   positive finite number; nothing changes then.
    package mutating func layoutChanged(transform: PageTransform, generation newGeneration: UInt64? = nil,
                                       now: Double, into actions: inout [BridgeAction]) throws(InvalidPageTransform) {
        guard transform.isValid else {
            throw InvalidPageTransform(transform: transform)
        }
        self.transform = transform
        if let newGeneration { adopt(newGeneration, now: now, into: &actions) }
    }

    /// The view showing the page changed size: the page reflows, so the region snapshot is
    /// dropped and future points go through `transform`. A snapshot of the layout generation
    /// known now, or older, was measured before the resize (one in flight arrives after it):
    /// it is refused; only one of a newer generation (the page bumps its generation when its
    /// viewport changes) routes again. Round trips in flight stay: the page answers them on
    /// its live layout.
    /// - Throws: `InvalidPageTransform` for a non-finite offset or a scale that is not a
    ///   positive finite number; nothing changes then.
    package mutating func viewResized(transform: PageTransform, now: Double, into actions: inout [BridgeAction]) throws(InvalidPageTransform) {
        try layoutChanged(transform: transform, generation: nil, now: now, into: &actions)
        if cache.entry != nil { metrics.snapshotsDroppedByResize += 1 }
        cache.clear()
        generationAtResize = generation
        metrics.viewResizes += 1
    }

    // MARK: - Internals

    /// Decides the round trips in flight that a fresh snapshot of the current layout answers
    /// (their points through the current transform); a later answer from the page counts late.
    private mutating func decideWaitingFromCache(now: Double, into actions: inout [BridgeAction]) {
        guard configuration.useCache else { return }
        for token in tripOrder {
            guard let trip = trips[token] else { continue }
            let pagePoint = transform.pagePoint(for: trip.canvasPoint)
            guard pagePoint.x.isFinite, pagePoint.y.isFinite,
                  case let .fresh(verdict) = cache.lookup(pagePoint, now: now, generation: generation) else { continue }
            metrics.cacheHits += trip.waiters.count
            decide(trip.waiters, verdict, .cache, into: &actions)
            settle(token, as: .abandoned)
        }
    }

    private mutating func adopt(_ newGeneration: UInt64, now: Double, into actions: inout [BridgeAction]) {
        guard newGeneration > generation else { return }
        generation = newGeneration
        for token in tripOrder where trips[token].map({ $0.request.generation < newGeneration }) == true {
            resend(token, into: &actions)
        }
    }

    /// Sends a round trip again for the current layout, under a new id.
    private mutating func resend(_ token: QueryToken, into actions: inout [BridgeAction]) {
        guard var trip = trips[token], trip.resends < Self.maxResends else { return }
        trip.resends += 1
        settle(token, as: .abandoned)
        trip.request = HitTestRequest(token: QueryToken.random(using: &tokens), pagePoint: transform.pagePoint(for: trip.canvasPoint),
                                      generation: generation)
        trips[trip.request.token] = trip
        tripOrder.append(trip.request.token)
        for query in trip.waiters { tripOfQuery[query] = trip.request.token }
        metrics.roundTrips += 1
        actions.append(.send(trip.request))
    }

    private mutating func decide(_ queries: [QueryID], _ verdict: HitTestVerdict, _ source: VerdictSource,
                                 into actions: inout [BridgeAction]) {
        for query in queries {
            tripOfQuery[query] = nil
            actions.append(.verdict(query, verdict, source))
        }
    }

    private mutating func settle(_ token: QueryToken, as outcome: Settled) {
        trips[token] = nil
        tripOrder.removeAll { $0 == token }
        settled[token] = outcome
        settledOrder.append(token)
        if settledOrder.count > Self.settledMemory {
            settled[settledOrder.removeFirst()] = nil
        }
    }
}
