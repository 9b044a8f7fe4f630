@_spi(Tooling) import InkCore

/// What happened to one touch, rebuilt from the engine's actions alone.
@_spi(Tooling) public struct TouchOutcome: Sendable, Hashable {
    /// The touch's id as the platform (or the log) gave it.
    public var touch: PlatformTouchID
    /// The engine's id for it, unique over the session.
    public var engineID: TouchID
    /// Who got the touch (`nil` when it was cancelled before a decision).
    public var verdict: HitTestVerdict?
    /// Why, when decided.
    public var reason: DecisionReason?
    /// The samples that ended up as ink, in order (empty after a retraction).
    public var inked: [TouchSample] = []
    /// The samples handed to the page, in order (for a cancelled touch: those the page got
    /// before the cancel, counted released).
    public var released: [TouchSample] = []
    /// `true` when the platform gave the touch to the page natively at touch-down: its
    /// `released` samples reached the page as the platform's own trusted events.
    public var releasedNatively = false
    /// How many samples the engine accepted for the touch.
    public var samples = 0
    /// `true` when the system cancelled the touch: the page keeps the samples it got
    /// (``released``) and gets the cancel; the rest (queued while undecided, or ink the
    /// cancel discarded) are counted cancelled.
    public var cancelled = false
    /// `true` once the engine reported the touch finished.
    public var finished = false
    /// Seconds from touch-down to the first sample becoming ink, for touches that became ink.
    public var firstInkLatency: Double?
    /// `true` when the touch's ink was retracted for a gesture.
    public var retracted = false
}

/// The one statement of the delivery rules, as a fold over `InkEngine`'s events: every
/// sample of an event the engine took comes out once, in order, to the ink or to the page
/// (or is cancelled), nothing is invented, each touch's final ledger says so, and every
/// refused sample is counted. A cancelled touch's samples the page got before the cancel are
/// released (natively, replayed or handed over, as its outcome shows); only what nobody got
/// is cancelled, and the touch's final ledger must say exactly that. It also gives each touch's `TouchOutcome`, first-ink latency
/// included (the one definition: touch-down to the first sample drawn as ink that was not
/// retracted).
///
/// It keeps only the touches that have not finished, so it runs in flat memory over a
/// session of any length, live in an app as well as in a replay: one slot per open touch,
/// holding the position and time of each sample the touch was fed and, for each way out
/// (ink, page), how many samples went that way, compared with what was fed as they go. The
/// samples delivered are kept only for outcomes that carry them (``keepsDeliveredSamples``). Feed it every event in
/// order (``observe(_:)``); at the end, ``close()`` checks the touches that never finished,
/// and ``verify(against:)`` is the one definition of a verified session.
///
/// ```swift
/// var audit = DeliveryAudit()
/// for event in events { audit.observe(event) }
/// let failures = audit.verify(against: engine.ledger)   // empty: every sample accounted for
/// ```
@_spi(Tooling) public struct DeliveryAudit: Sendable {
    /// What the comparison needs of a sample: its position and time (estimated-property
    /// updates may refine the rest).
    private struct Mark: Sendable, Equatable {
        var x: Double, y: Double, t: Double
        init(_ sample: TouchSample) { (x, y, t) = (sample.x, sample.y, sample.timestamp) }
    }

    /// One way out of a touch (to the ink, or to the page), compared with what was fed as it
    /// goes: while every sample delivered is the fed sample at its position, only the count
    /// is kept; the first that is not makes it keep the marks of what it delivered, so the
    /// check at the touch's end reads exactly what it would have read from the samples.
    private struct Delivery: Sendable {
        /// Samples delivered this way (and not retracted).
        var count = 0
        /// `nil` while the samples delivered are the first `count` fed, by position and time.
        var marks: [Mark]?

        mutating func append(_ sample: TouchSample, fed: [Mark]) {
            let mark = Mark(sample)
            if marks == nil {
                if count < fed.count && fed[count] == mark {
                    count += 1
                    return
                }
                marks = Array(fed[0..<count])
            }
            marks!.append(mark)
            count += 1
        }

