@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording

/// Checks a replay of a live recording against what the recording says: every touch decided
/// by the same owner for the same reason at the same time, finished at the same time with the
/// same samples to the same owner and the same ink (the digest of its ink actions), in the
/// same order; every decision and finish of the replay named by the recording (both ways);
/// and the live engine's final ledger (the `end` line). Keeps only what the replay decided and the
/// recording has not yet said (a recording writes each decision right after the input that
/// caused it), so memory stays flat over the session.
struct IdentityCheck {
    private struct Decision {
        var platform: PlatformTouchID
        var owner: HitTestVerdict
        var reason: DecisionReason
        var at: Double
        var input: Int
    }

    private struct Finished {
        var platform: PlatformTouchID
        var ledger: SampleLedger
        var ink: String
        var at: Double
        var wasCancelled: Bool
        var input: Int
    }

    /// How the recording's `finished` lines count a cancelled touch, read from the version
    /// of the engine that recorded it: a recording is compared as it was written.
    enum LedgerRule: Equatable {
        /// Engines before 1.1: every sample of a cancelled touch was counted `cancelled`,
        /// those the page had got included (`released` 0).
        case cancelTakesAll
        /// Engine 1.1 and later: the samples the page got before the cancel are `released`;
        /// `cancelled` is what nobody got.
        case pageKeepsWhatItGot

        /// The rule of the engine version a recording's header names; a version this reader
        /// cannot read as `major.minor`, or none, is taken as the current rule.
        init(engineVersion: String?) {
            let parts = (engineVersion ?? "").split(separator: ".").map { Int($0) }
            if parts.count >= 2, let major = parts[0], let minor = parts[1], major < 1 || (major == 1 && minor < 1) {
                self = .cancelTakesAll
            } else {
                self = .pageKeepsWhatItGot
            }
        }

        /// A replayed touch's ledger as the recording's engine counted it.
        func recorded(_ ledger: SampleLedger, cancelled: Bool) -> SampleLedger {
            guard self == .cancelTakesAll, cancelled else { return ledger }
            var old = ledger
            old.cancelled += old.released
            old.released = 0
            old.releasedNatively = 0
            old.replayed = 0
            return old
        }
    }

    /// The engine versions whose recordings a replay by this engine compares: its own, and
    /// the older ones whose counting rules it keeps (``LedgerRule``; 1.1 and 1.2 count as 1.3
    /// does, and 1.3 only adds the `pencil_hover` and `pencil_only` lines, which an older
    /// recording does not have). A recording of any other version diverges at its header.
    static let comparableEngineVersions: Set<String> = ["1.0", "1.1", "1.2", InkEngine.version]

    /// The rule the recording's `finished` lines were written by.
    let ledgerRule: LedgerRule
    /// Replayed touches cancelled and not finished yet.
    private var cancelled: Set<TouchID> = []

    /// A check of a recording made by the engine of `engineVersion` (its header's `engine`).
    init(engineVersion: String? = InkEngine.version) {
        ledgerRule = LedgerRule(engineVersion: engineVersion)
    }

    /// Replay decisions the recording has not named yet, by engine touch id, in order.
    private var decisions: [TouchID: [Decision]] = [:]
    private var finished: [TouchID: Finished] = [:]
    private var digests = InkDigests()
    /// The most unmatched entries held before the check gives up (a recording that stopped
    /// writing decisions).
    static let limit = 4_096
    /// The input lines played so far: the replay's decisions and finishes are tagged with the
    /// input whose lines in the recording carry them (a deadline that fires before an input is
    /// written after it).
    private var inputs = 0
    /// Recorded decisions matched.
    private(set) var touchesMatched = 0
    /// The first divergence, with its log line.
    private(set) var divergence: (line: Int?, message: String)?
    /// The sink fell behind while recording: lines are missing from `line` on, so the check
    /// stops there (what came before it was checked) and no identity is claimed.
    private(set) var gap: (line: Int?, lines: Int, samples: Int, tooLong: Int?)?
    /// Whether the check still runs (no divergence, no gap).
    var isActive: Bool { divergence == nil && gap == nil }

    /// An input line is about to be played (after it, the recording writes what the replay
    /// decides from now on).
    mutating func beginInput() { inputs += 1 }

    /// Folds one replay event in.
    mutating func observe(_ event: EngineEvent) {
        guard isActive, case let .action(action) = event.kind else { return }
        let digest = digests.take(action)
        guard let touch = event.engineTouch else { return }
        switch action {
        case let .decided(id, owner, reason):
            decisions[id, default: []].append(Decision(platform: touch.platform, owner: owner, reason: reason, at: event.time, input: inputs))
        case let .cancel(id, _):
            cancelled.insert(id)
            return
        case let .touchFinished(id, ledger):
            finished[id] = Finished(platform: touch.platform, ledger: ledger, ink: (digest ?? InkDigest()).hex, at: event.time,
                                    wasCancelled: cancelled.remove(id) != nil, input: inputs)
        default:
            return
        }
        if decisions.count + finished.count > Self.limit {
            diverge(nil, "the replay decided \(Self.limit) touches the recording never names: it stopped recording decisions")
        }
    }

