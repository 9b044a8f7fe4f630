@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording

/// Replays a recorded session through the real engine (`InkEngine`) in simulated time.
///
/// The log is read one event at a time (`SessionLogEvents`) and its events are delivered
/// at their recorded times through a ``ReplayDriver``, the driver every replay shares: the
/// same tie-break rule as the live host (deadlines due by an input's time fire before it),
/// the same touch-id rule (a `began` for an id still down is refused), the same audit. The
/// simulated page answers each round trip (see ``ReplayOracle``) and pushes the region
/// snapshots the log records. Nothing sleeps: a one-hour session replays as fast as the
/// engine runs, and memory does not grow with the log when ``ReplayConfiguration/keepsTouches``
/// is off.
///
/// ```swift
/// let report = SessionReplayer(configuration: .init(oracle: .recordedWithLatency(0.030)))
///     .replay(contentsOf: "Fixtures/strokes/decimal-point.jsonl")
/// print(report.isVerified, report.firstInk.percentiles?.p50 ?? 0)
/// ```
public struct SessionReplayer: Sendable {
    /// How to replay.
    public var configuration: ReplayConfiguration

    /// Creates a replayer.
    public init(configuration: ReplayConfiguration = ReplayConfiguration()) {
        self.configuration = configuration
    }

    /// Replays a log file, streaming.
    public func replay(contentsOf path: String) -> ReplayReport {
        replay(SessionLogEvents(contentsOf: path))
    }

    /// Replays whatever part of a log could be read, and reports the read failure too.
    public func replay(_ result: SessionLogReadResult, file: String? = nil) -> ReplayReport {
        guard let log = result.log else {
            return ReplayReport(
                file: file ?? result.failure?.file, readFailure: result.failure ?? SessionLogError(file: file, line: 0, reason: .empty),
                samples: 0, refusedSamples: 0, audit: SampleLedger(), engineLedger: SampleLedger(), counters: RouterCounters(),
                bridge: BridgeMetrics(), touches: [], touchCount: 0, firstInk: LatencyCounts(), issues: [], issueCount: 0, problems: [],
                problemCount: 0, orphanAnswers: 0)
        }
        return replay(SessionLogEvents(log, file: file ?? result.failure?.file, failure: result.failure))
    }

    /// Replays a log in memory.
    public func replay(_ log: SessionLog, file: String? = nil) -> ReplayReport {
        replay(SessionLogEvents(log, file: file))
    }

    /// Replays a log's events as they are read.
    public func replay(_ events: SessionLogEvents) -> ReplayReport {
        var run = ReplayRun(configuration: configuration, events: events)
        return run.play()
    }
}

/// One replay: the log's events, the simulated page and the driver.
private struct ReplayRun {
    /// The engine and the bridge with the page's answers scheduled, and the audit.
    var driver: ReplayDriver
    let configuration: ReplayConfiguration
    /// Whether the oracle needs events ahead of the one played (the re-timing ones do).
    var looksAhead: Bool {
        if case .recorded = configuration.oracle { return false }
        return true
    }
    var events: SessionLogEvents
    /// Events read ahead of the one being played (the re-timing oracles look ahead for a
    /// touch's recorded answers and for the snapshot the page will have when it answers).
    var window: [(event: SessionEvent, line: Int?)] = []
    var windowStart = 0
    /// Samples held in the window (with predictions): its memory, whatever the line sizes.
    var windowSamples = 0
    /// The most samples the window holds: about 100 MB of them.
    static let lookaheadSampleLimit = 1_000_000

