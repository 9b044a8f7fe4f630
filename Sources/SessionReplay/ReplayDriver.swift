@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

/// Drives `InkEngine` in simulated time: the one driver of the replays, the soak, the
/// browser replay and `ink-replay host`.
///
/// Inputs are scheduled at their times in a priority queue (O(log n) each) and taken in time
/// order; at the same instant, in the order they were scheduled. Each goes to the engine,
/// which first fires every deadline due by then (the tie-break rule written on
/// `InkEngine`); touches are named by the platform's (the log's) ids, and the engine maps
/// them. Every event the engine emits is folded into the audit (`DeliveryAudit`), the
/// first-ink counts and, when set, the ``timeline``.
///
/// ```swift
/// var driver = ReplayDriver(engine: InkEngine(seed: 1))
/// driver.schedule(.touch(down), at: 0)
/// var events: [EngineEvent] = []
/// while let step = driver.step(until: .infinity, into: &events) {
///     // events: what happened (answer a `.send` by scheduling a `.pageMessage`)
///     events.removeAll()
/// }
/// ```
public struct ReplayDriver: Sendable {
    /// The engine.
    @_spi(Tooling) public private(set) var engine: InkEngine
    /// The audit, counting the page's samples the way the engine routes them (natively at
    /// touch-down, replayed by the page script, or handed over).
    package private(set) var audit: DeliveryAudit
    private var queue = TimedQueue<EngineInput>()
    /// Touches that finished (or were closed by ``finish(runningDeadlines:into:)``), with what happened to
    /// them, while ``keepsOutcomes`` is on; in the order they finished.
    @_spi(Tooling) public private(set) var outcomes: [TouchOutcome] = []
    /// Whether `outcomes` keeps each touch's outcome (its samples included); off, memory
    /// stays flat over any session, and the audit keeps no delivered samples (a change
    /// applies to the touches that begin after it).
    public var keepsOutcomes: Bool {
        didSet { audit.keepsDeliveredSamples = keepsOutcomes }
    }
    /// Touches begun.
    public private(set) var touchesBegun = 0
    /// First-ink latencies of the touches that became ink, counted.
    public private(set) var firstInk = LatencyCounts()
    /// What happened to each touch and on the page over time, folded from every event while
    /// it is set (`nil`, the default, records nothing).
    public var timeline: DecisionTimeline?

    /// A driver of `engine`.
    @_spi(Tooling) public init(engine: InkEngine, keepsOutcomes: Bool = true) {
        self.engine = engine
        self.keepsOutcomes = keepsOutcomes
        audit = DeliveryAudit(routing: engine.configuration.routing, keepsDeliveredSamples: keepsOutcomes)
    }

    /// What one step delivered, and what came of it.
    public struct Step: Sendable {
        /// When it was delivered (the engine's time).
        public var time: Double
        /// The input, with touch ids as they were scheduled (the platform's).
        public var input: EngineInput
        /// The bridge's reading of a page message or a recorded answer, when the input was one.
        @_spi(Tooling) public var outcome: ReceiveOutcome?
        /// Why the input was refused, if it was; the input changed nothing but the ledger's
        /// refused count (deadlines due by its time fired first all the same).
        public var refusal: InputRefusal?
    }

    /// Samples of touch events the engine refused.
    public var refusedSamples: Int { engine.ledger.refused }

    /// Schedules an input at `time`.
    public mutating func schedule(_ input: EngineInput, at time: Double) { queue.schedule(input, at: time) }

    /// The time of the earliest scheduled input.
    public var nextInputTime: Double? { queue.nextTime }
    /// Inputs scheduled and not delivered yet.
    public var scheduledCount: Int { queue.count }
    /// Problems the audit found (the first ones), and how many in all.
    public var problems: (first: [String], count: Int) { (audit.problems, audit.problemCount) }
    /// The account rebuilt by the audit from the engine's events.
    public var auditLedger: SampleLedger { audit.ledger }
    /// Touches the audit checked.
    public var touchesChecked: Int { audit.touchesChecked }
    /// Touches begun and not finished.
    public var openTouches: Int { audit.openTouches }
    /// Why the replay does not verify (`DeliveryAudit.verify(against:)`); empty when it does.
    public var verificationFailures: [String] { audit.verify(against: engine.ledger) }

    /// Delivers the earliest scheduled input due at or before `time`, appending what
    /// happened to `events`; an engine deadline due before it (or at the same instant: the
    /// tie-break rule) comes first, as a `.tick` step at the deadline's time, so what the
    /// deadline did is seen, audited and timed when it happened. When nothing is due, lets
    /// the engine's time pass to `time` (when finite and later) and returns `nil`.
    public mutating func step(until time: Double, into events: inout [EngineEvent]) -> Step? {
        if let deadline = engine.nextDeadline, deadline.isFinite, deadline <= time, deadline <= queue.nextTime ?? .infinity {
            return deliver(.tick, at: max(deadline, engine.now), into: &events)
        }
        if let next = queue.take(dueBy: time) {
            return deliver(next.item, at: max(next.time, engine.now), into: &events)
        }
        if time.isFinite, time > engine.now {
            // No deadline is due by `time` (one due would have come first): time only passes,
            // as a `.tick` delivered would let it, without a step to make.
            let start = events.count
            engine.advance(to: time, into: &events)
            observe(&events, from: start)
        }
        return nil
    }

