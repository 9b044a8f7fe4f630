@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import HitTestBridge

/// The audit as it was before its slots (725ad65, unchanged but for its name and access):
/// every touch's samples kept twice, checked at the touch's end. The slot audit must give
/// the same verdicts, sentences, counts and outcomes on any sequence of actions, a broken
/// engine's included.
struct ReferenceAudit {
    private struct Flow: Sendable {
        var outcome: TouchOutcome
        var fed: [TouchSample]
        var downTime: Double
    }

    private var open: [TouchID: Flow] = [:]
    private var recent: (id: TouchID, index: Dictionary<TouchID, Flow>.Index)?
    var problems: [String] = []
    var problemCount = 0
    var finishedLedger = SampleLedger()
    var ledger = SampleLedger()
    var touchesChecked = 0
    static let problemLimit = 20

    let routing: TouchRouting

    init(routing: TouchRouting = .handOverAfterDecision) {
        self.routing = routing
    }

    var openTouches: Int { open.count }
    var openSamples = 0

    var refusedInputs = 0

    mutating func accepted(_ event: TouchEvent, as id: TouchID) {
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

    @discardableResult
    mutating func record(_ action: RouterAction, now: Double) -> TouchOutcome? {
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

    mutating func close() -> [TouchOutcome] {
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

    private mutating func countReleased(_ count: Int, natively: Bool) {
        ledger.released += count
        if natively { ledger.releasedNatively += count } else if routing == .decideAtTouchDown { ledger.replayed += count }
    }

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

    static func matchingPrefix(_ a: [TouchSample], _ b: [TouchSample]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n].x == b[n].x, a[n].y == b[n].y, a[n].timestamp == b[n].timestamp { n += 1 }
        return n
    }
}
