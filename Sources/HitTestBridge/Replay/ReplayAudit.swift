import InkCore

/// What happened to one touch of a replayed log, rebuilt from the engine's actions alone.
public struct TouchOutcome: Sendable, Hashable {
    /// The touch's id in the log.
    public var touch: TouchID
    /// Who got the touch (`nil` when it was cancelled before a decision).
    public var verdict: HitTestVerdict?
    /// Why, when decided.
    public var reason: DecisionReason?
    /// The samples that ended up as ink, in order (empty after a retraction).
    public var inked: [TouchSample] = []
    /// The samples handed to the page, in order.
    public var released: [TouchSample] = []
    /// `true` when the system cancelled the touch.
    public var cancelled = false
    /// `true` once the engine reported the touch finished.
    public var finished = false
    /// Seconds from touch-down to the first sample becoming ink (simulated time), for
    /// touches that became ink.
    public var firstInkLatency: Double?
    /// `true` when the touch's ink was retracted for a gesture.
    public var retracted = false
}

/// Folds the engine's actions per touch and checks them against the log's own samples:
/// an account of every sample that does not trust the engine's counters.
struct ReplayAudit {
    private(set) var outcomes: [TouchOutcome] = []
    /// The samples the engine accepted for each occurrence, straight from the log.
    private var expected: [[TouchSample]] = []
    private var downTimes: [Double] = []

    /// Registers the next touch occurrence `n` (engine id n + 1) as the engine accepts
    /// its `began` event.
    mutating func began(touch: TouchID, downTime: Double) {
        outcomes.append(TouchOutcome(touch: touch))
        expected.append([])
        downTimes.append(downTime)
    }

    /// Notes the log samples of an event the engine accepted for engine touch `id`.
    mutating func fed(_ samples: [TouchSample], to id: TouchID) {
        expected[Self.occurrence(id)].append(contentsOf: samples)
    }

    /// Records one engine action at simulated time `now`.
    mutating func record(_ action: RouterAction, now: Double) {
        switch action {
        case let .decided(id, verdict, reason):
            let n = Self.occurrence(id)
            outcomes[n].verdict = verdict
            outcomes[n].reason = reason
        case let .ink(id, sample):
            let n = Self.occurrence(id)
            if outcomes[n].firstInkLatency == nil { outcomes[n].firstInkLatency = max(0, now - downTimes[n]) }
            outcomes[n].inked.append(sample)
        case let .refineInk(id, index, sample):
            let n = Self.occurrence(id)
            if outcomes[n].inked.indices.contains(index) { outcomes[n].inked[index] = sample }
        case let .retractInk(id):
            let n = Self.occurrence(id)
            outcomes[n].inked.removeAll()
            outcomes[n].firstInkLatency = nil
            outcomes[n].retracted = true
        case let .release(id, sample):
            outcomes[Self.occurrence(id)].released.append(sample)
        case let .cancel(id, _):
            outcomes[Self.occurrence(id)].cancelled = true
        case let .touchFinished(id, _):
            outcomes[Self.occurrence(id)].finished = true
        case .queryPage, .abandonQuery, .predictInk, .endInk, .endRelease:
            break
        }
    }

    /// Engine ids are occurrence numbers + 1, so reused log ids never collide.
    static func occurrence(_ id: TouchID) -> Int { Int(id.rawValue) - 1 }
    static func engineID(occurrence n: Int) -> TouchID { TouchID(UInt64(n + 1)) }

    /// Compares each touch's outcome with the log samples the engine accepted for it.
    func check() -> (ledger: SampleLedger, problems: [String]) {
        var ledger = SampleLedger()
        var problems: [String] = []
        for (n, samples) in expected.enumerated() {
            let entry = (touch: outcomes[n].touch, samples: samples)
            ledger.received += samples.count
            let outcome = outcomes[n]
            let label = "\(entry.touch) (#\(n + 1))"
            if !outcome.finished, outcome.verdict == nil {
                problems.append("\(label): never decided")
            }
            if outcome.cancelled {
                let shown = outcome.inked.isEmpty ? outcome.released : outcome.inked
                if !Self.samePrefix(shown, of: entry.samples) {
                    problems.append("\(label): cancelled, but what it showed is not an in-order prefix of its samples")
                }
                ledger.cancelled += entry.samples.count
                continue
            }
            if !outcome.inked.isEmpty && !outcome.released.isEmpty {
                problems.append("\(label): samples went both to ink (\(outcome.inked.count)) and to the page (\(outcome.released.count))")
            }
            let delivered = outcome.inked.isEmpty ? outcome.released : outcome.inked
            if Self.same(delivered, entry.samples) {
                if outcome.inked.isEmpty { ledger.released += delivered.count } else { ledger.inked += delivered.count }
            } else {
                ledger.inked += SampleFlowAudit.matchingPrefix(outcome.inked, entry.samples)
                ledger.released += SampleFlowAudit.matchingPrefix(outcome.released, entry.samples)
                problems.append("\(label): \(entry.samples.count) samples in the log, \(delivered.count) delivered"
                                + (delivered.count == entry.samples.count ? " out of order or altered" : ""))
            }
        }
        return (ledger, problems)
    }

    /// Same position and time for every sample, in order (force may have been refined).
    static func same(_ a: [TouchSample], _ b: [TouchSample]) -> Bool {
        a.count == b.count && SampleFlowAudit.matchingPrefix(a, b) == a.count
    }

    static func samePrefix(_ a: [TouchSample], of b: [TouchSample]) -> Bool {
        a.count <= b.count && SampleFlowAudit.matchingPrefix(a, b) == a.count
    }

}
