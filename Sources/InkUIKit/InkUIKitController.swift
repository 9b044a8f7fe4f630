#if canImport(UIKit) && canImport(WebKit)
import WebKit
import InkCore
import HitTestBridge

/// The iOS front end over the package's page side (`PageSide`, the loop's one shell for every
/// front end): it places an ``InkOverlayView`` above the web view, attaches a
/// ``TouchObservingRecognizer`` and a ``HoverObservingRecognizer`` to their common superview,
/// installs the ``WKWebViewPageOracle``, and does what UIKit and WebKit do for the page side:
/// evaluate its scripts in the page script's world, scroll the web view's scroll view for a
/// gesture, redraw the overlay where the page side's ink changed.
///
/// The loop does the rest: it owns the `InkEngine` (running with
/// `TouchRouting.decideAtTouchDown`), takes the inputs in order, keeps the one wake-up (a
/// loop's default clock on the main run loop: a one-shot `Timer` in common modes, for the engine's
/// next deadline or the region snapshot's expiry), the sends in flight, the hover throttle,
/// the recorder and the live audit. The controller keeps no timer, no inbox and no
/// round-trip bookkeeping of its own.
///
/// The overlay's hit test asks the loop where each touch goes (``InkLoop/route(at:tool:)``);
/// touches the overlay takes are inked (or, when nothing could decide at touch-down, inked
/// speculatively while the page is asked, and replayed to the page as untrusted DOM events if
/// it claims them); touches the web view takes reach the page natively and are counted
/// released at touch-down. The recognizer, the page's messages, failed sends and the page's
/// scrolling are submitted to the loop (``InkLoop/submit(_:)-(EngineInput)``); a hover asks
/// it for a region snapshot (``InkLoop/pointerHovered()``: only while none is fresh, at most
/// every 100 ms).
///
/// A two-finger gesture that starts on the overlay is the page's
/// (`RouterAction.decided(_, .page, .multiTouchGesture)`), but the web view never gets those
/// touches: the loop asks the shell to scroll (``scrollPage(dx:dy:)``, the lead finger's
/// movement, summed per submission) and the controller scrolls the web view's scroll view,
/// then submits the new layout.
///
/// Time is `ProcessInfo.processInfo.systemUptime`, the clock of `UITouch.timestamp`. Create
/// the controller on the main thread: the loop, its clock and every callback live there.
///
/// ```swift
/// // in a view controller, once the web view is in the view hierarchy
/// ink = try InkUIKitController(webView: webView)
/// // when the page goes away: stops the loop, removes the overlay and the recognizers
/// ink.invalidate()
/// ```
///
/// Every closure it installs holds it weakly, and a controller dropped without
/// ``invalidate()`` invalidates itself as it goes (its `deinit`: the loop is stopped, so the
/// touches down are cancelled and counted and a recording is finished; the overlay, the
/// recognizers, the interaction and the message handler are removed). A second controller
/// made on the same web view while the first is still live invalidates the first before it
/// sets up (one front end per web view) and takes that web view's messages over
/// (``WKWebViewPageOracle``): nothing raises, and the first hears no more messages. Any number
/// of web views may share one `WKUserContentController`: each message goes to the controller
/// of the web view that sent it, and the page script is added once per content controller.
///
/// The controller takes none of the web view's delegates: it follows scroll, zoom and
/// navigation by key-value observation (the scroll view's `contentOffset` and `zoomScale`,
/// the web view's `isLoading`), so an app sets `scrollView.delegate` and
/// `navigationDelegate` whenever it likes. Not implementing
/// `webViewWebContentProcessDidTerminate(_:)` leaves WebKit's own reload of a page whose web
/// content process terminated in place: the page comes back as in a plain web view, and
/// names its new document.
///
/// The overlay is pinned to the web view with Auto Layout constraints, so it follows the web
/// view through rotation, split view, Stage Manager and safe-area changes; each change of
/// size is submitted as `EngineInput.viewResized(_:)`: the page reflows, so the region
/// snapshot of the old layout stops routing at once (a snapshot measured before the resize
/// is refused) and the page is asked for a new one once the size has held still for 100 ms.
///
/// Apple Pencil: with ``PencilOnlyDrawing/followSystem`` (the default) the system's "Only
/// Draw with Apple Pencil" setting (`UIPencilInteraction.prefersPencilOnlyDrawing`, read
/// again at each touch-down, since the user can change it in Settings or the pencil's palette
/// while the app runs) turns on the engine's pencil-only policy: the pencil writes and a
/// finger on the scratch paper scrolls the page. A pencil hovering over the paper (iPads with
/// Apple Pencil hover) counts for the palm rule as a pencil down does: a hand that lands as the
/// pen approaches is held, neither ink nor the page's (`EngineInput.pencilHovering(_:)`). A
/// double tap or a squeeze of the pencil (`UIPencilInteraction`) goes to ``onPencilGesture``;
/// with none set, nothing happens. Two fingers pinching on the paper zoom the web view's scroll
/// view about their midpoint (`EngineEvent.Kind.zoomPage(scale:about:)`).
/// A trackpad's or mouse's scroll, pinch and hover pass through the overlay to the web view.
///
/// Type-checked against stand-ins for UIKit and WebKit; never run on a device.
@MainActor
public final class InkUIKitController {
    /// The page side: the loop's shell, the ink on the page, the page's deliveries.
    public private(set) var side: PageSide!
    /// The live loop: the engine, the inbox, the wake-up, the recorder and the audit.
    public var loop: InkLoop { side.loop }
    /// The web view (not retained).
    public private(set) weak var webView: WKWebView?
    /// The overlay above the web view.
    public let overlay: InkOverlayView
    /// The recognizer on the common superview.
    public let recognizer: TouchObservingRecognizer
    /// The hover recognizer on the common superview: a hovering pencil asks the page for a
    /// region snapshot while none is fresh.
    public let hoverRecognizer: HoverObservingRecognizer
    /// The page side.
    public let oracle: WKWebViewPageOracle
    /// Sees every batch of events after the page side carried it out (for a log or a view of
    /// its own; the loop keeps the audit and the metrics).
    public var onEvents: (([EngineEvent]) -> Void)? {
        get { side.onEvents }
        set { side.onEvents = newValue }
    }
    /// How many times a two-finger gesture on the overlay scrolled the web view.
    public private(set) var gestureScrolls = 0
    /// How many times two fingers pinching on the overlay zoomed the web view.
    public private(set) var gestureZooms = 0
    /// Whether ``invalidate()`` has run.
    public private(set) var isInvalidated = false
    /// What a double tap or a squeeze of Apple Pencil does, given the gesture and the user's
    /// preferred action for it in Settings (`UIPencilInteraction.preferredTapAction`,
    /// `preferredSqueezeAction`). `nil`, the default: nothing happens. The scratch paper has
    /// no eraser, tool or palette, and an undo the user never chose (the old default, for
    /// "switch to eraser" and for Apple Pencil Pro's "show tool palette") silently took
    /// strokes away. An app with tools of its own performs the user's preferred action here,
    /// as Apple asks (Human Interface Guidelines, "Apple Pencil and Scribble").
    public var onPencilGesture: ((PencilGesture, UIPencilPreferredAction) -> Void)?
    /// The pencil interaction on the overlay.
    public let pencilInteraction: UIPencilInteraction

