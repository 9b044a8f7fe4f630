@_spi(Tooling) import InkCore

/// The engine an app embeds: platform touches and the page's messages in, one ordered stream
/// of ``EngineEvent``s out.
///
/// It joins the decision engine (queue a touch's samples, ask the page, commit them to ink
/// or release them to the page, in order) with the bridge to the page (round trips, region
/// cache, timeouts, late and forged answers), and owns the one map from the platform's
/// touch identifiers to its own: identifiers reused as soon as a finger lifts, several
/// touches beginning in one callback, a touch the engine finished while the platform still
/// holds it. An app never keeps touch-id state of its own. The engine's actions and its
/// requests for the page go straight to the events, in the order the join makes them.
///
/// A pure value: it reads no clock and does no I/O. Every call says what time it is (seconds
/// on the samples' clock); times must not go backwards.
///
/// **The tie-break rule**, the same for every driver (the live ``InkLoop`` and its shells,
/// `ink-replay host`, the replays): before an input at time *t* is taken, every deadline due
/// at or before *t* fires, the engine's before the bridge's at the same instant; then the
/// input. So an answer arriving exactly at its touch's deadline is late: the deadline has
/// decided. Inputs at the same instant are taken in the order they arrive.
/// ``InkSession`` is the asynchronous shell around it; replays drive it in simulated time.
///
/// Every input is taken or refused on its own: a refused input never blocks the rest of a
/// batch, and its samples are counted in `SampleLedger.refused`, so
/// `received = inked + released + cancelled + refused` once every touch is settled.
///
/// ```swift
/// var engine = InkEngine()
/// var events: [EngineEvent] = []
/// engine.take([.touch(TouchEvent(touch: TouchID(pointerID), phase: .began, samples: [down]))],
///             now: down.timestamp, into: &events)
/// // events: .took(…), .action(.queryPage(…)), .send(request, …): ask the page
/// engine.take([.pageMessage(messageText)], now: later, into: &events)   // the page's answer
/// ```
@_spi(Tooling) public struct InkEngine: Sendable {
    /// The settings it runs with: the configuration it was given, its limits and timeout
    /// within their maximums (``InkEngineConfiguration/bounded``).
    public let configuration: InkEngineConfiguration
    /// The decision engine and the bridge to the page, joined here (the only place they meet).
    private var router: TouchRouter
    private var broker: HitTestBroker
    /// Where undecided touches go when the engine's deadline passes, and at ``finish(into:)``.
    private let fallback: HitTestVerdict
    /// What the router and the bridge hand back while an input is taken; `drain` turns them
    /// into events.
    private var actions: [RouterAction] = []
    private var bridgeActions: [BridgeAction] = []
    /// The batches `drain` works through, swapped with the two above so that neither array
    /// is copied or reallocated per input.
    private var drainingActions: [RouterAction] = []
    private var drainingBridgeActions: [BridgeAction] = []
    /// The events (by index in the caller's array) of actions that name a round trip, and
    /// their touches: their round trip is looked up once the join has worked through the
    /// whole input (a question's request is made after the question).
    private var unnamedRoundTrips: [(index: Int, touch: TouchID)] = []
    private var queryOfTouch: [TouchID: QueryID] = [:]
    private var touchOfQuery: [QueryID: TouchID] = [:]
    private var tokenOfQuery: [QueryID: QueryToken] = [:]
    /// The latest round trips asked for, by touch (at most ``recentTripLimit``): a recorded
    /// answer for a touch already decided reaches the bridge as the late or duplicate
    /// answer it is.
    private var recentTrips: [(touch: TouchID, token: QueryToken)] = []
    private static let recentTripLimit = 64
    private var identities = TouchIdentities()
    private var refusedSamples = 0
    /// The page's pointers: the one fold from actions to what the page gets (``PageTouch``).
    private var pagePointers = PagePointers()
    /// The replays of the input being emitted, in the order their touches first appear.
    private var replays: [PageReplay] = []
    /// The document the page deliveries being collected are for (`nil`: the current one);
    /// set while the touches an old document had are cancelled there.
    private var deliveryDocument: PageDocumentID??
    /// Under decide-at-touch-down routing: the touches of two-finger gestures the engine gave
    /// the page (lead first), where the lead last was, and how far the page's view should
    /// scroll for the input being emitted (canvas points).
    private var gestureTouches: [TouchID] = []
    private var gestureLead: CanvasPoint?
    private var gestureScroll = (dx: 0.0, dy: 0.0)
    /// The pinch of a gesture's first two fingers: where each gesture finger last was, their
    /// distance when both were first known, whether they pinch (past ``pinchThreshold``),
    /// and the zoom for the input being emitted (a factor and its anchor).
    private var gesturePoints: [TouchID: CanvasPoint] = [:]
    private var pinchBase: Double?
    private var pinching = false
    /// Successive moves past the threshold, towards ``pinchStartMoves``.
    private var pinchMoves = 0
    private var gestureZoom: (scale: Double, about: CanvasPoint?) = (1, nil)