        /// Replaces the sample at `index` (below `count`).
        mutating func replace(at index: Int, with sample: TouchSample, fed: [Mark]) {
            let mark = Mark(sample)
            if marks == nil {
                if fed[index] == mark { return }
                marks = Array(fed[0..<count])
            }
            marks![index] = mark
        }

        /// How many leading samples delivered are the fed samples at their positions.
        func matching(_ fed: [Mark]) -> Int {
            guard let marks else { return count }
            var n = 0
            while n < marks.count, n < fed.count, marks[n] == fed[n] { n += 1 }
            return n
        }

        /// Whether what was delivered is an in-order prefix of what was fed.
        func isPrefix(of fed: [Mark]) -> Bool { count <= fed.count && matching(fed) == count }
    }

    /// One open touch: what was fed (position and time, once), how far each way out agrees
    /// with it, and the rest of its outcome. The delivered samples themselves are kept only
    /// when the outcome is to carry them (``keepsDeliveredSamples``).
    private struct Slot: Sendable {
        var id: TouchID
        var touch: PlatformTouchID
        var fed: [Mark]
        var downTime: Double
        var ink = Delivery()
        var page = Delivery()
        var verdict: HitTestVerdict?
        var reason: DecisionReason?
        var releasedNatively = false
        var cancelled = false
        var retracted = false
        var firstInkLatency: Double?
        /// The samples delivered, as they were (refinements included), when kept.
        var kept: (inked: [TouchSample], released: [TouchSample])?

        mutating func deliverInk(_ sample: TouchSample, now: Double) {
            if firstInkLatency == nil { firstInkLatency = max(0, now - downTime) }
            ink.append(sample, fed: fed)
            if kept != nil { kept!.inked.append(sample) }
        }

        mutating func refineInk(at index: Int, to sample: TouchSample) {
            guard index >= 0, index < ink.count else { return }
            ink.replace(at: index, with: sample, fed: fed)
            if kept != nil { kept!.inked[index] = sample }
        }

        mutating func release(_ sample: TouchSample, natively: Bool) {
            page.append(sample, fed: fed)
            if kept != nil { kept!.released.append(sample) }
            if natively { releasedNatively = true }
        }

        mutating func retractInk() {
            ink = Delivery()
            if kept != nil { kept!.inked.removeAll() }
            firstInkLatency = nil
            retracted = true
        }

        func outcome(finished: Bool) -> TouchOutcome {
            TouchOutcome(touch: touch, engineID: id, verdict: verdict, reason: reason, inked: kept?.inked ?? [],
                         released: kept?.released ?? [], releasedNatively: releasedNatively, samples: fed.count,
                         cancelled: cancelled, finished: finished, firstInkLatency: firstInkLatency, retracted: retracted)
        }
    }

    /// The open touches, in no particular order (a finished one's place goes to the last).
    private var slots: [Slot] = []
    /// Where each open touch's slot is.
    private var slotIndex: [TouchID: Int] = [:]
    /// The slot looked up last (most actions name the touch before them); checked by its id.
    private var recent = 0
    /// The first problems found (at most ``problemLimit``), as sentences.
    public private(set) var problems: [String] = []
    /// Every problem found, including those not kept.
    public private(set) var problemCount = 0
    /// The sum of the engine's ledgers of the touches that finished.
    public private(set) var finishedLedger = SampleLedger()
    /// The account rebuilt from the actions against the accepted samples, independent of
    /// the engine's counters.
    public private(set) var ledger = SampleLedger()
    /// Touches checked (finished, or closed).
    public private(set) var touchesChecked = 0
    /// How many problem sentences are kept.
    public static let problemLimit = 20

    /// How the engine audited routes touches: under ``TouchRouting/decideAtTouchDown`` the
    /// samples released after a decision are counted as replayed by the page script.
    public let routing: TouchRouting

