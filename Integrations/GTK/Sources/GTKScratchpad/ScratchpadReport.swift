@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

extension ScratchpadWindow {
    /// Settings of a window.
    public struct Options: Sendable {
        /// The page's viewport, CSS pixels (the overlay covers it, one point each).
        public var width: Int
        /// The viewport's height, CSS pixels.
        public var height: Int
        /// The engine's settings: how touches are decided and the page asked (one timeout).
        public var configuration: InkEngineConfiguration
        /// Whether each finished touch's outcome, its samples included, is kept for the
        /// report; off, the audit still checks every touch but keeps only counts. (The ink
        /// itself, every stroke drawn, is kept either way.)
        public var keepsOutcomes: Bool
        /// Seconds every message from the page is held before the engine takes it: a slower
        /// page, for measuring what a user sees at a given page latency
        /// (``WebKitGTKPage/messageDelay``, the page transport's). Default 0.
        public var pageMessageDelay: Double = 0
        /// Records the session (what the engine took and decided) for `ink-replay verify`,
        /// through its sink; `nil`, the default, records nothing. The window's ``InkLoop``
        /// records every input and wake-up as the engine takes them, and flushes it in
        /// ``ScratchpadWindow/finish()``.
        public var recorder: SessionRecorder?

        /// Settings for a `width` × `height` page. The default configuration routes at
        /// touch-down, as an iPad app must (``TouchRouting/decideAtTouchDown``).
        public init(width: Int = 1024, height: Int = 768,
                    configuration: InkEngineConfiguration = InkEngineConfiguration(routing: .decideAtTouchDown),
                    keepsOutcomes: Bool = true) {
            self.width = width
            self.height = height
            self.configuration = configuration
            self.keepsOutcomes = keepsOutcomes
        }
    }

}

/// What a ``ScratchpadWindow`` saw.
public struct ScratchpadReport: Sendable {
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
    @_spi(Tooling) public var outcomes: [TouchOutcome]
    /// The bridge's counters.
    @_spi(Tooling) public var bridge: BridgeMetrics
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
    @_spi(Tooling) public var pageRefusals = PageRefusals(BridgeMetrics())
    /// The latest refusals, inputs and page messages alike, with their reasons.
    public var recentRefusals: [String] = []

    /// Samples of refused touch events, from the engine's ledger.
    public var refusedSamples: Int { ledger.refused }

    /// Every sample went once, in order, where it was decided to go, nothing was refused,
    /// the audit agrees with the engine, and no touch was left down in the web view.
    public var isVerified: Bool { verificationFailures.isEmpty }
}
