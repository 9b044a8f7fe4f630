import CWebKitGTK
import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import WebKitGTKOracle

/// What a ``ScratchpadWindow`` saw: the tooling's view of a session (the tests, the latency
/// probe, the log player), with the engine's own counters and each touch's outcome.
@_spi(Tooling) public struct ScratchpadReport: Sendable {
    /// The engine's ledger: `received = inked + released + cancelled + refused` once every
    /// touch is settled.
    public var ledger: SampleLedger
    /// The same account, rebuilt by the audit from the engine's events.
    public var auditLedger: SampleLedger
    /// What the audit found wrong (the first ones; empty when every sample went once, in
    /// order, where it was decided to go).
    public var problems: [String]
    /// Each finished touch: its verdict, reason, samples, first-ink latency (kept while
    /// ``ScratchpadWindow/Options/keepsOutcomes`` is on).
    public var outcomes: [TouchOutcome]
    /// The bridge's counters.
    public var bridge: BridgeMetrics
    /// Round trips to the page, seconds.
    public var roundTrips: [Double]
    /// Events handed to the web view.
    public var pageEventsDispatched: Int
    /// Inputs the engine refused (the first 100), as sentences.
    public var refusals: [String]
    /// How many inputs the engine refused.
    public var refusedInputs: Int
    /// Page messages the bridge refused before they could mean anything (malformed,
    /// oversized); ``pageRefusals`` has every reason.
    public var refusedMessages: Int
    /// Strokes of ink.
    public var strokes: Int
    /// Replays the page script was asked to run (late page verdicts, decide-at-touch-down
    /// routing).
    public var replays: Int
    /// Events those replays carried.
    public var replayedEvents: Int
    /// Why the session does not verify, in sentences: the audit's verdict against the
    /// engine's ledger (``DeliveryAudit/verify(against:)``), then the front end's own check
    /// that every touch handed to the web view was ended or cancelled there. Empty when it
    /// verifies.
    public var verificationFailures: [String]
    /// Lines the recorder's sink took, when the window records (``ScratchpadWindow/Options/recorder``).
    public var recordedLines = 0
    /// Lines the recorder left out because its sink was behind (written into the recording
    /// as a `dropped` line; `verify` then claims no identity over it).
    public var recordingDroppedLines = 0
    /// Page messages that changed nothing, by reason (late, duplicate, forged and stale
    /// answers, refused snapshots, malformed messages).
    public var pageRefusals = PageRefusals(BridgeMetrics())
    /// The latest refusals, inputs and page messages alike, with their reasons.
    public var recentRefusals: [String] = []

    /// Samples of refused touch events, from the engine's ledger.
    public var refusedSamples: Int { ledger.refused }

    /// Every sample went once, in order, where it was decided to go, nothing was refused,
    /// the audit agrees with the engine, and no touch was left down in the web view.
    public var isVerified: Bool { verificationFailures.isEmpty }
}

/// The window's engine, audit and report, for the package's tooling and tests: the window
/// itself (GTKScratchpad) is written on the public front-end kit only.
extension ScratchpadWindow {
    /// The engine: it decides, maps GDK's identifiers to its touches, and counts every sample.
    @_spi(Tooling) public var engine: InkEngine { loop.engine }
    /// Every event the engine emitted, folded in order by the loop.
    @_spi(Tooling) public var audit: DeliveryAudit { loop.audit }
    /// Each finished touch's outcome, in the order they finished, while
    /// ``ScratchpadWindow/Options/keepsOutcomes`` is on.
    @_spi(Tooling) public var outcomes: [TouchOutcome] { loop.outcomes }

    /// Stops the loop (``ScratchpadWindow/stop()``) and returns what the window saw.
    @_spi(Tooling) public func finish() -> ScratchpadReport {
        stop()
        return report
    }

