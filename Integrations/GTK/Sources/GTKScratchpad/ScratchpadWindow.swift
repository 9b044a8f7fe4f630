import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore
import InkRecording
import SessionReplay
import WebKitGTKOracle

/// The native front end: a GTK window with the exercise page in a WebKitWebView and a
/// transparent drawing overlay on top of it.
///
/// Every input becomes one ``EngineInput`` for ``ReplayDriver``, the driver every replay uses,
/// here in wall-clock time: `EngineHost` decides (the one join of engine and bridge),
/// `TouchIdentities` maps GDK's touch sequences to engine touches, and the audit checks
/// every sample as it goes. What the host asks for is carried out at once, in order:
///
/// - **ink** goes into an `InkLayer`; the overlay redraws only the changed bounds, from each
///   stroke's stable segments and its volatile tail;
/// - **questions** are evaluated in the page script's world; the answers, and the page's
///   region snapshots, come back through the `scratchpadInk` message handler;
/// - **touches that belong to the page** are handed to the web view as synthesized GDK
///   events at the same position (the overlay and the view cover each other exactly):
///   touch events for a finger, button and motion events for a mouse or pen; WebKit turns
///   them into DOM events and runs the page's own handlers, and taps focus and click as
///   usual;
/// - **deadlines** are one GLib timeout, re-armed to the host's next deadline.
///
/// Scroll-wheel events on the overlay go to the web view. After a page touch ends and after
/// a wheel scroll, the view's mapping (scroll and zoom) is read from the page and given to
/// the bridge.
///
/// Use on the GTK thread only.
public final class ScratchpadWindow {
    /// Settings of a window.
    public struct Options: Sendable {
        /// The page's viewport, CSS pixels (the overlay covers it, one point each).
        public var width: Int
        /// The viewport's height, CSS pixels.
        public var height: Int
        /// The engine's settings.
        public var router: TouchRouterConfiguration
        /// The bridge's settings (timeout, fallback, cache).
        public var bridge: BridgeConfiguration
        /// Whether each finished touch's outcome, its samples included, is kept for the
        /// report; off, the audit still checks every touch but keeps only counts. (The ink
        /// itself, every stroke drawn, is kept either way.)
        public var keepsOutcomes: Bool

        /// Settings for a `width` × `height` page.
        public init(width: Int = 1024, height: Int = 768, router: TouchRouterConfiguration = TouchRouterConfiguration(),
                    bridge: BridgeConfiguration = BridgeConfiguration(), keepsOutcomes: Bool = true) {
            self.width = width
            self.height = height
            self.router = router
            self.bridge = bridge
            self.keepsOutcomes = keepsOutcomes
        }
    }

    /// Where a touch came from, and so how it reaches the page.
    enum Origin {
        /// A touchscreen touch: touch events, with a sequence of its own.
        case touch
        /// The pointer (mouse or pen): button and motion events.
        case pointer
    }

    /// The page and its oracle.
    public let page: WebKitGTKPage
    /// The top-level window.
    public let window: UnsafeMutablePointer<GtkWidget>
    /// The drawing overlay above the web view.
    public let canvas: UnsafeMutablePointer<GtkWidget>
    /// The engine, the bridge, the touch ids and the audit.
    public private(set) var driver: ReplayDriver
    /// The ink drawn.
    public private(set) var ink = InkLayer()
    /// Wall-clock durations of the round trips to the page (question sent to answer
    /// received), seconds; the most recent 10,000.
    public private(set) var roundTrips: [Double] = []
    /// Events handed to the web view for touches that belong to the page.
    public private(set) var pageEventsDispatched = 0
    /// Inputs the host refused, as sentences (the first 100).
    public private(set) var refusals: [String] = []
    /// Page messages the bridge refused (malformed, forged, oversized).
    public private(set) var refusedMessages = 0
    /// The overlay's area redrawn, summed over frames, square points (for the tests).
    public private(set) var redrawnArea = 0.0
    /// Frames drawn.
    public private(set) var framesDrawn = 0
    /// The mapping from overlay to page the bridge was last given.
    public private(set) var transform = PageTransform.identity

    /// The user asked to close the window (its close button); it stays open until freed.
    public private(set) var closeRequested = false
    /// GTK destroyed the window (the application is quitting): nothing is drawn or played.
    public private(set) var isDestroyed = false