    /// An Apple Pencil gesture on the pencil itself.
    public enum PencilGesture: Sendable, Hashable {
        /// A double tap (Apple Pencil 2nd generation, Apple Pencil Pro).
        case doubleTap
        /// A squeeze, reported when it ends (Apple Pencil Pro, iOS 17.5).
        case squeeze
    }

    /// Whether fingers write or only the pencil does.
    public enum PencilOnlyDrawing: Sendable, Hashable {
        /// The system's setting, "Only Draw with Apple Pencil"
        /// (`UIPencilInteraction.prefersPencilOnlyDrawing`, iOS 14), read when the controller
        /// is made and again at each touch-down; a change applies from that touch on
        /// (`EngineInput.pencilOnly(_:)`, recorded). The configuration's own `pencilOnly`,
        /// when `true`, keeps it on.
        case followSystem
        /// Only the pencil writes; a finger on the scratch paper scrolls the page.
        case always
        /// Fingers and the pencil write (the configuration's own `pencilOnly` is kept).
        case never
    }

    /// The controller live on each web view (weakly).
    private static var live: [ObjectIdentifier: WeakController] = [:]
    private struct WeakController {
        weak var controller: InkUIKitController?
    }
    private var sizeConstraints: [NSLayoutConstraint] = []
    private var pencilFollower: PencilFollower?
    /// Whether the system's pencil-only setting is followed (``PencilOnlyDrawing/followSystem``),
    /// the configuration's own `pencilOnly`, and the policy the loop was last given.
    private var followsPencilSetting = false
    private var configuredPencilOnly = false
    private var pencilOnlyGiven = false
    /// The parts a `deinit` off the main thread hands to the main queue.
    private var teardown: Teardown!

