#if canImport(Glibc)
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// What a replay against a real page saw.
public struct BrowserReplayReport: Sendable {
    /// The engine's ledger at the end.
    public var ledger: SampleLedger
    /// The engine's counters.
    @_spi(Tooling) public var counters: RouterCounters
    /// The bridge's counters.
    @_spi(Tooling) public var bridge: BridgeMetrics
    /// Sample-flow problems (empty when every touch delivered its samples once, in order).
    public var problems: [String]
    /// Each touch of the log, in the order they began: how it was decided, its samples and
    /// its first-ink latency.
    @_spi(Tooling) public var touches: [TouchOutcome]
    /// Wall-clock durations of the real hit-test round trips, seconds.
    public var roundTrips: [Double]
    /// Page messages refused by the bridge's validation.
    public var refusedMessages: Int
    /// Touch events delivered to the page.
    public var touchEventsDispatched: Int
    /// The ink drawn, as strokes.
    public var strokes: [InkLayer.Stroke]
    /// Where the page was scrolled at the end (CSS pixels), as the bridge's transform had it.
    public var finalTransform: PageTransform
    /// What happened to each touch and on the page over time, when the replay was asked to
    /// record it (``BrowserReplay/recordsTimeline``).
    public var timeline: DecisionTimeline?

    /// Why the replay does not verify (`DeliveryAudit.verify(against:)`, the one definition);
    /// empty when it does.
    public var failures: [String]

    /// Nothing refused, dropped or pending, and every touch's samples delivered once, in order.
    public var isVerified: Bool { failures.isEmpty }
}

/// Replays a session log against a real page in headless Chromium.
///
/// The log's touches drive the engine (`InkEngine`) in simulated time,
/// through the same driver as every replay (`ReplayDriver`: one tie-break rule, one
/// touch-id rule, one audit);
/// the log's recorded answers and snapshots are ignored: the real page answers. Every
/// round trip is a real hit test in the page, and its measured duration is the simulated
/// time the answer takes. The page's snapshots are taken at the start, then as its
/// heartbeat would post them (every half of their max age) and after every touch handed to
/// the page; the page script posts them whatever the host does with them, and the bridge
/// learns the page's generation from them. Whether they answer questions is `useCache`. Touches the engine releases to the page are dispatched as real
/// touch events at their samples' positions and paced in wall-clock time as the user moved
/// (the browser judges taps and flings by real time), so the page's own handlers run
/// (drags, taps, the browser's own touch scrolling).
///
/// The canvas covers the visual viewport, one canvas point per device-independent pixel:
/// the log's own `page_transform` (which described the recorded page) is not used. The
/// bridge's transform is where the canvas lands on the real page (its scroll and pinch
/// zoom: ``ChromiumPage/canvasToPage()``), read at the start, before every touch-down and
/// after every touch the page got.
public struct BrowserReplay {
    /// Whether snapshots of the page's regions answer hit tests without a round trip.
    public var useCache: Bool
    /// The bridge's and the engine's fallback for unanswered questions.
    public var fallback: HitTestVerdict
    /// Whether the report carries a `DecisionTimeline` of the replay.
    public var recordsTimeline: Bool

    /// Creates a replay.
    public init(useCache: Bool = true, fallback: HitTestVerdict = .ink, recordsTimeline: Bool = false) {
        self.useCache = useCache
        self.fallback = fallback
        self.recordsTimeline = recordsTimeline
    }

    /// Replays `log` against `page` (already open).
    public func replay(_ log: SessionLog, on page: ChromiumPage) throws(DevToolsError) -> BrowserReplayReport {
        var run = Run(log: log, page: page, useCache: useCache, fallback: fallback)
        if recordsTimeline { run.driver.timeline = DecisionTimeline() }
        try run.play()
        return run.report()
    }

    private struct Run {
        let log: SessionLog
        let page: ChromiumPage
        let useCache: Bool
        /// The engine and the bridge, with what the page posted scheduled at its simulated
        /// arrival, and the audit.
        var driver: ReplayDriver
        var canvas = InkLayer()
        var output: [EngineEvent] = []
        var roundTrips: [Double] = []
        /// Page pointers down now (counted from the engine's page touches), for pacing.
        var pointersDown = 0
        var dispatched = 0
        var refused = 0
        var nextHeartbeat = -Double.infinity
        var heartbeat = 0.5
        var transform = PageTransform.identity
        var layoutScroll: (x: Double, y: Double) = (0, 0)
        /// Wall-clock pacing of page touches: (wall seconds, sample time) of the first
        /// released sample since the page had no touch down.
        var paceAnchor: (wall: Double, sample: Double)?

        init(log: SessionLog, page: ChromiumPage, useCache: Bool, fallback: HitTestVerdict) {
            self.log = log
            self.page = page
            self.useCache = useCache
            // The real page script: its first generation is the engine's default.
            driver = ReplayDriver(engine: InkEngine(configuration: InkEngineConfiguration(fallback: fallback, useRegionCache: useCache),
                                                    seed: 1))
        }