    /// Whether the outcomes this audit returns carry the samples delivered
    /// (``TouchOutcome/inked`` and ``TouchOutcome/released``); off, they are empty and a
    /// touch costs the audit only the position and time of each of its samples. The check
    /// is the same either way. A change applies to the touches that begin after it.
    public var keepsDeliveredSamples: Bool

    /// Creates an audit that has seen nothing, for an engine with this routing (its
    /// `configuration.routing`; the default matches the engine's default), whose outcomes
    /// carry the samples delivered unless `keepsDeliveredSamples` is `false`.
    public init(routing: TouchRouting = .handOverAfterDecision, keepsDeliveredSamples: Bool = true) {
        self.routing = routing
        self.keepsDeliveredSamples = keepsDeliveredSamples
    }

    /// Touches begun and not finished yet.
    public var openTouches: Int { slots.count }
    /// Samples the engine accepted for touches that have not finished yet: pending, not
    /// missing (``health(against:)``).
    public private(set) var openSamples = 0

    /// Refused inputs seen, and the samples they carried.
    public private(set) var refusedInputs = 0

    /// Takes one engine event, in order. Returns the touch's outcome when the event
    /// finished it.
    @discardableResult
    public mutating func observe(_ event: EngineEvent) -> TouchOutcome? {
        switch event.kind {
        case let .took(touchEvent):
            if let touch = event.touch {
                accepted(touchEvent, as: touch)
            } else {
                problem("\(touchEvent.touch): an accepted event that names no engine touch")
            }
        case let .action(action):
            return record(action, now: event.time)
        case let .refused(input, _):
            refusedInputs += 1
            ledger.received += input.sampleCount
            ledger.refused += input.sampleCount
        case .send, .pageMessage, .layout, .newDocument, .viewResized, .replay, .pageTouch, .scrollPage, .zoomPage:
            break
        }
        return nil
    }

    /// Why the session does not verify against the engine's own ledger, in sentences;
    /// empty when it does: nothing was refused, every sample the engine took came out once
    /// and in order, nothing is pending, and the engine's ledger agrees with the actions.
    /// The one definition of "verified" that every replay and front end uses.
    public func verify(against engine: SampleLedger) -> [String] {
        var failures: [String] = []
        if problemCount > 0 { failures.append("\(problemCount) delivery problems: \(problems.first ?? "")") }
        if refusedInputs > 0 { failures.append("\(refusedInputs) inputs refused (\(ledger.refused) samples)") }
        if !ledger.isBalanced { failures.append("the audit's account does not balance: \(ledger)") }
        if !engine.isBalanced { failures.append("the engine's ledger does not balance: \(engine)") }
        if engine.received != ledger.received || engine.inked != ledger.inked || engine.released != ledger.released
            || engine.cancelled != ledger.cancelled || engine.refused != ledger.refused
            || engine.releasedNatively != ledger.releasedNatively || engine.replayed != ledger.replayed {
            failures.append("the engine's ledger \(engine) disagrees with the audit's \(ledger)")
        }
        return failures
    }

    /// Why the session is not healthy so far, in sentences, for a session still running:
    /// empty exactly while nothing was lost or miscounted. Unlike ``verify(against:)`` (the
    /// verdict on a finished session) it holds nothing against a session for being under
    /// way: samples of touches still down are pending, not missing, and a refused input is a
    /// refusal (counted in ``refusedInputs`` and the ledger's `refused`), not a failure.
    ///
    /// It reports: a delivery problem (a sample lost, invented, reordered, or sent both
    /// ways); the audit's account of the finished touches not balancing; the engine's
    /// ledger not balancing once its pending samples are counted; and the engine's counts
    /// of received and refused samples differing from what its events showed.
    public func health(against engine: SampleLedger) -> [String] {
        var failures: [String] = []
        if problemCount > 0 { failures.append("\(problemCount) delivery problems: \(problems.first ?? "")") }
        if !ledger.isBalanced { failures.append("the audit's account does not balance: \(ledger)") }
        if engine.dropped != 0 { failures.append("the engine's ledger loses samples: \(engine)") }
        if engine.received != ledger.received + openSamples {
            failures.append("the engine received \(engine.received) samples, its events showed \(ledger.received + openSamples) "
                            + "(\(openSamples) of touches still open)")
        }
        if engine.refused != ledger.refused {
            failures.append("the engine refused \(engine.refused) samples, its events showed \(ledger.refused)")
        }
        return failures
    }