    static func samples(in event: SessionEvent) -> Int {
        switch event {
        case let .touch(touch, _), let .recorded(.nativePageTouch(touch), _): return touch.samples.count + touch.predicted.count
        default: return 0
        }
    }
    var sourceDone = false
    /// Recorded answers already passed, by log touch id, since that id last began, while the
    /// engine has not finished its touch (the re-timing oracles may need them when a
    /// question is asked again; a finished touch asks nothing more). At most one entry per
    /// touch the engine tracks, whatever the number of ids in the log.
    var passedAnswers: [PlatformTouchID: [(time: Double, verdict: HitTestVerdict)]] = [:]
    static let passedAnswerLimit = 64
    var peakHeldAnswerIDs = 0
    /// The latest region snapshot played.
    var snapshot: (time: Double, snapshot: RegionSnapshot)?
    var jitter: SplitMix64
    var output: [EngineEvent] = []
    var issues: [ReplayIssue] = []
    var issueCount = 0
    /// How many refused lines a report keeps (all are counted).
    static let issueLimit = 100
    var orphans = 0
    /// For a live recording replayed as recorded: the check against its live decisions.
    var identity: IdentityCheck?
    /// For a live recording replayed by a re-timing oracle: why its identity is not checked
    /// (it is still a recording: read whole or not, its chain and end line checked).
    var identityNotChecked: String?
    /// The round trips the replay sent, by their order in the session (a recording's
    /// `page_answer` lines name them so); the last ``roundTripMemory`` only.
    var roundTrips: [Int: HitTestRequest] = [:]
    var sentRoundTrips: Set<QueryToken> = []
    var nextRoundTrip = 0
    var unknownRoundTrips = 0
    /// Whether the log is a live recording (its `page_answer` lines name round trips).
    var tracksRoundTrips = false
    static let roundTripMemory = 4_096
    /// Whether the recording's `end` line was played.
    var sawEnd = false
    /// The time of the last line played.
    var lastLineTime = -Double.infinity
    /// The line number of the event ``nextPlayed()`` returned last.
    var playedLine: Int?

    init(configuration: ReplayConfiguration, events: SessionLogEvents) {
        self.configuration = configuration
        self.events = events
        // A log's snapshots and answers name their own generations: the replay starts knowing
        // none, unless the log is a live recording, which names the engine's start.
        var engineConfiguration = configuration.engine
        var generation: UInt64 = 0
        if let header = events.header, let recorded = header.engineConfiguration {
            if configuration.usesRecordedEngine { engineConfiguration = recorded }
            generation = header.pageGeneration ?? 0
            // Replayed as recorded, it must decide as it did live (with another
            // configuration too: that is how a changed setting shows what it changes).
            switch configuration.oracle {
            case .recorded: break
            case let .recordedWithLatency(latency):
                identityNotChecked = "identity not checked: the replay re-timed the page's answers (each "
                    + "\(JSONValue.format(latency * 1000)) ms after its question, not when it arrived live), so its decisions are not the live ones"
            case let .regions(latency):
                identityNotChecked = "identity not checked: the replay's page answered from the recorded region snapshots ("
                    + "\(JSONValue.format(latency * 1000)) ms after each question), not as it answered live, so its decisions are not the live ones"
            }
            if case .recorded = configuration.oracle {
                identity = IdentityCheck(engineVersion: header.engineVersion)
                // A recording proves identity only to an engine that knows how it counted: its
                // own, or an older one whose rules this replay keeps (IdentityCheck.LedgerRule).
                // A recording naming no engine is named as a foreign one is: nothing says how it counted.
                let comparable = "replayed by engine \(InkEngine.version), which compares recordings of engines "
                    + IdentityCheck.comparableEngineVersions.sorted().joined(separator: ", ") + " only"
                if configuration.usesRecordedEngine {
                    if let version = header.engineVersion {
                        if !IdentityCheck.comparableEngineVersions.contains(version) {
                            identity!.diverge(1, "recorded by engine \(InputText.name(version)), " + comparable)
                        }
                    } else {
                        identity!.diverge(1, "the header names no engine version (\"recorder\".\"engine\" is missing or null): " + comparable)
                    }
                }
            }
        }
        tracksRoundTrips = events.header?.isRecording ?? false
        let engine = InkEngine(configuration: engineConfiguration, transform: events.header?.pageTransform ?? .identity,
                               pageGeneration: generation, seed: configuration.seed)
        driver = ReplayDriver(engine: engine, keepsOutcomes: configuration.keepsTouches)
        if configuration.recordsTimeline { driver.timeline = DecisionTimeline() }
        jitter = SplitMix64(seed: configuration.seed ^ 0x5EED)
        output.reserveCapacity(64)
    }