    /// What the window saw so far.
    @_spi(Tooling) public var report: ScratchpadReport {
        var failures = audit.verify(against: loop.ledger)
        if replayFailures > 0 {
            failures.append("\(replayFailures) of \(replaysSent) replays did not reach the page script: their samples never reached the page")
        }
        let metrics = loop.metrics
        var report = ScratchpadReport(ledger: loop.ledger, auditLedger: audit.ledger, problems: audit.problems, outcomes: outcomes,
                                      bridge: engine.bridgeMetrics, roundTrips: roundTrips, pageEventsDispatched: pageEventsDispatched,
                                      refusals: refusals, refusedInputs: audit.refusedInputs,
                                      refusedMessages: metrics.pageRefusals.malformed, strokes: ink.strokes.count,
                                      replays: replaysSent, replayedEvents: replayedEvents, verificationFailures: failures,
                                      recordedLines: loop.recorder?.linesWritten ?? 0,
                                      recordingDroppedLines: loop.recorder?.droppedLines ?? 0)
        report.pageRefusals = metrics.pageRefusals
        report.recentRefusals = metrics.recentRefusals
        return report
    }
}

/// A posted message decoded, and the page asked and waited for, for the tooling and tests.
extension WebKitGTKPage.PostedMessage {
    /// The message decoded, or why it was refused (decoded on each read).
    @_spi(Tooling) public var decoded: Result<PageMessage, WireMessageError> {
        Result { () throws(WireMessageError) in try PageMessage.decode(bytes) }
    }
}

extension WebKitGTKPage {
    /// Takes the first queued message whose decoded form `matches`, decoding each message
    /// once (`seen`, by arrival: a flooding page queues a thousand snapshots).
    private func takeDecoded(_ seen: inout [UInt64: Result<PageMessage, WireMessageError>],
                             where matches: (Result<PageMessage, WireMessageError>) -> Bool) -> PostedMessage? {
        takeMessage { message in
            let decoded = seen[message.sequence] ?? message.decoded
            if message.sequence != 0 { seen[message.sequence] = decoded }
            return matches(decoded)
        }
    }

    /// Asks the page script and waits for its answer through the handler; returns the
    /// answer and the round trip's wall-clock duration, seconds.
    @_spi(Tooling) public func hitTest(_ request: HitTestRequest, timeout: Double = 5) throws(WebKitGTKError) -> (message: PostedMessage, seconds: Double) {
        let start = GTK.now
        var failure: WebKitGTKError?
        var evaluated = false
        send(request) {
            evaluated = true
            if case let .failure(error) = $0 { failure = error }
        }
        let token = request.token
        var answer: PostedMessage?
        var seconds = 0.0
        var seen: [UInt64: Result<PageMessage, WireMessageError>] = [:]
        GTK.spin(timeout: timeout) {
            if answer == nil {
                answer = takeDecoded(&seen) { if case let .success(.answer(a)) = $0 { a.token == token } else { false } }
                if answer != nil { seconds = GTK.now - start }
            }
            // The evaluation's own completion may come after the answer (not timed).
            return (answer != nil && evaluated) || failure != nil
        }
        if let failure { throw failure }
        guard let answer else { throw .timeout(what: "hit test", seconds: timeout) }
        return (answer, seconds)
    }

    /// Asks the page script to post a region snapshot now, and waits for it.
    @_spi(Tooling) public func pushRegions(timeout: Double = 5) throws(WebKitGTKError) -> PostedMessage {
        var seen: [UInt64: Result<PageMessage, WireMessageError>] = [:]
        let isSnapshot = { (decoded: Result<PageMessage, WireMessageError>) -> Bool in
            if case .success(.regions) = decoded { true } else { false }
        }
        // Snapshots already queued are older than the one asked for.
        while takeDecoded(&seen, where: isSnapshot) != nil {}
        try evaluate("window.scratchpadInk.pushRegions(); true")
        var snapshot: PostedMessage?
        GTK.spin(timeout: timeout) {
            snapshot = takeDecoded(&seen, where: isSnapshot)
            return snapshot != nil
        }
        guard let snapshot else { throw .timeout(what: "region snapshot", seconds: timeout) }
        return snapshot
    }
}