    /// An event the engine accepted (call only when it did not refuse it) for its touch
    /// `id` (the engine's identifier; the event names the platform's).
    package mutating func accepted(_ event: TouchEvent, as id: TouchID) {
        if event.phase == .began {
            var slot = Slot(id: id, touch: event.touch, fed: [], downTime: event.samples.first?.timestamp ?? 0)
            slot.fed.reserveCapacity(max(16, event.samples.count))
            for sample in event.samples { slot.fed.append(Mark(sample)) }
            if keepsDeliveredSamples { slot.kept = ([], []) }
            if let i = slotIndex[id] {
                problem("\(id) began again before it finished")
                slots[i] = slot
            } else {
                slotIndex[id] = slots.count
                slots.append(slot)
            }
            openSamples += event.samples.count
        } else if let i = slot(of: id) {
            for sample in event.samples { slots[i].fed.append(Mark(sample)) }
            openSamples += event.samples.count
        } else {
            problem("\(id): an accepted \(event.phase) event for a touch that is not open")
        }
    }

    /// One action the engine produced, in order, at `now`. Returns the touch's outcome when
    /// the action finished it.
    @discardableResult
    package mutating func record(_ action: RouterAction, now: Double) -> TouchOutcome? {
        switch action {
        case let .decided(id, verdict, reason):
            guard let i = slot(of: id) else {
                problem("\(id): decided, but it is not open")
                return nil
            }
            slots[i].verdict = verdict
            slots[i].reason = reason
        case let .ink(id, sample):
            guard let i = slot(of: id) else {
                problem("\(id): ink for a touch that is not open")
                return nil
            }
            slots[i].deliverInk(sample, now: now)
        case let .refineInk(id, index, sample):
            // Refinements may follow a touch's end; they change no count.
            if let i = slot(of: id) { slots[i].refineInk(at: index, to: sample) }
        case let .release(id, sample):
            guard let i = slot(of: id) else {
                problem("\(id): a release for a touch that is not open")
                return nil
            }
            slots[i].release(sample, natively: false)
        case let .nativeRelease(id, sample):
            guard let i = slot(of: id) else {
                problem("\(id): a native release for a touch that is not open")
                return nil
            }
            slots[i].release(sample, natively: true)
        case let .retractInk(id):
            guard let i = slot(of: id) else {
                problem("\(id): a retraction for a touch that is not open")
                return nil
            }
            slots[i].retractInk()
        case let .cancel(id, _):
            guard let i = slot(of: id) else {
                problem("\(id): a cancel for a touch that is not open")
                return nil
            }
            slots[i].cancelled = true
        case let .touchFinished(id, engineLedger):
            guard let i = slot(of: id) else {
                problem("\(id): finished, but it is not open")
                return nil
            }
            let slot = removeSlot(at: i)
            check(slot, engineLedger: engineLedger)
            return slot.outcome(finished: true)
        case .queryPage, .abandonQuery, .predictInk, .endInk, .endRelease:
            break
        }
        return nil
    }

    /// Checks the touches that never finished (the session ended with them down) and
    /// returns their outcomes, in the order they began.
    public mutating func close() -> [TouchOutcome] {
        let rest = slots.sorted { $0.id.rawValue < $1.id.rawValue }
        slots.removeAll()
        slotIndex.removeAll()
        openSamples = 0
        for slot in rest { check(slot, engineLedger: nil) }
        return rest.map { $0.outcome(finished: false) }
    }

