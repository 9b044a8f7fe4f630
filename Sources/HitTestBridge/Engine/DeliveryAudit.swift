@_spi(Tooling) @_spi(FrontEnd) import InkCore

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
/// session of any length, live in an app as well as in a replay. Feed it every event in
/// order (``observe(_:)``); at the end, ``close()`` checks the touches that never finished,
/// and ``verify(against:)`` is the one definition of a verified session.
///
/// ```swift
/// var audit = DeliveryAudit()
/// for event in events { audit.observe(event) }
/// let failures = audit.verify(against: engine.ledger)   // empty: every sample accounted for
/// ```
@_spi(Tooling) public struct DeliveryAudit: Sendable {
    private struct Flow: Sendable {
        var outcome: TouchOutcome
        var fed: [TouchSample]
        var downTime: Double
    }

    private var open: [TouchID: Flow] = [:]
    /// The touch looked up last and its entry in `open` (most actions name the touch before
    /// them): valid until a touch is added or removed, which clear it; values changed in
    /// place through the index keep it valid.
    private var recent: (id: TouchID, index: Dictionary<TouchID, Flow>.Index)?
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

    /// Creates an audit that has seen nothing, for an engine with this routing (its
    /// `configuration.routing`; the default matches the engine's default).
    public init(routing: TouchRouting = .handOverAfterDecision) {
        self.routing = routing
    }