    /// How much two gesture fingers' distance must change, as a fraction of their distance
    /// when both were first known, before they pinch (a two-finger scroll's fingers drift
    /// a little): 0.1. From then on every change zooms.
    public static let pinchThreshold = 0.1
    /// Fingers closer than this when both are first known (canvas points) never pinch: their
    /// distance is too small to measure a ratio by.
    static let minimumPinchSpan = 8.0
    /// How many successive moves of the two fingers must find their distance past the
    /// threshold before they pinch: 2. A platform hands over the fingers of one frame one
    /// after the other, so two fingers scrolling together look, between the first's move and
    /// the second's, as far apart as one frame's movement; the next move brings them back.
    static let pinchStartMoves = 2

    /// Creates an engine.
    /// - Parameters:
    ///   - configuration: How touches are decided and the page asked; a limit or a timeout
    ///     beyond the engine's maximum runs as that maximum (``InkEngineConfiguration/bounded``).
    ///   - transform: Canvas points to page coordinates, until a `.layout` input.
    ///   - pageGeneration: The page's layout generation at the start. The bundled page
    ///     script starts at ``PageScript/firstGeneration``, the default, so the first
    ///     question is never stale.
    ///   - seed: Seeds the round trips' unguessable ids (`nil`, the default: the system's
    ///     random generator; a seed only for tests and replays).
    public init(configuration: InkEngineConfiguration = InkEngineConfiguration(), transform: PageTransform = .identity,
                pageGeneration: UInt64 = PageScript.firstGeneration, seed: UInt64? = nil) {
        // The limits and the timeout within the engine's maximums: what it runs with is what
        // it reports, and what a recording's header names.
        let configuration = configuration.bounded
        self.configuration = configuration
        router = TouchRouter(configuration: configuration.router)
        if let seed {
            broker = HitTestBroker(configuration: configuration.bridge, transform: transform, generation: pageGeneration,
                                   tokens: SplitMix64(seed: seed))
            var sources = SplitMix64(seed: seed ^ 0x5CA1_AB1E_0000_0051)   // not the tokens' sequence
            pageSource = sources.next()
        } else {
            broker = HitTestBroker(configuration: configuration.bridge, transform: transform, generation: pageGeneration)
            pageSource = UInt64.random(in: .min ... .max)
        }
        fallback = configuration.bridge.fallback
    }

    // MARK: - Reading the state

