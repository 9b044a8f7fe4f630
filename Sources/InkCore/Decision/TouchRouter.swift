/// The decision engine: routes every touch to the ink or to the page without dropping or
/// reordering a single sample.
///
/// When a touch begins, nobody yet knows whether it is ink or belongs to an interactive
/// element of the page. The router queues the touch's samples, emits
/// `RouterAction.queryPage(_:touch:point:askedAt:)`, and when the answer arrives (or its
/// deadline passes) commits the queue to ink or releases it to the page, in order and with
/// the original timestamps; later samples of the touch follow the same way.
///
/// `TouchRouter` is a pure value type: events and answers in, ``RouterAction``s out. It
/// reads no clock and does no I/O: "now" is whatever the caller passes to
/// ``deadlinePassed(now:fallback:into:)``. Refused input (see `RouterError`) changes
/// nothing. In steady state (a touch already decided) handling a sample appends one action
/// to a caller-owned buffer and allocates nothing.
///
/// ```swift
/// var router = TouchRouter()
/// var actions: [RouterAction] = []
/// try router.handle(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [down]), into: &actions)
/// // actions == [.queryPage(QueryID(rawValue: 1), touch: TouchID(1), point: …, askedAt: …)]
/// router.verdictArrived(QueryID(rawValue: 1), .ink, into: &actions)
/// // … .decided(TouchID(1), .ink, .answered), .ink(TouchID(1), down)
/// ```
///
/// The lifecycle of one touch (`TouchState`, where each state keeps only its own data):
/// `deciding` → (answer, deadline, gesture, bound or flush) → `inking` | `page` → finished; or
/// cancelled from any of them. A touch that ends while `deciding` stays queued until it is
/// decided, so a dot still becomes ink and a tap still reaches its button. A cancel counts
/// what nobody got as cancelled (the samples still queued, the ink it discards); samples the
/// page already got stay released, and the page gets the cancel. A host that
/// expects ink may ``speculate(_:into:)``: the deciding touch is drawn as tentative ink at
/// once, and the decision confirms it or retracts it and releases every sample to the page.
package struct TouchRouter: Sendable {
    /// The router's settings.
    /// The configuration; its ``TouchRouterConfiguration/pencilOnly`` changes with
    /// ``setPencilOnly(_:)``.
    package private(set) var configuration: TouchRouterConfiguration
    /// What the router has done, counted.
    package private(set) var counters = RouterCounters()

    private var touches: [TouchRecord] = []
    /// Finished touches whose samples still await estimated-property updates, oldest first.
    private var retired: [TouchRecord] = []
    private var totals = SampleLedger()
    private var lastQuery: UInt64 = 0
    private var answered = RecentQueries()
    /// When the pencil last left the glass: its last touch lifted or was cancelled (its last
    /// sample's time), or its hover ended; for the palm rule.
    private var pencilLiftedAt = -Double.infinity
    /// Whether the pencil hovers over the overlay (``pencilHovering(_:at:)``), for the palm rule.
    private var pencilHovers = false

    /// Whether a pencil touch is down (begun, not ended or cancelled): a front end does not
    /// scroll the page for a finger then (`InkEngine` follows it).
    package var pencilIsDown: Bool { touches.contains { $0.tool == .pencil && !$0.state.isLifted } }

    /// Creates a router with no touches.
    package init(configuration: TouchRouterConfiguration = TouchRouterConfiguration()) {
        self.configuration = configuration
        touches.reserveCapacity(8)
    }

    /// The pencil began (`true`) or stopped (`false`) hovering at `time`: while it hovers, and
    /// for ``TouchRouterConfiguration/palmHold`` after the hover ends, a finger-type touch
    /// that begins on the paper is a palm, as while the pencil is down.
    package mutating func pencilHovering(_ hovering: Bool, at time: Double) {
        if pencilHovers, !hovering { pencilLiftedAt = max(pencilLiftedAt, time) }
        pencilHovers = hovering
    }

    /// Only the pencil writes (`true`) or every tool does, from the next touch-down on;
    /// touches already down keep their decision.
    package mutating func setPencilOnly(_ on: Bool) { configuration.pencilOnly = on }

    // MARK: - Reading the state

    /// The session ledger: every real sample received so far, and where it went.
    /// ``SampleLedger/pending`` is recounted from the queues themselves, so a sample lost by
    /// a bug shows up in ``SampleLedger/dropped``.
    package var ledger: SampleLedger {
        var result = totals
        result.pending = touches.reduce(0) { $0 + $1.state.queue.count }
        return result
    }

    /// The ledger of one touch that is active or still undecided; `nil` once it finished.
    package func ledger(of touch: TouchID) -> SampleLedger? {
        guard let index = touches.lastIndex(where: { $0.id == touch }) else { return nil }
        var result = touches[index].ledger
        result.pending = touches[index].state.queue.count
        return result
    }

    /// Touches that have not finished yet (including ended touches still undecided).
    package var unfinishedTouches: [TouchID] { touches.map(\.id) }

    /// The earliest time (seconds, in sample time) at which an undecided touch's deadline
    /// passes, or `nil` when no touch is undecided. A host schedules its next call to
    /// ``deadlinePassed(now:fallback:into:)`` for then.
    ///
    /// Stored, brought up to date at the end of every call that changes the router (each
    /// `mutating` entry point refreshes it, also when it throws): read on every input, a
    /// computed property was called on a copy of the whole router (312 bytes) each time.
    package private(set) var nextDeadline: Double?

    /// Debug builds check, as each entry point begins, that the stored ``nextDeadline`` is
    /// what the touches say: every test that drives a router then checks that no entry point
    /// left it stale. (Checked in the getter, the check cost a call per read in release too.)
    @inline(__always)
    private func assertNextDeadlineFresh() {
        assert(nextDeadline == Self.earliestDeadline(of: touches, timeout: configuration.decisionTimeout),
               "nextDeadline is stale: an entry point changed the touches without refreshing it")
    }

    /// Recomputes ``nextDeadline`` from the touches.
    private mutating func refreshNextDeadline() {
        nextDeadline = Self.earliestDeadline(of: touches, timeout: configuration.decisionTimeout)
    }

    private static func earliestDeadline(of touches: [TouchRecord], timeout: Double) -> Double? {
        var earliest: Double?
        // By index, the two fields read in place: a `for record in touches` copies each record.
        for index in touches.indices {
            guard touches[index].state.undecidedQuery != nil else { continue }
            let deadline = touches[index].downTime + timeout
            if deadline < earliest ?? .infinity { earliest = deadline }
        }
        return earliest
    }

    // MARK: - Events in

    /// Handles one platform touch event.
    ///
    /// - Parameters:
    ///   - event: The event. Its samples must be valid and not older than the touch's
    ///     previous sample.
    ///   - routedToPage: For a `began` event: the front end routed the touch to the page at
    ///     touch-down, and the platform delivers it there natively. Its samples are counted
    ///     as released natively (``RouterAction/nativeRelease(_:_:)``); nothing is asked.
    ///     Ignored for later events (the `began` decided).
    ///   - actions: The buffer the resulting actions are appended to.
    /// - Throws: `RouterError` when the event is refused; nothing changes then.
    ///   - id: The engine's identifier of the event's touch (`InkEngine` maps the platform's
    ///     identifiers to fresh ones, the one touch-id rule); every action names the touch by it.
    package mutating func handle(_ event: TouchEvent, as id: TouchID, routedToPage: Bool = false,
                                 into actions: inout [RouterAction]) throws(RouterError) {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        let index = try Self.validate(event, as: id, among: touches)
        switch event.phase {
        case .began:
            begin(event, as: id, routedToPage: routedToPage, into: &actions)
        case .moved, .ended, .cancelled:
            let index = index!  // validate() found the record
            for sample in event.samples { accept(sample, at: index, into: &actions) }
            if event.phase != .moved, touches[index].tool == .pencil {
                pencilLiftedAt = max(pencilLiftedAt, touches[index].lastTimestamp)
            }
            if event.phase == .moved {
                predict(event.predicted, at: index, into: &actions)
            } else if event.phase == .ended {
                end(at: index, into: &actions)
            } else {
                cancel(at: index, into: &actions)
            }
        }
    }

    /// Handles one platform touch event under the engine identifier with the platform's
    /// number: for a caller that drives the router alone with identifiers it never reuses
    /// before the touch finished (the router's tests and tools).
    package mutating func handle(_ event: TouchEvent, routedToPage: Bool = false,
                                 into actions: inout [RouterAction]) throws(RouterError) {
        try handle(event, as: TouchID(event.touch.rawValue), routedToPage: routedToPage, into: &actions)
    }

    /// Handles one platform touch event, returning its actions (as ``handle(_:routedToPage:into:)``).
    package mutating func handle(_ event: TouchEvent) throws(RouterError) -> [RouterAction] {
        var actions: [RouterAction] = []
        try handle(event, into: &actions)
        return actions
    }

    /// Applies a later, better value to a sample whose properties were estimates.
    ///
    /// A queued sample is refined in place (it will be inked or released refined); an inked
    /// sample produces ``RouterAction/refineInk(_:index:_:)``, even after its touch ended
    /// (platforms refine force after lift); a sample already handed to the page, or of a
    /// cancelled touch, needs nothing and is counted in `RouterCounters.updatesIgnored`.
    /// Finished touches stay reachable for updates while samples await them, for the
    /// ``retiredTouchLimit`` most recent such touches.
    /// - Throws: `RouterError.unknownTouch(_:)`, `RouterError.unknownUpdateIndex(_:_:)`
    ///   or `RouterError.invalidUpdate(_:_:)`; nothing changes then.
    package mutating func apply(_ update: EstimatedPropertyUpdate, to touch: TouchID,
                                into actions: inout [RouterAction]) throws(RouterError) {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        if let force = update.force, !(force.isFinite && force >= 0 && force <= 1) {
            throw RouterError.invalidUpdate(touch, update.updateIndex)
        }
        if update.altitude.map({ !$0.isFinite }) ?? false || update.azimuth.map({ !$0.isFinite }) ?? false {
            throw RouterError.invalidUpdate(touch, update.updateIndex)
        }
        if let index = touches.lastIndex(where: { $0.id == touch }) {
            if touches[index].refineQueued(with: update) {
                counters.updatesApplied += 1
                return
            }
            try Self.refine(&touches[index], touch, with: update, counters: &counters, into: &actions)
        } else if let index = retired.lastIndex(where: { $0.id == touch }) {
            try Self.refine(&retired[index], touch, with: update, counters: &counters, into: &actions)
            if retired[index].awaiting.isEmpty { retired.remove(at: index) }
        } else {
            throw RouterError.unknownTouch(touch)
        }
    }

    /// Applies an update to the touch with the engine identifier of the platform's number (as
    /// ``handle(_:routedToPage:into:)``: a caller that drives the router alone).
    package mutating func apply(_ update: EstimatedPropertyUpdate, into actions: inout [RouterAction]) throws(RouterError) {
        try apply(update, to: TouchID(update.touch.rawValue), into: &actions)
    }

    /// Applies a later, better value to the one sample, among the touches `candidates`,
    /// that carries the update's index: the platform's update index finds its sample, whatever
    /// happened to the platform's touch id since (UIKit reuses a `UITouch` object for a new
    /// touch; its `estimationUpdateIndex` runs on across touches). `isCandidate` says whether a
    /// touch (active or finished, among those kept for updates) is one the update's platform id
    /// named; it is asked only of touches that carry the index.
    ///
    /// - Returns: The touch whose sample the update refined (or found already handed to the page).
    /// - Throws: `RouterError.unknownUpdateIndex(_:_:)` when no candidate awaits the index,
    ///   `RouterError.ambiguousUpdateIndex(_:_:)` when more than one does (a platform that
    ///   numbers indices per touch): refused, never applied to a stroke that may not be its
    ///   own; `RouterError.invalidUpdate(_:_:)`. Errors name `latest` (the engine's touch the
    ///   update's platform id named last); nothing changes then.
    package mutating func apply(_ update: EstimatedPropertyUpdate, amongTouches isCandidate: (TouchID) -> Bool,
                                naming latest: TouchID, into actions: inout [RouterAction]) throws(RouterError) -> TouchID {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        if let force = update.force, !(force.isFinite && force >= 0 && force <= 1) {
            throw RouterError.invalidUpdate(latest, update.updateIndex)
        }
        if update.altitude.map({ !$0.isFinite }) ?? false || update.azimuth.map({ !$0.isFinite }) ?? false {
            throw RouterError.invalidUpdate(latest, update.updateIndex)
        }
        let index = update.updateIndex
        var found: TouchID?
        var matches = 0
        for record in touches {
            let count = record.state.queue.reduce(0) { $0 + ($1.estimationUpdateIndex == index ? 1 : 0) }
                + record.awaiting.reduce(0) { $0 + ($1.sample.estimationUpdateIndex == index ? 1 : 0) }
            if count > 0, isCandidate(record.id) { matches += count; found = record.id }
        }
        for record in retired {
            let count = record.awaiting.reduce(0) { $0 + ($1.sample.estimationUpdateIndex == index ? 1 : 0) }
            if count > 0, isCandidate(record.id) { matches += count; found = record.id }
        }
        guard let touch = found else { throw RouterError.unknownUpdateIndex(latest, index) }
        guard matches == 1 else { throw RouterError.ambiguousUpdateIndex(latest, index) }
        try apply(update, to: touch, into: &actions)
        return touch
    }

    /// How many finished touches stay reachable for estimated-property updates.
    package static let retiredTouchLimit = 16

    private static func refine(
        _ record: inout TouchRecord, _ touch: TouchID, with update: EstimatedPropertyUpdate, counters: inout RouterCounters,
        into actions: inout [RouterAction]
    ) throws(RouterError) {
        guard let a = record.awaiting.firstIndex(where: { $0.sample.estimationUpdateIndex == update.updateIndex }) else {
            throw RouterError.unknownUpdateIndex(touch, update.updateIndex)
        }
        let entry = record.awaiting[a]
        let refined = update.applied(to: entry.sample)
        if update.isFinal {
            record.awaiting.remove(at: a)
        } else {
            record.awaiting[a].sample = refined
        }
        if record.state.inkStands, entry.position >= 0 {
            actions.append(.refineInk(touch, index: entry.position, refined))
            record.refineInk(at: entry.position, to: refined)
            counters.updatesApplied += 1
        } else {
            counters.updatesIgnored += 1
        }
    }

    /// Reports the page's answer to a query.
    ///
    /// Answers may come in any order, late, twice, or for queries never asked: only an
    /// answer to a query still waiting decides anything; the others are ignored and counted.
    /// - Parameters:
    ///   - query: The query the answer is for.
    ///   - verdict: Who owns the touch: the ink or the page.
    ///   - reason: How the verdict was reached, for the ``RouterAction/decided(_:_:_:)``
    ///     action: `.answered` by the page (the default), `.regionCache`, or, when a bridge
    ///     settled the query by its own timeout or failure, `.deadline` or `.unreachable`.
    ///   - actions: Receives the actions the answer causes, in order.
    /// - Returns: What the router did with the answer.
    @discardableResult
    package mutating func verdictArrived(
        _ query: QueryID, _ verdict: HitTestVerdict, because reason: DecisionReason = .answered,
        into actions: inout [RouterAction]
    ) -> VerdictOutcome {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        if let index = touches.firstIndex(where: { $0.state.undecidedQuery == query }) {
            answered.insert(query)
            counters.answersApplied += 1
            settle(at: index, as: verdict, because: reason, into: &actions)
            return .applied
        }
        if query.rawValue == 0 || query.rawValue > lastQuery {
            counters.unknownAnswers += 1
            return .unknownQuery
        }
        if answered.contains(query) {
            counters.duplicateAnswers += 1
            return .duplicate
        }
        counters.lateAnswers += 1
        return .late
    }

    /// Draws an undecided touch as tentative ink while its question is still open: its
    /// queued samples, and the samples that follow, become ``RouterAction/ink(_:_:)`` at
    /// once. The answer then confirms the ink or, if the touch belongs to the page, takes it
    /// back (``RouterAction/retractInk(_:)``) and releases every sample to the page in
    /// order. A host speculates when it has good reason to expect ink (a region snapshot,
    /// even a stale one, shows nothing interactive near the touch).
    /// - Returns: `true` when the touch of `query` was undecided and is now speculative.
    @discardableResult
    package mutating func speculate(_ query: QueryID, into actions: inout [RouterAction]) -> Bool {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        guard let index = touches.firstIndex(where: { $0.state.undecidedQuery == query }),
              !touches[index].palmCandidate,  // a palm candidate shows no ink
              let deciding = touches[index].takeDeciding() else {
            return false  // no such question, already speculating, or maybe a palm
        }
        counters.speculations += 1
        // The queue's samples, in order, are the tentative ink: its buffer carries over.
        var speculating = TouchState.Speculating(
            query: deciding.query, tentative: deciding.queue, ink: TouchState.Inking(), lifted: deciding.lifted)
        for sample in speculating.tentative {
            keep(sample, in: &speculating.ink.window, at: index)
            ink(sample, at: index, into: &actions)
        }
        touches[index].state = .speculating(speculating)
        return true
    }

    /// Settles, by `fallback`, every undecided touch whose deadline
    /// (touch-down + ``TouchRouterConfiguration/decisionTimeout``) is at or before `now`.
    ///
    /// - Parameters:
    ///   - now: The current time in seconds, on the clock of the sample timestamps.
    ///   - fallback: Where an unanswered touch goes.
    ///   - actions: Receives the actions, in order.
    package mutating func deadlinePassed(
        now: Double, fallback: HitTestVerdict, into actions: inout [RouterAction]
    ) {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        var index = 0
        while index < touches.count {
            if let query = touches[index].state.undecidedQuery,
               touches[index].downTime + configuration.decisionTimeout <= now {
                counters.deadlinesPassed += 1
                actions.append(.abandonQuery(query, touch: touches[index].id))
                if settle(at: index, as: fallback, because: .deadline, into: &actions) { continue }
            }
            index += 1
        }
    }

    /// Settles every undecided touch by `fallback` now, whatever its deadline, and ends every
    /// palm still held (as cancelled: nobody got it) (for the end of a session, or a host that
    /// is going away).
    package mutating func flush(fallback: HitTestVerdict, into actions: inout [RouterAction]) {
        assertNextDeadlineFresh()
        defer { refreshNextDeadline() }
        var index = 0
        while index < touches.count {
            if case .held = touches[index].state {
                cancel(at: index, into: &actions)
                continue
            }
            if let query = touches[index].state.undecidedQuery {
                counters.flushed += 1
                actions.append(.abandonQuery(query, touch: touches[index].id))
                if settle(at: index, as: fallback, because: .flushed, into: &actions) { continue }
                if case .held = touches[index].state {
                    // Settled as ink beside the pen: a palm, held; a flush ends it like any held palm.
                    cancel(at: index, into: &actions)
                    continue
                }
            }
            index += 1
        }
    }

    // MARK: - Internals

    /// Checks the whole event before anything changes; returns the record index for
    /// events of an existing touch. Static, given the touches: a method would be called on a
    /// copy of the whole router.
    private static func validate(_ event: TouchEvent, as id: TouchID, among touches: [TouchRecord]) throws(RouterError) -> Int? {
        let active = touches.lastIndex(where: { $0.id == id && !$0.state.isLifted })
        var previous: Double
        if event.phase == .began {
            // An id is free again only once its touch finished: an ended touch still
            // undecided will yet emit actions under its id, which a new touch would share.
            if touches.contains(where: { $0.id == id }) { throw RouterError.touchAlreadyActive(id) }
            guard let first = event.samples.first else { throw RouterError.beganWithoutSample(id) }
            previous = first.timestamp
        } else {
            guard let active else { throw RouterError.unknownTouch(id) }
            previous = touches[active].lastTimestamp
        }
        for sample in event.samples {
            guard sample.isValid else { throw RouterError.invalidSample(id, sample) }
            guard sample.timestamp >= previous else {
                throw RouterError.timestampWentBackwards(id, previous: previous, got: sample.timestamp)
            }
            previous = sample.timestamp
        }
        return active
    }

    private mutating func begin(_ event: TouchEvent, as id: TouchID, routedToPage: Bool, into actions: inout [RouterAction]) {
        while touches.count >= configuration.maxActiveTouches { evictOldest(into: &actions) }
        let down = event.samples[0]
        let tool = down.tool
        func record(_ state: TouchState) -> TouchRecord {
            TouchRecord(id: id, tool: tool, downTime: down.timestamp, state: state)
        }
        let index = touches.count

        if routedToPage {
            // The platform gave it to the page already: nothing to ask, nothing to hand over.
            touches.append(record(.page(.native)))
            counters.routedAtTouchDown += 1
            actions.append(.decided(id, .page, .routedAtTouchDown))
        } else if tool == .finger, configuration.replaysLateReleases, isPalm(down) {
            // Touch-down routing: the overlay's touches are on the paper. The hand beside the
            // pen: neither ink nor the page's.
            touches.append(record(.held))
            counters.palmsHeld += 1
        } else if configuration.pencilOnly, !(tool == .finger && isPalm(down)) {
            let verdict: HitTestVerdict = tool == .pencil ? .ink : .page
            touches.append(record(verdict == .ink ? .inking(TouchState.Inking()) : .page(.handedOver)))
            actions.append(.decided(id, verdict, .toolPolicy))
        } else {
            lastQuery += 1
            let query = QueryID(rawValue: lastQuery)
            var queue: [TouchSample] = []
            queue.reserveCapacity(32)
            var deciding = record(.deciding(TouchState.Deciding(query: query, queue: queue, lifted: false)))
            // Hand-over routing: where the finger began is known once the page answers.
            deciding.palmCandidate = tool == .finger && isPalm(down)
            touches.append(deciding)
            counters.queriesAsked += 1
            actions.append(.queryPage(query, touch: id, point: down.point, askedAt: down.timestamp))
        }
        for sample in event.samples { accept(sample, at: index, into: &actions) }
        predict(event.predicted, at: index, into: &actions)
    }

    /// Whether a finger-type touch beginning with `down` is a palm: as wide as one, or on the
    /// paper while a pencil is down or hovers, or within ``TouchRouterConfiguration/palmHold``
    /// of its lift or the end of its hover.
    private func isPalm(_ down: TouchSample) -> Bool {
        if let limit = configuration.palmRadius, let radius = down.majorRadius, radius >= limit { return true }
        guard configuration.palmHold > 0 else { return false }
        return pencilIsDown || pencilHovers || down.timestamp - pencilLiftedAt <= configuration.palmHold
    }

    /// Whether a touch may be one finger of a two-finger gesture: a finger known to have begun
    /// on the scratch paper (``TouchRecord/onPaper``), still down, inking inside its gesture
    /// window (so all its ink can be taken back), or already in a gesture.
    private func mayJoinGesture(_ record: TouchRecord) -> Bool {
        guard record.tool == .finger, record.onPaper else { return false }
        switch record.state {
        case let .inking(inking): return inking.window != nil
        case .page(.gesture): return true
        case .deciding, .speculating, .page(.native), .page(.handedOver), .held, .finished: return false
        }
    }

    /// **The gesture rule**, the one place the engine makes it (`gestureWindow`, 150 ms), in both
    /// routings (the scratch paper is the overlay):
    /// Two fingers that begin on the scratch paper within 150 ms of each other, both still
    /// down, make a gesture: the page gets them (replayed, or handed over) and the front end
    /// scrolls the page by them; a finger is on the scratch paper once the page (or a fresh
    /// region snapshot) decided its touch-down ink, so a finger still waiting for its answer,
    /// one the page claimed or has natively (routed to it at touch-down), and one a fallback
    /// decided are never part of a gesture.
    /// So it is checked when a finger is decided ink by the page (the touch at `index`): a tap
    /// on a button beside a finger on a block is no gesture, whatever the snapshot; the
    /// partner's ink, inside its window, is taken back and released with the new finger's.
    private mutating func formGesture(at index: Int, into actions: inout [RouterAction]) {
        guard configuration.gestureWindow > 0, mayJoinGesture(touches[index]) else { return }
        let down = touches[index].downTime
        let members = touches.indices.filter {
            mayJoinGesture(touches[$0]) && abs(touches[$0].downTime - down) <= configuration.gestureWindow
        }
        guard members.count >= 2 else { return }
        var joined = false
        for member in members {
            if case .page(.gesture) = touches[member].state { joined = true } else { moveToGesture(at: member, into: &actions) }
        }
        if !joined { counters.gestures += 1 }
    }

    /// Takes an inking finger (inside its window, which holds every sample it inked) to the
    /// page for a gesture: its ink is retracted and every sample released, in order.
    private mutating func moveToGesture(at index: Int, into actions: inout [RouterAction]) {
        guard let inking = touches[index].takeInking() else { return }
        let id = touches[index].id
        let shown = inking.window ?? []
        counters.retractions += 1
        counters.retractedSamples += shown.count
        actions.append(.retractInk(id))
        actions.append(.decided(id, .page, .multiTouchGesture))
        touches[index].state = .page(.gesture)
        touches[index].move(shown.count, from: \.inked, to: \.released, totals: &totals)
        if configuration.replaysLateReleases { touches[index].count(shown.count, in: \.replayed, totals: &totals) }
        for a in touches[index].awaiting.indices { touches[index].awaiting[a].position = -1 }
        for sample in shown { actions.append(.release(id, sample)) }
    }

    /// Accounts for one valid sample of the touch at `index` and routes it.
    private mutating func accept(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        totals.received += 1
        touches[index].ledger.received += 1
        touches[index].lastTimestamp = sample.timestamp
        if touches[index].state.isInkingPastWindow {
            ink(sample, at: index, into: &actions)  // most samples: the state does not change
        } else if var inking = touches[index].takeInking() {
            keep(sample, in: &inking.window, at: index)
            touches[index].state = .inking(inking)
            ink(sample, at: index, into: &actions)
        } else if case .page = touches[index].state {
            emitRelease(sample, at: index, into: &actions)
        } else if case .held = touches[index].state {
            // A palm's sample: nobody gets it (an update for it is ignored, not refused).
            touches[index].ledger.cancelled += 1
            totals.cancelled += 1
            if sample.estimationUpdateIndex != nil {
                touches[index].awaiting.append(AwaitingUpdate(position: -1, sample: sample))
            }
        } else if var deciding = touches[index].takeDeciding() {
            deciding.queue.append(sample)
            let full = deciding.queue.count >= configuration.maxQueuedSamplesPerTouch
            touches[index].state = .deciding(deciding)
            if full { reachedBound(deciding.query, at: index, into: &actions) }
        } else if var speculating = touches[index].takeSpeculating() {
            speculating.tentative.append(sample)
            keep(sample, in: &speculating.ink.window, at: index)
            let full = speculating.tentative.count >= configuration.maxQueuedSamplesPerTouch
            touches[index].state = .speculating(speculating)
            ink(sample, at: index, into: &actions)
            if full { reachedBound(speculating.query, at: index, into: &actions) }
        }
    }

    /// An undecided touch holds as many samples as it may: it is decided by the bound fallback.
    private mutating func reachedBound(_ query: QueryID, at index: Int, into actions: inout [RouterAction]) {
        counters.boundsReached += 1
        actions.append(.abandonQuery(query, touch: touches[index].id))
        settle(at: index, as: configuration.boundFallback, because: .queueBound, into: &actions)
    }

    /// Inks one sample of the touch at `index` (inking or speculating).
    private mutating func ink(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        // While a touch inks, its ledger's `inked` is its stroke's length: a retraction or a
        // cancel, which take inked samples back, also end the inking.
        let position = touches[index].ledger.inked
        touches[index].ledger.inked += 1
        totals.inked += 1
        if sample.estimationUpdateIndex != nil {
            touches[index].awaiting.append(AwaitingUpdate(position: position, sample: sample))
        }
        actions.append(.ink(touches[index].id, sample))
    }

    /// Keeps a sample of the touch at `index`, about to be inked, in its gesture `window`, or
    /// closes the window when the sample is past it (or the window does not apply).
    private func keep(_ sample: TouchSample, in window: inout [TouchSample]?, at index: Int) {
        guard window != nil else { return }
        if touches[index].tool == .finger, configuration.gestureWindow > 0,
           sample.timestamp - touches[index].downTime <= configuration.gestureWindow {
            window?.append(sample)
        } else {
            window = nil
        }
    }

    /// Hands one sample of the page's touch at `index` to the page.
    private mutating func emitRelease(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        touches[index].ledger.released += 1
        totals.released += 1
        if sample.estimationUpdateIndex != nil {
            touches[index].awaiting.append(AwaitingUpdate(position: -1, sample: sample))
        }
        if case .page(.native) = touches[index].state {
            touches[index].count(1, in: \.releasedNatively, totals: &totals)
            actions.append(.nativeRelease(touches[index].id, sample))
        } else {
            if configuration.replaysLateReleases { touches[index].count(1, in: \.replayed, totals: &totals) }
            actions.append(.release(touches[index].id, sample))
        }
    }

    private mutating func predict(_ predicted: [TouchSample], at index: Int, into actions: inout [RouterAction]) {
        guard let shown = touches[index].state.showsPrediction else { return }  // draws no ink
        let valid = predicted.allSatisfy(\.isValid)
        let tail = valid ? predicted : []
        if !tail.isEmpty || shown {
            if shown == tail.isEmpty { touches[index].setShowsPrediction(!tail.isEmpty) }
            actions.append(.predictInk(touches[index].id, tail))
        }
    }

    private mutating func end(at index: Int, into actions: inout [RouterAction]) {
        if case .held = touches[index].state {
            cancel(at: index, into: &actions)  // a palm lifted: nobody got it, as when cancelled
        } else if touches[index].state.undecidedQuery != nil {
            touches[index].lift()  // stays queued until decided
        } else {
            finish(at: index, into: &actions)
        }
    }

    private mutating func cancel(at index: Int, into actions: inout [RouterAction]) {
        let id = touches[index].id
        let previously: CancelledRoute
        switch touches[index].state {
        case let .speculating(speculating):
            actions.append(.abandonQuery(speculating.query, touch: id))
            touches[index].move(touches[index].ledger.inked, from: \.inked, to: \.cancelled, totals: &totals)
            previously = .ink
        case let .deciding(deciding):
            actions.append(.abandonQuery(deciding.query, touch: id))
            let queued = deciding.queue.count
            // Updates for the discarded samples may still come: keep them so they are ignored, not refused.
            for sample in deciding.queue where sample.estimationUpdateIndex != nil {
                touches[index].awaiting.append(AwaitingUpdate(position: -1, sample: sample))
            }
            touches[index].ledger.cancelled += queued
            totals.cancelled += queued
            previously = .undecided
        case .inking:
            touches[index].move(touches[index].ledger.inked, from: \.inked, to: \.cancelled, totals: &totals)
            previously = .ink
        case let .page(route):
            // The page got every sample so far (natively, replayed or handed over): they stay
            // released, by their way, and the page gets the cancel (the platform's own for a
            // native touch, the front end's or the replay's otherwise). Nothing was queued.
            previously = route == .native ? .nativePage : .page
        case .held:
            previously = .palm  // its samples were counted cancelled as they came
        case .finished:
            preconditionFailure("an active touch is never finished")
        }
        if previously != .palm { counters.touchesCancelled += 1 }   // a palm is counted in palmsHeld
        actions.append(.cancel(id, previously: previously))
        actions.append(.touchFinished(id, touches[index].ledger))
        retire(at: index, as: .cancelled)
    }

    /// Makes room under ``TouchRouterConfiguration/maxActiveTouches``: the oldest unfinished
    /// touch is settled by the bound fallback if undecided, then an ink touch ends (its
    /// stroke is kept) and a page touch is cancelled, as when the platform takes a touch away.
    private mutating func evictOldest(into actions: inout [RouterAction]) {
        counters.touchesEvicted += 1
        if let query = touches[0].state.undecidedQuery {
            actions.append(.abandonQuery(query, touch: touches[0].id))
            if settle(at: 0, as: configuration.boundFallback, because: .touchBound, into: &actions) { return }
        }
        if case .inking = touches[0].state {
            finish(at: 0, into: &actions)
        } else {
            cancel(at: 0, into: &actions)
        }
    }

    /// Decides an undecided touch: hands out its queue (or confirms or retracts its tentative
    /// ink), then finishes it if it already ended. Returns `true` when the record was removed
    /// (the index now names the next one).
    @discardableResult
    private mutating func settle(
        at index: Int, as verdict: HitTestVerdict, because reason: DecisionReason,
        into actions: inout [RouterAction]
    ) -> Bool {
        let id = touches[index].id
        let route: TouchState.PageRoute = .handedOver
        let lifted: Bool
        if verdict == .ink, touches[index].palmCandidate, let deciding = touches[index].takeDeciding() {
            // On the paper, beside the pen: a palm. What it queued nobody gets.
            touches[index].state = .held
            counters.palmsHeld += 1
            touches[index].ledger.cancelled += deciding.queue.count
            totals.cancelled += deciding.queue.count
            for sample in deciding.queue where sample.estimationUpdateIndex != nil {
                touches[index].awaiting.append(AwaitingUpdate(position: -1, sample: sample))
            }
            if deciding.lifted {
                cancel(at: index, into: &actions)
                return true
            }
            return false
        } else if let deciding = touches[index].takeDeciding() {
            lifted = deciding.lifted
            actions.append(.decided(id, verdict, reason))
            if verdict == .ink {
                var inking = TouchState.Inking()
                for sample in deciding.queue {
                    keep(sample, in: &inking.window, at: index)
                    ink(sample, at: index, into: &actions)
                }
                touches[index].state = .inking(inking)
            } else {
                touches[index].state = .page(route)
                for sample in deciding.queue { emitRelease(sample, at: index, into: &actions) }
            }
        } else if let speculating = touches[index].takeSpeculating() {
            lifted = speculating.lifted
            if verdict == .ink {
                actions.append(.decided(id, verdict, reason))
                touches[index].state = .inking(speculating.ink)  // the tentative ink stands
            } else {
                retractTentativeInk(speculating.tentative, at: index, into: &actions)
                actions.append(.decided(id, verdict, reason))
                touches[index].state = .page(route)
                for sample in speculating.tentative { actions.append(.release(id, sample)) }
            }
        } else {
            preconditionFailure("settling a decided touch")
        }
        if verdict == .ink, !lifted, reason == .answered || reason == .regionCache {
            touches[index].onPaper = true
            formGesture(at: index, into: &actions)
        }
        if lifted {
            finish(at: index, into: &actions)
            return true
        }
        return false
    }

    /// The page claimed a speculative touch: take back its ink, `shown`, which is released
    /// right after the decision.
    private mutating func retractTentativeInk(_ shown: [TouchSample], at index: Int, into actions: inout [RouterAction]) {
        counters.retractions += 1
        counters.retractedSamples += shown.count
        actions.append(.retractInk(touches[index].id))
        touches[index].move(shown.count, from: \.inked, to: \.released, totals: &totals)
        if configuration.replaysLateReleases { touches[index].count(shown.count, in: \.replayed, totals: &totals) }
        for a in touches[index].awaiting.indices { touches[index].awaiting[a].position = -1 }
    }

    private mutating func finish(at index: Int, into actions: inout [RouterAction]) {
        let id = touches[index].id
        let ending: TouchState.Ending
        switch touches[index].state {
        case .inking:
            counters.touchesInked += 1
            actions.append(.endInk(id))
            ending = .inked
        case let .page(route):
            counters.touchesReleased += 1
            // The platform ends a native touch in the page itself.
            if route != .native { actions.append(.endRelease(id)) }
            ending = .released
        case .deciding, .speculating, .held, .finished:
            preconditionFailure("only a decided touch finishes")
        }
        actions.append(.touchFinished(id, touches[index].ledger))
        retire(at: index, as: ending)
    }

    /// Forgets a finished touch, keeping what later estimated-property updates need: the
    /// finished state drops its queue and ink.
    private mutating func retire(at index: Int, as ending: TouchState.Ending) {
        var record = touches.remove(at: index)
        guard !record.awaiting.isEmpty else { return }
        record.state = .finished(ending)
        retired.append(record)
        if retired.count > Self.retiredTouchLimit { retired.removeFirst() }
    }

    /// The state of an active or retired touch (the latest with that id), for tests.
    func state(of touch: TouchID) -> TouchState? {
        if let record = touches.last(where: { $0.id == touch }) { return record.state }
        return retired.last(where: { $0.id == touch })?.state
    }
}

/// The last few answered queries, to tell a duplicate answer from a late one.
private struct RecentQueries: Sendable {
    private var slots = [UInt64](repeating: 0, count: 64)
    private var next = 0

    mutating func insert(_ query: QueryID) {
        slots[next] = query.rawValue
        next = (next + 1) % slots.count
    }

    func contains(_ query: QueryID) -> Bool { slots.contains(query.rawValue) }
}