    private var output: [HostOutput] = []
    private var processing = false
    /// Inputs that arrived while one was being carried out, with the route a touch-down
    /// takes to the page.
    private var waiting: [(input: EngineInput, origin: Origin?)] = []
    private var timer: guint = 0
    private var timerDeadline = Double.nan
    private var layoutTimer: guint = 0
    private var layoutReads = 0
    private var lastRegionsGeneration: UInt64?
    private var origins: [TouchID: Origin] = [:]
    private var dispatched: Set<TouchID> = []
    /// Where and when each page touch last was: a lift or a cancel happens there.
    private var lastRelease: [TouchID: (point: CanvasPoint, time: Double)] = [:]
    private var sentAt: [QueryToken: Double] = [:]
    private var pointerDown = false

    /// Opens the window (not shown until ``show()``), with the page script installed.
    /// - Throws: ``WebKitGTKError`` without a display, or without the page script.
    public init(options: Options = Options()) throws(WebKitGTKError) {
        page = try WebKitGTKPage()
        driver = ReplayDriver(host: EngineHost(router: options.router, bridge: options.bridge), keepsOutcomes: options.keepsOutcomes)
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        g_object_ref(window)  // ours until freed, even once GTK destroys it
        gtk_window_set_title(cast(window), "ScratchpadInk")
        gtk_window_set_resizable(cast(window), 0)
        let overlay = gtk_overlay_new()!
        gtk_widget_set_size_request(page.widget, gint(options.width), gint(options.height))
        gtk_container_add(cast(overlay), page.widget)
        canvas = gtk_drawing_area_new()
        g_object_ref_sink(canvas)
        gtk_widget_set_can_focus(canvas, 0)
        gtk_widget_add_events(canvas, gint(GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
            | GDK_POINTER_MOTION_MASK.rawValue | GDK_TOUCH_MASK.rawValue | GDK_SCROLL_MASK.rawValue | GDK_SMOOTH_SCROLL_MASK.rawValue))
        gtk_overlay_add_overlay(cast(overlay), canvas)
        gtk_container_add(cast(window), overlay)
        page.onMessage = { [weak self] message in self?.received(message) }
        connectSignals()
    }

