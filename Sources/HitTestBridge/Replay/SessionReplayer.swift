import InkCore

/// Replays a recorded session through the real `TouchRouter` in simulated time.
///
/// Log events are fed at their recorded times. The engine's questions go through a
/// ``HitTestBroker`` (region cache, shared round trips, timeouts), exactly as in a live
/// session; the simulated page answers each round trip (see ``ReplayOracle``) and pushes
/// the region snapshots the log records. Answers, the bridge's timeouts and the engine's
/// deadlines are interleaved with the events in time order (an answer due at the same
/// moment as an event or a deadline is delivered first). Nothing sleeps: a one-hour
/// session replays as fast as the engine runs. The engine sees each touch occurrence under its own id, so
/// logs that reuse touch ids after an end replay correctly.
///
/// ```swift
/// let report = SessionReplayer(configuration: .init(oracle: .recordedWithLatency(0.030)))
///     .replay(SessionLog.read(contentsOf: "Fixtures/strokes/decimal-point.jsonl"))
/// print(report.isVerified, report.firstInkLatencies)
/// ```
public struct SessionReplayer: Sendable {
    /// How to replay.
    public var configuration: ReplayConfiguration

    /// Creates a replayer.
    public init(configuration: ReplayConfiguration = ReplayConfiguration()) {
        self.configuration = configuration
    }

    /// Replays whatever part of a log could be read, and reports the read failure too.
    public func replay(_ result: SessionLogReadResult, file: String? = nil) -> ReplayReport {
        guard let log = result.log else {
            return ReplayReport(
                file: file ?? result.failure?.file, readFailure: result.failure, samples: 0, refusedSamples: 0,
                audit: SampleLedger(),
                engineLedger: SampleLedger(), counters: RouterCounters(), bridge: BridgeMetrics(), touches: [],
                issues: [], problems: [], orphanAnswers: 0)
        }
        var report = replay(log, file: file ?? result.failure?.file)
        report.readFailure = result.failure
        return report
    }

    /// Replays a log.
    public func replay(_ log: SessionLog, file: String? = nil) -> ReplayReport {
        var run = ReplayRun(configuration: configuration, log: log)
        run.play()
        let (audit, problems) = run.audit.check()
        return ReplayReport(
            file: file, readFailure: nil, samples: log.sampleCount, refusedSamples: run.refusedSamples,
            audit: audit, engineLedger: run.router.ledger,
            counters: run.router.counters, bridge: run.broker.metrics, touches: run.audit.outcomes, issues: run.issues,
            problems: problems, orphanAnswers: run.answers.orphans.count)
    }
}

/// The mutable state of one replay.
private struct ReplayRun {
    let configuration: ReplayConfiguration
    let log: SessionLog
    let answers: RecordedAnswers
    var router: TouchRouter
    var broker: HitTestBroker
    var audit = ReplayAudit()
    var issues: [ReplayIssue] = []
    /// Messages the simulated page will post, kept sorted by (time, order of scheduling).
    var scheduled: [(time: Double, order: Int, message: PageMessage)] = []
    var scheduledCount = 0
    /// The touch occurrence and touch-down point of each question the engine asked.
    var asked: [QueryID: (occurrence: Int, point: CanvasPoint)] = [:]
    var bridgeActions: [BridgeAction] = []
    var jitter: SplitMix64
    /// The engine id of the active occurrence of each log touch id.
    var current: [TouchID: TouchID] = [:]
    /// The engine id of the latest occurrence of each log touch id, active or finished
    /// (estimated-property updates may arrive after a touch ended).
    var latest: [TouchID: TouchID] = [:]
    var actions: [RouterAction] = []
    var unknownQueries: UInt64 = 0
    var refusedSamples = 0

    init(configuration: ReplayConfiguration, log: SessionLog) {
        self.configuration = configuration
        self.log = log
        self.answers = RecordedAnswers(log)
        self.router = TouchRouter(configuration: configuration.router)
        let transform = log.header.pageTransform ?? .identity
        self.broker = HitTestBroker(configuration: configuration.bridge, transform: transform,
                                    tokens: SplitMix64(seed: configuration.seed))
        self.jitter = SplitMix64(seed: configuration.seed ^ 0x5EED)
        actions.reserveCapacity(64)
    }