    /// Plays the whole log and reports.
    mutating func play() -> ReplayReport {
        if events.header != nil { playEvents() }
        return report()
    }

    mutating func playEvents() {
        while let event = nextPlayed() {
            switch event {
            case .recorded(.decided, _), .recorded(.finished, _), .recorded(.dropped, _), .recorded(.end, _):
                if case .recorded(.end, _) = event { sawEnd = true }
            default:
                identity?.beginInput()
            }
            // What the page posted up to this moment first, in the order it was scheduled.
            runScheduled(until: event.time)
            play(event, line: playedLine)
        }
        identity?.end(at: lastLineTime, whole: sawEnd && events.failure == nil)
        // The session goes on after its last line: answers still due arrive, deadlines pass.
        while driver.step(until: .infinity, into: &output) != nil { answerRequests() }
        driver.finish(into: &output)
        if identity != nil { for event in output { identity!.observe(event) } }
        output.removeAll()
    }

    mutating func play(_ event: consuming SessionEvent, line: Int?) {
        let input: EngineInput
        var began: PlatformTouchID?   // the touch a `began` event starts
        let eventTime = event.time
        lastLineTime = eventTime
        // Consumed: the cases' payloads are moved into the input, not copied out of the event.
        switch consume event {
        case let .recorded(recorded, time):
            switch recorded {
            case let .nativePageTouch(touch):
                input = .nativePageTouch(touch)
            case let .pageAnswer(order, verdict, generation, document):
                // An answer to a round trip the replay never sent goes to the bridge under a
                // token never issued (the live bridge met an unknown id too).
                let known = order.flatMap { roundTrips[$0]?.token }
                if known == nil { unknownRoundTrips += 1 }
                let token = known ?? QueryToken(high: .max - 1, low: UInt64(unknownRoundTrips))
                input = .decodedPageMessage(.answer(PageAnswer(token: token, verdict: verdict, generation: generation,
                                                               document: document)))
            case let .frontEnd(view):
                switch view {
                case .layout, .pencilHovering, .pencilOnly: break
                // A new document: the old one's snapshots no longer answer for the simulated
                // page. A resize: the page reflowed, its earlier snapshots no longer describe it.
                case .newDocument, .viewResized: snapshot = nil
                }
                input = view.input
            case let .sendFailed(order):
                guard let request = roundTrips[order] else { return }
                input = .sendFailed(request)
            case .finish:
                // The one rule for `finish` (InkEngine.finish): at the line's time, the
                // deadlines due by then fire, then the undecided touches are flushed.
                driver.settle(at: time, into: &output)
                answerRequests()
                return
            case .decided, .finished, .dropped:
                identity?.check(recorded, line: line)
                return
            case let .end(_, _, _, ledger):
                // The live engine's final ledger, after its `finish`: the replay's by now.
                identity?.checkEnd(ledger, replayed: driver.engine.ledger, line: line)
                return
            }
        case let .touch(touch, _):
            if touch.phase == .began { began = touch.touch }
            input = .touch(touch)
        case let .update(update, _):
            input = .update(update)
        case let .regions(regions, time):
            snapshot = (time, regions)
            input = .decodedPageMessage(.regions(regions))
        case let .answer(touch, verdict, time):
            guard driver.engine.latestTouch(forPlatform: touch) != nil else {
                // An answer naming no touch still reaches the bridge, under an id never issued.
                orphans += 1
                input = .decodedPageMessage(.answer(PageAnswer(token: QueryToken(high: .max, low: UInt64(orphans)), verdict: verdict,
                                                               generation: 0)))
                break
            }
            guard case .recorded = configuration.oracle else {
                // Kept while the touch is not finished (until the id begins again, or the
                // engine finishes it), at most `passedAnswerLimit` per id.
                if let latest = driver.engine.latestTouch(forPlatform: touch), driver.engine.isTracking(latest),
                   passedAnswers[touch, default: []].count < Self.passedAnswerLimit {
                    passedAnswers[touch, default: []].append((time, verdict))
                    peakHeldAnswerIDs = max(peakHeldAnswerIDs, passedAnswers.count)
                }
                return  // the re-timing oracles answer from it when asked
            }
            input = .recordedAnswer(touch: touch, verdict: verdict)
        }
        // The input is moved into the step, not copied (and its samples released once).
        let step = driver.deliver(input, at: eventTime, into: &output)
        if let refusal = step.refusal {
            issueCount += 1
            if issues.count < Self.issueLimit { issues.append(ReplayIssue(line: line, error: refusal)) }
        } else if let began {
            passedAnswers[began] = nil   // answers from now on are the new touch's
        }
        answerRequests()
    }

