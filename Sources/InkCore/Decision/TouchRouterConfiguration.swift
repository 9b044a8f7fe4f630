/// Settings of ``TouchRouter``. The defaults suit a finger-and-pencil scratchpad.
package struct TouchRouterConfiguration: Sendable, Hashable {
    /// When `true`, finger touches go straight to the page and pencil touches become ink,
    /// without asking the page. Default `false`.
    package var pencilOnly: Bool
    /// Seconds after a touch begins within which another touch beginning makes both a
    /// multi-finger gesture (scroll or zoom) that goes to the page. Set to 0 to disable.
    /// Default 0.15 s. Pencil touches never form gestures.
    package var gestureWindow: Double
    /// Seconds after touch-down that an unanswered hit test is settled by the fallback
    /// passed to ``TouchRouter/deadlinePassed(now:fallback:into:)``. Default 0.25 s.
    package var decisionTimeout: Double
    /// The most samples one undecided touch may queue. Reaching it settles the touch at
    /// once by ``boundFallback`` (counted in `RouterCounters.boundsReached`); nothing is
    /// dropped. Default 4,096 (17 s at 240 Hz).
    package var maxQueuedSamplesPerTouch: Int
    /// How a touch is settled when it reaches ``maxQueuedSamplesPerTouch``, or is made room
    /// for under ``maxActiveTouches`` while undecided. Default `.ink`.
    package var boundFallback: HitTestVerdict
    /// The most unfinished touches (down, or ended but undecided) the router tracks. A touch
    /// beginning at the bound makes room: the oldest unfinished touch is settled by
    /// ``boundFallback`` if undecided, then finished the way the platform takes a touch
    /// away: an ink touch ends (its stroke is kept), a page touch is cancelled (the page gets
    /// its cancel). Counted in `RouterCounters.touchesEvicted`; nothing is dropped. Later
    /// events for the evicted touch are refused as `RouterError.unknownTouch(_:)`.
    /// Default 32 (platforms report at most about 20 at once); at least 1.
    package var maxActiveTouches: Int
    /// `true` where the platform fixes a touch's owner at touch-down (a WKWebView): samples
    /// released to the page after a late decision reach it as events the page script
    /// replays, and are counted in ``SampleLedger/replayed``. Default `false`: the host
    /// hands them over (Android WebView, Chromium).
    package var replaysLateReleases: Bool
    /// Palms: while a pencil touch is down, and for this many seconds after the last one
    /// lifted, a finger-type touch that begins on the scratch paper is held as a palm (neither
    /// ink nor the page's; its samples counted cancelled when it ends or is cancelled). 0
    /// holds none this way. Default 0 (the router alone; `InkEngineConfiguration` sets its own).
    package var palmHold: Double
    /// A finger-type touch whose touch-down sample's major radius is at least this (canvas
    /// points) is held as a palm, pencil or not; `nil` judges no radius. Default `nil`.
    package var palmRadius: Double?

    /// Creates a configuration.
    package init(
        pencilOnly: Bool = false, gestureWindow: Double = 0.15, decisionTimeout: Double = 0.25,
        maxQueuedSamplesPerTouch: Int = 4_096, boundFallback: HitTestVerdict = .ink, maxActiveTouches: Int = 32,
        replaysLateReleases: Bool = false, palmHold: Double = 0, palmRadius: Double? = nil
    ) {
        self.palmHold = palmHold.isFinite ? max(0, palmHold) : 0
        self.palmRadius = palmRadius
        self.replaysLateReleases = replaysLateReleases
        self.pencilOnly = pencilOnly
        self.gestureWindow = gestureWindow
        self.decisionTimeout = decisionTimeout
        self.maxQueuedSamplesPerTouch = max(1, maxQueuedSamplesPerTouch)
        self.boundFallback = boundFallback
        self.maxActiveTouches = max(1, maxActiveTouches)
    }
}
