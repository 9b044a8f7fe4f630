import InkCore

/// Who answers the hit tests of a replayed session, in simulated time.
public enum ReplayOracle: Sendable, Hashable {
    /// The answers recorded in the log, at their recorded times (never before the question
    /// was asked). A touch with no recorded answer is never answered: its deadline decides.
    case recorded
    /// The recorded verdicts, re-timed to arrive `latency` seconds after each question
    /// (duplicates keep their recorded spacing). Unanswered touches stay unanswered.
    case recordedWithLatency(Double)
}

/// The recorded answers of a log, indexed by touch occurrence (the n-th touch to begin).
struct RecordedAnswers {
    /// For each occurrence, its answers in log order: (arrival time, verdict).
    private(set) var byOccurrence: [[(time: Double, verdict: HitTestVerdict)]] = []
    /// Answers naming a touch id that had not begun when they arrived.
    private(set) var orphans: [(time: Double, verdict: HitTestVerdict)] = []

    init(_ log: SessionLog) {
        var current: [TouchID: Int] = [:]
        for event in log.events {
            switch event {
            case let .touch(touch, _) where touch.phase == .began:
                current[touch.touch] = byOccurrence.count
                byOccurrence.append([])
            case let .answer(touch, verdict, time):
                if let occurrence = current[touch] {
                    byOccurrence[occurrence].append((time, verdict))
                } else {
                    orphans.append((time, verdict))
                }
            default:
                break
            }
        }
    }

    /// When and what the oracle answers for occurrence `n`, asked at `askedAt`.
    func answers(forOccurrence n: Int, askedAt: Double, oracle: ReplayOracle) -> [(time: Double, verdict: HitTestVerdict)] {
        guard byOccurrence.indices.contains(n), let first = byOccurrence[n].first else { return [] }
        switch oracle {
        case .recorded:
            return byOccurrence[n].map { (max($0.time, askedAt), $0.verdict) }
        case let .recordedWithLatency(latency):
            return byOccurrence[n].map { (askedAt + latency + ($0.time - first.time), $0.verdict) }
        }
    }
}
