@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge

/// What a live recording proves about itself (docs/session-format.md, "The chain"): whether
/// every line the recorder wrote is there, unchanged, in order, up to its `end` line.
///
/// A recording of format version 3 chains its lines (each line after the header carries a
/// running digest of every line before it) and ends with a line of totals. Its reader refuses
/// the first line where the chain breaks (a line removed, edited, inserted or moved before
/// it), so a recording read to its end is either whole or cut short. Version-2 recordings,
/// written before the chain, are read as they were and called unchained: they replay and are
/// checked as before, but nothing proves them whole.
public enum RecordingIntegrity: Sendable, Hashable {
    /// Not a live recording (format version 1): a log of inputs, nothing to prove.
    case notARecording
    /// A recording written before recordings carried a chain (format version `version`,
    /// 2): checked as far as it goes, but nothing proves that no line is missing.
    case unchained(version: Int)
    /// Whole: an unbroken chain from the header to the `end` line at `endLine`, whose
    /// totals agree with the lines before it.
    case whole(endLine: Int)
    /// Lines are missing after line `line` (its recorder dropped lines there, or the
    /// recording ends there without its `end` line); `reason` says which, as a sentence.
    /// Everything before it is what the recorder wrote.
    case incomplete(line: Int, reason: String)

    /// Whether the recording is whole (``whole(endLine:)``).
    public var isWhole: Bool {
        if case .whole = self { return true }
        return false
    }

    /// Whether lines are known to be missing (``incomplete(line:reason:)``).
    public var isIncomplete: Bool {
        if case .incomplete = self { return true }
        return false
    }

    /// The sentence a report prints (`nil` for a log that is not a recording).
    public var sentence: String? {
        switch self {
        case .notARecording: return nil
        case let .unchained(version):
            return "unchained recording (format version \(version)): it carries no chain, so nothing proves it whole"
        case let .whole(endLine): return "whole: an unbroken chain of \(endLine) lines, ending with its totals"
        case let .incomplete(_, reason): return "incomplete: " + reason
        }
    }

    /// The reason a recording is incomplete when it ends at `line` without its `end` line.
    static func noEnd(at line: Int) -> RecordingIntegrity {
        .incomplete(line: line, reason: "ends at line \(line) with no end: the session did not finish (a crash, a full disk or a cut)")
    }

    /// The reason a recording is incomplete where its recorder left lines out.
    static func dropped(at line: Int, lines: Int, samples: Int, tooLong: Int? = nil) -> RecordingIntegrity {
        .incomplete(line: line, reason: "line \(line): the recorder dropped \(lines) lines (\(samples) samples) here "
                        + SessionLogLines.droppedReason(tooLong: tooLong))
    }
}

extension SessionLog {
    /// What the log proves about itself, from its events: a log parsed from text was checked
    /// line by line as it was read (a broken chain stops the reading there), so this says
    /// whether it reached its `end` line; a log built in code is taken at its word.
    public var integrity: RecordingIntegrity {
        guard header.isRecording else { return .notARecording }
        var end: Int?
        for (index, event) in events.enumerated() {
            guard case let .recorded(recorded, _) = event else { continue }
            switch recorded {
            case let .dropped(lines, samples, _, _, tooLong):
                return .dropped(at: line(ofEvent: index) ?? index + 2, lines: lines, samples: samples, tooLong: tooLong)
            case .end:
                end = line(ofEvent: index) ?? index + 2
            default:
                break
            }
        }
        guard header.version >= SessionLogLines.recordingVersion else { return .unchained(version: header.version) }
        if let end { return .whole(endLine: end) }
        return .noEnd(at: eventLines.last ?? events.count + 1)
    }
}