    /// Checks a recorded decision or outcome against the replay's (the replay has played
    /// every line before it).
    mutating func check(_ recorded: RecordedEvent, line: Int?) {
        guard isActive else { return }
        switch recorded {
        case let .dropped(lines, samples, _, _, tooLong):
            gap = (line, lines, samples, tooLong)
            decisions.removeAll()
            finished.removeAll()
            cancelled.removeAll()
        case let .decided(touch, owner, reason, at):
            let live = "\(touch): decided live as \(owner.rawValue) (\(reason.rawValue)) at \(JSONValue.format(at)) s"
            guard var queue = decisions[touch.engine], !queue.isEmpty else {
                diverge(line, "\(live); the replay had not decided it by then")
                return
            }
            let replayed = queue.removeFirst()
            decisions[touch.engine] = queue.isEmpty ? nil : queue
            if replayed.platform != touch.platform {
                diverge(line, "\(live); the replay's engine touch \(touch.engine.rawValue) is platform touch \(replayed.platform.rawValue)")
            } else if replayed.owner != owner || replayed.reason != reason {
                diverge(line, "\(live), replayed as \(replayed.owner.rawValue) (\(replayed.reason.rawValue)) at \(JSONValue.format(replayed.at)) s")
            } else if replayed.at != at {
                diverge(line, "\(live), replayed the same way but at \(JSONValue.format(replayed.at)) s")
            } else {
                touchesMatched += 1
            }
        case let .finished(touch, ledger, ink, at):
            func counts(_ l: SampleLedger) -> String {
                "received \(l.received) = inked \(l.inked) + released \(l.released) + cancelled \(l.cancelled)"
            }
            guard let replayed = finished.removeValue(forKey: touch.engine) else {
                diverge(line, "\(touch): finished live (\(counts(ledger))); the replay had not finished it by then")
                return
            }
            // Compared as the recording's engine counted it (an old recording: a cancelled
            // touch's page samples as cancelled).
            let replayedLedger = ledgerRule.recorded(replayed.ledger, cancelled: replayed.wasCancelled)
            let same = replayedLedger.received == ledger.received && replayedLedger.inked == ledger.inked
                && replayedLedger.released == ledger.released && replayedLedger.cancelled == ledger.cancelled
            if !same {
                diverge(line, "\(touch): its samples went elsewhere: live \(counts(ledger)), replayed \(counts(replayedLedger))")
            } else if replayed.ink != ink {
                diverge(line, "\(touch): the same samples went to the same owner, but the ink differs (live digest \(ink), replayed \(replayed.ink))")
            } else if replayed.at != at {
                diverge(line, "\(touch): finished live at \(JSONValue.format(at)) s, replayed at \(JSONValue.format(replayed.at)) s")
            }
        default:
            break
        }
    }

    /// Checks the live engine's final ledger (a recording's `end` line) against the replay's
    /// at the same point. Refused inputs are not recorded, so their samples are left out of
    /// both sides' `received`.
    mutating func checkEnd(_ live: SampleLedger, replayed: SampleLedger, line: Int?) {
        guard isActive else { return }
        func text(_ l: SampleLedger) -> String {
            "received \(l.received - l.refused) = inked \(l.inked) + released \(l.released) (natively \(l.releasedNatively), "
                + "replayed \(l.replayed)) + cancelled \(l.cancelled) + pending \(l.pending)"
        }
        let same = live.received - live.refused == replayed.received - replayed.refused && live.inked == replayed.inked
            && live.released == replayed.released && live.releasedNatively == replayed.releasedNatively
            && live.replayed == replayed.replayed && live.cancelled == replayed.cancelled && live.pending == replayed.pending
        if !same { diverge(line, "the session's ledger differs: live \(text(live)), replayed \(text(replayed))") }
    }

    /// The recording ended (every line played, before the session's tail runs): a decision or
    /// a finish the replay made by `time` that the recording never named is a divergence.
    /// When the recording is not `whole` (cut short: no `end` line, or a line that could not
    /// be read), the lines of its last input may be what was cut: what the replay did for
    /// that input is not held against it.
    mutating func end(at time: Double, whole: Bool) {
        guard isActive else { return }
        func named(_ at: Double, _ input: Int) -> Bool { at <= time && (whole || input < inputs) }
        let early = decisions.compactMap { id, queue in queue.first.flatMap { named($0.at, $0.input) ? (id, $0) : nil } }
            .min { ($0.1.at, $0.0.rawValue) < ($1.1.at, $1.0.rawValue) }
        if let (id, decision) = early {
            let touch = EngineTouch(engine: id, platform: decision.platform)
            diverge(nil, "\(touch): replayed as \(decision.owner.rawValue) (\(decision.reason.rawValue)) at "
                    + "\(JSONValue.format(decision.at)) s; the recording has no such decision")
            return
        }
        // A touch the replay finished that the recording never says finished.
        let unnamed = finished.filter { named($0.value.at, $0.value.input) }.min { ($0.value.at, $0.key.rawValue) < ($1.value.at, $1.key.rawValue) }
        if let (id, done) = unnamed {
            let touch = EngineTouch(engine: id, platform: done.platform)
            diverge(nil, "\(touch): the replay finished it at \(JSONValue.format(done.at)) s (received \(done.ledger.received) = inked "
                    + "\(done.ledger.inked) + released \(done.ledger.released) + cancelled \(done.ledger.cancelled)); "
                    + "the recording never says it finished")
        }
    }

    mutating func diverge(_ line: Int?, _ message: String) {
        guard divergence == nil else { return }
        divergence = (line, "not identical to the live recording: " + message)
        decisions.removeAll()
        finished.removeAll()
        cancelled.removeAll()
    }

    /// The sentence a report carries.
    var summary: String {
        if let divergence { return divergence.message }
        if let gap {
            return "not checked for identity past line \(gap.line.map(String.init) ?? "?"): the recorder dropped \(gap.lines) lines "
                + "(\(gap.samples) samples) there \(SessionLogLines.droppedReason(tooLong: gap.tooLong)); \(touchesMatched) decisions before it replayed identically"
        }
        return "identical to the live recording: \(touchesMatched) decisions replayed with the same owner, reason, samples and ink"
    }
}
