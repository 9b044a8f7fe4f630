import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore
import WebKitGTKOracle

/// The native front end: a GTK window with the exercise page in a WebKitWebView and a
/// transparent drawing overlay on top of it; the iPad app's twin.
///
/// Written on the package's page side (`PageSide`, the one shell of the one live loop, on
/// GLib's clock): GDK's input in; what GTK and WebKitGTK do for the page side out (evaluate,
/// scroll, redraw, inject, the input shape). With the default routing,
/// ``TouchRouting/decideAtTouchDown``, it routes touches the way UIKit must over a
/// WKWebView, where a touch's owner is fixed when it touches down:
///
/// - **Routing by input shape** (the twin of an overlay's `hitTest(_:with:)`): the overlay's
///   input shape has a hole over each interactive region of the page's fresh region snapshot
///   (`InkEngine.touchDownRegions(now:)`, the same answer as `InkEngine.route(at:tool:now:)`),
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
/// Ink belongs to the page (`PageInk`, drawn through the current page transform). ``undo()``
/// and ``clearInk()`` (Ctrl+Alt+Z, Ctrl+Alt+C) erase ink; the ledger is unchanged. The report is
/// verified when the loop's audit verifies against the engine's ledger.
///
/// Use on the GTK thread only.
public final class ScratchpadWindow {
    /// The page and its oracle.
    public let page: WebKitGTKPage
    /// The top-level window.
    public let window: UnsafeMutablePointer<GtkWidget>
    /// The drawing overlay above the web view.
    public let canvas: UnsafeMutablePointer<GtkWidget>
    /// The page side (the package's one): the loop's shell, holding the ink on the page and
    /// performing the page's deliveries; this window does only what GTK and WebKitGTK do for
    /// it (evaluate, scroll, redraw, inject, cut the input shape).
    public private(set) var side: PageSide!
    /// The view the last pinch zoom (or the scroll after it) asked for, and when
    /// (``zoomPage(scale:about:)``).
    private var zoomTarget: (view: PageTransform, at: Double)?
    /// How long a pinch's asked-for view stands for the page's (seconds): longer than a
    /// frame, shorter than a pause between two pinches.
    static let zoomTargetLifetime = 0.3
    /// What GTK and WebKitGTK do for the page side (evaluate, scroll, redraw, inject, cut the
    /// input shape): the window's whole page-facing code, which `PageConformance` (InkTesting)
    /// checks against the real page.
    public private(set) var pageOperations: PageSide.Page!
    /// The one live loop: the engine, the wake-up, the sends, the recorder, the audit.
    public var loop: InkLoop { side.loop }
    /// Every sample handed in and where it went.
    public var ledger: SampleLedger { loop.ledger }
    /// The ink drawn, on the page.
    public var ink: PageInk { side.ink }
    /// Durations of the round trips to the page (question sent to answer received), seconds
    /// on the GLib clock; the most recent 10,000, measured by the loop.
    public var roundTrips: [Double] { loop.roundTrips }
    /// Events handed to the web view for touches that belong to the page, after the
    /// decision (hand-over routing only).
    public var pageEventsDispatched: Int { pageTouches.dispatched }
    /// Replays evaluated in the page script (decide-at-touch-down routing).
    public var replaysSent: Int { side.replaysSent }
    /// Events the replays carried (down, move, up, cancel).
    public var replayedEvents: Int { side.replayedEvents }
    /// Snapshots asked for because a hovering pointer found none fresh.
    public var hoverRequests: Int { loop.metrics.hoverRequests }
    /// Replays the page script could not take (not there, or the evaluation failed).
    public var replayFailures: Int { side.replaysLost }
    /// The interactive regions cut out of the overlay's input shape, canvas points; `nil`
    /// while no fresh snapshot answers (the overlay takes every touch).
    public internal(set) var inputShapeHoles: [CanvasRect]?
    /// Inputs the engine refused, as sentences (the first 100).
    public private(set) var refusals: [String] = []
    /// The overlay's area redrawn, summed over frames, square points (for the tests).
    public internal(set) var redrawnArea = 0.0
    /// Frames drawn.
    public internal(set) var framesDrawn = 0
    /// Time spent in the overlay's draw handler, summed over frames, seconds (for
    /// measurements, not tests).
    public internal(set) var drawSeconds = 0.0
    /// Whether finished ink is painted from pictures of its tiles, made once (``InkTileCache``),
    /// rather than filled segment by segment in every frame. On by default; off only to
    /// compare.
    public var usesInkCache = true { didSet { gtk_widget_queue_draw(canvas) } }
    /// Tiles of finished ink filled into pictures so far.
    public var inkTilesRendered: Int { inkTiles.tilesRendered }
    /// Finished strokes tessellated into outlines for the tile pictures so far: once a stroke
    /// (again only if it was refined), however often its tiles are filled again.
    public var inkStrokesTessellated: Int { inkTiles.outlinesMade }
    /// The pixels of the finished ink's tile pictures held now (4 bytes each).
    public var inkTilePixels: Int { inkTiles.pixelsHeld }
    /// The most pixels of tile pictures held at once since the window opened.
    public var inkTilePeakPixels: Int { inkTiles.peakPixelsHeld }
    /// The largest side of any tile picture made, pixels (at most ``inkTileMaxSide``).
    public var inkTileLargestSide: Int { inkTiles.largestSide }
    /// The cap on a tile picture's side, pixels (1024): beyond the zoom that needs more, ink
    /// is drawn from magnified pictures.
    public static var inkTileMaxSide: Int { InkTileCache.maxPictureSide }
    /// The pixel budget of the tile pictures held (16 Mi pixels, 64 MiB): the least recently
    /// painted are dropped beyond it, never those the frame being drawn needs.
    public static var inkTilePixelBudget: Int { InkTileCache.pixelBudget }
    /// Seconds the zoom must rest before the ink's tile pictures are made again at its
    /// resolution (0.15 by default); until then they are painted scaled.
    public var zoomSettleDelay: Double {
        get { inkTiles.settleDelay }
        set { inkTiles.settleDelay = newValue }
    }
    /// The wake-up that redraws once the zoom has settled (armed while it settles).
    var settleWake: (() -> Void)?
    /// The app's ink colour; `nil` (the default): the ink that shows best on the page's
    /// background (``effectiveInkColor``).
    public var inkColor: InkColor? { didSet { gtk_widget_queue_draw(canvas) } }
    /// The page's background as last read from the page (``PageBackground``); `nil` before.
    public internal(set) var pageBackground: InkColor?
    /// The pictures of the finished ink.
    let inkTiles = InkTileCache()
    /// The tentative tail of the stroke being painted, one array reused in every frame.
    var paintTail: [StrokeSegment] = []
    /// The mapping from overlay to page the engine was last given.
    public var transform: PageTransform { layout.transform }