    mutating func play() {
        // Answers that name no touch are still delivered, under ids never issued: the
        // bridge must ignore them.
        for orphan in answers.orphans {
            unknownQueries += 1
            let token = QueryToken(high: .max, low: unknownQueries)
            schedule(.answer(PageAnswer(token: token, verdict: orphan.verdict, generation: 0)), at: orphan.time)
        }
        for (index, event) in log.events.enumerated() {
            advance(to: event.time)
            let now = event.time
            do {
                switch event {
                case let .touch(touch, _):
                    var mapped = touch
                    if touch.phase == .began {
                        let id = ReplayAudit.engineID(occurrence: audit.outcomes.count)
                        mapped.touch = id
                        // Register only if the engine accepts the event (checked below).
                        do {
                            try router.handle(mapped, into: &actions)
                        } catch {
                            throw error.replacingTouch(touch.touch)
                        }
                        current[touch.touch] = id
                        latest[touch.touch] = id
                        audit.began(touch: touch.touch, downTime: touch.samples[0].timestamp)
                        audit.fed(touch.samples, to: id)
                    } else {
                        guard let id = current[touch.touch] else {
                            refusedSamples += touch.samples.count
                            throw RouterError.unknownTouch(touch.touch)
                        }
                        mapped.touch = id
                        do {
                            try router.handle(mapped, into: &actions)
                        } catch {
                            refusedSamples += touch.samples.count
                            throw error.replacingTouch(touch.touch)
                        }
                        audit.fed(touch.samples, to: id)
                        if touch.phase != .moved { current[touch.touch] = nil }
                    }
                case .update(let logged, _):
                    guard let id = latest[logged.touch] else { throw RouterError.unknownTouch(logged.touch) }
                    var update = logged
                    update.touch = id
                    do {
                        try router.apply(update, into: &actions)
                    } catch {
                        throw error.replacingTouch(logged.touch)
                    }
                case let .regions(snapshot, _):
                    // The page pushes its regions: into the bridge's cache.
                    broker.receive(.regions(snapshot), now: now, into: &bridgeActions)
                case .answer:
                    break
                }
            } catch let error as RouterError {
                issues.append(ReplayIssue(line: log.line(ofEvent: index), error: error))
            } catch {
                preconditionFailure("unexpected error \(error)")
            }
            drain(now: now)
        }
        advance(to: .infinity)
        router.flush(fallback: configuration.timeoutFallback, into: &actions)
        drain(now: log.events.last?.time ?? 0)
    }

    /// Delivers every page message, bridge timeout and engine deadline due at or before
    /// `time`, in time order.
    mutating func advance(to time: Double) {
        while true {
            let messageTime = scheduled.first?.time ?? .infinity
            let bridgeDeadline = broker.nextDeadline ?? .infinity
            let deadline = router.nextDeadline ?? .infinity
            let next = min(messageTime, bridgeDeadline, deadline)
            guard next <= time, next < .infinity else { return }
            if messageTime == next {
                let entry = scheduled.removeFirst()
                broker.receive(entry.message, now: next, into: &bridgeActions)
            } else if deadline == next {
                // The engine's own deadline first: it abandons the query, so the bridge's
                // timeout for the same touch (never earlier) does not also fire.
                router.deadlinePassed(now: deadline, fallback: configuration.timeoutFallback, into: &actions)
            } else {
                broker.deadlinePassed(now: next, into: &bridgeActions)
            }
            drain(now: next)
        }
    }

    /// Carries out the engine's and the bridge's actions until neither has any left: the
    /// audit sees every engine action, questions go to the bridge, verdicts to the engine,
    /// requests to the simulated page.
    mutating func drain(now: Double) {
        while !actions.isEmpty || !bridgeActions.isEmpty {
            let engine = actions
            actions.removeAll(keepingCapacity: true)
            for action in engine {
                audit.record(action, now: now)
                switch action {
                case let .queryPage(query, touch, point, _):
                    asked[query] = (ReplayAudit.occurrence(touch), point)
                    broker.ask(query, at: point, now: now, into: &bridgeActions)
                case let .abandonQuery(query, _):
                    broker.cancel(query)
                default:
                    break
                }
            }
            let bridge = bridgeActions
            bridgeActions.removeAll(keepingCapacity: true)
            for action in bridge {
                switch action {
                case let .verdict(query, verdict, source):
                    router.verdictArrived(query, verdict, because: source.decisionReason, into: &actions)
                case let .send(request):
                    pageAnswers(request, now: now)
                case let .speculate(query):
                    router.speculate(query, into: &actions)
                }
            }
        }
    }

    /// Schedules the simulated page's answers to a request.
    mutating func pageAnswers(_ request: HitTestRequest, now: Double) {
        guard let first = broker.queries(waitingFor: request.token).first, let question = asked[first] else { return }
        let delay = configuration.latencyJitter > 0 ? jitter.unit() * configuration.latencyJitter : 0
        for answer in answers.answers(forOccurrence: question.occurrence, pagePoint: request.pagePoint, askedAt: now,
                                      delay: delay, oracle: configuration.oracle) {
            // The page answers for the layout it has when it answers.
            let generation = max(request.generation, answers.generation(at: answer.time))
            schedule(.answer(PageAnswer(token: request.token, verdict: answer.verdict, generation: generation)), at: answer.time)
        }
    }

    mutating func schedule(_ message: PageMessage, at time: Double) {
        scheduledCount += 1
        let index = scheduled.firstIndex { ($0.time, $0.order) > (time, scheduledCount) } ?? scheduled.count
        scheduled.insert((time: time, order: scheduledCount, message: message), at: index)
    }
}
