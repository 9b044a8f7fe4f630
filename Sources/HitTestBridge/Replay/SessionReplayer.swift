import InkCore

/// Replays a recorded session through the real ``TouchRouter`` in simulated time.
///
/// Log events are fed at their recorded times; the oracle's answers and the engine's
/// deadlines are interleaved with them in time order (an answer due at the same moment as
/// an event or a deadline is delivered first). Nothing sleeps: a one-hour session replays
/// as fast as the engine runs. The engine sees each touch occurrence under its own id, so
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
                engineLedger: SampleLedger(), counters: RouterCounters(), touches: [], issues: [], problems: [],
                orphanAnswers: 0)
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
            counters: run.router.counters, touches: run.audit.outcomes, issues: run.issues, problems: problems,
            orphanAnswers: run.answers.orphans.count)
    }
}

/// The mutable state of one replay.
private struct ReplayRun {
    let configuration: ReplayConfiguration
    let log: SessionLog
    let answers: RecordedAnswers
    var router: TouchRouter
    var audit = ReplayAudit()
    var issues: [ReplayIssue] = []
    /// Scheduled answers, kept sorted by (time, order of scheduling).
    var scheduled: [(time: Double, order: Int, query: QueryID, verdict: HitTestVerdict)] = []
    var scheduledCount = 0
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
        actions.reserveCapacity(64)
    }

    mutating func play() {
        // Answers that name no touch are still delivered: the engine must ignore them.
        for orphan in answers.orphans {
            unknownQueries += 1
            schedule(QueryID(rawValue: UInt64.max - unknownQueries), orphan.verdict, at: orphan.time)
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
                case .answer, .regions:
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

    /// Delivers every answer and deadline due at or before `time`, in time order.
    mutating func advance(to time: Double) {
        while true {
            let answerTime = scheduled.first?.time ?? .infinity
            let deadline = router.nextDeadline ?? .infinity
            let next = min(answerTime, deadline)
            guard next <= time, next < .infinity else { return }
            if answerTime <= deadline {
                let answer = scheduled.removeFirst()
                router.verdictArrived(answer.query, answer.verdict, into: &actions)
            } else {
                router.deadlinePassed(now: deadline, fallback: configuration.timeoutFallback, into: &actions)
            }
            drain(now: next)
        }
    }

    /// Hands the pending actions to the audit and schedules answers for new questions.
    mutating func drain(now: Double) {
        for action in actions {
            audit.record(action, now: now)
            if case let .queryPage(query, touch, _, _) = action {
                let occurrence = ReplayAudit.occurrence(touch)
                for answer in answers.answers(forOccurrence: occurrence, askedAt: now, oracle: configuration.oracle) {
                    schedule(query, answer.verdict, at: answer.time)
                }
            }
        }
        actions.removeAll(keepingCapacity: true)
    }

    mutating func schedule(_ query: QueryID, _ verdict: HitTestVerdict, at time: Double) {
        scheduledCount += 1
        let entry = (time: time, order: scheduledCount, query: query, verdict: verdict)
        let index = scheduled.firstIndex { ($0.time, $0.order) > (time, scheduledCount) } ?? scheduled.count
        scheduled.insert(entry, at: index)
    }
}