    /// Every sample handed in and where it went. `pending` counts samples of touches still
    /// waiting for a decision.
    public var ledger: SampleLedger { router.ledger.refusing(refusedSamples) }
    /// What the decision engine has done, counted.
    @_spi(Tooling) public var counters: RouterCounters { router.counters }
    /// What the bridge has done, counted (round trips, cache hits, timeouts, late answers).
    @_spi(Tooling) public var bridgeMetrics: BridgeMetrics { broker.metrics }
    /// The latest time the engine was given, seconds.
    public private(set) var now = -Double.infinity
    /// The earliest deadline pending (the engine's or the bridge's), if any: a live front end
    /// calls ``advance(to:into:)`` then (``InkLoop`` does).
    public var nextDeadline: Double? {
        switch (router.nextDeadline, broker.nextDeadline) {
        case let (engine?, bridge?): return min(engine, bridge)
        case let (engine, bridge): return engine ?? bridge
        }
    }
    /// `true` when no touch waits for a decision and no sample is queued: everything handed
    /// in so far has gone to the ink, to the page, or was cancelled or refused.
    public var isSettled: Bool { router.ledger.pending == 0 && nextDeadline == nil }
    /// Whether the round trip with this id still has a question waiting for it: a transport
    /// about to send a request checks this, so an abandoned question never reaches the page.
    @_spi(Tooling) public func isWaiting(for roundTrip: QueryToken) -> Bool { !broker.queries(waitingFor: roundTrip).isEmpty }
    /// The layout generation of the region snapshot the engine holds (fresh or not); `nil`
    /// before the page pushed one.
    public var snapshotGeneration: UInt64? { broker.cache.entry?.snapshot.generation }
    /// Touches the engine maps from platform identifiers and has not finished.
    public var trackedTouches: Int { identities.count }
    /// Questions waiting for a round trip.
    public var waitingQuestions: Int { broker.waitingQueries }
    /// Estimated-property updates refused: an index no sample of the recent touches of its
    /// platform id awaits, an index more than one awaits (a platform that numbers indices per
    /// touch; the engine refines neither stroke), a platform id that named no recent touch, an
    /// invalid value. Each is also a ``EngineEvent/Kind-swift.enum/refused(_:_:)`` event.
    public private(set) var updatesRefused = 0
    /// This engine's name in its replays (``PageReplay``'s source): a random number (from the
    /// seed, when one is given), so the page script keeps the touches of two engines over one
    /// document apart and never reuses a page pointer id for a new engine's touch.
    @_spi(Tooling) public let pageSource: UInt64
    /// Touches cancelled on the page because its document changed while the page had them
    /// down on a path the engine chose (replayed or handed over): their later samples are
    /// refused, never delivered into the next document.
    public private(set) var pageTouchesCancelledByNewDocument = 0
    /// Recorded answers (by touch) that found no round trip waiting for them.
    public private(set) var answersWithoutRoundTrip = 0
    /// The engine's identifier of the latest touch with this platform identifier, down or
    /// recently ended; `nil` when none began (among the most recent touches).
    package func latestTouch(forPlatform platform: PlatformTouchID) -> TouchID? { identities.latestID(for: platform) }
    /// The platform identifiers of the touches down (begun, not ended or cancelled), in
    /// ascending order: what a front end closing must cancel.
    package var platformTouchesDown: [PlatformTouchID] { identities.downPlatformIDs }
    /// Whether the engine has not finished this touch yet.
    package func isTracking(_ touch: TouchID) -> Bool { identities.isTracked(touch) }
    /// How much per-query bookkeeping the join holds (small, unless it leaks).
    package var trackedQueries: Int { queryOfTouch.count + touchOfQuery.count + tokenOfQuery.count }
    /// Canvas points to page coordinates, as the engine holds them now.
    package var pageTransform: PageTransform { broker.transform }
    /// The page's layout generation the engine holds now.
    package var pageGeneration: UInt64 { broker.generation }
    /// The current page document's id, once a page message named one (`nil` again after
    /// ``EngineInput/newDocument(_:)`` until the new document's first message).
    @_spi(Tooling) public var pageDocument: PageDocumentID? { broker.document }

    /// The engine's version, as a recording's header names it (``SessionRecorder``): it
    /// changes when a release changes what the engine decides, inks or counts for the same
    /// inputs, so that a replay can tell a recording made by another engine and read it as
    /// it was written.
    ///
    /// - 1.3: two inputs, with their lines: the pencil hovering (the palm rule holds a finger
    ///   that begins on the paper while it hovers and for the palm hold after) and the user's
    ///   pencil-only setting read again. A 1.2 recording has neither and replays as it was.
    /// - 1.2: palms (a finger on the paper while a pencil is down or just lifted, or a wide
    ///   contact) are held and counted cancelled; two fingers make a gesture only once both
    ///   are known to have begun on the scratch paper (decided ink by the page or a fresh
    ///   snapshot), in both routings. A 1.1 recording's header names no palm rule, so it
    ///   replays with none; its gestures are made by the 1.2 rule.
    /// - 1.1: a cancelled touch's samples the page got before the cancel are counted
    ///   released (natively, replayed or handed over), no longer cancelled; `verify` compares
    ///   a 1.0 recording's `finished` lines by the 1.0 count.
    /// - 1.0: the first recorded engine.
    public static let version = "1.3"

    // MARK: - Routing at touch-down

    /// Where a touch beginning at `point` (canvas points) at `now` should go, for a front
    /// end whose platform fixes a touch's owner at touch-down: call it where the platform
    /// routes a touch (an overlay's `hitTest(_:with:)`, the GTK overlay's input shape).
    ///
    /// Synchronous and free of side effects: it changes nothing and counts nothing, so a
    /// platform may call it as often as it hit-tests. It reads the page's region snapshot,
    /// when one is fresh for the current layout at `now`, and nothing else: the verdict is the
    /// same whether the platform knows the tool at hit-test time or not (`tool` is accepted
    /// and not read; UIKit does not know it there, and the iPad front end passes `nil`). The
    /// pencil-only policy and the palm rule decide the touches the overlay takes, once they
    /// begin. Gestures are not predicted: a second finger is routed like the first, and the
    /// engine makes the gesture when both are known to be on the paper.
    ///
    /// - Returns: `HitTestVerdict.page`: let the web view have the native touch (an
    ///   overlay's `hitTest(_:with:)` returns `nil`) and feed it as
    ///   ``EngineInput/nativePageTouch(_:)``; `HitTestVerdict.ink`: the overlay takes the
    ///   touch and the page never sees it; `nil` when nothing can say now (no fresh
    ///   snapshot): the overlay takes the touch, the engine draws it as tentative ink while it
    ///   asks the page, and a late page verdict is replayed to the page
    ///   (``EngineEvent/Kind-swift.enum/replay(_:)``).
    public func route(at point: CanvasPoint, tool: ToolKind?, now: Double) -> HitTestVerdict? {
        broker.freshVerdict(at: point, now: max(now, self.now))
    }

