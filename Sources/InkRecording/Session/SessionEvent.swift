import InkCore
import HitTestBridge
/// One line of a session log after the header.
public enum SessionEvent: Sendable, Hashable {
    /// A platform touch event, dispatched at `time` (seconds, on the samples' clock).
    case touch(TouchEvent, time: Double)
    /// An estimated-property update, delivered at `time`.
    case update(EstimatedPropertyUpdate, time: Double)
    /// The page's answer to the hit test of the most recent touch with this id that began
    /// at or before `time`, arriving at `time`.
    case answer(touch: TouchID, verdict: HitTestVerdict, time: Double)
    /// The page pushed a snapshot of its interactive regions at `time`.
    case regions(RegionSnapshot, time: Double)

    /// When the event happened, in seconds on the samples' clock.
    public var time: Double {
        switch self {
        case let .touch(_, time), let .update(_, time), let .answer(_, _, time), let .regions(_, time):
            return time
        }
    }
}