    private var followers: PageFollowers!

    /// Errors setting up the front end.
    public enum SetupError: Error, Sendable, Hashable {
        /// The web view has no superview to put the overlay and the recognizer in.
        case webViewHasNoSuperview
    }

    /// Sets up the loop, the overlay, the recognizers and the page side around a web view
    /// that is already in its superview. Call it on the main thread.
    /// - Parameters:
    ///   - webView: The web view showing the exercise.
    ///   - configuration: The engine's settings; its routing is set to decide at touch-down.
    ///   - style: The style of the ink.
    ///   - recorder: Records the session for `ink-replay verify` (``SessionRecorder``),
    ///     handed to the loop, which records every input and wake-up and the finish
    ///     (``invalidate()``). `nil`, the default, records nothing.
    ///   - pencilOnly: Whether only the pencil writes: the system's setting (the default),
    ///     always, or as the configuration says.
    /// - Throws: ``SetupError/webViewHasNoSuperview``, or when the page script cannot be read.
    public init(webView: WKWebView, configuration: InkEngineConfiguration = InkEngineConfiguration(),
                style: StrokeStyle = StrokeStyle(), recorder: SessionRecorder? = nil,
                pencilOnly: PencilOnlyDrawing = .followSystem) throws {
        guard let container = webView.superview else { throw SetupError.webViewHasNoSuperview }
        // One front end per web view: a controller still live on it (the app made a new one
        // without invalidating the old) is invalidated first, so its overlay, which would sit
        // above the new one, stops taking touches, and its loop finishes.
        Self.live = Self.live.filter { $0.value.controller != nil }
        Self.live[ObjectIdentifier(webView)]?.controller?.invalidate()
        var configuration = configuration
        configuration.routing = .decideAtTouchDown
        configuredPencilOnly = configuration.pencilOnly
        followsPencilSetting = pencilOnly == .followSystem
        switch pencilOnly {
        case .followSystem: if #available(iOS 14.0, *) { configuration.pencilOnly = configuration.pencilOnly || UIPencilInteraction.prefersPencilOnlyDrawing }
        case .always: configuration.pencilOnly = true
        case .never: break
        }
        pencilOnlyGiven = configuration.pencilOnly
        let transform = Self.transform(of: webView.scrollView)
        oracle = try WKWebViewPageOracle(webView: webView)
        self.webView = webView
        overlay = InkOverlayView(frame: webView.frame)
        overlay.pageTransform = transform
        recognizer = TouchObservingRecognizer(overlay: overlay)
        hoverRecognizer = HoverObservingRecognizer()
        pencilInteraction = UIPencilInteraction()
        // No clock given: the loop's default, timers on the run loop of this (the main) thread.
        side = PageSide(configuration: configuration, transform: transform, style: style, recorder: recorder, page: PageSide.Page(
            evaluate: { [weak oracle] script, done in
                guard let oracle else { return done(false) }
                oracle.evaluate(script, done)
            },
            scroll: { [weak self] dx, dy in self?.scroll(dx: dx, dy: dy) },
            zoom: { [weak self] scale, about in self?.zoom(by: scale, about: about) },
            // Through the overlay, not the controller: a teardown in the controller's deinit
            // (where a weak reference to it is already nil) still draws what the stop decides.
            redraw: { [weak overlay] area in overlay?.pageSideChanged(in: area) }))
        overlay.side = side

        container.insertSubview(overlay, aboveSubview: webView)
        // Pinned to the web view, not sized once: it follows rotation, split view, Stage
        // Manager and the app's own layout.
        overlay.translatesAutoresizingMaskIntoConstraints = false
        sizeConstraints = [overlay.leadingAnchor.constraint(equalTo: webView.leadingAnchor),
                           overlay.trailingAnchor.constraint(equalTo: webView.trailingAnchor),
                           overlay.topAnchor.constraint(equalTo: webView.topAnchor),
                           overlay.bottomAnchor.constraint(equalTo: webView.bottomAnchor)]
        NSLayoutConstraint.activate(sizeConstraints)
        let follower = PencilFollower()
        follower.controller = self
        pencilFollower = follower
        pencilInteraction.delegate = follower
        overlay.addInteraction(pencilInteraction)
        Self.live[ObjectIdentifier(webView)] = WeakController(controller: self)
        container.addGestureRecognizer(recognizer)
        container.addGestureRecognizer(hoverRecognizer)
        // Weak everywhere: UIKit and WebKit keep these closures' owners alive longer than the
        // controller may live. With the controller gone, the overlay lets every touch through.
        overlay.router = { [weak self] point, tool in self?.loop.route(at: point, tool: tool) ?? .page }
        overlay.onResize = { [weak self] _ in self?.viewDidResize() }
        overlay.onAppearanceChange = { [weak self] in self?.pageAppearanceDidChange() }   // the ink's colour
        // A zoom settles on the loop's clock (then the ink's tiles are drawn again at its
        // resolution); one is in progress while the scroll view zooms or bounces back.
        overlay.clock = loop.clock
        overlay.zoomInProgress = { [weak webView] in
            guard let scrollView = webView?.scrollView else { return false }
            return scrollView.isZooming || scrollView.isZoomBouncing
        }
        recognizer.deliver = { [weak self] inputs in self?.deliver(inputs) }
        hoverRecognizer.onHover = { [weak self] in self?.loop.pointerHovered() }
        hoverRecognizer.onPencilHover = { [weak self] hovering in self?.loop.submit(.pencilHovering(hovering)) }
        oracle.onMessage = { [weak self] body in self?.side.pageSaid(body) }
        // Follow scroll, zoom and navigation by key-value observation: no delegate of the web
        // view's is taken, so the app sets its own whenever it likes.
        followers = PageFollowers(webView: webView, controller: self)
        teardown = Teardown(side: side, overlay: overlay, recognizers: [recognizer, hoverRecognizer],
                            interaction: pencilInteraction, oracle: oracle, followers: followers)
    }