    /// The canvas areas ``route(at:tool:now:)`` gives to the page at `now`, for a front end
    /// whose platform routes by shape (the GTK overlay's input shape, a UIKit overlay that
    /// caches its hit test): the fresh snapshot's regions in canvas points, and until when
    /// they hold. `nil` when no fresh snapshot answers (every route is then `nil`), or with
    /// the region cache off.
    public func touchDownRegions(now: Double) -> TouchDownRegions? {
        guard configuration.useRegionCache, let held = broker.freshSnapshot(now: max(now, self.now)) else { return nil }
        let view = broker.transform
        let rects = held.snapshot.regions.map { view.canvasRect(for: $0.rect) }
        return TouchDownRegions(rects: rects, validUntil: held.freshUntil, generation: held.snapshot.generation)
    }

    // MARK: - Inputs

    /// Takes a batch of inputs at `now`, in order, each on its own: one refused never
    /// blocks the others. Appends what happened to `events`, in order.
    public mutating func take(_ inputs: some Sequence<EngineInput>, now time: Double, into events: inout [EngineEvent]) {
        for input in inputs { take(input, now: time, into: &events) }
    }

    /// Takes one input at `now`. A refused input is reported as a ``EngineEvent/Kind/refused(_:_:)``
    /// event and changes nothing but the ledger's refused count (deadlines due by `now`
    /// still fire before it is looked at).
    public mutating func take(_ input: EngineInput, now time: Double, into events: inout [EngineEvent]) {
        guard time.isFinite, time >= now else {
            refuse(input, .timeWentBackwards(now: now, given: time), touch: nil, into: &events)
            return
        }
        // Deadlines due by now fire first, as their own events at their own times.
        advance(to: time, into: &events)
        switch input {
        case .tick:
            break
        case let .touch(event):
            takeTouch(event, input: input, routedToPage: false, now: time, into: &events)
        case let .nativePageTouch(event):
            takeTouch(event, input: input, routedToPage: true, now: time, into: &events)
        case let .update(update):
            // By its index, among the recent touches of its platform id: a refinement finds its
            // sample whatever happened to the id since (UIKit reuses a `UITouch` object).
            let platform = update.touch
            guard let latest = identities.latestID(for: platform) else {
                updatesRefused += 1
                refuse(input, .touchNotDown(update.touch), touch: nil, into: &events)
                return
            }
            // No list per update (Pencil refines about every sample): a touch is checked for
            // being one of the platform id's recent touches only once it carries the index.
            let identities = identities
            do {
                _ = try router.apply(update, amongTouches: { identities.isRecent($0, for: platform) }, naming: latest, into: &actions)
            } catch {
                updatesRefused += 1
                refuse(input, InputRefusal(error, platform: platform), touch: EngineTouch(engine: latest, platform: platform),
                       into: &events)
                return
            }
            drain(now: time, into: &events)
            finishEmitting(now: time, into: &events)
        case let .pageMessage(bytes):
            let decoded: PageMessage?
            let outcome: ReceiveOutcome
            let documents = broker.metrics.newDocuments
            let epoch = broker.documentEpoch, before = broker.document
            do throws(WireMessageError) {
                let message = try PageMessage.decode(bytes, maxBytes: configuration.limits.messageBytes)
                decoded = message
                outcome = broker.receive(message, now: time, into: &bridgeActions)
            } catch {
                decoded = nil
                outcome = broker.refuse(error)   // counted by the bridge; changes nothing
            }
            if broker.metrics.newDocuments != documents { events.append(EngineEvent(time: time, kind: .newDocument(broker.transform))) }
            if broker.documentEpoch != epoch { cancelPageTouches(of: before, now: time, into: &events) }
            events.append(pageEvent(decoded, outcome, now: time))
            if decoded != nil { drain(now: time, into: &events) }
            finishEmitting(now: time, into: &events)
        case let .decodedPageMessage(message):
            let documents = broker.metrics.newDocuments
            let epoch = broker.documentEpoch, before = broker.document
            let outcome = broker.receive(message, now: time, into: &bridgeActions)
            if broker.metrics.newDocuments != documents { events.append(EngineEvent(time: time, kind: .newDocument(broker.transform))) }
            if broker.documentEpoch != epoch { cancelPageTouches(of: before, now: time, into: &events) }
            events.append(pageEvent(message, outcome, now: time))
            drain(now: time, into: &events)
            finishEmitting(now: time, into: &events)
        case let .recordedAnswer(touch, verdict):
            let platform = touch
            // An answer naming no touch still reaches the bridge, under an id never issued.
            let id = identities.latestID(for: platform) ?? TouchID(.max)
            // A recorded answer names its touch, not its round trip: it goes to the round trip
            // the touch waits for, or (once decided) to its latest one, where the bridge counts
            // it late or duplicate; without any, it is counted and changes nothing.
            let token = roundTrip(of: id)
            var outcome: ReceiveOutcome?
            if let token {
                outcome = broker.receive(.answer(PageAnswer(token: token, verdict: verdict, generation: broker.generation)), now: time,
                                         into: &bridgeActions)
            } else {
                answersWithoutRoundTrip += 1
            }
            events.append(EngineEvent(time: time, touch: EngineTouch(engine: id, platform: platform), roundTrip: token,
                                      kind: .pageMessage(token.map { .answer(PageAnswer(token: $0, verdict: verdict,
                                                                                         generation: broker.generation)) },
                                                         outcome)))
            if token != nil { drain(now: time, into: &events) }
            finishEmitting(now: time, into: &events)
        case let .layout(transform, generation):
            do { try broker.layoutChanged(transform: transform, generation: generation, now: time, into: &bridgeActions) } catch {
                refuse(input, .invalidTransform(error.transform), touch: nil, into: &events)
                return
            }
            events.append(EngineEvent(time: time, kind: .layout(transform, generation: generation)))
            drain(now: time, into: &events)
            finishEmitting(now: time, into: &events)
        case let .sendFailed(request):
            // The request could not be sent: its questions get the fallback now.
            broker.failed(request.token, into: &bridgeActions)
            drain(now: time, into: &events)
            finishEmitting(now: time, into: &events)
        case let .newDocument(transform):
            // The document rule (`HitTestBroker.newDocument`): unless the report is the current
            // document's own, questions in flight get the fallback now, the region snapshot is
            // dropped, the current document id is retired and the layout generation starts
            // over; the touches the old document had are cancelled there.
            let epoch = broker.documentEpoch, before = broker.document
            do { try broker.newDocument(transform: transform, now: time, into: &bridgeActions) } catch {
                refuse(input, .invalidTransform(error.transform), touch: nil, into: &events)
                return
            }
            events.append(EngineEvent(time: time, kind: .newDocument(transform)))
            if broker.documentEpoch != epoch { cancelPageTouches(of: before, now: time, into: &events) }
            drain(now: time, into: &events)
            finishEmitting(now: time, into: &events)
        case let .viewResized(transform):
            // The page reflows: the snapshot of the old layout is dropped.
            do { try broker.viewResized(transform: transform, now: time, into: &bridgeActions) } catch {
                refuse(input, .invalidTransform(error.transform), touch: nil, into: &events)
                return
            }
            events.append(EngineEvent(time: time, kind: .viewResized(transform)))
            drain(now: time, into: &events)
            finishEmitting(now: time, into: &events)
        case let .pencilHovering(hovering):
            // The palm rule's other witness of a pencil near the glass (`TouchRouter.isPalm`).
            router.pencilHovering(hovering, at: time)
        case let .pencilOnly(on):
            // The tool policy from the next touch-down on; touches down keep their decision.
            router.setPencilOnly(on)
        }
    }

