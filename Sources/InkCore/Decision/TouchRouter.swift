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
/// try router.handle(TouchEvent(touch: TouchID(1), phase: .began, samples: [down]), into: &actions)
/// // actions == [.queryPage(QueryID(rawValue: 1), touch: TouchID(1), point: …, askedAt: …)]
/// router.verdictArrived(QueryID(rawValue: 1), .ink, into: &actions)
/// // … .decided(TouchID(1), .ink, .answered), .ink(TouchID(1), down)
/// ```
///
/// The lifecycle of one touch:
/// `deciding` → (answer, deadline, gesture, bound or flush) → `ink` | `page` → ended; or
/// cancelled from any of them. A touch that ends while `deciding` stays queued until it is
/// decided, so a dot still becomes ink and a tap still reaches its button. A cancel counts
/// what nobody got as cancelled (the samples still queued, the ink it discards); samples the
/// page already got stay released, and the page gets the cancel. A host that
/// expects ink may ``speculate(_:into:)``: the deciding touch is drawn as tentative ink at
/// once, and the decision confirms it or retracts it and releases every sample to the page.
package struct TouchRouter: Sendable {
    /// The router's settings.
    package let configuration: TouchRouterConfiguration
    /// What the router has done, counted.
    package private(set) var counters = RouterCounters()

    private var touches: [TouchRecord] = []
    /// Finished touches whose samples still await estimated-property updates, oldest first.
    private var retired: [TouchRecord] = []
    private var totals = SampleLedger()
    private var lastQuery: UInt64 = 0
    private var answered = RecentQueries()

    /// Creates a router with no touches.
    package init(configuration: TouchRouterConfiguration = TouchRouterConfiguration()) {
        self.configuration = configuration
        touches.reserveCapacity(8)
    }

    // MARK: - Reading the state

    /// The session ledger: every real sample received so far, and where it went.
    /// ``SampleLedger/pending`` is recounted from the queues themselves, so a sample lost by
    /// a bug shows up in ``SampleLedger/dropped``.
    package var ledger: SampleLedger {
        var result = totals
        result.pending = touches.reduce(0) { $0 + $1.queue.count }
        return result
    }

    /// The ledger of one touch that is active or still undecided; `nil` once it finished.
    package func ledger(of touch: TouchID) -> SampleLedger? {
        guard let index = touches.lastIndex(where: { $0.id == touch }) else { return nil }
        var result = touches[index].ledger
        result.pending = touches[index].queue.count
        return result
    }

    /// Touches that have not finished yet (including ended touches still undecided).
    package var unfinishedTouches: [TouchID] { touches.map(\.id) }

    /// The earliest time (seconds, in sample time) at which an undecided touch's deadline
    /// passes, or `nil` when no touch is undecided. A host schedules its next call to
    /// ``deadlinePassed(now:fallback:into:)`` for then.
    package var nextDeadline: Double? {
        // A plain loop: read on every input, it must not copy the router into a closure.
        var earliest: Double?
        for record in touches {
            guard case .deciding = record.route else { continue }
            let deadline = record.downTime + configuration.decisionTimeout
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
    package mutating func handle(_ event: TouchEvent, routedToPage: Bool = false,
                                 into actions: inout [RouterAction]) throws(RouterError) {
        let index = try validate(event)
        switch event.phase {
        case .began:
            begin(event, routedToPage: routedToPage, into: &actions)
        case .moved, .ended, .cancelled:
            let index = index!  // validate() found the record
            for sample in event.samples { accept(sample, at: index, into: &actions) }
            if event.phase == .moved {
                predict(event.predicted, at: index, into: &actions)
            } else if event.phase == .ended {
                end(at: index, into: &actions)
            } else {
                cancel(at: index, into: &actions)
            }
        }
    }

    /// Handles one platform touch event, returning its actions.
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
    package mutating func apply(_ update: EstimatedPropertyUpdate, into actions: inout [RouterAction]) throws(RouterError) {
        if let force = update.force, !(force.isFinite && force >= 0 && force <= 1) {
            throw RouterError.invalidUpdate(update.touch, update.updateIndex)
        }
        if update.altitude.map({ !$0.isFinite }) ?? false || update.azimuth.map({ !$0.isFinite }) ?? false {
            throw RouterError.invalidUpdate(update.touch, update.updateIndex)
        }
        if let index = touches.lastIndex(where: { $0.id == update.touch }) {
            if let q = touches[index].queue.firstIndex(where: { $0.estimationUpdateIndex == update.updateIndex }) {
                touches[index].queue[q] = update.applied(to: touches[index].queue[q])
                counters.updatesApplied += 1
                return
            }
            try Self.refine(&touches[index], with: update, counters: &counters, into: &actions)
        } else if let index = retired.lastIndex(where: { $0.id == update.touch }) {
            try Self.refine(&retired[index], with: update, counters: &counters, into: &actions)
            if retired[index].awaiting.isEmpty { retired.remove(at: index) }
        } else {
            throw RouterError.unknownTouch(update.touch)
        }
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
    ///   own; `RouterError.invalidUpdate(_:_:)`. Errors name `update.touch`; nothing changes then.
    package mutating func apply(_ update: EstimatedPropertyUpdate, amongTouches isCandidate: (TouchID) -> Bool,
                                into actions: inout [RouterAction]) throws(RouterError) -> TouchID {
        if let force = update.force, !(force.isFinite && force >= 0 && force <= 1) {
            throw RouterError.invalidUpdate(update.touch, update.updateIndex)
        }
        if update.altitude.map({ !$0.isFinite }) ?? false || update.azimuth.map({ !$0.isFinite }) ?? false {
            throw RouterError.invalidUpdate(update.touch, update.updateIndex)
        }
        let index = update.updateIndex
        var found: TouchID?
        var matches = 0
        for record in touches {
            let count = record.queue.reduce(0) { $0 + ($1.estimationUpdateIndex == index ? 1 : 0) }
                + record.awaiting.reduce(0) { $0 + ($1.sample.estimationUpdateIndex == index ? 1 : 0) }
            if count > 0, isCandidate(record.id) { matches += count; found = record.id }
        }
        for record in retired {
            let count = record.awaiting.reduce(0) { $0 + ($1.sample.estimationUpdateIndex == index ? 1 : 0) }
            if count > 0, isCandidate(record.id) { matches += count; found = record.id }
        }
        guard let touch = found else { throw RouterError.unknownUpdateIndex(update.touch, index) }
        guard matches == 1 else { throw RouterError.ambiguousUpdateIndex(update.touch, index) }
        var mapped = update
        mapped.touch = touch
        try apply(mapped, into: &actions)
        return touch
    }

    /// How many finished touches stay reachable for estimated-property updates.
    package static let retiredTouchLimit = 16

    private static func refine(
        _ record: inout TouchRecord, with update: EstimatedPropertyUpdate, counters: inout RouterCounters,
        into actions: inout [RouterAction]
    ) throws(RouterError) {
        guard let a = record.awaiting.firstIndex(where: { $0.sample.estimationUpdateIndex == update.updateIndex }) else {
            throw RouterError.unknownUpdateIndex(update.touch, update.updateIndex)
        }
        let entry = record.awaiting[a]
        let refined = update.applied(to: entry.sample)
        if update.isFinal {
            record.awaiting.remove(at: a)
        } else {
            record.awaiting[a].sample = refined
        }
        if record.route == .ink || record.speculative, !record.wasCancelled, entry.position >= 0 {
            actions.append(.refineInk(update.touch, index: entry.position, refined))
            if record.windowInk.indices.contains(entry.position) {
                record.windowInk[entry.position] = refined
            }
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
        if let index = touches.firstIndex(where: { $0.route == .deciding(query) }) {
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
        guard let index = touches.firstIndex(where: { $0.route == .deciding(query) }), !touches[index].speculative else {
            return false
        }
        counters.speculations += 1
        touches[index].speculative = true
        let waiting = touches[index].queue
        touches[index].queue.removeAll()
        for sample in waiting { emitSpeculativeInk(sample, at: index, into: &actions) }
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
        var index = 0
        while index < touches.count {
            if case let .deciding(query) = touches[index].route,
               touches[index].downTime + configuration.decisionTimeout <= now {
                counters.deadlinesPassed += 1
                actions.append(.abandonQuery(query, touch: touches[index].id))
                if settle(at: index, as: fallback, because: .deadline, into: &actions) { continue }
            }
            index += 1
        }
    }

    /// Settles every undecided touch by `fallback` now, whatever its deadline (for the end
    /// of a session, or a host that is going away).
    package mutating func flush(fallback: HitTestVerdict, into actions: inout [RouterAction]) {
        var index = 0
        while index < touches.count {
            if case let .deciding(query) = touches[index].route {
                counters.flushed += 1
                actions.append(.abandonQuery(query, touch: touches[index].id))
                if settle(at: index, as: fallback, because: .flushed, into: &actions) { continue }
            }
            index += 1
        }
    }

    // MARK: - Internals

    /// Checks the whole event before anything changes; returns the record index for
    /// events of an existing touch.
    private func validate(_ event: TouchEvent) throws(RouterError) -> Int? {
        let active = touches.lastIndex(where: { $0.id == event.touch && !$0.hasEnded })
        var previous: Double
        if event.phase == .began {
            // An id is free again only once its touch finished: an ended touch still
            // undecided will yet emit actions under its id, which a new touch would share.
            if touches.contains(where: { $0.id == event.touch }) { throw RouterError.touchAlreadyActive(event.touch) }
            guard let first = event.samples.first else { throw RouterError.beganWithoutSample(event.touch) }
            previous = first.timestamp
        } else {
            guard let active else { throw RouterError.unknownTouch(event.touch) }
            previous = touches[active].lastTimestamp
        }
        for sample in event.samples {
            guard sample.isValid else { throw RouterError.invalidSample(event.touch, sample) }
            guard sample.timestamp >= previous else {
                throw RouterError.timestampWentBackwards(event.touch, previous: previous, got: sample.timestamp)
            }
            previous = sample.timestamp
        }
        return active
    }

    private mutating func begin(_ event: TouchEvent, routedToPage: Bool, into actions: inout [RouterAction]) {
        while touches.count >= configuration.maxActiveTouches { evictOldest(into: &actions) }
        let down = event.samples[0]
        let tool = down.tool
        var record = TouchRecord(id: event.touch, tool: tool, downTime: down.timestamp, downPoint: down.point)
        let index = touches.count

        if routedToPage {
            // The platform gave it to the page already: nothing to ask, nothing to hand over.
            record.route = .page
            record.native = true
            touches.append(record)
            counters.routedAtTouchDown += 1
            actions.append(.decided(event.touch, .page, .routedAtTouchDown))
        } else if configuration.pencilOnly {
            let verdict: HitTestVerdict = tool == .pencil ? .ink : .page
            record.route = verdict == .ink ? .ink : .page
            touches.append(record)
            actions.append(.decided(event.touch, verdict, .toolPolicy))
        } else if tool == .finger, gestureStarts(at: down.timestamp) {
            let joined = takeToPage(joining: down.timestamp, into: &actions)
            if !joined { counters.gestures += 1 }
            record.route = .page
            record.inGesture = true
            touches.append(record)
            actions.append(.decided(event.touch, .page, .multiTouchGesture))
        } else {
            lastQuery += 1
            let query = QueryID(rawValue: lastQuery)
            record.route = .deciding(query)
            record.queue.reserveCapacity(32)
            touches.append(record)
            counters.queriesAsked += 1
            actions.append(.queryPage(query, touch: event.touch, point: down.point, askedAt: down.timestamp))
        }
        for sample in event.samples { accept(sample, at: index, into: &actions) }
        predict(event.predicted, at: index, into: &actions)
    }

    /// Whether another finger touch makes a gesture with a finger touch beginning at `time`.
    ///
    /// **The gesture rule**, the one place the engine makes it (`gestureWindow`, 150 ms; the
    /// scratch paper is the overlay):
    /// Two fingers that begin on the scratch paper within 150 ms of each other, both still
    /// down, make a gesture: the page gets them (replayed, or handed over) and the front end
    /// scrolls the page by them; a finger the page has natively (routed to it at touch-down) is
    /// never part of a gesture.
    /// A partner inking past the window is no partner.
    private func gestureStarts(at time: Double) -> Bool {
        configuration.gestureWindow > 0 && touches.contains { isGesturePartner($0, beginningAt: time) }
    }

    private func isGesturePartner(_ record: TouchRecord, beginningAt time: Double) -> Bool {
        guard record.tool == .finger, !record.native, !record.hasEnded,
              time - record.downTime <= configuration.gestureWindow else { return false }
        switch record.route {
        case .deciding, .page: return true
        case .ink: return record.windowOpen
        }
    }

    /// Moves every gesture partner of a touch beginning at `time` to the page. Returns `true`
    /// when a partner already belonged to a gesture: the new touch joins it, not a new one.
    private mutating func takeToPage(joining time: Double, into actions: inout [RouterAction]) -> Bool {
        var joined = false
        var index = 0
        while index < touches.count {
            defer { index += 1 }
            guard isGesturePartner(touches[index], beginningAt: time) else { continue }
            joined = joined || touches[index].inGesture
            touches[index].inGesture = true
            switch touches[index].route {
            case let .deciding(query):
                actions.append(.abandonQuery(query, touch: touches[index].id))
                settle(at: index, as: .page, because: .multiTouchGesture, into: &actions)
            case .ink:
                let id = touches[index].id
                let shown = touches[index].windowInk
                counters.retractions += 1
                counters.retractedSamples += shown.count
                actions.append(.retractInk(id))
                actions.append(.decided(id, .page, .multiTouchGesture))
                touches[index].route = .page
                touches[index].move(shown.count, from: \.inked, to: \.released, totals: &totals)
                if configuration.replaysLateReleases { touches[index].count(shown.count, in: \.replayed, totals: &totals) }
                touches[index].windowInk.removeAll()
                for a in touches[index].awaiting.indices { touches[index].awaiting[a].position = -1 }
                touches[index].inkedCount = 0
                for sample in shown { actions.append(.release(id, sample)) }
            case .page:
                break
            }
        }
        return joined
    }

    /// Accounts for one valid sample of the touch at `index` and routes it.
    private mutating func accept(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        totals.received += 1
        touches[index].ledger.received += 1
        touches[index].lastTimestamp = sample.timestamp
        switch touches[index].route {
        case .deciding where touches[index].speculative:
            emitSpeculativeInk(sample, at: index, into: &actions)
            if touches[index].tentative.count >= configuration.maxQueuedSamplesPerTouch,
               case let .deciding(query) = touches[index].route {
                counters.boundsReached += 1
                actions.append(.abandonQuery(query, touch: touches[index].id))
                settle(at: index, as: configuration.boundFallback, because: .queueBound, into: &actions)
            }
        case .deciding:
            touches[index].queue.append(sample)
            if touches[index].queue.count >= configuration.maxQueuedSamplesPerTouch,
               case let .deciding(query) = touches[index].route {
                counters.boundsReached += 1
                actions.append(.abandonQuery(query, touch: touches[index].id))
                settle(at: index, as: configuration.boundFallback, because: .queueBound, into: &actions)
            }
        case .ink:
            emitInk(sample, at: index, into: &actions)
        case .page:
            emitRelease(sample, at: index, into: &actions)
        }
    }

    private mutating func emitInk(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        let position = touches[index].inkedCount
        touches[index].inkedCount += 1
        touches[index].ledger.inked += 1
        totals.inked += 1
        if sample.estimationUpdateIndex != nil {
            touches[index].awaiting.append(AwaitingUpdate(position: position, sample: sample))
        }
        if touches[index].windowOpen {
            if touches[index].tool == .finger, configuration.gestureWindow > 0,
               sample.timestamp - touches[index].downTime <= configuration.gestureWindow {
                touches[index].windowInk.append(sample)
            } else {
                touches[index].windowOpen = false
                touches[index].windowInk.removeAll(keepingCapacity: true)
            }
        }
        actions.append(.ink(touches[index].id, sample))
    }

    /// Inks a sample of a speculative touch, keeping it in case the page claims the touch.
    private mutating func emitSpeculativeInk(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        touches[index].tentative.append(sample)
        emitInk(sample, at: index, into: &actions)
    }

    private mutating func emitRelease(_ sample: TouchSample, at index: Int, into actions: inout [RouterAction]) {
        touches[index].ledger.released += 1
        totals.released += 1
        if sample.estimationUpdateIndex != nil {
            touches[index].awaiting.append(AwaitingUpdate(position: -1, sample: sample))
        }
        if touches[index].native {
            touches[index].count(1, in: \.releasedNatively, totals: &totals)
            actions.append(.nativeRelease(touches[index].id, sample))
        } else {
            if configuration.replaysLateReleases { touches[index].count(1, in: \.replayed, totals: &totals) }
            actions.append(.release(touches[index].id, sample))
        }
    }

    private mutating func predict(_ predicted: [TouchSample], at index: Int, into actions: inout [RouterAction]) {
        guard touches[index].route == .ink || touches[index].speculative else { return }
        let valid = predicted.allSatisfy(\.isValid)
        let tail = valid ? predicted : []
        if !tail.isEmpty || touches[index].hasPrediction {
            touches[index].hasPrediction = !tail.isEmpty
            actions.append(.predictInk(touches[index].id, tail))
        }
    }

    private mutating func end(at index: Int, into actions: inout [RouterAction]) {
        touches[index].hasEnded = true
        switch touches[index].route {
        case .deciding: break  // stays queued until decided
        case .ink, .page: finish(at: index, into: &actions)
        }
    }

    private mutating func cancel(at index: Int, into actions: inout [RouterAction]) {
        let id = touches[index].id
        let previously: CancelledRoute
        switch touches[index].route {
        case let .deciding(query) where touches[index].speculative:
            actions.append(.abandonQuery(query, touch: id))
            touches[index].move(touches[index].ledger.inked, from: \.inked, to: \.cancelled, totals: &totals)
            previously = .ink
        case let .deciding(query):
            actions.append(.abandonQuery(query, touch: id))
            let queued = touches[index].queue.count
            // Updates for the discarded samples may still come: keep them so they are ignored, not refused.
            for sample in touches[index].queue where sample.estimationUpdateIndex != nil {
                touches[index].awaiting.append(AwaitingUpdate(position: -1, sample: sample))
            }
            touches[index].queue.removeAll()
            touches[index].ledger.cancelled += queued
            totals.cancelled += queued
            previously = .undecided
        case .ink:
            touches[index].move(touches[index].ledger.inked, from: \.inked, to: \.cancelled, totals: &totals)
            previously = .ink
        case .page:
            // The page got every sample so far (natively, replayed or handed over): they stay
            // released, by their way, and the page gets the cancel (the platform's own for a
            // native touch, the front end's or the replay's otherwise). Nothing was queued.
            previously = touches[index].native ? .nativePage : .page
        }
        counters.touchesCancelled += 1
        actions.append(.cancel(id, previously: previously))
        actions.append(.touchFinished(id, touches[index].ledger))
        touches[index].wasCancelled = true
        retire(at: index)
    }

    /// Makes room under ``TouchRouterConfiguration/maxActiveTouches``: the oldest unfinished
    /// touch is settled by the bound fallback if undecided, then an ink touch ends (its
    /// stroke is kept) and a page touch is cancelled, as when the platform takes a touch away.
    private mutating func evictOldest(into actions: inout [RouterAction]) {
        counters.touchesEvicted += 1
        if case let .deciding(query) = touches[0].route {
            actions.append(.abandonQuery(query, touch: touches[0].id))
            if settle(at: 0, as: configuration.boundFallback, because: .touchBound, into: &actions) { return }
        }
        if touches[0].route == .ink {
            touches[0].hasEnded = true
            finish(at: 0, into: &actions)
        } else {
            cancel(at: 0, into: &actions)
        }
    }

    /// Decides an undecided touch: hands out its queue, then finishes it if it already
    /// ended. Returns `true` when the record was removed (the index now names the next one).
    @discardableResult
    private mutating func settle(
        at index: Int, as verdict: HitTestVerdict, because reason: DecisionReason,
        into actions: inout [RouterAction]
    ) -> Bool {
        let id = touches[index].id
        var retracted: [TouchSample] = []
        if touches[index].speculative {
            touches[index].speculative = false
            if verdict == .page { retracted = retractTentativeInk(at: index, into: &actions) }
            touches[index].tentative.removeAll()
        }
        actions.append(.decided(id, verdict, reason))
        touches[index].route = verdict == .ink ? .ink : .page
        for sample in retracted { actions.append(.release(id, sample)) }
        let queued = touches[index].queue
        touches[index].queue.removeAll()
        for sample in queued {
            if verdict == .ink { emitInk(sample, at: index, into: &actions) }
            else { emitRelease(sample, at: index, into: &actions) }
        }
        if touches[index].hasEnded {
            finish(at: index, into: &actions)
            return true
        }
        return false
    }

    /// The page claimed a speculative touch: take its ink back. Returns the samples to
    /// release, in order, right after the decision.
    private mutating func retractTentativeInk(at index: Int, into actions: inout [RouterAction]) -> [TouchSample] {
        let shown = touches[index].tentative
        counters.retractions += 1
        counters.retractedSamples += shown.count
        actions.append(.retractInk(touches[index].id))
        touches[index].move(shown.count, from: \.inked, to: \.released, totals: &totals)
        if configuration.replaysLateReleases { touches[index].count(shown.count, in: \.replayed, totals: &totals) }
        touches[index].windowInk.removeAll()
        touches[index].windowOpen = false
        for a in touches[index].awaiting.indices { touches[index].awaiting[a].position = -1 }
        touches[index].inkedCount = 0
        return shown
    }

    private mutating func finish(at index: Int, into actions: inout [RouterAction]) {
        let id = touches[index].id
        if touches[index].route == .ink {
            counters.touchesInked += 1
            actions.append(.endInk(id))
        } else {
            counters.touchesReleased += 1
            // The platform ends a native touch in the page itself.
            if !touches[index].native { actions.append(.endRelease(id)) }
        }
        actions.append(.touchFinished(id, touches[index].ledger))
        retire(at: index)
    }

    /// Forgets a finished touch, keeping what later estimated-property updates need.
    private mutating func retire(at index: Int) {
        var record = touches.remove(at: index)
        guard !record.awaiting.isEmpty else { return }
        record.queue = []
        record.windowInk = []
        retired.append(record)
        if retired.count > Self.retiredTouchLimit { retired.removeFirst() }
    }
}

/// The router's private record of one touch.
private struct TouchRecord: Sendable {
    enum Route: Sendable, Equatable {
        case deciding(QueryID)
        case ink
        case page
    }

    let id: TouchID
    let tool: ToolKind
    /// Timestamp of the touch-down sample, seconds.
    let downTime: Double
    let downPoint: CanvasPoint
    var route: Route = .page
    /// `true` for a touch the platform gave the page at touch-down (the router only counts it).
    var native = false
    var lastTimestamp: Double
    /// Samples waiting for the decision, oldest first.
    var queue: [TouchSample] = []
    /// Inked samples still inside the gesture window (a gesture may take them back).
    var windowInk: [TouchSample] = []
    /// `true` while an undecided touch is drawn as tentative ink (``TouchRouter/speculate(_:into:)``).
    var speculative = false
    /// The tentative ink of a speculative touch, in order (released if the page claims it).
    var tentative: [TouchSample] = []
    /// `false` once the touch has inked a sample past the gesture window.
    var windowOpen = true
    /// Routed samples whose estimated properties may still be refined.
    var awaiting: [AwaitingUpdate] = []
    var inkedCount = 0
    var hasEnded = false
    /// `true` once a multi-finger gesture took the touch (counted once, however many join).
    var inGesture = false
    var wasCancelled = false
    var hasPrediction = false
    var ledger = SampleLedger()

    init(id: TouchID, tool: ToolKind, downTime: Double, downPoint: CanvasPoint) {
        self.id = id
        self.tool = tool
        self.downTime = downTime
        self.downPoint = downPoint
        self.lastTimestamp = downTime
    }

    /// Moves `count` samples between two ledger columns, here and in the session totals.
    mutating func move(
        _ count: Int, from source: WritableKeyPath<SampleLedger, Int>,
        to destination: WritableKeyPath<SampleLedger, Int>, totals: inout SampleLedger
    ) {
        ledger[keyPath: source] -= count
        ledger[keyPath: destination] += count
        totals[keyPath: source] -= count
        totals[keyPath: destination] += count
    }

    /// Adds `count` (negative to take back) to a breakdown column of `released`, here and
    /// in the session totals.
    mutating func count(_ count: Int, in column: WritableKeyPath<SampleLedger, Int>, totals: inout SampleLedger) {
        ledger[keyPath: column] += count
        totals[keyPath: column] += count
    }
}

/// A routed sample whose estimated properties an update may still refine.
private struct AwaitingUpdate: Sendable {
    /// Index among the touch's inked samples; -1 for a sample released to the page or
    /// discarded undecided by a cancel.
    var position: Int
    var sample: TouchSample
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
