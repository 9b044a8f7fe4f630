import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore
import WebKitGTKOracle

/// The native front end: a GTK window with the exercise page in a WebKitWebView and a
/// transparent drawing overlay on top of it; the iPad app's twin.
///
/// A thin loop around ``InkEngine``, in wall-clock time (``GTK/now``). With the default
/// routing, ``TouchRouting/decideAtTouchDown``, it routes touches the way UIKit must over a
/// WKWebView, where a touch's owner is fixed when it touches down:
///
/// - **Routing by input shape** (the twin of an overlay's `hitTest(_:with:)`): the overlay's
///   input shape has a hole over each interactive region of the page's fresh region snapshot
///   (``InkEngine/touchDownRegions(now:)``, the same answer as ``InkEngine/route(at:tool:now:)``),
///   so a touch that lands on a block, a field or a scrollbar goes to the web view natively:
///   trusted, every sample, WebKit's own timing. Elsewhere, and everywhere while no snapshot
///   is fresh, the overlay takes the touch and the page never sees it.
/// - **An observer that never claims** (the twin of the observing gesture recognizer): every
///   input event of the window passes through the window's observer before GTK dispatches it,
///   so the engine sees every touch: the overlay's as `EngineInput.touch`, the web view's as
///   `EngineInput.nativePageTouch` (released natively at touch-down, counted in
///   `SampleLedger.releasedNatively`).
/// - **Late page verdicts are replayed by the page script**: an overlay touch no fresh
///   snapshot could decide is drawn as tentative ink at once while the page is asked; if the
///   page claims it, the ink is retracted and the engine's ``EngineEvent/Kind-swift.enum/replay(_:)``
///   events are evaluated in the page script's world, which dispatches untrusted pointer
///   (and touch) events at the samples' page positions, in order, original times attached.
/// - **Two fingers on the scratch paper scroll the page**: the engine gives a two-finger
///   gesture to the page and says how far to scroll (`EngineEvent.Kind.scrollPage`); the window scrolls it.
///
/// With ``TouchRouting/handOverAfterDecision`` (the Android-like mode, which WKWebView does
/// not allow) the overlay takes every touch and hands the page's touches to the web view as
/// trusted synthesized GDK events after the decision.
///
/// Ink belongs to the page: strokes are kept in page coordinates and drawn through the
/// current page transform, so they scroll and zoom with the content. ``undo()`` and
/// ``clearInk()`` (Ctrl+Alt+Z, Ctrl+Alt+C) erase ink; the ledger is unchanged.
///
/// Every event is folded into a ``DeliveryAudit``; the report is verified when the audit
/// verifies against the engine's ledger (``DeliveryAudit/verify(against:)``).
///
/// Use on the GTK thread only.
public final class ScratchpadWindow {
    /// Settings of a window.
    public struct Options: Sendable {
        /// The page's viewport, CSS pixels (the overlay covers it, one point each).
        public var width: Int
        /// The viewport's height, CSS pixels.
        public var height: Int
        /// The engine's settings: how touches are decided and the page asked (one timeout).
        public var configuration: InkEngineConfiguration
        /// Whether each finished touch's outcome, its samples included, is kept for the
        /// report; off, the audit still checks every touch but keeps only counts. (The ink
        /// itself, every stroke drawn, is kept either way.)
        public var keepsOutcomes: Bool
        /// Seconds every message from the page is held before the engine takes it: a slower
        /// page, for measuring what a user sees at a given page latency. Default 0.
        public var pageMessageDelay: Double = 0
        /// Records the session (what the engine took and decided) for `ink-replay verify`,
        /// through its sink; `nil`, the default, records nothing. The window begins it with
        /// its engine, feeds it every input in the order the engine takes them, and flushes
        /// it in ``ScratchpadWindow/finish()``.
        public var recorder: SessionRecorder?

        /// Settings for a `width` × `height` page. The default configuration routes at
        /// touch-down, as an iPad app must (``TouchRouting/decideAtTouchDown``).
        public init(width: Int = 1024, height: Int = 768,
                    configuration: InkEngineConfiguration = InkEngineConfiguration(routing: .decideAtTouchDown),
                    keepsOutcomes: Bool = true) {
            self.width = width
            self.height = height
            self.configuration = configuration
            self.keepsOutcomes = keepsOutcomes
        }
    }

