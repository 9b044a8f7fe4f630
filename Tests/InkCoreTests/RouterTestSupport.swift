import Testing
@_spi(Tooling) import InkCore

// Shared helpers for the TouchRouter suites: sample and event builders, a deterministic
// generator, a check that refused input changed nothing, and an independent fold of the
// action stream per touch.

// MARK: - Deterministic randomness

/// Test helpers on the library's seeded generator, so a failing property-test session can
/// be replayed from its seed.
extension SplitMix64 {
    /// Uniform in `range`.
    mutating func range(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Uniform in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty collection.
    mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + Int(next() % UInt64(items.count))]
    }
}

// MARK: - Building input

/// `count` samples of one touch, 1/240 s apart from `start`, moving right from (`x`, `y`),
/// so every sample of a test is distinct.
func strokeSamples(
    _ count: Int, from start: Double, every step: Double = 1.0 / 240, tool: ToolKind = .finger,
    x: Double = 100, y: Double = 200, force: Double? = nil
) -> [TouchSample] {
    (0..<count).map { i in
        TouchSample(x: x + Double(i), y: y, timestamp: start + Double(i) * step, force: force, tool: tool)
    }
}

/// One sample.
func sample(_ timestamp: Double, x: Double = 50, y: Double = 60, tool: ToolKind = .finger,
            force: Double? = nil, update: UInt64? = nil) -> TouchSample {
    TouchSample(x: x, y: y, timestamp: timestamp, force: force, tool: tool, estimationUpdateIndex: update)
}

/// The router's tests drive it alone, under engine ids they never reuse before a touch
/// finished: each event names the platform touch with the same number
/// (`TouchRouter.handle(_:routedToPage:into:)` takes it as that engine id).
extension TouchEvent {
    static func began(_ touch: TouchID, _ samples: [TouchSample], predicted: [TouchSample] = []) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(touch.rawValue), phase: .began, samples: samples, predicted: predicted)
    }

    static func moved(_ touch: TouchID, _ samples: [TouchSample], predicted: [TouchSample] = []) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(touch.rawValue), phase: .moved, samples: samples, predicted: predicted)
    }

    static func ended(_ touch: TouchID, _ samples: [TouchSample] = []) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(touch.rawValue), phase: .ended, samples: samples)
    }

    static func cancelled(_ touch: TouchID, _ samples: [TouchSample] = []) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(touch.rawValue), phase: .cancelled, samples: samples)
    }
}

extension QueryID {
    /// `QueryID(rawValue:)`, shorter.
    static func q(_ raw: UInt64) -> QueryID { QueryID(rawValue: raw) }
}

// MARK: - Driving a router

extension TouchRouter {
    /// Reports an answer and returns what the router did with it and the actions it produced.
    mutating func answer(_ query: QueryID, _ verdict: HitTestVerdict) -> (outcome: VerdictOutcome, actions: [RouterAction]) {
        var actions: [RouterAction] = []
        let outcome = verdictArrived(query, verdict, into: &actions)
        return (outcome, actions)
    }

    /// `deadlinePassed(now:fallback:into:)`, returning the actions.
    mutating func deadline(now: Double, fallback: HitTestVerdict) -> [RouterAction] {
        var actions: [RouterAction] = []
        deadlinePassed(now: now, fallback: fallback, into: &actions)
        return actions
    }

    /// `flush(fallback:into:)`, returning the actions.
    mutating func flushing(_ fallback: HitTestVerdict) -> [RouterAction] {
        var actions: [RouterAction] = []
        flush(fallback: fallback, into: &actions)
        return actions
    }

    /// `apply(_:into:)`, returning the actions.
    mutating func applying(_ update: EstimatedPropertyUpdate) throws(RouterError) -> [RouterAction] {
        var actions: [RouterAction] = []
        try apply(update, into: &actions)
        return actions
    }
}

// MARK: - Refused input changes nothing

/// Everything a router shows about itself.
struct RouterSnapshot: Equatable, CustomStringConvertible {
    var ledger: SampleLedger
    var counters: RouterCounters
    var unfinished: [TouchID]
    var touchLedgers: [SampleLedger?]
    var nextDeadline: Double?

    init(_ router: TouchRouter) {
        ledger = router.ledger
        counters = router.counters
        unfinished = router.unfinishedTouches
        touchLedgers = router.unfinishedTouches.map { router.ledger(of: $0) }
        nextDeadline = router.nextDeadline
    }

    var description: String { "ledger \(ledger), unfinished \(unfinished), next deadline \(String(describing: nextDeadline))" }
}

