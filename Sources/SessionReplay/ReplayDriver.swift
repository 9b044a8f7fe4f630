import HitTestBridge
import InkCore

/// Drives `EngineHost` in simulated time: the one driver of the replays, the soak, the
/// browser replay and `ink-replay host`; and, through ``deliver(_:at:into:)`` in wall-clock
/// time, of the native GTK front end (`Integrations/GTK`), which is audited live.
///
/// Inputs are scheduled at their times in a priority queue (O(log n) each) and taken in time
/// order; at the same instant, in the order they were scheduled. Each goes through
/// `EngineHost.deliver(_:now:into:)`, which first fires every deadline due by then (the
/// tie-break rule written on `EngineHost`). Touch events, updates and recorded answers name
/// touches by the platform's (or the log's) ids; the driver maps them to engine ids with
/// `TouchIdentities`, the one touch-id rule. Every engine action the host emits is checked
/// by the audit, the one statement of the delivery rules, as it comes out.
///
/// ```swift
/// var driver = ReplayDriver(host: EngineHost(seed: 1))
/// driver.schedule(.touch(down), at: 0)
/// var output: [HostOutput] = []
/// while let step = driver.step(until: .infinity, into: &output) {
///     // output: what the host asked for (answer `.send` by scheduling a `.pageMessage`)
///     output.removeAll()
/// }
/// ```
public struct ReplayDriver: Sendable {
    /// The engine and the bridge.
    public private(set) var host: EngineHost
    /// Platform touch ids to the engine's. A touch the engine finished in a step keeps its
    /// platform id here until the next step, so the step's output can still be named.
    public private(set) var identities = TouchIdentities()
    private var finishedInLastStep: [TouchID] = []
    package private(set) var audit = SampleFlowAudit()
    private var queue = TimedQueue<HostInput>()
    /// Samples of touch events the host refused.
    public private(set) var refusedSamples = 0
    /// Touches that finished (or were closed by ``finish(runningDeadlines:into:)``), with what happened to
    /// them, while ``keepsOutcomes`` is on; in the order they finished.
    public private(set) var outcomes: [TouchOutcome] = []
    /// Whether ``outcomes`` keeps each touch's outcome (its samples included); off, memory
    /// stays flat over any session.
    public var keepsOutcomes: Bool
    /// Touches begun.
    public private(set) var touchesBegun = 0
    /// First-ink latencies of the touches that became ink, counted.
    public private(set) var firstInk = LatencyCounts()
    /// What happened to each touch and on the page over time, recorded from every step while
    /// it is set (`nil`, the default, records nothing).
    public var timeline: DecisionTimeline?

    /// A driver of `host`.
    public init(host: EngineHost, keepsOutcomes: Bool = true) {
        self.host = host
        self.keepsOutcomes = keepsOutcomes
    }

    /// What one step delivered, and what came of it.
    public struct Step: Sendable {
        /// When it was delivered (the host's time).
        public var time: Double
        /// The input, with touch ids as they were scheduled (the platform's).
        public var input: HostInput
        /// The bridge's reading of a page message or a recorded answer, when the input was one.
        public var outcome: ReceiveOutcome?
        /// Why the input was refused, if it was; the input changed nothing (deadlines due by
        /// its time fired first all the same; their actions are in the output and the audit).
        public var refusal: ReplayRefusal?
    }

    /// Schedules an input at `time`.
    public mutating func schedule(_ input: HostInput, at time: Double) { queue.schedule(input, at: time) }

    /// The time of the earliest scheduled input.
    public var nextInputTime: Double? { queue.nextTime }
    /// Inputs scheduled and not delivered yet.
    public var scheduledCount: Int { queue.count }
    /// Problems the audit found (the first ones), and how many in all.
    public var problems: (first: [String], count: Int) { (audit.problems, audit.problemCount) }
    /// The account rebuilt by the audit from the engine's actions.
    public var auditLedger: SampleLedger { audit.ledger }
    /// Touches the audit checked.
    public var touchesChecked: Int { audit.touchesChecked }
    /// Touches begun and not finished.
    public var openTouches: Int { audit.openTouches }

    /// Delivers the earliest scheduled input due at or before `time`, appending what the host
    /// asks for to `output`; a host deadline due before it (or at the same instant: the
    /// tie-break rule) comes first, as a `.tick` step at the deadline's time, so what the
    /// deadline did is seen, audited and timed when it happened. When nothing is due, lets
    /// the host's time pass to `time` (when finite and later) and returns `nil`.
    public mutating func step(until time: Double, into output: inout [HostOutput]) -> Step? {
        if let deadline = host.nextDeadline, deadline.isFinite, deadline <= time, deadline <= queue.nextTime ?? .infinity {
            return deliver(.tick, at: max(deadline, host.now), into: &output)
        }
        if let next = queue.take(dueBy: time) {
            return deliver(next.item, at: max(next.time, host.now), into: &output)
        }
        if time.isFinite, time > host.now { _ = deliver(.tick, at: time, into: &output) }
        return nil
    }