    /// The page and its oracle.
    public let page: WebKitGTKPage
    /// The top-level window.
    public let window: UnsafeMutablePointer<GtkWidget>
    /// The drawing overlay above the web view.
    public let canvas: UnsafeMutablePointer<GtkWidget>
    /// The engine: it decides, maps GDK's identifiers to its touches, and counts every sample.
    public private(set) var engine: InkEngine
    /// Every event the engine emitted, folded in order.
    public private(set) var audit: DeliveryAudit
    /// Each finished touch's outcome, in the order they finished, while
    /// ``Options/keepsOutcomes`` is on.
    public private(set) var outcomes: [TouchOutcome] = []
    /// The ink drawn.
    public private(set) var ink = InkLayer()
    /// Wall-clock durations of the round trips to the page (question sent to answer
    /// received), seconds; the most recent 10,000.
    public private(set) var roundTrips: [Double] = []
    /// Events handed to the web view for touches that belong to the page, after the
    /// decision (hand-over routing only).
    public private(set) var pageEventsDispatched = 0
    /// Replays evaluated in the page script (decide-at-touch-down routing), and the events
    /// they carried.
    public private(set) var replaysSent = 0
    /// Events the replays carried (down, move, up, cancel).
    public private(set) var replayedEvents = 0
    /// Snapshots asked for because a hovering pointer found none fresh.
    public private(set) var hoverRequests = 0
    /// Replays the page script could not take (not there, or the evaluation failed).
    public private(set) var replayFailures = 0
    /// The interactive regions cut out of the overlay's input shape, canvas points; `nil`
    /// while no fresh snapshot answers (the overlay takes every touch).
    public private(set) var inputShapeHoles: [CanvasRect]?
    /// Page touches the engine finished while the web view still held them down (no end or
    /// cancel handed to it): cancelled there then. Zero, unless the window loses track.
    public private(set) var pageTouchesLeftOpen = 0
    /// Inputs the engine refused, as sentences (the first 100).
    public private(set) var refusals: [String] = []
    /// Page messages the bridge refused (malformed, forged, oversized).
    public private(set) var refusedMessages = 0
    /// The overlay's area redrawn, summed over frames, square points (for the tests).
    public private(set) var redrawnArea = 0.0
    /// Frames drawn.
    public private(set) var framesDrawn = 0
    /// The mapping from overlay to page the engine was last given.
    public private(set) var transform = PageTransform.identity

    /// The user asked to close the window (its close button); it stays open until freed.
    public private(set) var closeRequested = false
    /// GTK destroyed the window (the application is quitting): nothing is drawn or played.
    public private(set) var isDestroyed = false

    private let keepsOutcomes: Bool
    private let routing: TouchRouting
    private let pageMessageDelay: Double
    /// When the page was last asked for a snapshot because a hovering pointer found none fresh.
    private var hoverAskedAt = -Double.infinity
    private var overlay: UnsafeMutablePointer<GtkWidget>
    private var events: [EngineEvent] = []
    /// Records what the engine takes and decides, when the options asked for it.
    private var recorder: SessionRecorder?
    /// The input shape must be computed again (a snapshot, a layout change, freshness ran out).
    private var shapeDirty = true
    private var shapeTimer: guint = 0
    /// How far the engine said to scroll the page for a two-finger gesture on the overlay,
    /// canvas points, not yet handed to the page (once per batch of inputs).
    private var pendingScroll = (x: 0.0, y: 0.0)
    private var processing = false
    /// Inputs that arrived while one was being carried out: taken after it, in order.
    private var waiting: [EngineInput] = []
    private var timer: guint = 0
    private var timerDeadline = Double.nan
    private var layoutTimer: guint = 0
    private var layoutReads = 0
    private var lastRegionsGeneration: UInt64?
    /// The page's touches handed to the web view and not ended there, by the engine's id.
    private var pageTouches: [TouchID: PageTouch] = [:]
    private var sentAt: [QueryToken: Double] = [:]
    /// Whether GDK's pointer is down as far as the engine knows (a pointer touch taken and
    /// not ended).
    private var pointerDown = false
    /// Maps the GDK events' own times to the engine's clock.
    private var eventClock = EventClock()

    /// A touch handed to the web view: how it reaches the page, and where and when it last
    /// was (a lift or a cancel happens there).
    private struct PageTouch {
        var tool: ToolKind
        var point: CanvasPoint
        var time: Double
    }

    /// GDK's pointer (mouse, pen) as a platform touch: it has no sequence.
    static let pointerID = TouchID(0)