    mutating func runScheduled(until time: Double) {
        while driver.step(until: time, into: &output) != nil { answerRequests() }
        answerRequests()   // what the time passing to `time` asked for
    }

    /// The page's side of what the host asked: answers to requests, scheduled.
    mutating func answerRequests() {
        guard !output.isEmpty else { return }
        // By index, matching the kinds without binding first: most events are neither, and
        // are read in place rather than copied out of the array.
        for index in output.indices {
            if identity != nil { identity!.observe(output[index]) }
            if case .send = output[index].kind, case let .send(request, touches) = output[index].kind {
                if tracksRoundTrips, sentRoundTrips.insert(request.token).inserted {
                    roundTrips[nextRoundTrip] = request
                    if let old = roundTrips.removeValue(forKey: nextRoundTrip - Self.roundTripMemory) { sentRoundTrips.remove(old.token) }
                    nextRoundTrip += 1
                }
                answer(request, for: touches.first)
            } else if !passedAnswers.isEmpty, case .action(.touchFinished) = output[index].kind, let touch = output[index].engineTouch,
                      driver.engine.latestTouch(forPlatform: touch.platform) == touch.engine {
                // A finished touch asks no more questions: its passed answers go.
                passedAnswers[touch.platform] = nil
            }
        }
        output.removeAllBounded()
    }

    /// Schedules the simulated page's answers to a request, for the first touch waiting.
    mutating func answer(_ request: HitTestRequest, for touch: EngineTouch?) {
        guard let touch else { return }
        let platform = touch.platform
        // The log's answers name the platform id: they are this touch's only while it is the
        // latest touch with that id (a question asked again for an older one finds none).
        let isLatest = driver.engine.latestTouch(forPlatform: platform) == touch.engine
        let now = driver.engine.now
        let delay = configuration.latencyJitter > 0 ? jitter.unit() * configuration.latencyJitter : 0
        var answers: [(time: Double, verdict: HitTestVerdict)] = []
        switch configuration.oracle {
        case .recorded:
            return  // the recorded answers arrive as the log has them
        case let .recordedWithLatency(latency):
            guard isLatest else { return }
            let recorded = recordedAnswers(of: platform, until: now + configuration.answerLookahead)
            guard let first = recorded.first else { return }
            answers = recorded.map { (now + latency + delay + ($0.time - first.time), $0.verdict) }
        case let .regions(latency):
            let time = now + latency + delay
            guard let regions = snapshot(at: time) else { return }
            answers = [(time, regions.verdict(at: request.pagePoint))]
        }
        for answer in answers {
            // The page answers for the layout it has when it answers.
            let generation = max(request.generation, snapshot(at: answer.time)?.generation ?? 0)
            let message = PageAnswer(token: request.token, verdict: answer.verdict, generation: generation)
            driver.schedule(.decodedPageMessage(.answer(message)), at: answer.time)
        }
    }