    /// Delivers an input now (one the caller orders itself).
    @discardableResult
    public mutating func deliver(_ input: consuming EngineInput, at time: Double, into events: inout [EngineEvent]) -> Step {
        let start = events.count
        engine.take(input, now: time, into: &events)
        var refusal: InputRefusal?
        var outcome: ReceiveOutcome?
        // One pass over what the engine did: the step's facts, then the audit.
        inPlace(&events, from: start) { driver, event in
            switch event.kind {
            case .took:
                if event.isTouchDown { driver.touchesBegun += 1 }
            case .refused:
                if case let .refused(_, reason) = event.kind { refusal = reason }
            case .pageMessage:
                if case let .pageMessage(_, read) = event.kind { outcome = read }
            default: break
            }
            driver.observe(event)
        }
        return Step(time: engine.now, input: input, outcome: outcome, refusal: refusal)
    }

    /// Delivers everything still scheduled; with `runningDeadlines`, lets time run on until
    /// no deadline is pending (a replayed session goes on after its last line); then settles
    /// every undecided touch by the fallback (the session is over) and closes the audit.
    public mutating func finish(runningDeadlines: Bool = true, into events: inout [EngineEvent]) {
        if runningDeadlines {
            while step(until: .infinity, into: &events) != nil {}
        } else {
            while let next = queue.nextTime, step(until: next, into: &events) != nil {}
        }
        let start = events.count
        engine.finish(into: &events)
        observe(&events, from: start)
        for outcome in audit.close() { finished(outcome) }
    }

    /// Finishes at `time` as a front end does when it calls `InkEngine.finish(into:)` (a
    /// recording's `finish` line): time passes to `time` (every deadline due by then fires),
    /// then every undecided touch is settled by the fallback; the session may go on.
    package mutating func settle(at time: Double, into events: inout [EngineEvent]) {
        let start = events.count
        engine.advance(to: time, into: &events)
        engine.finish(into: &events)
        observe(&events, from: start)
    }

    private mutating func observe(_ events: inout [EngineEvent], from start: Int) {
        inPlace(&events, from: start) { driver, event in driver.observe(event) }
    }

    /// Folds one event into the audit, the first-ink counts and the timeline.
    private mutating func observe(_ event: EngineEvent) {
        if let outcome = audit.observe(event) { finished(outcome) }
        if timeline != nil { timeline!.observe(event) }
    }

    /// Calls `body` with each event of `events` from `start` on, in order, where it lies: the
    /// event is moved out of the array and back (bitwise), not copied. A copy of an event
    /// (its kind switched on, its payload retained, then released) cost about 250
    /// instructions, two a line of a replayed log.
    private mutating func inPlace(_ events: inout [EngineEvent], from start: Int,
                                  _ body: (inout ReplayDriver, EngineEvent) -> Void) {
        guard start < events.count else { return }
        events.withUnsafeMutableBufferPointer { buffer in
            let first = buffer.baseAddress!
            for index in start..<buffer.count {
                let event = (first + index).move()
                body(&self, event)
                (first + index).initialize(to: consume event)
            }
        }
    }

    private mutating func finished(_ outcome: TouchOutcome) {
        if let latency = outcome.firstInkLatency { firstInk.record(latency) }
        if keepsOutcomes { outcomes.append(outcome) }
    }
}

/// Latencies counted to the microsecond: exact percentiles in memory bounded by the largest
/// latency, not by the number of touches.
public struct LatencyCounts: Sendable, Hashable {
    private var counts: [Int64: Int] = [:]
    /// How many latencies were recorded.
    public private(set) var count = 0

    /// An empty count.
    public init() {}

    /// Counts one latency, in seconds. A latency beyond what an `Int64` of microseconds holds
    /// (about 9.2e12 s, 292,000 years: a log whose samples lie that far before their event)
    /// counts as that largest value, `+infinity` too, and NaN as 0: the figure is only
    /// reported, and the replay goes on (it used to stop the process).
    public mutating func record(_ seconds: Double) {
        counts[Int64(saturating: seconds * 1e6, rounding: .toNearestOrAwayFromZero), default: 0] += 1
        count += 1
    }

    /// Adds another count.
    public mutating func merge(_ other: LatencyCounts) {
        counts.merge(other.counts, uniquingKeysWith: +)
        count += other.count
    }

    /// The counts by latency in whole microseconds (as recorded: rounded, saturated),
    /// ascending: what a shard's `run --json` report carries, so that merging the shards
    /// gives the percentiles of one run.
    package var microsecondCounts: [(microseconds: Int64, count: Int)] {
        counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Counts `count` latencies of `microseconds` each, as ``microsecondCounts`` lists them.
    package mutating func record(microseconds: Int64, count: Int) {
        counts[microseconds, default: 0] += count
        self.count += count
    }

    /// Nearest-rank percentiles, in seconds (`nil` when nothing was recorded).
    public var percentiles: Percentiles? {
        guard count > 0 else { return nil }
        let sorted = counts.sorted { $0.key < $1.key }
        var ends: [Int] = []   // the rank just past each distinct value
        var total = 0
        for (_, n) in sorted {
            total += n
            ends.append(total)
        }
        return Percentiles(count: count) { rank in
            var low = 0, high = ends.count - 1
            while low < high {
                let mid = (low + high) / 2
                if ends[mid] > rank { high = mid } else { low = mid + 1 }
            }
            return Double(sorted[low].key) / 1e6
        }
    }
}