    /// Delivers an input now (a live front end's input, or one the caller orders itself).
    @discardableResult
    public mutating func deliver(_ input: HostInput, at time: Double, into output: inout [HostOutput]) -> Step {
        for id in finishedInLastStep { identities.finished(id) }
        finishedInLastStep.removeAll(keepingCapacity: true)
        let start = output.count
        var step = Step(time: time, input: input)
        // The input as the engine knows it (engine touch ids), for the timeline.
        var delivered = input
        var platformID: UInt64?
        do throws(ReplayRefusal) {
            switch input {
            case let .touch(event):
                let platform = event.touch.rawValue
                let id: TouchID
                do { id = try identities.resolve(platform, phase: event.phase) } catch { throw .identity(error) }
                var mapped = event
                mapped.touch = id
                delivered = .touch(mapped)
                platformID = platform
                do { try host.deliver(.touch(mapped), now: time, into: &output) } catch {
                    // A touch the engine already finished (evicted at its bound) still frees
                    // its platform id when the platform ends it.
                    if case .engine(.unknownTouch) = error, event.phase == .ended || event.phase == .cancelled {
                        _ = identities.engineID(for: platform, phase: event.phase)
                    }
                    throw .host(error.replacingTouch(event.touch))
                }
                _ = identities.engineID(for: platform, phase: event.phase)
                audit.accepted(mapped, platformID: platform)
                if event.phase == .began { touchesBegun += 1 }
            case let .update(update):
                guard let id = identities.latestID(for: update.touch.rawValue) else {
                    throw .host(.engine(.unknownTouch(update.touch)))
                }
                var mapped = update
                mapped.touch = id
                do { try host.deliver(.update(mapped), now: time, into: &output) } catch { throw .host(error.replacingTouch(update.touch)) }
            case let .recordedAnswer(touch, verdict):
                // An answer naming no touch still reaches the bridge, under an id never issued.
                let id = identities.latestID(for: touch.rawValue) ?? TouchID(.max)
                delivered = .recordedAnswer(touch: id, verdict: verdict)
                do { step.outcome = try host.deliver(delivered, now: time, into: &output) } catch { throw .host(error) }
            default:
                do { step.outcome = try host.deliver(input, now: time, into: &output) } catch { throw .host(error) }
            }
        } catch {
            if case let .touch(event) = input { refusedSamples += event.samples.count }
            step.refusal = error
        }
        step.time = host.now
        audit(output[start...], now: host.now)
        timeline?.record(delivered, platformID: platformID, at: host.now, outcome: step.outcome, refusal: step.refusal,
                         output: output[start...])
        return step
    }

    /// Delivers everything still scheduled; with `runningDeadlines`, lets time run on until
    /// no deadline is pending (a replayed session goes on after its last line); then settles
    /// every undecided touch by the fallback (the session is over) and closes the audit.
    public mutating func finish(runningDeadlines: Bool = true, into output: inout [HostOutput]) {
        if runningDeadlines {
            while step(until: .infinity, into: &output) != nil {}
        } else {
            while let next = queue.nextTime, step(until: next, into: &output) != nil {}
        }
        let start = output.count
        host.finish(into: &output)
        audit(output[start...], now: host.now)
        timeline?.record(.tick, platformID: nil, at: host.now, outcome: nil, refusal: nil, output: output[start...])
        for outcome in audit.close() { finished(outcome) }
    }

    private mutating func audit(_ items: ArraySlice<HostOutput>, now: Double) {
        for item in items {
            guard case let .engine(action) = item else { continue }
            if let outcome = audit.record(action, now: now) { finished(outcome) }
            if case let .touchFinished(id, _) = action { finishedInLastStep.append(id) }
        }
    }

    private mutating func finished(_ outcome: TouchOutcome) {
        if let latency = outcome.firstInkLatency { firstInk.record(latency) }
        if keepsOutcomes { outcomes.append(outcome) }
    }
}

/// Why ``ReplayDriver`` refused an input; the input changed nothing.
public enum ReplayRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The event names no touch it could belong to (the one touch-id rule).
    case identity(TouchIdentityError)
    /// The host refused it.
    case host(HostError)

    /// The sentence every host and replay reports.
    public var description: String {
        switch self {
        case let .identity(error): return error.description
        case let .host(error): return error.description
        }
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

    /// Counts one latency, in seconds.
    public mutating func record(_ seconds: Double) {
        counts[Int64((seconds * 1e6).rounded()), default: 0] += 1
        count += 1
    }

    /// Adds another count.
    public mutating func merge(_ other: LatencyCounts) {
        counts.merge(other.counts, uniquingKeysWith: +)
        count += other.count
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