    /// The page zooms Ctrl and the wheel may reach (``Options/zoomRange``).
    public let zoomRange: ClosedRange<Double>

    /// The user asked to close the window (its close button); it stays open until freed.
    public internal(set) var closeRequested = false
    /// GTK destroyed the window (the application is quitting): nothing is drawn or played.
    public internal(set) var isDestroyed = false

    /// The container of the web view and the drawing area above it.
    var overlay: UnsafeMutablePointer<GtkWidget>
    /// The canvas's size at its last allocation (`nil` before the first).
    var allocatedSize: (width: Int, height: Int)?
    var layout: LayoutFollower!
    private var pageTouches = PageTouchDispatcher()
    var lastRegionsGeneration: UInt64?
    /// Whether GDK's pointer is down as far as the engine knows (a pointer touch taken and
    /// not ended): the loop knows.
    var pointerDown: Bool { loop.isDown(Self.pointerID) }
    /// Maps the GDK events' own times to the engine's clock.
    var eventClock = EventClock()

    /// GDK's pointer (mouse, pen) as a platform touch: it has no sequence.
    static let pointerID = PlatformTouchID(0)

    /// Opens the window (not shown until ``show()``), with the page script installed.
    /// - Throws: ``WebKitGTKError`` without a display, or without the page script.
    public convenience init(options: Options = Options()) throws(WebKitGTKError) {
        self.init(page: try WebKitGTKPage(), options: options)
    }

    /// Opens a second window whose web view shares `other`'s user content manager, as two
    /// `WKWebView`s made from one configuration share a `WKUserContentController`: the page
    /// script and the handler are there once, and each window's loop hears its own page only
    /// (the messages go by the document they name: `SharedUserContent`).
    /// - Throws: ``WebKitGTKError`` without a display.
    public convenience init(sharingUserContentWith other: ScratchpadWindow, options: Options = Options()) throws(WebKitGTKError) {
        self.init(page: try WebKitGTKPage(sharingUserContentWith: other.page), options: options)
    }

    /// A new front end over the page another window shows (the twin of a second
    /// `InkUIKitController` made on the same web view): the old window lets go of the page
    /// first (``releasePage()``: its loop stops, so its touches down are cancelled and
    /// counted and its recording is finished; the web view leaves its overlay), then this
    /// window takes the web view, the page's messages and its lifecycle. The old window
    /// hears nothing from the page after this; dropping it later touches nothing of the page.
    /// Shown at once, on the page as it is (nothing is reloaded).
    public convenience init(replacing old: ScratchpadWindow, options: Options = Options()) {
        old.releasePage()
        self.init(page: old.page, options: options)
        gtk_widget_show_all(window)
        for widget in [canvas, page.widget] {
            if let gdkWindow = gtk_widget_get_window(widget) { gdk_window_set_event_compression(gdkWindow, 0) }
        }
        if let view = try? page.canvasToPage(), view != transform {
            layout.set(view)
            deliver(.layout(view, generation: nil))
        }
        askForRegions()
    }