    /// Lets time pass to `time`: every deadline due by then fires, in order, each as events
    /// at its own time. A time earlier than the engine's is ignored.
    public mutating func advance(to time: Double, into events: inout [EngineEvent]) {
        guard time.isFinite, time >= now else { return }
        while let next = nextDeadline, next <= time {
            fireDeadlines(through: max(next, now), into: &events)
        }
        if time > now { now = time }   // no deadline is due by `time` now
    }

    /// The front end is closing (or the session is over): the one rule for `finish`, the
    /// same in ``InkLoop/stop()``, at the end of `ink-replay host`'s input and for a
    /// recording's `finish` line in a replay: every deadline due by ``now`` fires first (a
    /// touch whose deadline already passed is decided by it, as the next input would have
    /// decided it), then every touch still undecided is settled by the fallback
    /// (`flushed`). To finish at a later time, ``advance(to:into:)`` to it first.
    public mutating func finish(into events: inout [EngineEvent]) {
        advance(to: now, into: &events)
        router.flush(fallback: fallback, into: &actions)
        drain(now: now, into: &events)
        finishEmitting(now: now, into: &events)
    }

    /// Refuses an input without looking at it, because the live loop around the engine has
    /// stopped: a ``EngineEvent/Kind/refused(_:_:)`` event with ``InputRefusal/stopped``, its
    /// samples counted received and refused.
    package mutating func refuseStopped(_ input: EngineInput, into events: inout [EngineEvent]) {
        refuse(input, .stopped, touch: nil, into: &events)
    }