    /// Opens the window (not shown until ``show()``), with the page script installed.
    /// - Throws: ``WebKitGTKError`` without a display, or without the page script.
    public init(options: Options = Options()) throws(WebKitGTKError) {
        page = try WebKitGTKPage()
        engine = InkEngine(configuration: options.configuration)
        audit = DeliveryAudit(routing: options.configuration.routing)
        routing = options.configuration.routing
        pageMessageDelay = options.pageMessageDelay.isFinite ? max(0, options.pageMessageDelay) : 0
        keepsOutcomes = options.keepsOutcomes
        if var recorder = options.recorder {
            recorder.begin(engine)
            self.recorder = recorder
        }
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        g_object_ref(window)  // ours until freed, even once GTK destroys it
        gtk_window_set_title(cast(window), "ScratchpadInk")
        gtk_window_set_resizable(cast(window), 0)
        overlay = gtk_overlay_new()!
        // The overlay repaints only where ink changed, and GTK repaints the web view beneath
        // each such area. WebKitGTK's accelerated (composited) drawing for GTK 3 cannot repaint
        // part of the view: it fills the clip's rectangle mirrored top to bottom (the flip for
        // its bottom-up buffer is applied before the rectangle), so the area asked for kept the
        // window's theme background: the grey boxes. Without acceleration WebKit paints from
        // its own backing store, any part of it.
        webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(cast(page.widget)),
                                                         WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        gtk_widget_set_size_request(page.widget, gint(options.width), gint(options.height))
        gtk_container_add(cast(overlay), page.widget)
        canvas = gtk_drawing_area_new()
        g_object_ref_sink(canvas)
        gtk_widget_set_can_focus(canvas, 0)
        gtk_widget_add_events(canvas, gint(GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
            | GDK_POINTER_MOTION_MASK.rawValue | GDK_TOUCH_MASK.rawValue | GDK_SCROLL_MASK.rawValue | GDK_SMOOTH_SCROLL_MASK.rawValue))
        gtk_overlay_add_overlay(cast(overlay), canvas)
        // The overlay's own child window lets events through; the canvas's input shape
        // decides which reach the canvas (the rest fall to the web view below).
        gtk_overlay_set_overlay_pass_through(cast(overlay), canvas, 1)
        gtk_container_add(cast(window), overlay)
        page.onMessage = { [weak self] message in self?.received(message) }
        connectSignals()
        Self.observe(self)
    }