    /// Touches begun and not finished yet.
    public var openTouches: Int { open.count }
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
        case .send, .pageMessage, .layout, .newDocument, .viewResized, .replay, .scrollPage:
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
            if open[id] != nil { problem("\(id) began again before it finished") }
            let outcome = TouchOutcome(touch: event.touch, engineID: id, samples: event.samples.count)
            recent = nil
            open[id] = Flow(outcome: outcome, fed: event.samples, downTime: event.samples.first?.timestamp ?? 0)
            openSamples += event.samples.count
        } else if let i = entry(id) {
            // One lookup, then in place through the index (no copy of the touch's samples).
            open.values[i].fed.append(contentsOf: event.samples)
            openSamples += event.samples.count
            open.values[i].outcome.samples += event.samples.count
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
            guard open[id] != nil else {
                problem("\(id): decided, but it is not open")
                return nil
            }
            open[id]!.outcome.verdict = verdict
            open[id]!.outcome.reason = reason
        case let .ink(id, sample):
            guard let i = entry(id) else {
                problem("\(id): ink for a touch that is not open")
                return nil
            }
            if open.values[i].outcome.firstInkLatency == nil {
                open.values[i].outcome.firstInkLatency = max(0, now - open.values[i].downTime)
            }
            open.values[i].outcome.inked.append(sample)   // in place: no copy of the touch's samples
        case let .refineInk(id, index, sample):
            // Refinements may follow a touch's end; they change no count.
            if open[id]?.outcome.inked.indices.contains(index) == true { open[id]!.outcome.inked[index] = sample }
        case let .release(id, sample):
            guard let i = entry(id) else {
                problem("\(id): a release for a touch that is not open")
                return nil
            }
            open.values[i].outcome.released.append(sample)
        case let .nativeRelease(id, sample):
            guard open[id] != nil else {
                problem("\(id): a native release for a touch that is not open")
                return nil
            }
            open[id]!.outcome.released.append(sample)
            open[id]!.outcome.releasedNatively = true
        case let .retractInk(id):
            guard open[id] != nil else {
                problem("\(id): a retraction for a touch that is not open")
                return nil
            }
            open[id]!.outcome.inked.removeAll()
            open[id]!.outcome.firstInkLatency = nil
            open[id]!.outcome.retracted = true
        case let .cancel(id, _):
            guard open[id] != nil else {
                problem("\(id): a cancel for a touch that is not open")
                return nil
            }
            open[id]!.outcome.cancelled = true
        case let .touchFinished(id, engineLedger):
            recent = nil
            guard var flow = open.removeValue(forKey: id) else {
                problem("\(id): finished, but it is not open")
                return nil
            }
            flow.outcome.finished = true
            check(id, flow, engineLedger: engineLedger)
            return flow.outcome
        case .queryPage, .abandonQuery, .predictInk, .endInk, .endRelease:
            break
        }
        return nil
    }

    /// Checks the touches that never finished (the session ended with them down) and
    /// returns their outcomes, in the order they began.
    public mutating func close() -> [TouchOutcome] {
        let rest = open.sorted { $0.key.rawValue < $1.key.rawValue }
        open.removeAll()
        openSamples = 0
        recent = nil
        for (id, flow) in rest { check(id, flow, engineLedger: nil) }
        return rest.map(\.value.outcome)
    }

    private mutating func check(_ id: TouchID, _ flow: Flow, engineLedger: SampleLedger?) {
        touchesChecked += 1
        let outcome = flow.outcome
        let n = flow.fed.count
        openSamples -= min(openSamples, n)
        let label = outcome.touch.rawValue == id.rawValue ? "\(id)" : "\(outcome.touch) (engine \(id.rawValue))"
        ledger.received += n
        if let engineLedger {
            finishedLedger += engineLedger
            if engineLedger.received != n { problem("\(label): ledger says \(engineLedger.received) received, \(n) were accepted") }
            if engineLedger.pending != 0 || engineLedger.dropped != 0 {
                problem("\(label): finished with \(engineLedger.pending) pending, \(engineLedger.dropped) dropped")
            }
        } else if outcome.verdict == nil {
            problem("\(label): never decided")
        }
        if outcome.cancelled {
            // What the page got before the cancel is released (by its way); the rest (queued
            // while undecided, or ink the cancel discarded) nobody got: cancelled.
            if !outcome.inked.isEmpty && !outcome.released.isEmpty {
                problem("\(label): samples went both to ink (\(outcome.inked.count)) and to the page (\(outcome.released.count))")
            }
            let shown = outcome.inked.isEmpty ? outcome.released : outcome.inked
            if !Self.isPrefix(shown, of: flow.fed) {
                problem("\(label): cancelled, but what it showed is not an in-order prefix of its samples")
            }
            let page = Self.matchingPrefix(outcome.released, flow.fed)
            countReleased(page, natively: outcome.releasedNatively)
            ledger.cancelled += n - page
            if let engineLedger, engineLedger.released != page || engineLedger.cancelled != n - page {
                problem("\(label): cancelled after the page got \(page) of \(n) samples, but the ledger counts "
                        + "\(engineLedger.released) released, \(engineLedger.cancelled) cancelled")
            } else if let engineLedger, engineLedger.releasedNatively != (outcome.releasedNatively ? page : 0) {
                problem("\(label): ledger counts \(engineLedger.releasedNatively) released natively, the actions \(page)")
            }
            return
        }
        if !outcome.inked.isEmpty && !outcome.released.isEmpty {
            problem("\(label): samples went both to ink (\(outcome.inked.count)) and to the page (\(outcome.released.count))")
        }
        let delivered = outcome.inked.isEmpty ? outcome.released : outcome.inked
        if delivered.count == n && Self.isPrefix(delivered, of: flow.fed) {
            if outcome.inked.isEmpty {
                countReleased(n, natively: outcome.releasedNatively)
            } else {
                ledger.inked += n
            }
        } else {
            ledger.inked += Self.matchingPrefix(outcome.inked, flow.fed)
            ledger.released += Self.matchingPrefix(outcome.released, flow.fed)
            problem("\(label): \(n) samples accepted, \(delivered.count) delivered"
                    + (delivered.count == n ? ", out of order or altered" : ""))
        }
        if let engineLedger, outcome.releasedNatively, engineLedger.releasedNatively != outcome.released.count {
            problem("\(label): ledger counts \(engineLedger.releasedNatively) released natively, the actions \(outcome.released.count)")
        }
        if let engineLedger, engineLedger.inked != outcome.inked.count || engineLedger.released != outcome.released.count {
            problem("\(label): ledger (\(engineLedger.inked) inked, \(engineLedger.released) released) disagrees with the actions "
                    + "(\(outcome.inked.count), \(outcome.released.count))")
        }
    }

    /// Counts `count` samples the page got, by their way: natively, replayed by the page
    /// script (decide-at-touch-down routing), or handed over.
    private mutating func countReleased(_ count: Int, natively: Bool) {
        ledger.released += count
        if natively { ledger.releasedNatively += count } else if routing == .decideAtTouchDown { ledger.replayed += count }
    }

    /// The entry of an open touch, found through ``recent`` when it is the touch last named.
    private mutating func entry(_ id: TouchID) -> Dictionary<TouchID, Flow>.Index? {
        if let recent, recent.id == id { return recent.index }
        guard let index = open.index(forKey: id) else { return nil }
        recent = (id, index)
        return index
    }

    private mutating func problem(_ text: String) {
        problemCount += 1
        if problems.count < Self.problemLimit { problems.append(text) }
    }

    private static func isPrefix(_ a: [TouchSample], of b: [TouchSample]) -> Bool {
        a.count <= b.count && matchingPrefix(a, b) == a.count
    }

    /// How many leading samples of `a` and `b` are the same sample: same position and time
    /// (estimated-property updates may have refined the rest).
    package static func matchingPrefix(_ a: [TouchSample], _ b: [TouchSample]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n].x == b[n].x, a[n].y == b[n].y, a[n].timestamp == b[n].timestamp { n += 1 }
        return n
    }
}