/// What the router does from here on when every undecided touch is flushed to the page and
/// every active touch then ends: two routers that agree on this are in the same state as far
/// as the rest of a session can tell.
func epilogue(of router: TouchRouter) -> [RouterAction] {
    var copy = router
    var actions: [RouterAction] = []
    copy.flush(fallback: .page, into: &actions)
    for touch in copy.unfinishedTouches {
        do { try copy.handle(.ended(touch), into: &actions) } catch { Issue.record("epilogue: \(error)") }
    }
    return actions
}

/// `==`, except that an invalid sample carrying NaN matches the same sample (NaN ≠ NaN).
func sameRefusal(_ error: RouterError, _ expected: RouterError) -> Bool {
    if case let .invalidSample(touch, sample) = error, case let .invalidSample(expectedTouch, expectedSample) = expected {
        return touch == expectedTouch && String(reflecting: sample) == String(reflecting: expectedSample)
    }
    return error == expected
}

/// Runs `operation`, which must throw `expected`, and checks that the router changed in no
/// way: same snapshot, no action appended, and the same behaviour afterwards.
func expectRefused(
    _ expected: RouterError, by router: inout TouchRouter,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: (inout TouchRouter, inout [RouterAction]) throws(RouterError) -> Void
) {
    let before = router
    let snapshot = RouterSnapshot(router)
    let marker = RouterAction.endInk(TouchID(.max))
    var actions = [marker]
    do {
        try operation(&router, &actions)
        Issue.record("expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        #expect(sameRefusal(error, expected), "got \(error)", sourceLocation: sourceLocation)
    }
    #expect(actions == [marker], "a refused input appended actions", sourceLocation: sourceLocation)
    #expect(RouterSnapshot(router) == snapshot, sourceLocation: sourceLocation)
    #expect(epilogue(of: router) == epilogue(of: before), sourceLocation: sourceLocation)
}

// MARK: - Folding the action stream

/// What the action stream says about one touch, folded independently of the router's
/// own bookkeeping.
struct TouchTranscript {
    /// `tentative`: inked before the decision (speculative ink), which the answer confirms
    /// or retracts.
    enum Route: Equatable { case undecided, tentative, ink, page }

    var query: QueryID?
    var route = Route.undecided
    /// `true` for a touch the platform gave the page at touch-down (the router only counts it).
    var native = false
    var decisions: [(verdict: HitTestVerdict, reason: DecisionReason)] = []
    /// The touch's current stroke: inked samples, refined in place, emptied by a retraction.
    var ink: [TouchSample] = []
    /// Every sample delivered to the page, in order.
    var released: [TouchSample] = []
    var retractions = 0
    var predictions = 0
    var cancelled: CancelledRoute?
    var ends = 0
    var finished: [SampleLedger] = []
    var lastAction: RouterAction?
}

/// The state of a query, as the action stream tells it.
enum QueryState: Equatable { case waiting, answered, abandoned }

/// Folds a stream of actions per touch and notes every action that breaks the contract of
/// ``RouterAction``. Touch identifiers must not be reused while folding.
struct ActionFold {
    var touches: [TouchID: TouchTranscript] = [:]
    var queries: [QueryID: (touch: TouchID, state: QueryState)] = [:]
    var problems: [String] = []

    /// The outcome an answer to `query` must have, judged from the actions so far.
    func expectedOutcome(of query: QueryID) -> VerdictOutcome {
        switch queries[query]?.state {
        case nil: return .unknownQuery
        case .waiting: return .applied
        case .answered: return .duplicate
        case .abandoned: return .late
        }
    }

    mutating func record(_ actions: [RouterAction]) {
        for action in actions { record(action) }
    }

    mutating func record(_ action: RouterAction) {
        let touch = action.touch
        var t = touches[touch] ?? TouchTranscript()
        if !t.finished.isEmpty, !(t.route == .ink && t.cancelled == nil && action.isRefinement) {
            problems.append("\(touch): \(action) after touchFinished")
        }
        switch action {
        case let .queryPage(query, _, _, _):
            check(touches[touch] == nil, "\(query): asked for \(touch), which already had actions")
            check(queries[query] == nil, "\(query) asked twice")
            queries[query] = (touch, .waiting)
            t.query = query
        case let .decided(_, verdict, reason):
            if t.decisions.isEmpty {
                check(t.route == .undecided || t.route == .tentative, "\(touch): decided while routed")
                if t.route == .tentative, verdict == .page {
                    check(false, "\(touch): tentative ink given to the page without a retraction")
                }
            } else {
                check(t.lastAction == .retractInk(touch) && verdict == .page && reason == .multiTouchGesture,
                      "\(touch): decided again (\(verdict), \(reason)) without a retraction")
            }
            t.decisions.append((verdict, reason))
            t.route = verdict == .ink ? .ink : .page
            if reason == .routedAtTouchDown {
                check(t.query == nil && t.decisions.count == 1 && verdict == .page, "\(touch): routed at touch-down after other actions")
                t.native = true
            }
            if reason == .answered, let query = t.query {
                check(queries[query]?.state == .waiting, "\(touch): answered \(query) that was not waiting")
                queries[query]?.state = .answered
            }
        case let .abandonQuery(query, _):
            check(queries[query]?.touch == touch, "\(query) abandoned for \(touch), which did not ask it")
            check(queries[query]?.state == .waiting, "\(query) abandoned when not waiting")
            queries[query]?.state = .abandoned
        case let .ink(_, sample):
            if t.route == .undecided, let query = t.query, queries[query]?.state == .waiting {
                t.route = .tentative  // speculative ink: the question is still open
            }
            check(t.route == .ink || t.route == .tentative, "\(touch): ink while \(t.route)")
            t.ink.append(sample)
        case .predictInk:
            check(t.route == .ink || t.route == .tentative, "\(touch): prediction while \(t.route)")
            t.predictions += 1
        case let .refineInk(_, index, sample):
            check((t.route == .ink || t.route == .tentative) && t.cancelled == nil, "\(touch): refineInk while \(t.route)")
            if t.ink.indices.contains(index) {
                check(samePoint(t.ink[index], sample), "\(touch): refineInk \(index) names another sample")
                t.ink[index] = sample
            } else {
                check(false, "\(touch): refineInk index \(index) of \(t.ink.count)")
            }
        case .endInk:
            check(t.route == .ink && t.ends == 0, "\(touch): endInk while \(t.route)")
            t.ends += 1
        case .retractInk:
            check(t.route == .ink || t.route == .tentative, "\(touch): retractInk while \(t.route)")
            if t.route == .tentative { t.route = .undecided }  // the decision follows
            t.ink.removeAll()
            t.retractions += 1
        case let .release(_, sample):
            check(t.route == .page && !t.native, "\(touch): release while \(t.route)\(t.native ? " (native)" : "")")
            t.released.append(sample)
        case let .nativeRelease(_, sample):
            check(t.route == .page && t.native, "\(touch): native release while \(t.route)\(t.native ? "" : " (not native)")")
            t.released.append(sample)
        case .endRelease:
            check(t.route == .page && t.ends == 0, "\(touch): endRelease while \(t.route)")
            t.ends += 1
        case let .cancel(_, previously):
            let expected: CancelledRoute = switch t.route {
            case .undecided: .undecided
            case .ink, .tentative: .ink
            case .page: t.native ? .nativePage : .page
            }
            check(previously == expected && t.cancelled == nil, "\(touch): cancel(previously: \(previously)) while \(t.route)")
            t.cancelled = previously
        case let .touchFinished(_, ledger):
            check(t.cancelled != nil || t.ends == 1 || (t.native && t.ends == 0), "\(touch): finished neither ended nor cancelled")
            t.finished.append(ledger)
        }
        t.lastAction = action
        touches[touch] = t
    }

    private mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { problems.append(message()) }
    }
}

extension RouterAction {
    /// The touch the action is about.
    var touch: TouchID {
        switch self {
        case let .queryPage(_, touch, _, _), let .decided(touch, _, _), let .abandonQuery(_, touch),
             let .ink(touch, _), let .predictInk(touch, _), let .refineInk(touch, _, _), let .endInk(touch),
             let .retractInk(touch), let .release(touch, _), let .endRelease(touch), let .nativeRelease(touch, _), let .cancel(touch, _),
             let .touchFinished(touch, _):
            return touch
        }
    }

    /// `true` for ``RouterAction/refineInk(_:index:_:)``, the one action that may follow
    /// `touchFinished` (an estimated force refined after lift).
    var isRefinement: Bool {
        if case .refineInk = self { return true }
        return false
    }
}

/// Same measurement (position, time, tool), whatever estimated properties were refined.
func samePoint(_ a: TouchSample, _ b: TouchSample) -> Bool {
    a.x == b.x && a.y == b.y && a.timestamp == b.timestamp && a.tool == b.tool
}

/// Same measurements, in the same order.
func samePoints(_ a: [TouchSample], _ b: [TouchSample]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy(samePoint)
}