    /// Whether this window still shows its page: `false` once another window replaced it
    /// (``init(replacing:options:)``).
    public private(set) var ownsPage = true

    /// Lets go of the page for a window that replaces this one: stops the loop (touches
    /// down are cancelled and counted, the recording finished), takes the web view out of
    /// the overlay and leaves the page's callbacks to the next owner. Nothing else of the
    /// page changes; the window stays open, empty, until its owner drops it.
    public func releasePage() {
        guard ownsPage else { return }
        if !loop.isStopped { loop.stop() }
        ownsPage = false
        g_signal_handlers_disconnect_matched(page.widget, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                                             Unmanaged.passUnretained(self).toOpaque())
        page.onMessage = nil
        page.onNewDocument = nil
        if gtk_widget_get_parent(page.widget) == overlay { gtk_container_remove(cast(overlay), page.widget) }
        if !isDestroyed { gtk_widget_hide(window) }
    }

    private init(page: WebKitGTKPage, options: Options) {
        self.page = page
        zoomRange = options.zoomRange
        page.messageDelay = options.pageMessageDelay
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        g_object_ref(window)  // ours until freed, even once GTK destroys it
        gtk_window_set_title(cast(window), "ScratchpadInk")
        // Resizable, as an iPad's view is (rotation, split view, Stage Manager): the overlay
        // follows the web view, and each new size is a viewResized for the loop.
        gtk_window_set_default_size(cast(window), gint(options.width), gint(options.height))
        overlay = gtk_overlay_new()!
        // The overlay repaints only where ink changed, and GTK repaints the web view beneath
        // each such area. WebKitGTK's accelerated (composited) drawing for GTK 3 cannot repaint
        // part of the view: it fills the clip's rectangle mirrored top to bottom (the flip for
        // its bottom-up buffer is applied before the rectangle), so the area asked for kept the
        // window's theme background: the grey boxes. Without acceleration WebKit paints from
        // its own backing store, any part of it.
        webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(cast(page.widget)),
                                                         WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        gtk_widget_set_size_request(page.widget, 320, 240)
        gtk_container_add(cast(overlay), page.widget)
        canvas = gtk_drawing_area_new()
        g_object_ref_sink(canvas)
        gtk_widget_set_can_focus(canvas, 0)
        gtk_widget_add_events(canvas, gint(GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
            | GDK_POINTER_MOTION_MASK.rawValue | GDK_TOUCH_MASK.rawValue | GDK_SCROLL_MASK.rawValue | GDK_SMOOTH_SCROLL_MASK.rawValue
            | GDK_PROXIMITY_IN_MASK.rawValue | GDK_PROXIMITY_OUT_MASK.rawValue))
        gtk_overlay_add_overlay(cast(overlay), canvas)
        // The overlay's own child window lets events through; the canvas's input shape
        // decides which reach the canvas (the rest fall to the web view below).
        gtk_overlay_set_overlay_pass_through(cast(overlay), canvas, 1)
        gtk_container_add(cast(window), overlay)
        layout = LayoutFollower(page: page, transform: .identity) { [weak self] view in self?.deliver(.layout(view, generation: nil)) }
        let operations = PageSide.Page(
            evaluate: { [weak page] script, done in
                guard let page else { return done(false) }
                page.evaluate(script) { result in done((try? result.get()) == "true") }
            },
            scroll: { [weak self] dx, dy in self?.scrollPage(dx: dx, dy: dy) },
            zoom: { [weak self] scale, about in self?.zoomPage(scale: scale, about: about) },
            redraw: { [weak self] area in
                guard let self, !isDestroyed else { return }
                if let area { invalidate(area) } else { gtk_widget_queue_draw(canvas) }
            },
            inject: { [weak self] touch in
                guard let self else { return }
                if pageTouches.perform(touch, on: page) { layout.follow() }
            },
            regionsChanged: { [weak self] regions in self?.regionsChanged(regions) })
        pageOperations = operations
        side = PageSide(configuration: options.configuration, clock: GLibClock(), recorder: options.recorder, page: operations)
        loop.keepsOutcomes = options.keepsOutcomes
        side.onEvents = { [weak self] events in self?.noteRefusals(events) }
        page.onMessage = { [weak self] message in self?.take(message) }
        page.onNewDocument = { [weak self] in self?.documentChanged() }
        connectSignals()
        Self.observe(self)
    }