    /// The recognizer's inputs, to the loop; at a touch-down, the system's pencil-only setting
    /// is read first, and a change is given to the loop before the touch.
    private func deliver(_ inputs: [EngineInput]) {
        if followsPencilSetting, inputs.contains(where: { if case let .touch(event) = $0 { event.phase == .began } else { false } }) {
            if #available(iOS 14.0, *) {
                let on = configuredPencilOnly || UIPencilInteraction.prefersPencilOnlyDrawing
                if on != pencilOnlyGiven {
                    pencilOnlyGiven = on
                    loop.submit(.pencilOnly(on))
                }
            }
        }
        loop.submit(inputs)
    }

    // MARK: - State

    /// How the loop decides touches and asks the page (``InkLoop/configuration``).
    public var configuration: InkEngineConfiguration { loop.configuration }
    /// Every sample handed in and where it went (``InkLoop/ledger``).
    public var ledger: SampleLedger { loop.ledger }
    /// What the loop has done so far: counters, latency, refusals, the audit's health, hover
    /// requests (``InkLoop/metrics``).
    public var metrics: EngineCounters { loop.metrics }

    // MARK: - The app's calls

    /// The page scrolled or zoomed: moves the ink with it and submits the new layout. Called
    /// by the controller's key-value observation of the scroll view (an app need not call it;
    /// calling it again changes nothing).
    public func pageDidScroll() {
        guard !isInvalidated, let webView else { return }
        side.viewMoved(Self.transform(of: webView.scrollView))
    }

    /// The view showing the page changed size (called by the overlay's layout, which follows
    /// the web view): submits `EngineInput.viewResized(_:)` with the scroll view's transform.
    /// The page reflows, so the region snapshot of the old layout stops routing at once
    /// (touch-downs are asked) and the page is asked to push one of the new layout.
    public func viewDidResize() {
        guard !isInvalidated, let webView else { return }
        side.viewResized(Self.transform(of: webView.scrollView))
    }

    /// A navigation is under way (the web view's `isLoading` became `true`: a link, Back, a
    /// reload, WebKit's own reload after the web content process terminated): submits
    /// ``EngineInput/newDocument(_:)`` with the scroll view's transform. The report is
    /// idempotent (the document rule): the loop asks the page which document it shows, and
    /// the page's answer, or the new page's first snapshot, names it. Called by the
    /// controller's key-value observation of the web view; an app may call it too (from its
    /// own `webView(_:didCommit:)`, say): a repeated report is harmless.
    public func pageDidChangeDocument() {
        guard !isInvalidated, let webView else { return }
        side.navigated(Self.transform(of: webView.scrollView))
    }

    /// A double tap or a squeeze of the pencil: the app's ``onPencilGesture``; with none,
    /// nothing (the scratch paper has no tool to switch to and no palette to show, and taking a
    /// stroke away unasked is no action the user chose).
    func pencilGesture(_ gesture: PencilGesture, preferred: UIPencilPreferredAction) {
        guard !isInvalidated else { return }
        onPencilGesture?(gesture, preferred)
    }

    /// Clear: removes every finished stroke (strokes being drawn stay). The ledger is
    /// unchanged.
    public func clearInk() { side.clear() }

    /// Undo: removes the most recent finished stroke; returns its touch, or `nil` when no
    /// stroke is finished. Strokes being drawn stay. The ledger is unchanged.
    @discardableResult
    public func undoLastStroke() -> TouchID? { side.undo() }

    /// Ends the session, when the page goes away: stops the loop (``InkLoop/stop()``: every
    /// touch still down is cancelled, undecided ones settled by the fallback and drawn, the
    /// audit closed, the recording finished and flushed, the wake-up disarmed), then removes
    /// the overlay, the recognizers, the message handler and the scroll follower, and clears
    /// every closure it installed. Calling it again does nothing. Input that still arrives
    /// through the loop is refused and counted.
    public func invalidate() {
        guard !isInvalidated else { return }
        side.close()
        isInvalidated = true
        overlay.router = nil
        overlay.onResize = nil
        NSLayoutConstraint.deactivate(sizeConstraints)
        pencilInteraction.delegate = nil
        overlay.removeInteraction(pencilInteraction)
        pencilFollower?.controller = nil
        pencilFollower = nil
        overlay.onAppearanceChange = nil
        recognizer.deliver = nil
        recognizer.view?.removeGestureRecognizer(recognizer)
        hoverRecognizer.onHover = nil
        hoverRecognizer.view?.removeGestureRecognizer(hoverRecognizer)
        overlay.removeFromSuperview()
        oracle.onMessage = nil
        oracle.detach()
        followers.invalidate()
    }

    /// Invalidates a controller its app dropped without ``invalidate()``. A main-actor
    /// object's `deinit` is not isolated (an isolated `deinit` needs iOS 18.4's runtime), so
    /// it checks that it runs on the main thread, as a controller released by UIKit or by the
    /// app's view controller does, and tears down there; released elsewhere, it hands the
    /// parts to the main queue, which tears them down in the same order.
    deinit {
        if Thread.isMainThread {
            MainActor.assumeIsolated { invalidate() }
        } else {
            guard let parts = teardown else { return }
            DispatchQueue.main.async { MainActor.assumeIsolated { parts.run() } }
        }
    }

    /// The transform from the overlay's points to the page's CSS pixels.
    public static func transform(of scrollView: UIScrollView) -> PageTransform {
        let zoom = Double(scrollView.zoomScale) > 0 ? Double(scrollView.zoomScale) : 1
        return PageTransform(scale: 1 / zoom, offsetX: Double(scrollView.contentOffset.x) / zoom,
                             offsetY: Double(scrollView.contentOffset.y) / zoom)
    }

    // MARK: - The shell's side, on the main thread

    /// Scrolls the web view's scroll view by a gesture's movement, clamped to its content,
    /// without animation; then makes sure the loop hears the new layout.
    ///
    /// Canvas points to scroll-view points: a canvas point is a point of the overlay, which
    /// has the web view's frame, and `contentOffset` is in the scroll view's own points, where
    /// the page's content is drawn `zoomScale` points per CSS pixel (``transform(of:)``). A
    /// finger movement of `d` canvas points is `d / zoomScale` CSS pixels of page, which is
    /// `d / zoomScale * zoomScale = d` points of offset, at any zoom: the page moves under
    /// the finger exactly, as with the scroll view's own pan.
    private func scroll(dx: Double, dy: Double) {
        guard !isInvalidated, dx != 0 || dy != 0, let webView else { return }
        let scrollView = webView.scrollView
        let zoom = Double(scrollView.zoomScale) > 0 ? Double(scrollView.zoomScale) : 1
        let pageMove = (x: dx / zoom, y: dy / zoom)                    // CSS pixels
        let offsetMove = (x: pageMove.x * zoom, y: pageMove.y * zoom)  // scroll-view points
        // The offsets the scroll view rests at: from -inset to content - bounds + inset.
        let current = scrollView.contentOffset
        let target = Self.resting(x: Double(current.x) + offsetMove.x, y: Double(current.y) + offsetMove.y, in: scrollView)
        guard target != current else { return }
        gestureScrolls += 1
        scrollView.setContentOffset(target, animated: false)
        // The scroll view's delegate (the follower, or the app's, which calls pageDidScroll())
        // reports the scroll, and the layout is submitted; if nothing did, report it here.
        if Self.transform(of: scrollView) != overlay.pageTransform { pageDidScroll() }
    }

    /// The offset nearest `(x, y)` the scroll view rests at: from -inset to content - bounds
    /// + inset.
    private static func resting(x: Double, y: Double, in scrollView: UIScrollView) -> CGPoint {
        let inset = scrollView.adjustedContentInset
        let content = scrollView.contentSize, visible = scrollView.bounds.size
        let minX = -Double(inset.left), minY = -Double(inset.top)
        let maxX = max(minX, Double(content.width) - Double(visible.width) + Double(inset.right))
        let maxY = max(minY, Double(content.height) - Double(visible.height) + Double(inset.bottom))
        return CGPoint(x: min(max(x, minX), maxX), y: min(max(y, minY), maxY))
    }

    /// Zooms the web view's scroll view by a pinch's factor (two fingers on the paper, which
    /// the scroll view cannot see), within its `minimumZoomScale`...`maximumZoomScale`, about
    /// `about`: the page's content under that canvas point stays under it. A canvas point `c`
    /// shows the content point `(c + contentOffset) / zoomScale` (``transform(of:)``), so at
    /// the new scale the offset is `(about + offset) / old × new - about`, then clamped as a
    /// scroll is. The ink follows through the key-value observation of `zoomScale` and
    /// `contentOffset` (``pageDidScroll()``); if nothing reported it, it is reported here.
    private func zoom(by scale: Double, about: CanvasPoint) {
        guard !isInvalidated, scale.isFinite, scale > 0, let webView else { return }
        let scrollView = webView.scrollView
        let old = Double(scrollView.zoomScale)
        guard old > 0 else { return }
        let new = min(max(old * scale, Double(scrollView.minimumZoomScale)), Double(scrollView.maximumZoomScale))
        guard new != old else { return }
        let offset = scrollView.contentOffset
        let content = (x: (about.x + Double(offset.x)) / old, y: (about.y + Double(offset.y)) / old)
        gestureZooms += 1
        scrollView.setZoomScale(CGFloat(new), animated: false)
        scrollView.setContentOffset(Self.resting(x: content.x * new - about.x, y: content.y * new - about.y, in: scrollView),
                                    animated: false)
        if Self.transform(of: scrollView) != overlay.pageTransform { pageDidScroll() }
    }
}

#endif
