/// A command the decision engine gives its host. The host carries actions out in the order
/// they were produced; `InkEngine` (HitTestBridge) hands them out as `EngineEvent` actions.
///
/// Every real sample leaves the router in exactly one ``ink(_:_:)``, ``release(_:_:)`` or
/// ``nativeRelease(_:_:)`` action (a touch that a gesture takes from the ink after it began
/// inking is first retracted, then released in full), or is discarded by a
/// ``cancel(_:previously:)`` (still queued, or inked and then discarded with its stroke):
/// the ledger counts the first released, the second cancelled.
///
/// The questions to the page (`queryPage`, `abandonQuery`) are the engine's own business
/// (`@_spi(Tooling)`), so a host's `switch` over an action ends with `default:`.
public enum RouterAction: Sendable, Hashable {
    /// Ask the page whether an interactive element lies under `point` (canvas points) for
    /// `touch`. `InkEngine` (HitTestBridge) does the asking: from the region cache, a round
    /// trip already in flight, or a new request to send.
    /// `askedAt` is the touch-down timestamp in seconds.
    @_spi(Tooling) case queryPage(QueryID, touch: TouchID, point: CanvasPoint, askedAt: Double)
    /// The touch's owner is now known; the samples that follow (queued ones first) go
    /// there. Informational: a host may log it or ignore it.
    ///
    /// It can come twice for one touch: a touch already inking that a second finger turns
    /// into a gesture is decided again, `.page` for `.multiTouchGesture`, right after its
    /// ``retractInk(_:)``. The last decision stands.
    case decided(TouchID, HitTestVerdict, DecisionReason)
    /// Stop waiting for `query`: its touch was settled without it. An answer that still
    /// arrives is ignored.
    @_spi(Tooling) case abandonQuery(QueryID, touch: TouchID)
    /// Append the sample to the touch's stroke. The first `ink` of a touch starts its stroke.
    /// Ink before the touch's ``decided(_:_:_:)`` is tentative (speculative ink):
    /// the decision confirms it, or a ``retractInk(_:)`` takes it back.
    case ink(TouchID, TouchSample)
    /// Replace the tentative tail of the touch's stroke by these predicted samples (possibly
    /// none). Predicted samples are never stored or counted.
    case predictInk(TouchID, [TouchSample])
    /// The sample at `index` (0-based, among the touch's inked samples) was refined by an
    /// estimated-property update; redraw from there.
    case refineInk(TouchID, index: Int, TouchSample)
    /// The touch lifted: its stroke is complete.
    case endInk(TouchID)
    /// Remove the touch's stroke: a gesture took the touch to the page, or the page claimed a
    /// touch drawn as tentative ink. The samples it held are released to the page next, in
    /// order, with their original timestamps.
    case retractInk(TouchID)
    /// Deliver the sample to the page, with its original timestamp. The first `release` of a
    /// touch is the page's touch-start.
    case release(TouchID, TouchSample)
    /// The touch lifted: deliver the page's touch-end.
    case endRelease(TouchID)
    /// The platform delivered this sample to the page itself: the front end routed the
    /// touch to the page at touch-down (its `began` came as `EngineInput.nativePageTouch` in
    /// HitTestBridge), so the page got it natively, trusted, at its own time. Nothing to
    /// carry out; counted in ``SampleLedger/releasedNatively``. Such a touch has no
    /// ``endRelease(_:)``: the platform ends it in the page.
    case nativeRelease(TouchID, TouchSample)
    /// The system cancelled the touch. `previously` says what the host had done with it: a
    /// stroke to discard, page touches to cancel, or nothing shown yet. Samples the page got
    /// before it stay counted in ``SampleLedger/released``; the samples still queued and the
    /// discarded ink are counted in ``SampleLedger/cancelled``.
    case cancel(TouchID, previously: CancelledRoute)
    /// The touch is finished (ended and decided, or cancelled) and the router forgot it;
    /// this is its final ledger. The last action about a touch, except ``refineInk(_:index:_:)``,
    /// which may still follow when the platform refines force after lift.
    case touchFinished(TouchID, SampleLedger)
}

/// Where a cancelled touch had been routed before the system cancelled it.
public enum CancelledRoute: String, Sendable, Hashable, Codable {
    /// Still undecided: its queued samples were never shown.
    case undecided
    /// Inking: the host discards the stroke.
    case ink
    /// Released: the host sends the page a touch-cancel (under decide-at-touch-down
    /// routing, the engine's replay of the touch carries it). The samples the page got stay
    /// released.
    case page
    /// Given to the page natively at touch-down: the platform cancels it there; nothing to
    /// send. The samples the page got stay released natively.
    case nativePage
    /// Held as a palm from touch-down (a finger-type touch on the scratch paper while a pencil
    /// was down or had just lifted, or as wide as a palm; counted in `RouterCounters.palmsHeld`): nothing was shown and the page
    /// got nothing; its samples are counted cancelled. A held touch ends this way whether the
    /// platform cancels it or it lifts.
    case palm
}
