@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// A line of a log that the engine refused while replaying it.
public struct ReplayIssue: Sendable, Hashable, CustomStringConvertible {
    /// The log's 1-based line, when known.
    public var line: Int?
    /// Why it was refused: the touch-id rule, or the engine.
    public var error: InputRefusal

    /// `line N: message`.
    public var description: String { (line.map { "line \($0): " } ?? "") + error.description }
}

/// The result of replaying one session log.
public struct ReplayReport: Sendable {
    /// The log file, when it came from one.
    public var file: String?
    /// The fault that stopped reading the log, if any (the valid prefix was still replayed).
    public var readFailure: SessionLogError?
    /// Real samples in the (valid part of the) log.
    public var samples: Int
    /// Samples of log events the engine refused (each refusal is in ``issues``).
    public var refusedSamples: Int
    /// The account rebuilt from the engine's actions, checked against the log's samples
    /// (independent of the engine's own counters).
    public var audit: SampleLedger
    /// The engine's own ledger at the end of the replay.
    public var engineLedger: SampleLedger
    /// The engine's counters at the end of the replay.
    @_spi(Tooling) public var counters: RouterCounters
    /// What the bridge did: round trips, cache hits, timeouts, late answers.
    @_spi(Tooling) public var bridge: BridgeMetrics
    /// Each touch's outcome, in the order the touches began; empty when the replay was asked
    /// not to keep them (``ReplayConfiguration/keepsTouches``).
    @_spi(Tooling) public var touches: [TouchOutcome]
    /// How many touches began.
    public var touchCount: Int
    /// First-ink latencies of the touches that became ink.
    public var firstInk: LatencyCounts
    /// Lines of the log that were refused (the first 100).
    public var issues: [ReplayIssue]
    /// How many lines were refused.
    public var issueCount: Int
    /// Disagreements between the log and what came out of the engine (the first ones).
    public var problems: [String]
    /// How many disagreements in all.
    public var problemCount: Int
    /// Recorded answers that named a touch that had not begun (delivered as unknown).
    public var orphanAnswers: Int
    /// What happened to each touch and on the page over time, when the replay was asked to
    /// record it (``ReplayConfiguration/recordsTimeline``).
    public var timeline: DecisionTimeline? = nil
    /// The most log touch ids whose recorded answers the re-timing oracles held at once
    /// (at most one per touch the engine tracks).
    package var peakHeldAnswerIDs = 0

    /// Samples in the log that were neither accounted for by the audit nor refused with
    /// a reported error. Zero unless the engine lost something.
    public var dropped: Int { samples - refusedSamples - audit.inked - audit.released - audit.cancelled }

    /// First-ink latencies in seconds, one per kept touch that became ink, in touch order.
    public var firstInkLatencies: [Double] { touches.compactMap(\.firstInkLatency) }

    /// Why the replay's events do not verify (`DeliveryAudit.verify(against:)`, the one
    /// definition every replay and front end uses); empty when they do.
    public var failures: [String] = []

    /// For a live recording: whether every touch was decided and inked as recorded live, as
    /// a sentence; replayed by a re-timing oracle, why that was not checked (`nil` for a log
    /// that is not a live recording). A recording the replay refused a line of is never
    /// identical.
    public var identity: String?
    /// The first divergence from the live recording, when there is one: the sentence that
    /// fails verification, naming the touch; ``divergenceLine`` is its log line.
    public var divergence: String?
    /// The log line of ``divergence``, when known.
    public var divergenceLine: Int?
    /// `true` when the log is a live recording that replayed identically: checked (nothing
    /// dropped while recording) and no divergence.
    public var isIdentical = false
    /// What a live recording proves about itself (`RecordingIntegrity`): whole (an
    /// unbroken chain to its `end` line), incomplete, or unchained (format version 2);
    /// `RecordingIntegrity.notARecording` for any other log.
    public var integrity: RecordingIntegrity = .notARecording
    /// Whether an incomplete recording may verify (``ReplayConfiguration/acceptsIncomplete``).
    public var acceptsIncomplete = false

    /// `true` when the recording is whole and replayed identically: the replay is proof
    /// that the live engine decided and inked as this one does. An unchained or incomplete
    /// recording that replayed identically as far as it goes is ``isIdentical`` but not this.
    public var isProvenIdentical: Bool { isIdentical && integrity.isWhole }

    /// `true` when the log read completely, nothing was refused, every sample is
    /// accounted for exactly once and in order, the engine's ledger agrees, a live
    /// recording replayed identically (``divergence`` is `nil`), and it is not incomplete
    /// (unless ``acceptsIncomplete``).
    public var isVerified: Bool {
        readFailure == nil && failures.isEmpty && divergence == nil && audit.received == samples
            && (acceptsIncomplete || !integrity.isIncomplete)
    }
}

/// Nearest-rank percentiles of a list of values.
public struct Percentiles: Sendable, Hashable {
    /// The 50th percentile (median).
    public var p50: Double
    /// The 95th percentile.
    public var p95: Double
    /// The 99th percentile.
    public var p99: Double
    /// The largest value.
    public var max: Double
    /// How many values.
    public var count: Int

    /// Nearest-rank percentiles of `count` values, read by their rank in ascending order
    /// (`valueAt(0)` the smallest): the one nearest-rank rule, for lists and for counts.
    package init(count: Int, valueAt: (Int) -> Double) {
        func rank(_ p: Double) -> Double { valueAt(Swift.max(0, Swift.min(count - 1, Int((p * Double(count)).rounded(.up)) - 1))) }
        p50 = rank(0.50)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = valueAt(count - 1)
        self.count = count
    }

    /// Computes percentiles, or returns `nil` for an empty list.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        self.init(count: sorted.count) { sorted[$0] }
    }
}
