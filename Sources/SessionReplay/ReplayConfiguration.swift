@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// How ``SessionReplayer`` replays a log.
public struct ReplayConfiguration: Sendable, Hashable {
    /// The engine's settings: the one timeout and its fallback, the region cache (off by
    /// default in a replay), speculative ink, pencil-only, the bounds.
    public var engine: InkEngineConfiguration
    /// Who answers the hit tests.
    public var oracle: ReplayOracle
    /// Extra answer latency drawn uniformly from `0 ..< latencyJitter` seconds per round
    /// trip, for the re-timed oracles; seeded by ``seed``, so replays repeat exactly.
    public var latencyJitter: Double
    /// The seed of the jitter and of the query ids.
    public var seed: UInt64
    /// Whether the report keeps every touch's outcome, samples included
    /// (`ReplayReport.touches`). Off, a replay's memory does not grow with the log.
    public var keepsTouches: Bool
    /// Whether the report carries a ``DecisionTimeline`` of the replay
    /// (``ReplayReport/timeline``); its memory is bounded (see ``DecisionTimeline``).
    public var recordsTimeline = false
    /// How far ahead (seconds of log time) the re-timing oracles look for a touch's
    /// recorded answers; answers recorded later than that after the question are not used.
    public var answerLookahead: Double = 10
    /// The most log events the replay holds ahead of the one it plays (for the re-timing
    /// oracles); memory stays bounded on logs with millions of events at one instant.
    public var lookaheadLimit: Int = 100_000
    /// Whether a live recording (a header naming the engine's configuration) replays with
    /// the configuration it was recorded with, rather than ``engine`` (default `true`).
    /// Replayed with the recorded oracle, a live recording is always checked against its
    /// live decisions (``ReplayReport/identity``): with another configuration, the check
    /// names the first touch the change decides differently.
    public var usesRecordedEngine = true
    /// Whether a live recording that is incomplete (`RecordingIntegrity.incomplete(line:reason:)`:
    /// cut short, or lines its recorder dropped) may verify when what it holds does
    /// (default `false`: ``ReplayReport/isVerified`` is then `false` for it).
    public var acceptsIncomplete = false

    /// Creates a configuration; the defaults replay answers as recorded, without the region
    /// cache, with a 250 ms timeout that falls back to ink.
    public init(
        engine: InkEngineConfiguration = InkEngineConfiguration(useRegionCache: false),
        oracle: ReplayOracle = .recorded, latencyJitter: Double = 0, seed: UInt64 = 1, keepsTouches: Bool = true
    ) {
        self.keepsTouches = keepsTouches
        self.engine = engine
        self.oracle = oracle
        self.latencyJitter = latencyJitter
        self.seed = seed
    }
}