    // MARK: - Private

    /// Fires every engine and bridge deadline due by `instant`, in order (at the same instant
    /// the engine's first: it abandons the question, so the bridge's timeout for the same
    /// touch does not also fire), each worked through at its own deadline; the events are at
    /// `instant`, the engine's time from then on.
    private mutating func fireDeadlines(through instant: Double, into events: inout [EngineEvent]) {
        while true {
            let engine = router.nextDeadline ?? .infinity
            let bridge = broker.nextDeadline ?? .infinity
            let next = min(engine, bridge)
            guard next <= instant, next < .infinity else { break }
            if engine == next {
                router.deadlinePassed(now: next, fallback: fallback, into: &actions)
            } else {
                broker.deadlinePassed(now: next, into: &bridgeActions)
            }
            drain(now: next, eventTime: instant, into: &events)
        }
        now = instant
        finishEmitting(now: instant, into: &events)
    }

    private mutating func takeTouch(_ event: TouchEvent, input: EngineInput, routedToPage: Bool, now time: Double,
                                    into events: inout [EngineEvent]) {
        let platform = event.touch
        let id: TouchID
        do { id = try identities.resolve(platform, phase: event.phase) } catch {
            refuse(input, InputRefusal(error), touch: nil, into: &events)
            return
        }
        let touch = EngineTouch(engine: id, platform: platform)
        do { try router.handle(event, as: id, routedToPage: routedToPage, into: &actions) } catch {
            // A touch the engine already finished (made room for at its bound) still frees its
            // platform id when the platform ends it.
            if case .unknownTouch = error, event.phase == .ended || event.phase == .cancelled {
                _ = identities.engineID(for: platform, phase: event.phase)
            }
            refuse(input, InputRefusal(error, platform: platform), touch: event.phase == .began ? nil : touch, into: &events)
            return
        }
        // Mapped before the engine's actions are named, so a new touch's actions name its
        // platform id.
        _ = identities.engineID(for: platform, phase: event.phase)
        events.append(EngineEvent(time: time, touch: touch, kind: .took(event)))
        drain(now: time, into: &events)
        finishEmitting(now: time, into: &events)
    }

    private mutating func refuse(_ input: EngineInput, _ refusal: InputRefusal, touch: EngineTouch?, into events: inout [EngineEvent]) {
        refusedSamples += input.sampleCount
        events.append(EngineEvent(time: now, touch: touch, kind: .refused(input, refusal)))
    }

    private func pageEvent(_ message: PageMessage?, _ outcome: ReceiveOutcome, now time: Double) -> EngineEvent {
        var token: QueryToken?
        if case let .answer(answer)? = message { token = answer.token }
        return EngineEvent(time: time, roundTrip: token, kind: .pageMessage(message, outcome))
    }

    /// The round trip a touch waits for, or else the latest one it was asked in (among the
    /// last ``recentTripLimit``); `nil` when it never needed one.
    private func roundTrip(of touch: TouchID) -> QueryToken? {
        queryOfTouch[touch].flatMap { tokenOfQuery[$0] } ?? recentTrips.last(where: { $0.touch == touch })?.token
    }