    deinit {
        Self.windows.removeAll { $0.window == nil || $0.window === self }
        if shapeTimer != 0 { g_source_remove(shapeTimer) }
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
        for widget in [canvas, page.widget] {
            // Every motion event, not one per frame: ink needs all the samples, and the engine
            // counts every sample the page gets natively.
            if let gdkWindow = gtk_widget_get_window(widget) { gdk_window_set_event_compression(gdkWindow, 0) }
        }
        try page.load(url, timeout: timeout)
        gtk_widget_grab_focus(page.widget)
        let view = try page.canvasToPage()
        if view != transform {
            transform = view
            deliver(.layout(view, generation: nil))
        }
        // The page script pushes a snapshot when the document is ready and again when the page
        // has loaded (stylesheets and fonts move things); wait for the one of the page's
        // current layout generation, so the cache can answer from the first touch.
        let generation = (try? page.evaluate("window.scratchpadInk ? window.scratchpadInk.generation : 0")).flatMap { $0 }
            .flatMap { UInt64($0) } ?? 1
        GTK.spin(timeout: 2) { (engine.snapshotGeneration ?? 0) >= generation }
        updateInputShape()
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
        let key: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, UnsafeMutableRawPointer?) -> gboolean = {
            _, event, context in
            guard let event, let context else { return 0 }
            return Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().handleKey(event) ? 1 : 0
        }
        _ = scratchpad_connect(window, "key-press-event", unsafeBitCast(key, to: GCallback.self), me)
    }

    /// The canvas's own handler: wheel scrolling over the overlay goes to the web view below;
    /// pointer and touch events were already seen by the observer, and stop here.
    private func handle(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        switch event.pointee.type {
        case GDK_SCROLL:
            _ = scratchpad_forward_scroll(page.widget, event)
            readLayoutSoon()
            return true
        case GDK_GRAB_BROKEN:
            return false
        default:
            return true
        }
    }

    // MARK: The observer

    /// A window the process-wide observer feeds. Held weakly: a window lives as long as its
    /// owner keeps it.
    private struct Observed {
        weak var window: ScratchpadWindow?
    }

    /// The windows whose events the observer feeds to their engines. GTK thread only.
    nonisolated(unsafe) private static var windows: [Observed] = []
    nonisolated(unsafe) private static var observerInstalled = false

    /// Registers a window with the observer, installing it on first use: a GDK event handler
    /// that sees every event of the process before GTK dispatches it, feeds the input events
    /// of a registered window to that window's engine, and then hands every event to GTK
    /// unchanged. It claims nothing: the twin of a gesture recognizer that only observes.
    private static func observe(_ window: ScratchpadWindow) {
        windows.removeAll { $0.window == nil }
        windows.append(Observed(window: window))
        guard !observerInstalled else { return }
        observerInstalled = true
        gdk_event_handler_set({ event, _ in
            guard let event else { return }
            if let gdkWindow = event.pointee.any.window {
                let toplevel = gdk_window_get_toplevel(gdkWindow)
                for entry in ScratchpadWindow.windows {
                    guard let window = entry.window, !window.isDestroyed,
                          gtk_widget_get_window(window.window) == toplevel else { continue }
                    window.observe(event, target: gtk_get_event_widget(event))
                    break
                }
            }
            gtk_main_do_event(event)
        }, nil, nil)
    }

    /// Delivers a synthesized input event the way the display server and GDK would: the
    /// observer sees it first, then the widget it is for gets it. Tools that play recorded
    /// input (``widget(at:)`` picks the widget) use it, so played input takes the same path
    /// as a real touch or mouse.
    /// - Parameters:
    ///   - event: The event, made for `target` (its window is `target`'s).
    ///   - target: The overlay (``canvas``) or the web view.
    /// - Returns: Whether a handler of `target` took it.
    @discardableResult
    public func dispatchAsPlatform(_ event: UnsafeMutablePointer<GdkEvent>, to target: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard !isDestroyed else { return false }
        observe(event, target: target)
        return gtk_widget_event(target, event) != 0
    }

    /// The widget a touch or press landing at `point` (window coordinates of the page area)
    /// goes to: the web view through a hole of the overlay's input shape, else the overlay.
    /// Later events of a touch go where it went down, as a pointer grab or a touch sequence
    /// keeps them.
    public func widget(at point: CanvasPoint) -> UnsafeMutablePointer<GtkWidget> {
        guard let holes = inputShapeHoles else { return canvas }
        let inside = holes.contains { point.x >= $0.minX && point.x < $0.maxX && point.y >= $0.minY && point.y < $0.maxY }
        return inside ? page.widget : canvas
    }

    /// One event the observer saw, before GTK dispatches it to `target`: an input event of
    /// the overlay becomes a touch event for the engine, one of the web view a touch the
    /// platform gave the page natively.
    private func observe(_ event: UnsafeMutablePointer<GdkEvent>, target: UnsafeMutablePointer<GtkWidget>?) {
        if event.pointee.type == GDK_GRAB_BROKEN {
            // The pointer's grab was taken away: its touch will get no release.
            cancelPointer()
            return
        }
        let input = scratchpad_read_input(event)
        let now = GTK.now
        if input.phase == SCRATCHPAD_INPUT_OTHER, event.pointee.type == GDK_MOTION_NOTIFY {
            _ = eventClock.time(ofEvent: input.time, now: now)  // a hovering pointer keeps the mapping fresh
            hovered()
            return
        }
        // Each sample carries its event's own time, on the engine's clock.
        guard let phase = Self.phase(of: input) else { return }
        let time = eventClock.sampleTime(ofEvent: input.time, touch: input.is_touch != 0 ? input.sequence : Self.pointerID.rawValue,
                                         phase: phase, now: now)
        guard let touch = Self.touchEvent(from: input, timestamp: time) else { return }
        // A press while the pointer is still down lost its release (a grab taken away unseen):
        // that touch is cancelled first, or every later press would be refused.
        if input.is_touch == 0, touch.phase == .began, pointerDown { cancelPointer() }
        let native = target != nil && target != canvas
        deliver(native ? .nativePageTouch(touch) : .touch(touch))
    }

    private func cancelPointer() {
        guard pointerDown else { return }
        deliver(.touch(TouchEvent(touch: Self.pointerID, phase: .cancelled, samples: [])))
    }

    /// The touch event one GDK input event makes: a touchscreen touch is a finger, named by
    /// its sequence; the pointer (mouse, pen, eraser) is a pencil-like tool, named 0, with the
    /// pressure and tilt its device gives. `nil` for events that do not draw.
    static func touchEvent(from input: ScratchpadInput, timestamp: Double) -> TouchEvent? {
        guard let phase = phase(of: input), input.x.isFinite, input.y.isFinite else { return nil }
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
        let sample = TouchSample(x: input.x, y: input.y, timestamp: timestamp, force: force, altitude: altitude, azimuth: azimuth,
                                 tool: isTouch ? .finger : .pencil)
        return TouchEvent(touch: isTouch ? TouchID(input.sequence) : pointerID, phase: phase, samples: [sample])
    }

    /// The phase of a touch one GDK input event makes; `nil` for events that do not draw.
    static func phase(of input: ScratchpadInput) -> TouchPhase? {
        switch input.phase {
        case SCRATCHPAD_INPUT_DOWN: .began
        case SCRATCHPAD_INPUT_MOVE: .moved
        case SCRATCHPAD_INPUT_UP: .ended
        case SCRATCHPAD_INPUT_CANCEL: .cancelled
        default: nil
        }
    }

    // MARK: The engine

    /// Gives one input to the engine now, and carries out what comes of it, in order. Touch
    /// events name touches by the platform's identifiers (GDK's sequence, or 0 for the
    /// pointer); the engine maps them. An input that arrives while another is being carried
    /// out (a callback during a dispatch) is taken right after it.
    public func deliver(_ input: EngineInput) {
        waiting.append(input)
        takeWaiting()
    }

    /// Takes the waiting inputs in order, each carried out before the next is taken; then
    /// re-arms the timer. Does nothing while an input is being carried out (its caller
    /// takes what was queued meanwhile).
    private func takeWaiting() {
        guard !processing else { return }
        processing = true
        defer { processing = false }
        var next = 0
        while next < waiting.count {
            let now = max(GTK.now, engine.now)
            let start = events.count
            engine.take(waiting[next], now: now, into: &events)
            recorder?.record(waiting[next], at: now, events: events[start...])
            next += 1
            carryOut()
        }
        waiting.removeAll(keepingCapacity: true)
        armTimer()
        if shapeDirty { updateInputShape() }
        scrollForGesture()
    }

    /// Carries out the engine's events, in order, and folds each into the audit. Call with
    /// `processing` set: carrying out an event may queue inputs (a failed send), never take
    /// them, so the events of one input are all carried out before the next is taken.
    private func carryOut() {
        var index = 0
        while index < events.count {
            let event = events[index]
            index += 1
            if let outcome = audit.observe(event), keepsOutcomes { outcomes.append(outcome) }
            switch event.kind {
            case let .took(touch):
                if event.touch?.platform == Self.pointerID.rawValue { track(pointer: touch.phase) }
            case let .refused(input, refusal):
                if refusals.count < 100 { refusals.append(refusal.description) }
                // A pointer end the engine refused (its touch already finished) still means
                // the pointer is up.
                if case let .touch(touch) = input, touch.touch == Self.pointerID, touch.phase == .ended || touch.phase == .cancelled {
                    pointerDown = false
                }
            case let .action(action):
                // Ink is kept in page coordinates: it moves with the page.
                if let change = ink.apply(action.inPageCoordinates(transform)), let bounds = change.bounds { invalidate(page: bounds) }
                if routing == .handOverAfterDecision { dispatchToPage(action) }
            case let .send(request, _):
                send(request)
            case let .replay(replay):
                replayInPage(replay)
            case let .scrollPage(dx, dy):
                pendingScroll.x += dx
                pendingScroll.y += dy
            case let .pageMessage(_, outcome):
                switch outcome {
                case .refused?: refusedMessages += 1
                case .regionsAccepted?: shapeDirty = true
                default: break
                }
            case .layout:
                shapeDirty = true
                gtk_widget_queue_draw(canvas)  // the ink moves with the page
            }
        }
        events.removeAll(keepingCapacity: true)
    }

    private func track(pointer phase: TouchPhase) {
        switch phase {
        case .began: pointerDown = true
        case .ended, .cancelled: pointerDown = false
        case .moved: break
        }
    }

    /// Asks the page: the request is evaluated in the page script's world, and its answer
    /// comes back as a message.
    private func send(_ request: HitTestRequest) {
        let token = request.token
        // A round trip settled by a later event of the same input needs no question.
        guard engine.isWaiting(for: token) else { return }
        let now = GTK.now
        if sentAt.count >= 1_000 { sentAt = sentAt.filter { now - $0.value < 60 } }  // never answered
        sentAt[token] = now
        page.send(request) { [weak self] result in
            guard let self, case .failure = result else { return }
            sentAt[token] = nil
            deliver(.sendFailed(token))
        }
    }

    private func received(_ message: WebKitGTKPage.PostedMessage) {
        guard pageMessageDelay > 0 else { return take(message) }
        final class Held {
            weak var window: ScratchpadWindow?
            let message: WebKitGTKPage.PostedMessage
            init(_ window: ScratchpadWindow, _ message: WebKitGTKPage.PostedMessage) {
                self.window = window
                self.message = message
            }
        }
        let held = Unmanaged.passRetained(Held(self, message)).toOpaque()
        g_timeout_add(guint(min((pageMessageDelay * 1000).rounded(), 600_000)), { context in
            let held = Unmanaged<Held>.fromOpaque(context!).takeRetainedValue()
            if let window = held.window, !window.isDestroyed { window.take(held.message) }
            return 0
        }, held)
    }

    private func take(_ message: WebKitGTKPage.PostedMessage) {
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

    /// Arms the one GLib timeout for the engine's next deadline, when that changed; when it
    /// fires, a tick lets the engine's time pass.
    private func armTimer() {
        guard let deadline = engine.nextDeadline, deadline.isFinite else {
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

    // MARK: Routing at touch-down

    /// A pointer (a pen in range, a mouse) hovers over the window before it presses: if no
    /// region snapshot is fresh, the page is asked to push one now (at most every 100 ms), so
    /// the press is likely decided at touch-down. The twin of pencil hover on an iPad.
    private func hovered() {
        guard routing == .decideAtTouchDown, inputShapeHoles == nil, engine.configuration.useRegionCache else { return }
        let now = GTK.now
        guard now - hoverAskedAt >= 0.1 else { return }
        hoverAskedAt = now
        hoverRequests += 1
        page.evaluate("(window.scratchpadInk ? (window.scratchpadInk.pushRegions(), true) : false)") { _ in }
    }

    /// Evaluates a replay in the page script's world: the page's handlers get the samples of a
    /// touch it claimed late, as untrusted events, in order.
    private func replayInPage(_ replay: PageReplay) {
        replaysSent += 1
        replayedEvents += replay.eventCount
        page.evaluate(replay.scriptInvocation) { [weak self] result in
            guard case .success("true") = result else {
                self?.replayFailures += 1
                return
            }
        }
    }

    private func scrollForGesture() {
        guard pendingScroll.x != 0 || pendingScroll.y != 0 else { return }
        let dx = pendingScroll.x * transform.scale, dy = pendingScroll.y * transform.scale
        pendingScroll = (0, 0)
        page.evaluate("window.scrollBy(\(dx), \(dy)), true", inPageWorld: true) { _ in }
        readLayoutSoon()
    }

    /// Cuts a hole in the overlay's input shape over every interactive region of the page's
    /// fresh snapshot, so touches there reach the web view natively; with no fresh snapshot
    /// the overlay takes every touch. Re-computed when a snapshot arrives, the layout
    /// changes, or the snapshot stops being fresh.
    private func updateInputShape() {
        shapeDirty = false
        guard routing == .decideAtTouchDown, !isDestroyed else { return }
        if shapeTimer != 0 { g_source_remove(shapeTimer) }
        shapeTimer = 0
        let now = max(GTK.now, engine.now)
        let regions = engine.touchDownRegions(now: now)
        let width = Double(gtk_widget_get_allocated_width(canvas)), height = Double(gtk_widget_get_allocated_height(canvas))
        var holes: [CanvasRect] = []
        for rect in regions?.rects ?? [] {
            // In whole pixels, covering the region, clipped to the canvas.
            let minX = max(0, rect.minX.rounded(.down)), minY = max(0, rect.minY.rounded(.down))
            let maxX = min(width, rect.maxX.rounded(.up)), maxY = min(height, rect.maxY.rounded(.up))
            if minX < maxX, minY < maxY { holes.append(CanvasRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)) }
        }
        let shape: [CanvasRect]? = regions == nil ? nil : holes
        if shape != inputShapeHoles {
            inputShapeHoles = shape
            var full = cairo_rectangle_int_t(x: 0, y: 0, width: gint(width), height: gint(height))
            let region = cairo_region_create_rectangle(&full)
            for hole in holes {
                var cut = cairo_rectangle_int_t(x: gint(hole.minX), y: gint(hole.minY), width: gint(hole.width), height: gint(hole.height))
                cairo_region_subtract_rectangle(region, &cut)
            }
            gtk_widget_input_shape_combine_region(canvas, region)
            cairo_region_destroy(region)
        }
        // When the snapshot stops being fresh, every touch is unknown again.
        if let until = regions?.validUntil, until.isFinite {
            let milliseconds = guint(min(max(0, ((until - GTK.now) * 1000).rounded(.up) + 1), 86_400_000))
            shapeTimer = g_timeout_add(milliseconds, { context in
                let window = Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue()
                window.shapeTimer = 0
                window.updateInputShape()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    // MARK: The page's touches

    private func dispatchToPage(_ action: RouterAction) {
        switch action {
        case let .release(id, sample):
            // The touch reaches the page the way it came: its first sample's tool says how.
            let tool = pageTouches[id]?.tool ?? sample.tool
            let first = pageTouches.updateValue(PageTouch(tool: tool, point: sample.point, time: sample.timestamp), forKey: id) == nil
            dispatch(id, first ? .start : .move, via: tool, at: sample.point, time: sample.timestamp)
        case let .endRelease(id):
            guard let touch = pageTouches.removeValue(forKey: id) else { return }
            dispatch(id, .end, via: touch.tool, at: touch.point, time: touch.time)
            readLayoutSoon()
        case let .cancel(id, previously):
            guard previously == .page, let touch = pageTouches.removeValue(forKey: id) else { return }
            dispatch(id, .cancel, via: touch.tool, at: touch.point, time: nil)
        case let .touchFinished(id, _):
            // Every page touch ends or is cancelled before it finishes; one that did not
            // would stay down in WebKit: cancelled there, and counted.
            if let touch = pageTouches.removeValue(forKey: id) {
                pageTouchesLeftOpen += 1
                dispatch(id, .cancel, via: touch.tool, at: touch.point, time: nil)
            }
        default:
            break
        }
    }

    /// Hands one event of a page touch to the web view, the way the touch came: a finger
    /// (a touchscreen touch) as a touch sequence of its own (WebKitGTK must see a touch begin
    /// before it moves), anything else as the pointer; stamped with the sample's own time
    /// (queued samples keep their pace).
    private func dispatch(_ id: TouchID, _ phase: WebKitGTKPage.TouchPhase, via tool: ToolKind, at point: CanvasPoint,
                          time: Double?) {
        let eventTime = time.map(WebKitGTKPage.eventTime(for:))
        if tool == .finger {
            // The engine's id, not GDK's sequence: unique, and never 0.
            page.dispatchTouch(phase, sequence: id.rawValue, x: point.x, y: point.y, time: eventTime)
        } else {
            page.dispatchPointer(phase, x: point.x, y: point.y, time: eventTime)
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

    /// Redraws the overlay where ink at these page coordinates lies now.
    private func invalidate(page bounds: CanvasRect) {
        let view = transform
        invalidate(CanvasRect(minX: (bounds.minX - view.offsetX) / view.scale, minY: (bounds.minY - view.offsetY) / view.scale,
                              maxX: (bounds.maxX - view.offsetX) / view.scale, maxY: (bounds.maxY - view.offsetY) / view.scale))
    }

    private func invalidate(_ bounds: CanvasRect) {
        // Clipped to the canvas first: a stroke far outside it (a log's huge coordinates)
        // redraws nothing, and never overflows GTK's integers.
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return }
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
        redrawnArea += Self.clipArea(cr) ?? clip.width * clip.height
        framesDrawn += 1
        // Strokes are in page coordinates: drawn through the page's current transform.
        let view = transform
        cairo_save(cr)
        cairo_scale(cr, 1 / view.scale, 1 / view.scale)
        cairo_translate(cr, -view.offsetX, -view.offsetY)
        let pageClip = CanvasRect(minX: clip.minX * view.scale + view.offsetX, minY: clip.minY * view.scale + view.offsetY,
                                  maxX: clip.maxX * view.scale + view.offsetX, maxY: clip.maxY * view.scale + view.offsetY)
        cairo_set_source_rgba(cr, 0.08, 0.16, 0.55, 0.92)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        for stroke in ink.strokes { InkPainter.fill(stroke.builder, in: pageClip, on: cr) }
        cairo_restore(cr)
    }

    // MARK: Erasing

    /// Removes the last finished stroke (Ctrl+Alt+Z). The engine's ledger is unchanged: the
    /// samples were ink; the user erased it. Returns `false` when there was none.
    @discardableResult
    public func undo() -> Bool {
        guard let change = ink.removeLastStroke() else { return false }
        if let bounds = change.bounds { invalidate(page: bounds) }
        return true
    }

    /// Removes every finished stroke (Ctrl+Alt+C); strokes being drawn stay. The ledger is
    /// unchanged.
    public func clearInk() {
        if let bounds = ink.removeFinishedStrokes() { invalidate(page: bounds) }
    }

    /// Ctrl+Alt+Z and Ctrl+Alt+C, whatever has the focus (they leave the page's own Ctrl+Z
    /// to the page).
    private func handleKey(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        guard event.pointee.type == GDK_KEY_PRESS else { return false }
        let key = event.pointee.key
        let modifiers = key.state & (GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        guard modifiers == GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue else { return false }
        switch gdk_keyval_to_lower(key.keyval) {
        case guint(GDK_KEY_z): undo(); return true
        case guint(GDK_KEY_c): clearInk(); return true
        default: return false
        }
    }

    /// The area GTK asked to repaint in this frame: the sum of the clip region's rectangles
    /// (GTK merges the frame's invalidated rectangles into one region; its extents can be
    /// far larger when two changes lie apart). `nil` when cairo cannot list the clip.
    private static func clipArea(_ cr: OpaquePointer) -> Double? {
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, let rectangles = list.pointee.rectangles else { return nil }
        var area = 0.0
        for i in 0..<Int(list.pointee.num_rectangles) { area += rectangles[i].width * rectangles[i].height }
        return area
    }

    // MARK: Results

    /// Lets the engine's deadlines due by now fire, settles every touch still undecided (the
    /// window is closing), closes the audit and returns what it found.
    public func finish() -> ScratchpadReport {
        deliver(.tick)
        if !processing {
            processing = true
            let start = events.count
            engine.finish(into: &events)
            recorder?.recordFinish(at: engine.now, events: events[start...])
            carryOut()
            processing = false
            takeWaiting()  // what finishing queued (nothing waits for a decision any more)
        }
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        recorder?.flush()
        let open = audit.close()
        if keepsOutcomes { outcomes.append(contentsOf: open) }
        return report
    }

    /// What the window saw so far.
    public var report: ScratchpadReport {
        var failures = audit.verify(against: engine.ledger)
        if pageTouchesLeftOpen > 0 {
            failures.append("\(pageTouchesLeftOpen) page touches finished without an end or a cancel handed to the web view")
        }
        if replayFailures > 0 {
            failures.append("\(replayFailures) of \(replaysSent) replays did not reach the page script: their samples never reached the page")
        }
        return ScratchpadReport(ledger: engine.ledger, auditLedger: audit.ledger, problems: audit.problems, outcomes: outcomes,
                                bridge: engine.bridgeMetrics, roundTrips: roundTrips, pageEventsDispatched: pageEventsDispatched,
                                refusals: refusals, refusedInputs: audit.refusedInputs, refusedMessages: refusedMessages,
                                strokes: ink.strokes.count, replays: replaysSent, replayedEvents: replayedEvents,
                                verificationFailures: failures, recordedLines: recorder?.linesWritten ?? 0,
                                recordingDroppedLines: recorder?.droppedLines ?? 0)
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
    /// The engine's ledger: `received = inked + released + cancelled + refused` once every
    /// touch is settled.
    public var ledger: SampleLedger
    /// The same account, rebuilt by the audit from the engine's events.
    public var auditLedger: SampleLedger
    /// What the audit found wrong (the first ones; empty when every sample went once, in
    /// order, where it was decided to go).
    public var problems: [String]
    /// Each finished touch: its verdict, reason, samples, first-ink latency (kept while
    /// ``ScratchpadWindow/Options/keepsOutcomes`` is on).
    public var outcomes: [TouchOutcome]
    /// The bridge's counters.
    public var bridge: BridgeMetrics
    /// Round trips to the page, seconds.
    public var roundTrips: [Double]
    /// Events handed to the web view.
    public var pageEventsDispatched: Int
    /// Inputs the engine refused (the first 100), as sentences.
    public var refusals: [String]
    /// How many inputs the engine refused.
    public var refusedInputs: Int
    /// Page messages the bridge refused.
    public var refusedMessages: Int
    /// Strokes of ink.
    public var strokes: Int
    /// Replays the page script was asked to run (late page verdicts, decide-at-touch-down
    /// routing).
    public var replays: Int
    /// Events those replays carried.
    public var replayedEvents: Int
    /// Why the session does not verify, in sentences: the audit's verdict against the
    /// engine's ledger (``DeliveryAudit/verify(against:)``), then the front end's own check
    /// that every touch handed to the web view was ended or cancelled there. Empty when it
    /// verifies.
    public var verificationFailures: [String]
    /// Lines the recorder's sink took, when the window records (``ScratchpadWindow/Options/recorder``).
    public var recordedLines = 0
    /// Lines the recorder left out because its sink was behind (written into the recording
    /// as a `dropped` line; `verify` then claims no identity over it).
    public var recordingDroppedLines = 0

    /// Samples of refused touch events, from the engine's ledger.
    public var refusedSamples: Int { ledger.refused }

    /// Every sample went once, in order, where it was decided to go, nothing was refused,
    /// the audit agrees with the engine, and no touch was left down in the web view.
    public var isVerified: Bool { verificationFailures.isEmpty }
}
