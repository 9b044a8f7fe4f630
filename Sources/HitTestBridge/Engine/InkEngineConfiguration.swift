@_spi(Tooling) import InkCore

/// How a front end's platform lets touches reach the page, which decides how the engine
/// routes them.
public enum TouchRouting: String, Sendable, Hashable, CaseIterable {
    /// The platform lets a host hand a touch to the page after it began (an Android
    /// WebView's `dispatchTouchEvent`, Chromium's DevTools input): the engine queues each
    /// touch, asks the page, and releases the samples to the page as trusted input the host
    /// synthesizes. The default.
    case handOverAfterDecision
    /// The platform fixes a touch's owner at touch-down (UIKit hit-testing over a
    /// WKWebView; the GTK twin's input shape): the front end asks `InkEngine.route(at:tool:now:)`
    /// where the platform routes a touch; the page gets its touches natively
    /// (`EngineInput.nativePageTouch`), the overlay the rest. An overlay touch the engine
    /// cannot decide at once is drawn as tentative ink while the page is asked; if the page
    /// claims it, the ink is retracted and the page script replays its samples into the page
    /// (``EngineEvent/Kind-swift.enum/replay(_:)``), counted in `SampleLedger.replayed`.
    case decideAtTouchDown
}

/// Settings of `InkEngine`: how touches are decided and how the page is asked. The
/// defaults suit a finger-and-pencil scratchpad over a web view at 60-120 Hz.
///
/// There is one timeout: ``decisionTimeout`` is both the engine's deadline for an undecided
/// touch and the round trip's to the page, so the two can never disagree.
///
/// The engine runs with its limits and its timeout within stated maximums
/// (`Limits.maximum`, ``maximumDecisionTimeout``): `InkEngine` takes a configuration
/// through ``bounded``, so the configuration it reports, and a recording's header names, is
/// the one it runs with, and a recording's header never names more than the engine allows.
public struct InkEngineConfiguration: Sendable, Hashable {
    /// Seconds after touch-down within which the page must answer; then the touch gets
    /// ``fallback``. Default 0.25 s; at most ``maximumDecisionTimeout``.
    public var decisionTimeout: Double
    /// Where a touch goes when the page did not answer in time, or could not be asked.
    /// Default `.ink`.
    public var fallback: HitTestVerdict
    /// When `true`, finger touches go straight to the page and pencil touches become ink,
    /// without asking the page. Default `false`. The engine starts with it;
    /// ``EngineInput/pencilOnly(_:)`` changes it from the next touch-down on (the user's
    /// setting, read as the app runs).
    public var pencilOnly: Bool
    /// Seconds after a touch begins within which another finger beginning makes both a
    /// multi-finger gesture (scroll, zoom) that goes to the page; 0 turns this off.
    /// Default 0.15 s. Pencil touches never form gestures.
    public var gestureWindow: Double
    /// Whether the page's pushed region snapshots answer, while fresh, without a round trip.
    /// Default `true`.
    public var useRegionCache: Bool
    /// Whether a touch whose question needs a round trip is drawn as tentative ink at once
    /// when the last snapshot (even stale) shows nothing interactive within
    /// ``speculationMargin``; retracted if the page claims it. Default `false`.
    public var speculativeInk: Bool
    /// How far from any interactive region (page units) a touch-down must be for tentative
    /// ink. Default 24.
    public var speculationMargin: Double
    /// Questions within this distance (canvas points) of a round trip in flight share it.
    /// Default 4.
    public var shareRadius: Double
    /// How long a region snapshot without a max-age stays fresh, seconds. Default 1.
    public var defaultRegionMaxAge: Double
    /// Bounds that keep memory flat on any input (the defaults suit any touch screen; tooling
    /// may set others).
    @_spi(Tooling) public var limits = Limits()
    /// How touches reach the page on this platform. Default ``TouchRouting/handOverAfterDecision``.
    public var routing: TouchRouting
    /// Palms: while a pencil touch is down or the pencil hovers over the overlay
    /// (``EngineInput/pencilHovering(_:)``), and for this many seconds after the last touch
    /// lifted or the hover ended, a finger-type touch that begins on the scratch paper (not routed to the page at
    /// touch-down) is held: neither ink nor the page's, no scroll, its samples counted
    /// cancelled (`RouterCounters.palmsHeld`; its cancel says `CancelledRoute.palm`). Under
    /// hand-over routing every finger that begins then is held. 0 holds none this way.
    /// Default 0.3 s.
    public var palmHold: Double
    /// A finger-type touch whose touch-down `TouchSample.majorRadius` is at least this many
    /// canvas points is held as a palm, pencil or not; `nil` judges no radius. Default 30
    /// (UIKit reports a fingertip's major radius at roughly 5-20 points).
    public var palmRadius: Double?

    /// The longest ``decisionTimeout`` the engine runs with, seconds: one hour (the most
    /// `ink-replay host --timeout` takes).
    public static let maximumDecisionTimeout: Double = 3_600

