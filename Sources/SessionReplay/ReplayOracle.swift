@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge

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