        mutating func play() throws(DevToolsError) {
            try followScroll(at: log.events.first?.time ?? 0)
            for event in log.events {
                try deliver(until: event.time)
                guard case let .touch(touch, time) = event else { continue }  // the real page answers
                if time >= nextHeartbeat {
                    try snapshot(at: time)
                    try deliver(until: time)  // the snapshot is in the cache before the touch
                }
                if touch.phase == .began { try followScroll(at: time) }  // a host hears every scroll; we look before asking
                // A refused input changes nothing; the ledger shows what was accepted.
                driver.deliver(.touch(touch), at: max(time, driver.engine.now), into: &output)
                try drain()
            }
            try deliver(until: .infinity)
            driver.finish(into: &output)
            try drain()
        }

        /// Delivers what the page posted up to `time`, in order, firing deadlines between.
        mutating func deliver(until time: Double) throws(DevToolsError) {
            while let step = driver.step(until: time, into: &output) {
                if case .refused = step.outcome { refused += 1 }
                try drain()
            }
            try drain()
        }

        mutating func snapshot(at time: Double) throws(DevToolsError) {
            let posted = try page.pushRegions()
            insert(posted.bytes, at: time)
            if case let .success(.regions(snapshot)) = posted.decoded { heartbeat = max(0.05, (snapshot.maxAge ?? 1) / 2) }
            nextHeartbeat = time + heartbeat
            for message in try page.takePostedMessages() { insert(message.bytes, at: time) }  // heartbeats, churn
        }

        mutating func insert(_ bytes: [UInt8], at time: Double) {
            driver.schedule(.pageMessage(bytes), at: time)
        }

        /// Carries out what the host asked: real hit tests in the page, ink, touches for the page.
        mutating func drain() throws(DevToolsError) {
            while !output.isEmpty {
                let items = output
                output.removeAll()
                let now = driver.engine.now
                for event in items {
                    switch event.kind {
                    case let .send(request, _):
                        let (answer, seconds) = try page.hitTest(request)
                        roundTrips.append(seconds)
                        insert(answer.bytes, at: now + seconds)
                    case let .action(action):
                        _ = canvas.apply(action)
                    case let .pageTouch(touch):
                        try perform(touch, now: now)
                    default:
                        break
                    }
                }
            }
        }

        /// Performs one of the engine's page touches (``PageTouch``: the engine's one fold
        /// says which sample is a `down`, and which lift or cancel ends a pointer).
        mutating func perform(_ touch: PageTouch, now: Double) throws(DevToolsError) {
            switch touch.phase {
            case .began, .moved:
                pace(to: touch.time)
                if touch.phase == .began { pointersDown += 1 }
                let point = viewportPoint(touch.pagePoint)
                // Stamped by the browser as they arrive, paced: the browser's gesture and fling
                // detection reads its own clock, and mixing in ours made flings random.
                try page.dispatchTouch(touch.phase == .began ? .start : .move, id: Int(touch.pointer), x: point.x, y: point.y)
                dispatched += 1
            case .ended, .cancelled:
                pace(to: touch.time)
                pointersDown -= 1
                if pointersDown == 0 { paceAnchor = nil }
                try page.dispatchTouch(touch.phase == .ended ? .end : .cancel, id: Int(touch.pointer), x: 0, y: 0)
                dispatched += 1
                try followScroll(at: now)  // the page may have scrolled or changed
                try snapshot(at: now)
            }
        }

        /// Waits until the page has had as long since the first sample of the current page
        /// touches as the user did: the browser judges flings and taps by real time.
        mutating func pace(to sampleTime: Double) {
            let wall = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            guard let anchor = paceAnchor else {
                paceAnchor = (wall, sampleTime)
                return
            }
            let wait = (sampleTime - anchor.sample) - (wall - anchor.wall)
            if wait > 0 { usleep(UInt32(min(wait, 5) * 1_000_000)) }
        }

        /// Tells the bridge where the canvas lands on the page (scroll and pinch zoom), when
        /// that changed, and notes the layout scroll for dispatching touches.
        mutating func followScroll(at time: Double) throws(DevToolsError) {
            let view = try page.canvasToPage()
            layoutScroll = try page.scrollOffset()
            guard view != transform else { return }
            transform = view
            driver.deliver(.layout(view, generation: nil), at: max(time, driver.engine.now), into: &output)
            try drain()
        }

        /// Where a page point is for `Input.dispatchTouchEvent`: CSS pixels of the layout
        /// viewport (the canvas covers the visual one, which pinch zoom magnifies).
        func viewportPoint(_ page: PagePoint) -> (x: Double, y: Double) {
            (page.x - layoutScroll.x, page.y - layoutScroll.y)
        }

        func report() -> BrowserReplayReport {
            BrowserReplayReport(
                ledger: driver.engine.ledger, counters: driver.engine.counters, bridge: driver.engine.bridgeMetrics,
                problems: driver.problems.first, touches: driver.outcomes.sorted { $0.engineID.rawValue < $1.engineID.rawValue }, roundTrips: roundTrips, refusedMessages: refused, touchEventsDispatched: dispatched,
                strokes: canvas.strokes, finalTransform: transform, timeline: driver.timeline,
                failures: driver.verificationFailures)
        }
    }
}
#endif