    /// Works through what the router and the bridge handed back until neither has more: each
    /// router action is an event at `eventTime` (naming its touch both ways) and, when it
    /// is a question, a cancelled question or a decision, the bridge's business; each bridge
    /// action goes to the router, or is a request for the page (a `send` event). The bridge
    /// works at `time` (a deadline's own time, while deadlines fire). A touch the engine
    /// finished forgets its platform id.
    private mutating func drain(now time: Double, eventTime: Double? = nil, into events: inout [EngineEvent]) {
        let eventTime = eventTime ?? time
        while !actions.isEmpty || !bridgeActions.isEmpty {
            swap(&actions, &drainingActions)
            // By index, the kind matched before anything is bound: most actions are samples,
            // copied once, into their event.
            for index in drainingActions.indices {
                let id = drainingActions[index].touch
                let touch = named(id)
                switch drainingActions[index] {
                case .queryPage, .decided, .abandonQuery: unnamedRoundTrips.append((events.count, id))
                default: break
                }
                events.append(EngineEvent(time: eventTime, touch: touch, kind: .action(drainingActions[index])))
                if let delivery = pagePointers.delivery(for: drainingActions[index], through: broker.transform) {
                    if configuration.routing == .decideAtTouchDown {
                        collectReplay(delivery, of: id)
                    } else {
                        events.append(EngineEvent(time: eventTime, touch: touch, kind: .pageTouch(delivery)))
                    }
                }
                if configuration.routing == .decideAtTouchDown { followGesture(drainingActions[index]) }
                switch drainingActions[index] {
                case .queryPage, .abandonQuery, .decided, .touchFinished: break
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
                case .touchFinished:
                    // A palm held once its answer came has no decision: its question ends here.
                    if let query = queryOfTouch[id] { forget(query) }
                    identities.finished(id)
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
                    let waitingTouches = waiting.compactMap { query in touchOfQuery[query].map { named($0) } }
                    events.append(EngineEvent(time: eventTime, touch: waitingTouches.first, roundTrip: request.token,
                                              kind: .send(request, touches: waitingTouches)))
                case let .speculate(query):
                    router.speculate(query, into: &actions)
                }
            }
            drainingBridgeActions.removeAll(keepingCapacity: true)
        }
    }

    /// A touch by both identifiers. Every touch the engine names was mapped when it began;
    /// one evicted long ago, whose platform id the map no longer holds, keeps the engine's
    /// number for the platform's.
    private func named(_ id: TouchID) -> EngineTouch {
        EngineTouch(engine: id, platform: identities.platformID(of: id) ?? PlatformTouchID(id.rawValue))
    }

    private mutating func forget(_ query: QueryID) {
        if let touch = touchOfQuery.removeValue(forKey: query), queryOfTouch[touch] == query { queryOfTouch[touch] = nil }
        tokenOfQuery[query] = nil
    }

    /// Ends the events of one input (or of the deadlines at one instant): the round trips of
    /// its questions and decisions, looked up now that every request is made, then the
    /// replays and the gesture scroll it made.
    private mutating func finishEmitting(now time: Double, into events: inout [EngineEvent]) {
        for index in unnamedRoundTrips.indices {
            let (event, touch) = unnamedRoundTrips[index]
            events[event].roundTrip = roundTrip(of: touch)
        }
        unnamedRoundTrips.removeAll(keepingCapacity: true)
        for replay in replays {
            let touch = named(replay.touch)
            events.append(EngineEvent(time: time, touch: touch, kind: .replay(replay)))
        }
        replays.removeAll(keepingCapacity: true)
        if let about = gestureZoom.about {
            if gestureZoom.scale != 1 { events.append(EngineEvent(time: time, kind: .zoomPage(scale: gestureZoom.scale, about: about))) }
            gestureZoom = (1, nil)
        }
        if gestureScroll.dx != 0 || gestureScroll.dy != 0 {
            events.append(EngineEvent(time: time, kind: .scrollPage(dx: gestureScroll.dx, dy: gestureScroll.dy)))
            gestureScroll = (0, 0)
        }
    }

    /// Follows the touches the overlay holds that the engine gave the page to move it
    /// (decide-at-touch-down routing): a two-finger gesture, and a finger under the
    /// pencil-only policy (fingers scroll, the pencil writes). The page cannot scroll
    /// natively for touches the overlay holds, and the page script's replay of them is
    /// untrusted and scrolls nothing; the lead finger's released samples say how far the
    /// front end scrolls the page's view.
    private mutating func followGesture(_ action: RouterAction) {
        switch action {
        case let .decided(id, .page, reason) where reason == .multiTouchGesture || reason == .toolPolicy:
            if !gestureTouches.contains(id) { gestureTouches.append(id) }
        case let .release(id, sample) where gestureTouches.contains(id):
            let pinched = followPinch(id, to: sample.point)
            guard id == gestureTouches.first else { break }
            // No one-finger scroll under the pen: while a pencil is down, a finger the tool
            // policy gave the page moves nothing (a two-finger gesture still scrolls). While
            // two fingers pinch, their midpoint scrolls (`followPinch`), not the lead.
            if !pinched, let lead = gestureLead, !(router.pencilIsDown && gestureTouches.count < 2) {
                // The content follows the finger: the view's offset moves against it.
                gestureScroll.dx += lead.x - sample.x
                gestureScroll.dy += lead.y - sample.y
            }
            gestureLead = sample.point
        case let .touchFinished(id, _):
            if id == gestureTouches.first { gestureLead = nil }
            if gestureTouches.prefix(2).contains(id) { pinchBase = nil; pinching = false; pinchMoves = 0 }
            gesturePoints[id] = nil
            gestureTouches.removeAll { $0 == id }
        default:
            break
        }
    }

