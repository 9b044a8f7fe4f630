/// What the decision engine has done, counted. Monotonic; never reset.
@_spi(Tooling) public struct RouterCounters: Sendable, Hashable, Codable {
    /// Hit tests asked (`RouterAction.queryPage(_:touch:point:askedAt:)` actions).
    public var queriesAsked = 0
    /// Answers that decided a waiting touch.
    public var answersApplied = 0
    /// Answers for a query already answered.
    public var duplicateAnswers = 0
    /// Answers for a query already settled another way (deadline, cancel, gesture, bound).
    public var lateAnswers = 0
    /// Answers for a query never issued.
    public var unknownAnswers = 0
    /// Touches settled by a passed deadline.
    public var deadlinesPassed = 0
    /// Multi-finger gestures detected (each counts once, however many touches it took).
    public var gestures = 0
    /// Undecided touches drawn as tentative ink while their question was open.
    public var speculations = 0
    /// Touches whose ink was retracted: a gesture took them to the page, or the page
    /// claimed a speculative touch.
    public var retractions = 0
    /// Samples that had been shown as ink and were then retracted and released.
    public var retractedSamples = 0
    /// Touches settled because they reached the queue bound
    /// (`InkEngineConfiguration.Limits.queuedSamplesPerTouch` in HitTestBridge).
    public var boundsReached = 0
    /// Touches finished early to make room under the touch bound
    /// (`InkEngineConfiguration.Limits.activeTouches` in HitTestBridge).
    public var touchesEvicted = 0
    /// Touches settled by a flush at the end of a session (`InkEngine.finish(into:)` in
    /// HitTestBridge).
    public var flushed = 0
    /// Touches the front end routed to the page at touch-down (the platform delivered them
    /// natively; the router only counted their samples).
    public var routedAtTouchDown = 0
    /// Estimated-property updates applied to queued or inked samples.
    public var updatesApplied = 0
    /// Estimated-property updates for samples already handed to the page or cancelled
    /// (nothing to do).
    public var updatesIgnored = 0
    /// Touches that finished as ink.
    public var touchesInked = 0
    /// Touches that finished on the page.
    public var touchesReleased = 0
    /// Touches the system cancelled.
    public var touchesCancelled = 0
    /// Finger-type touches held as palms (a pencil down or just lifted, or a wide contact):
    /// neither ink nor the page's; their samples are counted cancelled.
    public var palmsHeld = 0

    /// Creates zeroed counters.
    public init() {}
}