    deinit {
        Self.windows.removeAll { $0.window == nil || $0.window === self }
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_signal_handlers_disconnect_matched(canvas, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        g_signal_handlers_disconnect_matched(window, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        g_signal_handlers_disconnect_matched(page.widget, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        // Dropped without finish(): the loop still stops (touches down cancelled and
        // counted, the recording finished), as InkUIKitController's deinit does.
        if !loop.isStopped { loop.stop() }
        if ownsPage {
            page.onMessage = nil
            page.onNewDocument = nil
        }
        settleWake?()
        if !isDestroyed {
            g_signal_handlers_disconnect_matched(overlay, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
            gtk_widget_destroy(window)
        }
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
            layout.set(view)
            deliver(.layout(view, generation: nil))
        }
        // The page script pushes a snapshot when the document is ready and again when the page
        // has loaded (stylesheets and fonts move things); wait for the one of the page's
        // current layout generation, so the cache can answer from the first touch.
        let generation = (try? page.evaluate("window.scratchpadInk ? window.scratchpadInk.generation : 0")).flatMap { $0 }
            .flatMap { UInt64($0) } ?? 1
        GTK.spin(timeout: 2) { (loop.snapshotGeneration ?? 0) >= generation }
        reshape(for: loop.touchDownRegions, force: true)   // the canvas has its size now
        learnPageBackground()
    }

    // MARK: The loop's shell

    /// Gives one input to the loop now (``InkLoop/submit(_:)-(EngineInput)``): touch events
    /// name touches by the platform's identifiers (GDK's sequence, or 0 for the pointer).
    public func deliver(_ input: EngineInput) {
        loop.submit(input)
    }

    /// Keeps the sentences of refused inputs (the first 100).
    private func noteRefusals(_ events: [EngineEvent]) {
        for event in events {
            if case let .refused(_, refusal) = event.kind, refusals.count < 100 { refusals.append(refusal.description) }
        }
    }

    /// Scrolls the page for a two-finger gesture on the overlay, then follows where it lands.
    public func scrollPage(dx: Double, dy: Double) {
        var scale = transform.scale
        if let (view, at) = zoomTarget, GTK.now - at < Self.zoomTargetLifetime {
            // Within a pinch: the view it asked for, not the one followed so far.
            scale = view.scale
            zoomTarget = (PageTransform(scale: scale, offsetX: view.offsetX + dx * scale, offsetY: view.offsetY + dy * scale), GTK.now)
        }
        page.evaluate("window.scrollBy(\(dx * scale), \(dy * scale)), true", inPageWorld: true) { _ in }
        layout.follow()
    }

    /// Zooms the page for two fingers pinching on the overlay: WebKitGTK's `zoom-level` by
    /// `scale`, within ``zoomRange``, and the page scrolled so that the content under `about`
    /// stays under it where the page can scroll that far (`page = canvas × scale + offset`:
    /// the new offset is the anchor's page point less `about` at the new scale); the page
    /// transform follows.
    ///
    /// A pinch zooms at every frame, faster than the page reports where it landed (the zoom
    /// level is the UI process's at once, the scroll the web process's later): while zooms
    /// and scrolls follow each other within ``zoomTargetLifetime``, each starts from the view
    /// the last one asked for; after a pause, from the followed transform (where the page
    /// could not scroll as far as asked, that is where it corrects).
    public func zoomPage(scale: Double, about: CanvasPoint) {
        let old = page.zoomLevel
        let level = min(max(old * scale, zoomRange.lowerBound), zoomRange.upperBound)
        guard level != old, old > 0 else { return }
        let now = GTK.now
        let current = zoomTarget.flatMap { now - $0.at < Self.zoomTargetLifetime ? $0.view : nil } ?? transform
        let anchor = current.pagePoint(for: about)
        let target = PageTransform(scale: current.scale * old / level, offsetX: anchor.x - about.x * current.scale * old / level,
                                   offsetY: anchor.y - about.y * current.scale * old / level)
        zoomTarget = (target, now)
        page.zoomLevel = level
        page.evaluate("window.scrollTo(\(target.offsetX), \(target.offsetY)), true", inPageWorld: true) { _ in }
        layout.follow()
    }

    /// A hovering pointer found no fresh snapshot: the page script pushes one now.
    public func askForRegions() { side.askForRegions() }

    // MARK: Results

    /// Stops the loop (``InkLoop/stop()``: the deadlines due by now fire, touches still down
    /// are cancelled, undecided ones settled, the audit closed, the recording flushed). The
    /// window stays open; what it saw stays readable (``ledger``, ``InkLoop/metrics``).
    public func stop() {
        if !loop.isStopped { loop.stop() }
    }

    /// A PNG of the window as it is on screen: the page with the ink over it; `nil` once
    /// GTK destroyed the window.
    public func screenshot() -> [UInt8]? {
        guard !isDestroyed, let png = scratchpad_widget_png(window) else { return nil }
        defer { g_byte_array_unref(png) }
        return Array(UnsafeBufferPointer(start: png.pointee.data, count: Int(png.pointee.len)))
    }
}
