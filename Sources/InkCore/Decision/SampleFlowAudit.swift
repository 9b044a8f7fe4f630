/// Checks, as a stream, that the router loses, reorders and invents nothing: every sample
/// of an accepted event comes out once, in order, to the ink or to the page (or is
/// cancelled), and each touch's final ledger says so.
///
/// Used by the fuzz targets, the soak run and tests. It keeps only the touches that have
/// not finished, so it runs in flat memory over sessions of any length. Feed it every
/// event the router accepted (``accepted(_:)``) and every action it produced, in order
/// (``record(_:)``).
package struct SampleFlowAudit: Sendable {
    private struct Flow: Sendable {
        var fed: [TouchSample] = []
        var inked: [TouchSample] = []
        var released: [TouchSample] = []
        var cancelled = false
    }

    private var open: [TouchID: Flow] = [:]
    /// The first problems found (at most ``problemLimit``), as sentences.
    package private(set) var problems: [String] = []
    /// Every problem found, including those not kept.
    package private(set) var problemCount = 0
    /// The sum of the ledgers of the touches that finished.
    package private(set) var finishedLedger = SampleLedger()
    /// Touches that finished and were checked.
    package private(set) var touchesChecked = 0
    /// How many problem sentences are kept.
    package static let problemLimit = 20

    package init() {}

    /// Touches begun and not finished yet.
    package var openTouches: Int { open.count }

    /// An event the router accepted (call only when `handle` did not throw).
    package mutating func accepted(_ event: TouchEvent) {
        if event.phase == .began {
            if open[event.touch] != nil { problem("\(event.touch) began again before it finished") }
            open[event.touch] = Flow(fed: event.samples)
        } else if open[event.touch] != nil {
            open[event.touch]!.fed.append(contentsOf: event.samples)
        } else {
            problem("\(event.touch): an accepted \(event.phase) event for a touch that is not open")
        }
    }

    /// One action the router produced, in order.
    package mutating func record(_ action: RouterAction) {
        switch action {
        case let .ink(id, sample):
            guard open[id] != nil else { return problem("\(id): ink for a touch that is not open") }
            open[id]!.inked.append(sample)
        case let .release(id, sample):
            guard open[id] != nil else { return problem("\(id): a release for a touch that is not open") }
            open[id]!.released.append(sample)
        case let .retractInk(id):
            guard open[id] != nil else { return problem("\(id): a retraction for a touch that is not open") }
            open[id]!.inked.removeAll()
        case let .cancel(id, _):
            guard open[id] != nil else { return problem("\(id): a cancel for a touch that is not open") }
            open[id]!.cancelled = true
        case let .touchFinished(id, ledger):
            guard let flow = open.removeValue(forKey: id) else { return problem("\(id): finished, but it is not open") }
            check(id, flow, ledger)
        case .queryPage, .decided, .abandonQuery, .predictInk, .refineInk, .endInk, .endRelease:
            break
        }
    }

    private mutating func check(_ id: TouchID, _ flow: Flow, _ ledger: SampleLedger) {
        touchesChecked += 1
        finishedLedger += ledger
        let n = flow.fed.count
        if ledger.received != n { problem("\(id): ledger says \(ledger.received) received, \(n) were accepted") }
        if ledger.pending != 0 || ledger.dropped != 0 { problem("\(id): finished with \(ledger.pending) pending, \(ledger.dropped) dropped") }
        if flow.cancelled {
            let shown = flow.inked.isEmpty ? flow.released : flow.inked
            if !Self.isPrefix(shown, of: flow.fed) { problem("\(id): cancelled, but what it showed is not an in-order prefix of its samples") }
            if ledger.cancelled != n { problem("\(id): cancelled, but the ledger counts \(ledger.cancelled) of \(n) cancelled") }
            return
        }
        if !flow.inked.isEmpty && !flow.released.isEmpty {
            problem("\(id): samples went both to ink (\(flow.inked.count)) and to the page (\(flow.released.count))")
        }
        let delivered = flow.inked.isEmpty ? flow.released : flow.inked
        if delivered.count != n || !Self.isPrefix(delivered, of: flow.fed) {
            problem("\(id): \(n) samples accepted, \(delivered.count) delivered, or not in order")
        }
        if ledger.inked != flow.inked.count || ledger.released != flow.released.count {
            problem("\(id): ledger (\(ledger.inked) inked, \(ledger.released) released) disagrees with the actions (\(flow.inked.count), \(flow.released.count))")
        }
    }

    private mutating func problem(_ text: String) {
        problemCount += 1
        if problems.count < Self.problemLimit { problems.append(text) }
    }

    private static func isPrefix(_ a: [TouchSample], of b: [TouchSample]) -> Bool {
        a.count <= b.count && matchingPrefix(a, b) == a.count
    }

    /// How many leading samples of `a` and `b` are the same sample: same position and time
    /// (estimated-property updates may have refined the rest). Shared with the replay audit.
    package static func matchingPrefix(_ a: [TouchSample], _ b: [TouchSample]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n].x == b[n].x, a[n].y == b[n].y, a[n].timestamp == b[n].timestamp { n += 1 }
        return n
    }
}