    /// The recorded answers of the current touch with this log id: those already passed,
    /// then those ahead, up to its id's next `began` or `horizon`.
    mutating func recordedAnswers(of platform: PlatformTouchID, until horizon: Double) -> [(time: Double, verdict: HitTestVerdict)] {
        fill(until: horizon)
        var answers = passedAnswers[platform] ?? []
        for (event, _) in window[windowStart...] {
            guard event.time <= horizon else { break }
            if case let .touch(touch, _) = event, touch.phase == .began, touch.touch == platform { break }
            if case let .answer(touch, verdict, time) = event, touch == platform { answers.append((time, verdict)) }
        }
        return answers
    }

    /// The latest snapshot the log records at or before `time` (looking ahead when needed).
    mutating func snapshot(at time: Double) -> RegionSnapshot? {
        fill(until: time)
        var latest = snapshot.flatMap { $0.time <= time ? $0.snapshot : nil }
        for (event, _) in window[windowStart...] {
            guard event.time <= time else { break }
            if case let .regions(regions, _) = event { latest = regions }
            // A new page: its own snapshots only; reflowed: the new layout's only.
            if case .recorded(.frontEnd(.newDocument), _) = event { latest = nil }
            if case .recorded(.frontEnd(.viewResized), _) = event { latest = nil }
        }
        return latest
    }

    /// The next event to play, its line number in ``playedLine`` (an event and its line
    /// apart: no optional tuple to destroy per line).
    mutating func nextPlayed() -> SessionEvent? {
        if windowStart < window.count {
            let event = window[windowStart].event
            playedLine = window[windowStart].line
            windowStart += 1
            windowSamples -= Self.samples(in: event)
            if windowStart == window.count {
                window.removeAll(keepingCapacity: true)
                windowStart = 0
            }
            return event
        }
        guard !sourceDone, let event = events.next(line: &playedLine) else {
            sourceDone = true
            return nil
        }
        return event
    }

    /// Reads ahead until an event later than `time`, the end, or the lookahead limit.
    mutating func fill(until time: Double) {
        guard looksAhead else { return }
        if windowStart > 4096, windowStart * 2 > window.count {
            window.removeFirst(windowStart)
            windowStart = 0
        }
        while !sourceDone, window.count - windowStart < configuration.lookaheadLimit,
              windowSamples < Self.lookaheadSampleLimit, (window.last?.event.time ?? -.infinity) <= time {
            guard let next = events.next() else {
                sourceDone = true
                break
            }
            window.append(next)
            windowSamples += Self.samples(in: next.event)
        }
    }

    func report() -> ReplayReport {
        let touches = driver.outcomes.sorted { $0.engineID.rawValue < $1.engineID.rawValue }
        var report = ReplayReport(
            file: events.file, readFailure: events.failure, samples: events.samples, refusedSamples: driver.refusedSamples,
            audit: driver.auditLedger, engineLedger: driver.engine.ledger, counters: driver.engine.counters,
            bridge: driver.engine.bridgeMetrics, touches: touches, touchCount: driver.touchesBegun, firstInk: driver.firstInk,
            issues: issues, issueCount: issueCount, problems: driver.problems.first, problemCount: driver.problems.count, orphanAnswers: orphans,
            timeline: driver.timeline, failures: driver.verificationFailures)
        report.peakHeldAnswerIDs = peakHeldAnswerIDs
        // What the recording proves is known once it was read to its end (a read failure
        // names its own line and fails the replay anyway).
        if events.header?.isRecording == true, events.failure == nil { report.integrity = events.integrity }
        report.acceptsIncomplete = configuration.acceptsIncomplete
        if let identity {
            report.identity = identity.summary
            report.divergence = identity.divergence?.message
            report.divergenceLine = identity.divergence?.line
            report.isIdentical = identity.isActive
            // A recorder writes only what the live engine took: a line the replay refuses is
            // not the live session's, and never counted identical.
            if identity.isActive, let refused = issues.first {
                report.isIdentical = false
                report.identity = "not identical: the replay refused \(refused), which a recorder never writes (it records only what the live engine took)"
            }
        } else if let identityNotChecked {
            report.identity = identityNotChecked
        }
        return report
    }
}
