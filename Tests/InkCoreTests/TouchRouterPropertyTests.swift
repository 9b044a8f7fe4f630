import Testing
@_spi(Tooling) import InkCore

// Seeded random sessions through TouchRouter, checked against an independent fold of the
// action stream: every sample fed in comes out exactly once, in order, with its timestamp.

@Suite("TouchRouter: random sessions")
struct TouchRouterPropertyTests {
    static let batches = 8
    static let sessionsPerBatch = 1_250  // 10,000 sessions in all

    @Test("random sessions never drop, reorder or duplicate a sample", arguments: 0..<batches)
    func randomSessions(batch: Int) {
        var coverage = SessionCoverage()
        var failures = 0
        for n in 0..<Self.sessionsPerBatch {
            let seed = UInt64(batch * Self.sessionsPerBatch + n)
            var session = RandomSession(seed: seed)
            session.run()
            coverage.add(session)
            if !session.problems.isEmpty {
                Issue.record("seed \(seed): \(session.problems.prefix(6).joined(separator: " | "))")
                failures += 1
                if failures == 3 { return }
            }
        }
        // The generator must keep reaching every path, or the property proves little.
        for (name, count) in coverage.counts where count == 0 {
            Issue.record("batch \(batch): no session exercised \(name)")
        }
    }

    @Test("a session replays identically from its seed")
    func deterministic() {
        var a = RandomSession(seed: 42), b = RandomSession(seed: 42)
        a.run()
        b.run()
        #expect(a.actions == b.actions)
        #expect(!a.actions.isEmpty)
    }
}

/// The problems one session found.
final class ProblemLog {
    var problems: [String] = []
}

/// How often the random sessions of a batch reached each path of the router.
struct SessionCoverage {
    private(set) var counts: [String: Int] = [:]

    mutating func add(_ session: RandomSession) {
        let c = session.router.counters
        let values: [(String, Int)] = [
            ("answers applied", c.answersApplied), ("duplicate answers", c.duplicateAnswers),
            ("late answers", c.lateAnswers), ("unknown answers", c.unknownAnswers),
            ("deadlines", c.deadlinesPassed), ("gestures", c.gestures), ("retractions", c.retractions),
            ("queue bounds", c.boundsReached), ("flushes", c.flushed), ("updates applied", c.updatesApplied),
            ("updates ignored", c.updatesIgnored), ("cancelled touches", c.touchesCancelled),
            ("ink touches", c.touchesInked), ("page touches", c.touchesReleased),
            ("ended while deciding", session.endedWhileDeciding), ("refused input", session.refusals),
            ("refinements after lift", session.refinementsAfterLift), ("predictions", session.predictions),
            ("tool policy", session.toolPolicyDecisions), ("speculations", c.speculations),
            ("speculative ink retracted", session.speculativeRetractions), ("routed at touch-down", session.nativeTouches),
        ]
        for (name, value) in values { counts[name, default: 0] += value }
    }
}

/// One random session: several finger and pencil touches with interleaved events, answers
/// with random delays (some duplicated, some never sent, some for unknown queries), random
/// cancellations, deadlines, estimated updates and refused input; then flush, a deadline far
/// in the future, and the end of every touch.
struct RandomSession {
    struct LiveTouch {
        let id: TouchID
        let tool: ToolKind
        let downTime: Double
        var x: Double
        var y: Double
    }

    struct ScheduledAnswer {
        let time: Double
        let query: QueryID
        let verdict: HitTestVerdict
    }

    let seed: UInt64
    private var random: SplitMix64
    let configuration: TouchRouterConfiguration
    private(set) var router: TouchRouter
    private(set) var fold = ActionFold()
    /// Every action, in order (kept to check determinism).
    private(set) var actions: [RouterAction] = []
    /// What went wrong, in order (a reference, so checks can read the session's state).
    private let log = ProblemLog()
    var problems: [String] { log.problems }

    private var now = 10.0
    private var step = 0
    private var touchBudget: Int
    private var nextTouch: UInt64 = 1
    private var live: [LiveTouch] = []
    private var fed: [TouchID: [TouchSample]] = [:]
    private var downTimes: [TouchID: Double] = [:]
    private var order: [TouchID] = []
    private var answers: [ScheduledAnswer] = []
    private var lastQuery: UInt64 = 0
    private var estimated: [(touch: TouchID, index: UInt64)] = []
    private var nextUpdateIndex: UInt64 = 1
    private(set) var endedWhileDeciding = 0
    private(set) var refusals = 0
    private(set) var refinementsAfterLift = 0
    private(set) var predictions = 0
    private(set) var speculativeRetractions = 0
    private(set) var toolPolicyDecisions = 0
    private(set) var nativeTouches = 0

