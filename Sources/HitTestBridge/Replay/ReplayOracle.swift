import InkCore

/// Who answers the hit tests of a replayed session, in simulated time.
public enum ReplayOracle: Sendable, Hashable {
    /// The answers recorded in the log, at their recorded times (never before the question
    /// was asked). A touch with no recorded answer is never answered: the timeout decides.
    case recorded
    /// The recorded verdicts, re-timed to arrive `latency` seconds (plus the configured
    /// jitter) after each question (duplicates keep their recorded spacing). Unanswered
    /// touches stay unanswered.
    case recordedWithLatency(Double)
    /// The page answers from the region snapshots the log records (the latest one logged
    /// at or before the moment it answers), `latency` seconds (plus jitter) after each
    /// question. A question asked before any snapshot is never answered.
    case regions(latency: Double)
}

/// The recorded answers of a log, indexed by touch occurrence (the n-th touch to begin).
struct RecordedAnswers {
    /// For each occurrence, its answers in log order: (arrival time, verdict).
    private(set) var byOccurrence: [[(time: Double, verdict: HitTestVerdict)]] = []
    /// Answers naming a touch id that had not begun when they arrived.
    private(set) var orphans: [(time: Double, verdict: HitTestVerdict)] = []
    /// The region snapshots the page pushed, in log order.
    private(set) var snapshots: [(time: Double, snapshot: RegionSnapshot)] = []

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
            case let .regions(snapshot, time):
                snapshots.append((time, snapshot))
            default:
                break
            }
        }
    }

    /// When and what the oracle answers for occurrence `n` whose touch-down is at
    /// `pagePoint`, asked at `askedAt`, with `delay` seconds of jitter.
    func answers(forOccurrence n: Int, pagePoint: CanvasPoint, askedAt: Double, delay: Double,
                 oracle: ReplayOracle) -> [(time: Double, verdict: HitTestVerdict)] {
        switch oracle {
        case .recorded:
            guard byOccurrence.indices.contains(n) else { return [] }
            return byOccurrence[n].map { (max($0.time, askedAt), $0.verdict) }
        case let .recordedWithLatency(latency):
            guard byOccurrence.indices.contains(n), let first = byOccurrence[n].first else { return [] }
            return byOccurrence[n].map { (askedAt + latency + delay + ($0.time - first.time), $0.verdict) }
        case let .regions(latency):
            let time = askedAt + latency + delay
            guard let snapshot = snapshots.last(where: { $0.time <= time })?.snapshot else { return [] }
            return [(time, snapshot.verdict(at: pagePoint))]
        }
    }

    /// The generation of the latest snapshot logged at or before `time` (0 when none).
    func generation(at time: Double) -> UInt64 {
        snapshots.last { $0.time <= time }?.snapshot.generation ?? 0
    }
}
