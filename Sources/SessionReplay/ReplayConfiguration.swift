import InkCore
import HitTestBridge
import InkRecording

/// How ``SessionReplayer`` replays a log.
public struct ReplayConfiguration: Sendable, Hashable {
    /// The decision engine's settings (timeout, gesture window, pencil-only, bounds).
    public var router: TouchRouterConfiguration
    /// Who answers the hit tests.
    public var oracle: ReplayOracle
    /// Where a touch goes when its hit test is not answered before its deadline.
    public var timeoutFallback: HitTestVerdict
    /// Whether the page's logged region snapshots answer touch-downs without a round trip
    /// while they are fresh (`RegionCache`).
    public var useCache: Bool
    /// Extra answer latency drawn uniformly from `0 ..< latencyJitter` seconds per round
    /// trip, for the re-timed oracles; seeded by ``seed``, so replays repeat exactly.
    public var latencyJitter: Double
    /// The seed of the jitter and of the query ids.
    public var seed: UInt64
    /// Whether touches that need a round trip are drawn as tentative ink while the last
    /// snapshot, even stale, shows nothing interactive near them
    /// (`BridgeConfiguration/speculativeInk`).
    public var speculativeInk: Bool
    /// Whether the report keeps every touch's outcome, samples included
    /// (``ReplayReport/touches``). Off, a replay's memory does not grow with the log.
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

    /// Creates a configuration; the defaults replay answers as recorded, without the cache,
    /// with a 250 ms timeout that falls back to ink.
    public init(
        router: TouchRouterConfiguration = TouchRouterConfiguration(),
        oracle: ReplayOracle = .recorded, timeoutFallback: HitTestVerdict = .ink,
        useCache: Bool = false, latencyJitter: Double = 0, seed: UInt64 = 1, speculativeInk: Bool = false,
        keepsTouches: Bool = true
    ) {
        self.keepsTouches = keepsTouches
        self.router = router
        self.oracle = oracle
        self.timeoutFallback = timeoutFallback
        self.useCache = useCache
        self.latencyJitter = latencyJitter
        self.seed = seed
        self.speculativeInk = speculativeInk
    }

    /// The bridge settings the replay uses: the engine's timeout and fallback.
    public var bridge: BridgeConfiguration {
        BridgeConfiguration(timeout: router.decisionTimeout, fallback: timeoutFallback, useCache: useCache,
                            speculativeInk: speculativeInk)
    }
}
