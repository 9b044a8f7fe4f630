@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// One line of a session log after the header.
public enum SessionEvent: Sendable, Hashable {
    /// A platform touch event, dispatched at `time` (seconds, on the samples' clock).
    case touch(TouchEvent, time: Double)
    /// An estimated-property update, delivered at `time`.
    case update(EstimatedPropertyUpdate, time: Double)
    /// The page's answer to the hit test of the most recent touch with this id that began
    /// at or before `time`, arriving at `time`.
    case answer(touch: PlatformTouchID, verdict: HitTestVerdict, time: Double)
    /// The page pushed a snapshot of its interactive regions at `time`.
    @_spi(Tooling) case regions(RegionSnapshot, time: Double)
    /// A line only a live recording carries (format version 2): an input the engine took
    /// that the kinds above cannot say, or what the live engine decided (see
    /// ``RecordedEvent``), at `time`. Boxed: the recorded kinds are rare and large, and every
    /// event would otherwise be moved at their size (a `memcpy` per move).
    indirect case recorded(RecordedEvent, time: Double)

    /// When the event happened, in seconds on the samples' clock.
    public var time: Double {
        switch self {
        case let .touch(_, time), let .update(_, time), let .answer(_, _, time), let .regions(_, time), let .recorded(_, time):
            return time
        }
    }
}

/// What a live recording (``SessionHeader/isRecording``) adds to the inputs: inputs only a
/// live front end gives the engine, and what the live engine decided, for `ink-replay verify`
/// to check the replay against. Written by HitTestBridge's `SessionRecorder`; the lines are
/// documented in docs/session-format.md.
public enum RecordedEvent: Sendable, Hashable {
    /// A touch the front end routed to the page at touch-down (`EngineInput.nativePageTouch`).
    case nativePageTouch(TouchEvent)
    /// The page's answer to the session's `roundTrip`-th round trip (0-based, in the order the
    /// engine sent them; `nil`: one the engine never sent), computed for layout `generation`
    /// by the page document `document` (`nil`: the answer named none).
    @_spi(Tooling) case pageAnswer(roundTrip: Int?, verdict: HitTestVerdict, generation: UInt64, document: PageDocumentID? = nil)
    /// An input about the page's view or document (`EngineInput.layout`, `.newDocument`,
    /// `.viewResized`), in its one wire form (`FrontEndInput`, HitTestBridge).
    @_spi(Tooling) case frontEnd(FrontEndInput)
    /// The transport could not send the `roundTrip`-th round trip (`EngineInput.sendFailed`).
    case sendFailed(roundTrip: Int)
    /// The front end settled every undecided touch by the fallback (`InkEngine.finish`).
    case finish
    /// The live engine decided `touch` (`at`: when, on the engine's clock).
    @_spi(Tooling) case decided(touch: EngineTouch, owner: HitTestVerdict, reason: DecisionReason, at: Double)
    /// The live engine finished `touch`: where its samples went (received, inked, released,
    /// cancelled) and a digest of its ink (16 hex digits).
    @_spi(Tooling) case finished(touch: EngineTouch, ledger: SampleLedger, ink: String, at: Double)
    /// The recorder left lines out: `lines` lines carrying `samples` touch samples, recorded
    /// from `from` to `to`, are missing here, because its sink fell behind or (`tooLong`, the
    /// bytes of the longest) a line was longer than a reader takes. No identity is claimed
    /// over such a recording.
    case dropped(lines: Int, samples: Int, from: Double, to: Double, tooLong: Int? = nil)
    /// The recording's last line (format version 3): the `lines` lines before it (the header
    /// included) carry `samples` touch samples and `touches` touches begun, and `ledger` is
    /// the live engine's final ledger. A recording without it did not finish.
    case end(lines: Int, samples: Int, touches: Int, ledger: SampleLedger)
}