    /// Follows a gesture finger that moved to `point`: once the gesture's first two fingers
    /// are both known, their distance then is the base; once it is off the base by more than
    /// ``pinchThreshold`` at ``pinchStartMoves`` successive moves they pinch, and from then on
    /// each change zooms the view about their midpoint
    /// (``EngineEvent/Kind-swift.enum/zoomPage(scale:about:)``) and the midpoint's movement
    /// scrolls it. Returns whether the fingers pinch.
    private mutating func followPinch(_ id: TouchID, to point: CanvasPoint) -> Bool {
        func span(_ a: CanvasPoint, _ b: CanvasPoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        func mid(_ a: CanvasPoint, _ b: CanvasPoint) -> CanvasPoint { CanvasPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        let pair = gestureTouches.prefix(2)
        let before: (CanvasPoint, CanvasPoint)? = pair.count == 2
            ? gesturePoints[pair[pair.startIndex]].flatMap { a in gesturePoints[pair[pair.startIndex + 1]].map { (a, $0) } } : nil
        gesturePoints[id] = point
        guard pair.count == 2, pair.contains(id), let a = gesturePoints[pair[pair.startIndex]],
              let b = gesturePoints[pair[pair.startIndex + 1]] else { return false }
        let now = span(a, b)
        guard let base = pinchBase else {
            pinchBase = now   // both known: the base to measure the pinch by
            return false
        }
        guard base >= Self.minimumPinchSpan, now >= Self.minimumPinchSpan / 2 else { return pinching }
        if !pinching {
            guard abs(now / base - 1) > Self.pinchThreshold else {
                pinchMoves = 0
                return false
            }
            pinchMoves += 1
            guard pinchMoves >= Self.pinchStartMoves else { return false }
            pinching = true
            gestureZoom.scale *= now / base   // the content keeps up with the fingers at once
        } else if let (p, q) = before {
            let was = span(p, q)
            if was >= Self.minimumPinchSpan / 2 { gestureZoom.scale *= now / was }
            let from = mid(p, q), to = mid(a, b)
            gestureScroll.dx += from.x - to.x
            gestureScroll.dy += from.y - to.y
        }
        gestureZoom.about = mid(a, b)
        return true
    }

    /// Adds a page touch to the replay of its touch for the input being emitted
    /// (decide-at-touch-down routing).
    private mutating func collectReplay(_ delivery: PageTouch, of id: TouchID) {
        let document = deliveryDocument ?? broker.document
        if let last = replays.indices.last, replays[last].touch == id, replays[last].document == document {
            replays[last].events.append(delivery)
        } else if let index = replays.firstIndex(where: { $0.touch == id && $0.document == document }) {
            replays[index].events.append(delivery)
        } else {
            replays.append(PageReplay(touch: id, tool: delivery.tool, document: document, source: pageSource, events: [delivery]))
        }
    }

    /// The page's document changed (`HitTestBroker.documentEpoch`): every touch the old
    /// document had down on a path the engine chose (replayed or handed over) is cancelled
    /// there, as the platform's cancel would: its pointer's `cancel` goes to the old document
    /// (a replay naming it, which another document refuses; under hand-over the page's
    /// `cancel`), and the platform's later samples of the touch are refused and counted
    /// (``InputRefusal``), never delivered into the new document. Touches the platform gave
    /// the page natively are the platform's (the web view ends them itself).
    private mutating func cancelPageTouches(of old: PageDocumentID?, now time: Double, into events: inout [EngineEvent]) {
        let held = pagePointers.pointersDown
        guard !held.isEmpty else { return }
        deliveryDocument = .some(old)
        defer { deliveryDocument = nil }
        for id in held {
            let platform = named(id).platform
            let cancel = TouchEvent(touch: platform, phase: .cancelled, samples: [])
            guard (try? router.handle(cancel, as: id, routedToPage: false, into: &actions)) != nil else { continue }
            pageTouchesCancelledByNewDocument += 1
        }
        drain(now: time, into: &events)
    }
}

extension PageScript {
    /// The layout generation the bundled page script starts at.
    public static let firstGeneration: UInt64 = 1
}

extension RouterAction {
    /// The touch the action is about.
    package var touch: TouchID {
        switch self {
        case let .queryPage(_, touch, _, _), let .abandonQuery(_, touch): return touch
        case let .decided(touch, _, _), let .ink(touch, _), let .predictInk(touch, _), let .refineInk(touch, _, _),
             let .endInk(touch), let .retractInk(touch), let .release(touch, _), let .endRelease(touch), let .nativeRelease(touch, _),
             let .cancel(touch, _), let .touchFinished(touch, _):
            return touch
        }
    }
}