    /// Bounds on what the engine holds. Reaching one settles or refuses; nothing is dropped.
    ///
    /// Each limit is at least 1 and at most its value in ``maximum``; `InkEngine` runs with
    /// a limit outside that range as the nearest end of it (``InkEngineConfiguration/bounded``).
    /// The maximums keep the engine's work per input and its memory bounded whatever the
    /// input: a recording whose header named 2,147,483,647 active touches made 80,000 touches
    /// that never end take `ink-replay verify` 31 s and 412 MB, growing with the square of
    /// their number (each input looks at the touches down); the touches down may queue
    /// `activeTouches` × `queuedSamplesPerTouch` samples.
    @_spi(Tooling) public struct Limits: Sendable, Hashable {
        /// The largest value of each limit the engine runs with: 8,192 queued samples per
        /// touch (34 s at 240 Hz), 64 active touches (more fingers than a touch screen
        /// reports), 4 MiB page messages, 80,000 regions, 256 round trips in flight: at most
        /// 4 times each default (2 times for the touches and their queues, whose product is
        /// what an input can make the engine hold: a replay of 64 touches of 8,192 queued
        /// samples each peaks at 122 MB, of 128 of 16,384 at 403 MB).
        /// `boundFallback` is not a bound; it is `.ink` here.
        public static let maximum = Limits(queuedSamplesPerTouch: 8_192, activeTouches: 64, boundFallback: .ink,
                                           messageBytes: 4 << 20, regions: 80_000, roundTripsInFlight: 256)

        /// The most samples one undecided touch may queue; reaching it settles the touch by
        /// ``boundFallback``. Default 4,096 (17 s at 240 Hz); at most 8,192.
        public var queuedSamplesPerTouch: Int
        /// The most unfinished touches; a touch beginning at the bound makes room by
        /// finishing the oldest (settled by ``boundFallback`` if undecided). Default 32; at most 64.
        public var activeTouches: Int
        /// How a touch is settled when a bound forces it. Default `.ink`.
        public var boundFallback: HitTestVerdict
        /// Page messages larger than this are refused unparsed, bytes. Default 1 MiB; at most 4 MiB.
        public var messageBytes: Int
        /// Region snapshots with more regions are refused. Default 20,000; at most 80,000.
        public var regions: Int
        /// The most round trips in flight; a question beyond that gets the fallback at
        /// once. Default 64; at most 256.
        public var roundTripsInFlight: Int

        /// Creates limits; the defaults suit any touch screen.
        public init(queuedSamplesPerTouch: Int = 4_096, activeTouches: Int = 32, boundFallback: HitTestVerdict = .ink,
                    messageBytes: Int = PageMessage.defaultMaxBytes, regions: Int = 20_000, roundTripsInFlight: Int = 64) {
            self.queuedSamplesPerTouch = queuedSamplesPerTouch
            self.activeTouches = activeTouches
            self.boundFallback = boundFallback
            self.messageBytes = messageBytes
            self.regions = regions
            self.roundTripsInFlight = roundTripsInFlight
        }
    }

    /// Creates a configuration.
    public init(decisionTimeout: Double = 0.25, fallback: HitTestVerdict = .ink, pencilOnly: Bool = false,
                gestureWindow: Double = 0.15, useRegionCache: Bool = true, speculativeInk: Bool = false,
                speculationMargin: Double = 24, shareRadius: Double = 4, defaultRegionMaxAge: Double = 1,
                routing: TouchRouting = .handOverAfterDecision, palmHold: Double = 0.3, palmRadius: Double? = 30) {
        self.routing = routing
        self.palmHold = palmHold
        self.palmRadius = palmRadius
        self.decisionTimeout = decisionTimeout
        self.fallback = fallback
        self.pencilOnly = pencilOnly
        self.gestureWindow = gestureWindow
        self.useRegionCache = useRegionCache
        self.speculativeInk = speculativeInk
        self.speculationMargin = speculationMargin
        self.shareRadius = shareRadius
        self.defaultRegionMaxAge = defaultRegionMaxAge
    }

    /// This configuration as `InkEngine` runs it: every limit within 1 and its value in
    /// `Limits.maximum`, and ``decisionTimeout`` within 0 and ``maximumDecisionTimeout``
    /// (a timeout that is not a number is the default, 0.25 s). Everything else is unchanged.
    public var bounded: InkEngineConfiguration {
        var c = self
        let top = Limits.maximum
        func within(_ value: Int, _ maximum: Int) -> Int { min(max(value, 1), maximum) }
        c.limits.queuedSamplesPerTouch = within(limits.queuedSamplesPerTouch, top.queuedSamplesPerTouch)
        c.limits.activeTouches = within(limits.activeTouches, top.activeTouches)
        c.limits.messageBytes = within(limits.messageBytes, top.messageBytes)
        c.limits.regions = within(limits.regions, top.regions)
        c.limits.roundTripsInFlight = within(limits.roundTripsInFlight, top.roundTripsInFlight)
        c.decisionTimeout = decisionTimeout.isNaN ? InkEngineConfiguration().decisionTimeout
            : min(max(decisionTimeout, 0), Self.maximumDecisionTimeout)
        return c
    }

    /// The router's part.
    package var router: TouchRouterConfiguration {
        TouchRouterConfiguration(pencilOnly: pencilOnly, gestureWindow: gestureWindow, decisionTimeout: decisionTimeout,
                                 maxQueuedSamplesPerTouch: limits.queuedSamplesPerTouch, boundFallback: limits.boundFallback,
                                 maxActiveTouches: limits.activeTouches,
                                 replaysLateReleases: routing == .decideAtTouchDown, palmHold: palmHold, palmRadius: palmRadius)
    }

    /// The bridge's part.
    package var bridge: BridgeConfiguration {
        var bridge = BridgeConfiguration(timeout: decisionTimeout, fallback: fallback, shareRadius: shareRadius,
                                         useCache: useRegionCache, maxMessageBytes: limits.messageBytes, maxRegions: limits.regions,
                                         defaultMaxAge: defaultRegionMaxAge, maxInFlight: limits.roundTripsInFlight,
                                         speculativeInk: speculativeInk, speculationMargin: speculationMargin)
        bridge.speculateAlways = routing == .decideAtTouchDown
        return bridge
    }
}