    private mutating func check(_ slot: Slot, engineLedger: SampleLedger?) {
        touchesChecked += 1
        let id = slot.id
        let n = slot.fed.count
        let ink = slot.ink, page = slot.page
        openSamples -= min(openSamples, n)
        let label = slot.touch.rawValue == id.rawValue ? "\(id)" : "\(slot.touch) (engine \(id.rawValue))"
        ledger.received += n
        if let engineLedger {
            finishedLedger += engineLedger
            if engineLedger.received != n { problem("\(label): ledger says \(engineLedger.received) received, \(n) were accepted") }
            if engineLedger.pending != 0 || engineLedger.dropped != 0 {
                problem("\(label): finished with \(engineLedger.pending) pending, \(engineLedger.dropped) dropped")
            }
        } else if slot.verdict == nil {
            problem("\(label): never decided")
        }
        if slot.cancelled {
            // What the page got before the cancel is released (by its way); the rest (queued
            // while undecided, or ink the cancel discarded) nobody got: cancelled.
            if ink.count != 0 && page.count != 0 {
                problem("\(label): samples went both to ink (\(ink.count)) and to the page (\(page.count))")
            }
            let shown = ink.count == 0 ? page : ink
            if !shown.isPrefix(of: slot.fed) {
                problem("\(label): cancelled, but what it showed is not an in-order prefix of its samples")
            }
            let reached = page.matching(slot.fed)
            countReleased(reached, natively: slot.releasedNatively)
            ledger.cancelled += n - reached
            if let engineLedger, engineLedger.released != reached || engineLedger.cancelled != n - reached {
                problem("\(label): cancelled after the page got \(reached) of \(n) samples, but the ledger counts "
                        + "\(engineLedger.released) released, \(engineLedger.cancelled) cancelled")
            } else if let engineLedger, engineLedger.releasedNatively != (slot.releasedNatively ? reached : 0) {
                problem("\(label): ledger counts \(engineLedger.releasedNatively) released natively, the actions \(reached)")
            }
            return
        }
        if ink.count != 0 && page.count != 0 {
            problem("\(label): samples went both to ink (\(ink.count)) and to the page (\(page.count))")
        }
        let delivered = ink.count == 0 ? page : ink
        if delivered.count == n && delivered.isPrefix(of: slot.fed) {
            if ink.count == 0 {
                countReleased(n, natively: slot.releasedNatively)
            } else {
                ledger.inked += n
            }
        } else {
            ledger.inked += ink.matching(slot.fed)
            ledger.released += page.matching(slot.fed)
            problem("\(label): \(n) samples accepted, \(delivered.count) delivered"
                    + (delivered.count == n ? ", out of order or altered" : ""))
        }
        if let engineLedger, slot.releasedNatively, engineLedger.releasedNatively != page.count {
            problem("\(label): ledger counts \(engineLedger.releasedNatively) released natively, the actions \(page.count)")
        }
        if let engineLedger, engineLedger.inked != ink.count || engineLedger.released != page.count {
            problem("\(label): ledger (\(engineLedger.inked) inked, \(engineLedger.released) released) disagrees with the actions "
                    + "(\(ink.count), \(page.count))")
        }
    }

    /// Counts `count` samples the page got, by their way: natively, replayed by the page
    /// script (decide-at-touch-down routing), or handed over.
    private mutating func countReleased(_ count: Int, natively: Bool) {
        ledger.released += count
        if natively { ledger.releasedNatively += count } else if routing == .decideAtTouchDown { ledger.replayed += count }
    }

    /// The slot of an open touch: the one last named without hashing, else by its index.
    private mutating func slot(of id: TouchID) -> Int? {
        if recent < slots.count, slots[recent].id == id { return recent }
        guard let index = slotIndex[id] else { return nil }
        recent = index
        return index
    }

    /// Takes a finished touch's slot out; the last slot moves into its place.
    private mutating func removeSlot(at index: Int) -> Slot {
        let last = slots.count - 1
        slots.swapAt(index, last)
        let slot = slots.removeLast()
        slotIndex[slot.id] = nil
        if index < last { slotIndex[slots[index].id] = index }
        return slot
    }

    private mutating func problem(_ text: String) {
        problemCount += 1
        if problems.count < Self.problemLimit { problems.append(text) }
    }
}