    deinit {
        if timer != 0 { g_source_remove(timer) }
        if layoutTimer != 0 { g_source_remove(layoutTimer) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_signal_handlers_disconnect_matched(canvas, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        g_signal_handlers_disconnect_matched(window, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        page.onMessage = nil
        if !isDestroyed { gtk_widget_destroy(window) }
        g_object_unref(canvas)
        g_object_unref(window)
    }

    /// Shows the window, loads `url` and waits until it has loaded; then reads where the
    /// view lands on the page, and takes the page's first region snapshot.
    public func show(loading url: URL, timeout: Double = 15) throws(WebKitGTKError) {
        gtk_widget_show_all(window)
        if let gdkWindow = gtk_widget_get_window(canvas) {
            // Every motion event, not one per frame: ink needs all the samples.
            gdk_window_set_event_compression(gdkWindow, 0)
        }
        try page.load(url, timeout: timeout)
        gtk_widget_grab_focus(page.widget)
        let view = try page.canvasToPage()
        if view != transform {
            transform = view
            deliver(.layout(view, generation: nil))
        }
        // The page script pushes its first snapshot when the document is ready; wait for it
        // so the cache can answer from the first touch.
        GTK.spin(timeout: 2) { driver.host.bridgeMetrics.snapshotsAccepted > 0 }
    }

    // MARK: Input

    private func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let input: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, UnsafeMutableRawPointer?) -> gboolean = {
            _, event, context in
            guard let event, let context else { return 0 }
            return Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().handle(event) ? 1 : 0
        }
        for signal in ["button-press-event", "button-release-event", "motion-notify-event", "touch-event", "scroll-event",
                       "grab-broken-event"] {
            _ = scratchpad_connect(canvas, signal, unsafeBitCast(input, to: GCallback.self), me)
        }
        let close: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = {
            _, _, context in
            Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue().closeRequested = true
            return 1  // kept open until its owner lets go of it
        }
        _ = scratchpad_connect(window, "delete-event", unsafeBitCast(close, to: GCallback.self), me)
        let destroyed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, context in
            let window = Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue()
            window.isDestroyed = true
            window.closeRequested = true
        }
        _ = scratchpad_connect(window, "destroy", unsafeBitCast(destroyed, to: GCallback.self), me)
        let draw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, cr, context in
            guard let cr, let context else { return 0 }
            Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().draw(cr)
            return 0
        }
        _ = scratchpad_connect(canvas, "draw", unsafeBitCast(draw, to: GCallback.self), me)
    }

    private func handle(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        switch event.pointee.type {
        case GDK_SCROLL:
            _ = scratchpad_forward_scroll(page.widget, event)
            readLayoutSoon()
            return true
        case GDK_GRAB_BROKEN:
            // The pointer's grab was taken away: its touch will get no release.
            cancelPointer()
            return false
        default:
            break
        }
        let input = scratchpad_read_input(event)
        guard let touch = Self.touchEvent(from: input, now: GTK.now) else { return false }
        // A press while the pointer is still down lost its release (a grab taken away unseen):
        // that touch is cancelled first, or every later press would be refused.
        if input.is_touch == 0, touch.phase == .began, pointerDown { cancelPointer() }
        deliver(.touch(touch), origin: touch.phase == .began ? (input.is_touch != 0 ? .touch : .pointer) : nil)
        return true
    }

    private func cancelPointer() {
        guard pointerDown else { return }
        deliver(.touch(TouchEvent(touch: TouchID(0), phase: .cancelled, samples: [])))
    }

    /// The touch event one GDK input event makes: a touchscreen touch is a finger, named by
    /// its sequence; the pointer (mouse, pen, eraser) is a pencil-like tool, named 0, with the
    /// pressure and tilt its device gives. `nil` for events that do not draw.
    static func touchEvent(from input: ScratchpadInput, now: Double) -> TouchEvent? {
        let phase: TouchPhase
        switch input.phase {
        case SCRATCHPAD_INPUT_DOWN: phase = .began
        case SCRATCHPAD_INPUT_MOVE: phase = .moved
        case SCRATCHPAD_INPUT_UP: phase = .ended
        case SCRATCHPAD_INPUT_CANCEL: phase = .cancelled
        default: return nil
        }
        guard input.x.isFinite, input.y.isFinite else { return nil }
        let isTouch = input.is_touch != 0
        let force = input.pressure.isFinite ? min(max(input.pressure, 0), 1) : nil
        var altitude: Double?
        var azimuth: Double?
        if input.xtilt.isFinite, input.ytilt.isFinite {
            // GDK gives tilt as -1...1 of each axis' range; taken as -90°...90° (the Pointer
            // Events convention), then turned into UIKit's altitude and azimuth.
            let tx = tan(min(max(input.xtilt, -0.999), 0.999) * .pi / 2)
            let ty = tan(min(max(input.ytilt, -0.999), 0.999) * .pi / 2)
            altitude = .pi / 2 - atan((tx * tx + ty * ty).squareRoot())
            azimuth = atan2(ty, tx)
        }
        let sample = TouchSample(x: input.x, y: input.y, timestamp: now, force: force, altitude: altitude, azimuth: azimuth,
                                 tool: isTouch ? .finger : .pencil)
        return TouchEvent(touch: TouchID(isTouch ? input.sequence : 0), phase: phase, samples: [sample])
    }

    // MARK: The host

    /// Delivers one input to the host now, and carries out what it asks. A touch-down also
    /// says how that touch reaches the page if it goes there (`origin`; the pointer when
    /// `nil`).
    public func deliver(_ input: EngineInput) { deliver(input, origin: nil) }

    private func deliver(_ input: EngineInput, origin: Origin?) {
        waiting.append((input, origin))
        guard !processing else { return }  // a callback during a dispatch: taken after it
        processing = true
        defer { processing = false }
        while !waiting.isEmpty {
            let (next, origin) = waiting.removeFirst()
            if case let .touch(touch) = next {
                // The route is known before the engine acts: with a fresh cache the first
                // sample is released at once.
                if touch.phase == .began, let id = try? driver.identities.resolve(touch.touch.rawValue, phase: .began) {
                    origins[id] = origin ?? .pointer
                }
            }
            let step = driver.deliver(next, at: max(GTK.now, driver.host.now), into: &output)
            if let refusal = step.refusal, refusals.count < 100 { refusals.append(refusal.description) }
            if case .refused = step.outcome { refusedMessages += 1 }
            if case let .touch(touch) = next, touch.touch == TouchID(0), step.refusal == nil {
                if touch.phase == .began { pointerDown = true }
                if touch.phase == .ended || touch.phase == .cancelled { pointerDown = false }
            }
            carryOut()
        }
        armTimer()
    }

    private func carryOut() {
        let items = output
        output.removeAll(keepingCapacity: true)
        for item in items {
            switch item {
            case let .send(request, _):
                let token = request.token
                let now = GTK.now
                if sentAt.count >= 1_000 { sentAt = sentAt.filter { now - $0.value < 60 } }  // never answered
                sentAt[token] = now
                page.send(request) { [weak self] result in
                    guard let self, case .failure = result else { return }
                    sentAt[token] = nil
                    deliver(.sendFailed(token))
                }
            case let .engine(action):
                if let change = ink.apply(action), let bounds = change.bounds { invalidate(bounds) }
                dispatchToPage(action)
            }
        }
    }

    private func received(_ message: WebKitGTKPage.PostedMessage) {
        switch message.decoded {
        case let .success(.answer(answer)):
            if let sent = sentAt.removeValue(forKey: answer.token) {
                if roundTrips.count >= 10_000 { roundTrips.removeFirst(5_000) }
                roundTrips.append(GTK.now - sent)
            }
        case let .success(.regions(snapshot)):
            // A new generation: the layout may have changed (a scroll the page made, a fling
            // still going): look at where the view lands again.
            if snapshot.generation != lastRegionsGeneration {
                lastRegionsGeneration = snapshot.generation
                readLayoutSoon()
            }
        default:
            break
        }
        deliver(.pageMessage(message.bytes))
    }

    private func armTimer() {
        guard let deadline = driver.host.nextDeadline, deadline.isFinite else {
            if timer != 0 { g_source_remove(timer) }
            timer = 0
            return
        }
        if timer != 0, deadline == timerDeadline { return }
        if timer != 0 { g_source_remove(timer) }
        timerDeadline = deadline
        let milliseconds = guint(min(max(0, ((deadline - GTK.now) * 1000).rounded(.up)), 86_400_000))  // re-armed after a day
        timer = g_timeout_add(milliseconds, { context in
            let window = Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue()
            window.timer = 0
            window.deliver(.tick)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: The page's touches

    private func dispatchToPage(_ action: RouterAction) {
        switch action {
        case let .release(id, sample):
            let first = dispatched.insert(id).inserted
            lastRelease[id] = (sample.point, sample.timestamp)
            send(id, first ? .start : .move, at: sample.point, time: sample.timestamp)
        case let .endRelease(id):
            guard dispatched.remove(id) != nil else { return }
            let last = lastRelease.removeValue(forKey: id)
            send(id, .end, at: last?.point, time: last?.time)
            readLayoutSoon()
        case let .cancel(id, previously):
            guard previously == .page, dispatched.remove(id) != nil else { return }
            let last = lastRelease.removeValue(forKey: id)
            send(id, .cancel, at: last?.point, time: nil)
        case let .touchFinished(id, _):
            origins[id] = nil
            dispatched.remove(id)
            lastRelease[id] = nil
        default:
            break
        }
    }

    /// Hands one event of a page touch to the web view, the way the touch came: a touch
    /// sequence of its own (WebKitGTK must see a touch begin before it moves), or the
    /// pointer; stamped with the sample's own time (queued samples keep their pace).
    private func send(_ id: TouchID, _ phase: WebKitGTKPage.TouchPhase, at point: CanvasPoint?, time: Double?) {
        let position = point ?? CanvasPoint(x: 0, y: 0)
        let eventTime = time.map(WebKitGTKPage.eventTime(for:))
        switch origins[id] ?? .pointer {
        case .touch:
            // The engine's id, not GDK's sequence: unique, and never 0.
            page.dispatchTouch(phase, sequence: id.rawValue, x: position.x, y: position.y, time: eventTime)
        case .pointer:
            page.dispatchPointer(phase, x: position.x, y: position.y, time: eventTime)
        }
        pageEventsDispatched += 1
    }

    /// Reads where the view lands on the page (scroll, zoom) once the page had a moment to
    /// move, and again every 50 ms until two reads agree (a smooth or kinetic scroll lands
    /// over several frames; at most 60 reads), telling the bridge each time it changed.
    private func readLayoutSoon() {
        layoutReads = 0
        guard layoutTimer == 0 else { return }
        scheduleLayoutRead()
    }

    private func scheduleLayoutRead() {
        layoutTimer = g_timeout_add(50, { context in
            let window = Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue()
            window.layoutTimer = 0
            window.page.canvasToPage { [weak window] result in
                guard let window, case let .success(view) = result else { return }
                window.layoutReads += 1
                let moved = view != window.transform
                if moved {
                    window.transform = view
                    window.deliver(.layout(view, generation: nil))
                }
                if (moved || window.layoutReads == 1) && window.layoutReads < 60 && window.layoutTimer == 0 {
                    window.scheduleLayoutRead()
                }
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: Drawing

    private func invalidate(_ bounds: CanvasRect) {
        // Clipped to the canvas first: a stroke far outside it (a log's huge coordinates)
        // redraws nothing, and never overflows GTK's integers.
        let width = Double(gtk_widget_get_allocated_width(canvas)), height = Double(gtk_widget_get_allocated_height(canvas))
        let minX = max(0, bounds.minX - 2), minY = max(0, bounds.minY - 2)
        let maxX = min(width, bounds.maxX + 2), maxY = min(height, bounds.maxY + 2)
        guard minX < maxX, minY < maxY else { return }
        let x = Int(minX.rounded(.down)), y = Int(minY.rounded(.down))
        gtk_widget_queue_draw_area(canvas, gint(x), gint(y), gint(Int(maxX.rounded(.up)) - x), gint(Int(maxY.rounded(.up)) - y))
    }

    private func draw(_ cr: OpaquePointer) {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        let clip = CanvasRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
        redrawnArea += clip.width * clip.height
        framesDrawn += 1
        cairo_set_source_rgba(cr, 0.08, 0.16, 0.55, 0.92)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        for stroke in ink.strokes { InkPainter.fill(stroke.builder, in: clip, on: cr) }
    }

    // MARK: Results

    /// Settles every touch still undecided (the window is closing), closes the audit and
    /// returns what it found.
    public func finish() -> ScratchpadReport {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        driver.finish(runningDeadlines: false, into: &output)
        carryOut()
        return report
    }

    /// What the window saw so far.
    public var report: ScratchpadReport {
        ScratchpadReport(ledger: driver.host.ledger, auditLedger: driver.auditLedger, problems: driver.problems.first,
                         outcomes: driver.outcomes, bridge: driver.host.bridgeMetrics, roundTrips: roundTrips,
                         pageEventsDispatched: pageEventsDispatched, refusals: refusals, refusedSamples: driver.refusedSamples,
                         refusedMessages: refusedMessages, strokes: ink.strokes.count)
    }

    /// A PNG of the window as it is on screen: the page with the ink over it; `nil` once
    /// GTK destroyed the window.
    public func screenshot() -> [UInt8]? {
        guard !isDestroyed, let png = scratchpad_widget_png(window) else { return nil }
        defer { g_byte_array_unref(png) }
        return Array(UnsafeBufferPointer(start: png.pointee.data, count: Int(png.pointee.len)))
    }
}

/// What a ``ScratchpadWindow`` saw.
public struct ScratchpadReport: Sendable {
    /// The engine's ledger.
    public var ledger: SampleLedger
    /// The same account, rebuilt by the audit from the engine's actions.
    public var auditLedger: SampleLedger
    /// What the audit found wrong (empty when every sample went once, in order, where it
    /// was decided to go).
    public var problems: [String]
    /// Each finished touch: its verdict, reason, samples, first-ink latency.
    public var outcomes: [TouchOutcome]
    /// The bridge's counters.
    public var bridge: BridgeMetrics
    /// Round trips to the page, seconds.
    public var roundTrips: [Double]
    /// Events handed to the web view.
    public var pageEventsDispatched: Int
    /// Inputs the host refused (the first 100), as sentences.
    public var refusals: [String]
    /// Samples of refused touch events: they never entered the engine's ledger.
    public var refusedSamples: Int
    /// Page messages the bridge refused.
    public var refusedMessages: Int
    /// Strokes of ink.
    public var strokes: Int

    /// Nothing dropped, nothing refused, the audit agrees with the engine, and no problem
    /// was found.
    public var isVerified: Bool {
        refusals.isEmpty && refusedSamples == 0
            && ledger.isBalanced && auditLedger.isBalanced && problems.isEmpty && ledger.received == auditLedger.received
            && ledger.inked == auditLedger.inked && ledger.released == auditLedger.released && ledger.cancelled == auditLedger.cancelled
    }
}
