import HitTestBridge
import InkCore
import InkRecording

/// Checks a replay of a live recording against the decisions recorded live: every touch the
/// same owner for the same reason, the same samples to the same owner, the same ink (the
/// digest of its ink actions), in the same order. Keeps only what the replay decided and the
/// recording has not yet said (a recording writes each decision right after the input that
/// caused it), so memory stays flat over the session.
struct IdentityCheck {
    private struct Decision {
        var platform: UInt64
        var owner: HitTestVerdict
        var reason: DecisionReason
        var at: Double
    }

    private struct Finished {
        var platform: UInt64
        var ledger: SampleLedger
        var ink: String
        var at: Double
    }

    /// Replay decisions the recording has not named yet, by engine touch id, in order.
    private var decisions: [TouchID: [Decision]] = [:]
    private var finished: [TouchID: Finished] = [:]
    private var digests = InkDigests()
    /// The most unmatched entries held before the check gives up (a recording that stopped
    /// writing decisions).
    static let limit = 4_096
    /// Recorded decisions matched.
    private(set) var touchesMatched = 0
    /// The first divergence, with its log line.
    private(set) var divergence: (line: Int?, message: String)?
    /// The sink fell behind while recording: lines are missing, so no identity is claimed.
    private(set) var gap: (lines: Int, samples: Int)?
    /// Whether the check still runs (no divergence, no gap).
    var isActive: Bool { divergence == nil && gap == nil }

    /// Folds one replay event in.
    mutating func observe(_ event: EngineEvent) {
        guard isActive, case let .action(action) = event.kind else { return }
        let digest = digests.take(action)
        guard let touch = event.touch else { return }
        switch action {
        case let .decided(id, owner, reason):
            decisions[id, default: []].append(Decision(platform: touch.platform, owner: owner, reason: reason, at: event.time))
        case let .touchFinished(id, ledger):
            finished[id] = Finished(platform: touch.platform, ledger: ledger, ink: (digest ?? InkDigest()).hex, at: event.time)
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
        case let .dropped(lines, samples, _, _):
            gap = (lines, samples)
            decisions.removeAll()
            finished.removeAll()
        case let .decided(touch, owner, reason, at):
            let live = "\(touch): decided live as \(owner.rawValue) (\(reason.rawValue)) at \(JSONValue.format(at)) s"
            guard var queue = decisions[touch.engine], !queue.isEmpty else {
                diverge(line, "\(live); the replay had not decided it by then")
                return
            }
            let replayed = queue.removeFirst()
            decisions[touch.engine] = queue.isEmpty ? nil : queue
            if replayed.platform != touch.platform {
                diverge(line, "\(live); the replay's engine touch \(touch.engine.rawValue) is platform touch \(replayed.platform)")
            } else if replayed.owner != owner || replayed.reason != reason {
                diverge(line, "\(live), replayed as \(replayed.owner.rawValue) (\(replayed.reason.rawValue)) at \(JSONValue.format(replayed.at)) s")
            } else {
                touchesMatched += 1
            }
        case let .finished(touch, ledger, ink, _):
            func counts(_ l: SampleLedger) -> String {
                "received \(l.received) = inked \(l.inked) + released \(l.released) + cancelled \(l.cancelled)"
            }
            guard let replayed = finished.removeValue(forKey: touch.engine) else {
                diverge(line, "\(touch): finished live (\(counts(ledger))); the replay had not finished it by then")
                return
            }
            let same = replayed.ledger.received == ledger.received && replayed.ledger.inked == ledger.inked
                && replayed.ledger.released == ledger.released && replayed.ledger.cancelled == ledger.cancelled
            if !same {
                diverge(line, "\(touch): its samples went elsewhere: live \(counts(ledger)), replayed \(counts(replayed.ledger))")
            } else if replayed.ink != ink {
                diverge(line, "\(touch): the same samples went to the same owner, but the ink differs (live digest \(ink), replayed \(replayed.ink))")
            }
        default:
            break
        }
    }

    /// The recording ended (every line played, before the session's tail runs): a decision
    /// the replay made before `time` that the recording never named is a divergence.
    mutating func end(at time: Double) {
        guard isActive else { return }
        let early = decisions.compactMap { id, queue in queue.first.flatMap { $0.at <= time ? (id, $0) : nil } }
            .min { ($0.1.at, $0.0.rawValue) < ($1.1.at, $1.0.rawValue) }
        if let (id, decision) = early {
            let touch = EngineTouch(engine: id, platform: decision.platform)
            diverge(nil, "\(touch): replayed as \(decision.owner.rawValue) (\(decision.reason.rawValue)) at "
                    + "\(JSONValue.format(decision.at)) s; the recording has no such decision")
        }
    }

    private mutating func diverge(_ line: Int?, _ message: String) {
        guard divergence == nil else { return }
        divergence = (line, "not identical to the live recording: " + message)
        decisions.removeAll()
        finished.removeAll()
    }

    /// The sentence a report carries.
    var summary: String {
        if let divergence { return divergence.message }
        if let gap {
            return "not checked for identity: the recorder dropped \(gap.lines) lines (\(gap.samples) samples) while its sink was behind"
        }
        return "identical to the live recording: \(touchesMatched) decisions replayed with the same owner, reason, samples and ink"
    }
}