    init(seed: UInt64) {
        self.seed = seed
        var random = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 1)
        configuration = TouchRouterConfiguration(
            pencilOnly: random.chance(0.15),
            gestureWindow: random.pick([0, 0.15, 0.15, 0.3]),
            decisionTimeout: random.pick([0.1, 0.25, 0.25, 0.4]),
            maxQueuedSamplesPerTouch: random.chance(0.3) ? random.int(1...6) : 4_096,
            boundFallback: random.pick(HitTestVerdict.allCases),
            replaysLateReleases: random.chance(0.3))
        touchBudget = random.int(1...7)
        self.random = random
        router = TouchRouter(configuration: configuration)
    }

    // MARK: Running

    mutating func run() {
        while step < 150, touchBudget > 0 || !live.isEmpty {
            step += 1
            now += random.chance(0.8) ? random.range(0...0.012) : random.range(0.02...0.3)
            deliverAnswers(dueBy: now)
            if let deadline = router.nextDeadline, deadline <= now, random.chance(0.5) {
                passDeadline(now: now)
            }
            randomStep()
            checkStep()
        }
        finish()
    }

    private mutating func randomStep() {
        let canBegin = touchBudget > 0 && live.count < 4
        let roll = random.unit()
        switch roll {
        case ..<0.16 where canBegin: begin()
        case ..<0.55 where !live.isEmpty: move(random.int(0...(live.count - 1)))
        case ..<0.66 where !live.isEmpty: end(random.int(0...(live.count - 1)))
        case ..<0.69 where !live.isEmpty: cancel(random.int(0...(live.count - 1)))
        case ..<0.72: speculate()
        case ..<0.75: passDeadline(now: now - random.range(0...0.2))
        case ..<0.85 where !estimated.isEmpty: update()
        case ..<0.88: unknownAnswer()
        case ..<0.92: refusedInput()
        default: if canBegin { begin() }
        }
    }

    /// The end of the session: flush and a far deadline in either order, the end of every
    /// touch, every outstanding answer and update.
    private mutating func finish() {
        let endFirst = random.chance(0.5)
        if endFirst { endAll() }
        if random.chance(0.5) {
            flush()
            passDeadline(now: now + 1e6)
        } else {
            passDeadline(now: now + 1e6)
            flush()
        }
        check(router.ledger.pending == 0, "pending \(router.ledger.pending) after flush and deadline")
        if !endFirst { endAll() }
        deliverAnswers(dueBy: .infinity)
        while !estimated.isEmpty { update() }
        checkStep()
        checkEnd()
    }

    private mutating func endAll() {
        while !live.isEmpty { end(live.count - 1) }
    }

    // MARK: Touch events

    private mutating func newSamples(for index: Int, count: Int) -> [TouchSample] {
        var samples: [TouchSample] = []
        for _ in 0..<count {
            live[index].x += random.range(-4...4)
            live[index].y += random.range(-4...4)
            let tool = live[index].tool
            var update: UInt64?
            if tool == .pencil || random.chance(0.1), random.chance(0.3) {
                update = nextUpdateIndex
                nextUpdateIndex += 1
            }
            let force: Double? = tool == .pencil ? random.unit() : (random.chance(0.2) ? random.unit() : nil)
            samples.append(TouchSample(x: live[index].x, y: live[index].y, timestamp: now, force: force,
                                       altitude: tool == .pencil ? 1.0 : nil, tool: tool, estimationUpdateIndex: update))
            if let update { estimated.append((live[index].id, update)) }
            now += random.pick([0, 1.0 / 240, 1.0 / 120])
        }
        return samples
    }

    private mutating func predictions(for index: Int) -> [TouchSample] {
        guard random.chance(0.3) else { return [] }
        let touch = live[index]
        return (1...random.int(1...2)).map { k in
            TouchSample(x: touch.x + Double(k), y: touch.y, timestamp: now + Double(k) / 240, tool: touch.tool)
        }
    }

    private mutating func begin() {
        touchBudget -= 1
        let id = TouchID(nextTouch)
        nextTouch += 1
        let tool: ToolKind = random.chance(0.4) ? .pencil : .finger
        live.append(LiveTouch(id: id, tool: tool, downTime: now, x: random.range(0...800), y: random.range(0...600)))
        order.append(id)
        downTimes[id] = now
        let index = live.count - 1
        let samples = newSamples(for: index, count: random.int(1...3))
        let predicted = predictions(for: index)
        // Some touches the front end routed to the page at touch-down: the platform has them.
        if random.chance(0.1) {
            let produced = send(.began(id, samples, predicted: predicted), routedToPage: true)
            check(produced.first == .decided(id, .page, .routedAtTouchDown), "\(id): routed at touch-down, decided \(String(describing: produced.first))")
            check(!produced.contains { if case .queryPage = $0 { true } else if case .release = $0 { true } else { false } },
                  "\(id): a native touch asked or was handed over")
            nativeTouches += 1
            return
        }
        let produced = send(.began(id, samples, predicted: predicted))
        // Independent expectation (issue 52): whether a finger began on the scratch paper is
        // known only once the page decided it ink, so no touch is a gesture at its touch-down:
        // a touch that is not decided by the tool policy asks the page.
        check(!produced.contains(.decided(id, .page, .multiTouchGesture)), "\(id) was a gesture at its touch-down")
        if !configuration.pencilOnly {
            check(produced.contains { if case .queryPage(_, id, _, _) = $0 { true } else { false } }, "\(id) did not ask the page")
        }
        if configuration.pencilOnly {
            check(produced.first == .decided(id, tool == .pencil ? .ink : .page, .toolPolicy),
                  "\(id): pencil-only mode decided \(String(describing: produced.first))")
            toolPolicyDecisions += 1
        }
    }

    private mutating func move(_ index: Int) {
        let samples = newSamples(for: index, count: random.int(1...4))
        send(.moved(live[index].id, samples, predicted: predictions(for: index)))
    }

    private mutating func end(_ index: Int) {
        let samples = newSamples(for: index, count: random.int(0...2))
        let id = live[index].id
        let produced = send(.ended(id, samples))
        if produced.isEmpty || !produced.contains(where: { if case .touchFinished = $0 { return true } else { return false } }) {
            endedWhileDeciding += 1
        }
        live.remove(at: index)
    }

    private mutating func cancel(_ index: Int) {
        let samples = newSamples(for: index, count: random.int(0...1))
        send(.cancelled(live[index].id, samples))
        live.remove(at: index)
    }

    /// Feeds a valid event; it must be accepted.
    @discardableResult
    private mutating func send(_ event: TouchEvent, routedToPage: Bool = false) -> [RouterAction] {
        var produced: [RouterAction] = []
        do {
            try router.handle(event, routedToPage: routedToPage, into: &produced)
        } catch {
            log.problems.append("step \(step): \(event.phase) for \(event.touch) refused: \(error)")
            return []
        }
        fed[TouchID(event.touch.rawValue), default: []].append(contentsOf: event.samples)
        record(produced)
        return produced
    }

    // MARK: Answers, deadlines, updates

    private mutating func record(_ produced: [RouterAction]) {
        for action in produced {
            switch action {
            case let .queryPage(query, touch, point, askedAt):
                check(query.rawValue == lastQuery + 1, "\(query) issued after query \(lastQuery)")
                lastQuery = query.rawValue
                check(askedAt == downTimes[touch] && point == fed[touch]?.first?.point,
                      "\(query) asked at \(askedAt), \(point), not at \(touch)'s touch-down")
                guard !random.chance(0.15) else { break }  // never answered
                let delay = random.chance(0.7) ? random.range(0...0.2) : random.range(0.2...0.6)
                answers.append(ScheduledAnswer(time: now + delay, query: query, verdict: random.pick(HitTestVerdict.allCases)))
                if random.chance(0.1) {
                    answers.append(ScheduledAnswer(time: now + delay + random.range(0...0.3), query: query,
                                                   verdict: random.pick(HitTestVerdict.allCases)))
                }
            case .refineInk(let touch, _, _):
                if fold.touches[touch]?.finished.isEmpty == false { refinementsAfterLift += 1 }
            case .predictInk:
                predictions += 1
            case let .retractInk(touch) where fold.touches[touch]?.route == .tentative:
                speculativeRetractions += 1
            default:
                break
            }
            fold.record(action)
        }
        actions.append(contentsOf: produced)
    }

    private mutating func deliverAnswers(dueBy time: Double) {
        while let next = answers.indices.filter({ answers[$0].time <= time }).min(by: { answers[$0].time < answers[$1].time }) {
            let answer = answers.remove(at: next)
            deliver(answer.query, answer.verdict)
        }
    }

    private mutating func deliver(_ query: QueryID, _ verdict: HitTestVerdict) {
        let expected = fold.expectedOutcome(of: query)
        var produced: [RouterAction] = []
        let outcome = router.verdictArrived(query, verdict, into: &produced)
        check(outcome == expected, "\(query) \(verdict): \(outcome), expected \(expected)")
        if outcome == .applied {
            check(produced.contains { if case .decided(_, verdict, .answered) = $0 { true } else { false } },
                  "\(query) applied without deciding \(verdict)")
        } else {
            check(produced.isEmpty, "\(query) ignored (\(outcome)) but produced \(produced.count) actions")
        }
        record(produced)
    }

    /// Draws a random asked query's touch as tentative ink (it may already be decided or
    /// speculative: then nothing happens).
    private mutating func speculate() {
        guard lastQuery > 0 else { return }
        let query = QueryID(rawValue: UInt64(random.int(1...Int(lastQuery))))
        let waiting = fold.expectedOutcome(of: query) == .applied
        var produced: [RouterAction] = []
        let speculated = router.speculate(query, into: &produced)
        if !waiting { check(!speculated && produced.isEmpty, "\(query): speculated though not waiting") }
        if !speculated { check(produced.isEmpty, "\(query): speculation refused but produced actions") }
        record(produced)
    }

    private mutating func unknownAnswer() {
        let query = random.chance(0.2) ? QueryID(rawValue: 0) : QueryID(rawValue: lastQuery + UInt64(random.int(1...5)))
        deliver(query, random.pick(HitTestVerdict.allCases))
    }

    private mutating func passDeadline(now time: Double) {
        var produced: [RouterAction] = []
        router.deadlinePassed(now: time, fallback: random.pick(HitTestVerdict.allCases), into: &produced)
        for case let .decided(touch, _, reason) in produced {
            check(reason == .deadline, "\(touch) decided by \(reason) in deadlinePassed")
            check(downTimes[touch].map { $0 + configuration.decisionTimeout <= time } ?? false,
                  "\(touch) settled by a deadline that has not passed at \(time)")
        }
        record(produced)
        // Independently: no touch the fold still sees undecided is past its deadline.
        for (touch, transcript) in fold.touches where transcript.route == .undecided && transcript.cancelled == nil {
            if let down = downTimes[touch], down + configuration.decisionTimeout <= time {
                log.problems.append("step \(step): \(touch) still undecided after deadlinePassed(now: \(time))")
            }
        }
    }

    private mutating func flush() {
        var produced: [RouterAction] = []
        router.flush(fallback: random.pick(HitTestVerdict.allCases), into: &produced)
        record(produced)
        check(router.nextDeadline == nil, "a deadline remains after flush")
    }

    private mutating func update() {
        let pick = random.int(0...(estimated.count - 1))
        let (touch, index) = estimated[pick]
        let isFinal = random.chance(0.7)
        let update = EstimatedPropertyUpdate(
            touch: PlatformTouchID(touch.rawValue), updateIndex: index, force: random.unit(),
            azimuth: random.chance(0.5) ? random.range(0...6) : nil, isFinal: isFinal)
        var produced: [RouterAction] = []
        do {
            try router.apply(update, into: &produced)
        } catch {
            log.problems.append("step \(step): update \(index) of \(touch) refused: \(error)")
        }
        check(produced.count <= 1, "an update produced \(produced.count) actions")
        for case let .refineInk(id, _, sample) in produced {
            check(id == touch && sample.force == update.force, "refineInk \(id) does not carry the update")
            check(sample.estimationUpdateIndex == (isFinal ? nil : index), "refineInk keeps the wrong update index")
        }
        record(produced)
        if isFinal { estimated.remove(at: pick) }
    }

    /// Input the router must refuse without changing anything.
    private mutating func refusedInput() {
        let before = RouterSnapshot(router)
        var produced: [RouterAction] = []
        var threw = true
        do {
            switch random.int(0...4) {
            case 0:
                try router.handle(.moved(TouchID(10_000 + UInt64(random.int(0...9))), [sample(now)]), into: &produced)
            case 1 where !live.isEmpty:
                let touch = random.pick(live)
                let last = fed[touch.id]?.last?.timestamp ?? now
                try router.handle(.moved(touch.id, [sample(last), sample(last - 0.001)]), into: &produced)
            case 2 where !live.isEmpty:
                try router.handle(.moved(random.pick(live).id, [sample(now), sample(now, x: .nan)]), into: &produced)
            case 3 where !live.isEmpty:
                try router.handle(.began(random.pick(live).id, [sample(now)]), into: &produced)
            case 4 where !estimated.isEmpty:
                let (touch, index) = random.pick(estimated)
                try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(touch.rawValue), updateIndex: index, force: 1.5), into: &produced)
            default:
                try router.apply(EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 0), into: &produced)
            }
            threw = false
        } catch {
            refusals += 1
        }
        check(threw, "step \(step): refused input was accepted")
        check(produced.isEmpty && RouterSnapshot(router) == before, "step \(step): refused input changed the router")
    }

    // MARK: Checks

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { log.problems.append("step \(step): \(message())") }
    }

    private mutating func checkStep() {
        let ledger = router.ledger
        let received = fed.values.reduce(0) { $0 + $1.count }
        check(ledger.dropped == 0, "dropped \(ledger.dropped): \(ledger)")
        check(ledger.received == received, "received \(ledger.received), fed \(received)")
        if !fold.problems.isEmpty {
            log.problems.append(contentsOf: fold.problems.map { "step \(step): \($0)" })
            fold.problems.removeAll()
        }
    }

    private mutating func checkEnd() {
        let ledger = router.ledger
        check(ledger.pending == 0 && ledger.dropped == 0, "unbalanced at the end: \(ledger)")
        check(ledger.received == ledger.inked + ledger.released + ledger.cancelled, "received ≠ inked + released + cancelled: \(ledger)")
        check(router.unfinishedTouches.isEmpty, "unfinished at the end: \(router.unfinishedTouches)")

        var total = SampleLedger()
        var retractions = 0
        for touch in order {
            let samples = fed[touch] ?? []
            guard let t = fold.touches[touch] else {
                log.problems.append("\(touch): no action at all")
                continue
            }
            retractions += t.retractions
            guard t.finished.count == 1, let finished = t.finished.first else {
                log.problems.append("\(touch): \(t.finished.count) touchFinished actions")
                continue
            }
            total += finished
            check(finished.received == samples.count && finished.pending == 0 && finished.dropped == 0,
                  "\(touch): final ledger \(finished) for \(samples.count) samples")
            check(t.ink.isEmpty || t.released.isEmpty, "\(touch): ends with both ink (\(t.ink.count)) and page samples (\(t.released.count))")
            let delivered = t.ink.isEmpty ? t.released : t.ink
            if t.cancelled != nil {
                // What the page got before the cancel stays released, by its way; the rest
                // (queued undecided, or ink the cancel discards) is what nobody got.
                let page = t.released.count
                let native = t.native ? page : 0
                let replayed = !t.native && configuration.replaysLateReleases ? page : 0
                check(finished == SampleLedger(received: samples.count, released: page, cancelled: samples.count - page,
                                               releasedNatively: native, replayed: replayed),
                      "\(touch): cancelled with ledger \(finished), the page got \(page)\(t.native ? " natively" : "")")
                check(delivered.count <= samples.count && samePoints(delivered, Array(samples.prefix(delivered.count))),
                      "\(touch): cancelled, but what it showed is not an in-order prefix of its samples")
            } else {
                check(samePoints(delivered, samples), "\(touch): delivered \(delivered.count) samples, fed \(samples.count), or not the same ones in order")
                for (out, original) in zip(delivered, samples) where original.estimationUpdateIndex == nil {
                    check(out == original, "\(touch): a sample without an estimate changed on the way")
                }
                // Page samples are native (routed at touch-down), replayed (a late verdict where
                // the platform cannot hand a touch over), or handed over.
                let native = t.native ? t.released.count : 0
                let replayed = !t.native && configuration.replaysLateReleases ? t.released.count : 0
                check(finished == SampleLedger(received: samples.count, inked: t.ink.count, released: t.released.count,
                                               releasedNatively: native, replayed: replayed),
                      "\(touch): final ledger \(finished), folded ink \(t.ink.count), page \(t.released.count)\(t.native ? " natively" : "")")
                check((t.ends == 1 || (t.native && t.ends == 0)) && !t.decisions.isEmpty,
                      "\(touch): ended \(t.ends) times, decided \(t.decisions.count) times")
            }
            if let last = t.lastAction, !last.isRefinement {
                check(last == .touchFinished(touch, finished), "\(touch): last action \(last)")
            }
        }
        check(total == ledger, "per-touch ledgers add up to \(total), router says \(ledger)")
        let counters = router.counters
        check(counters.touchesInked + counters.touchesReleased + counters.touchesCancelled == order.count,
              "touch outcome counters \(counters.touchesInked)+\(counters.touchesReleased)+\(counters.touchesCancelled) for \(order.count) touches")
        check(counters.queriesAsked == fold.queries.count, "queriesAsked \(counters.queriesAsked), queries seen \(fold.queries.count)")
        check(counters.retractions == retractions, "retractions \(counters.retractions), folded \(retractions)")
        checkStep()
    }
}
