#if canImport(UIKit) && canImport(WebKit)
import WebKit
import InkCore
import HitTestBridge

/// The iOS front end in one object: it owns the ``InkEngine``, places an ``InkOverlayView``
/// above the web view, attaches a ``TouchObservingRecognizer`` and a
/// ``HoverObservingRecognizer`` to their common superview, installs the
/// ``WKWebViewPageOracle``, and carries out the engine's events in order.
///
/// The engine runs with `TouchRouting.decideAtTouchDown`: the overlay's hit test asks it
/// where each touch goes; touches the overlay takes are inked (or, when nothing could decide
/// at touch-down, inked speculatively while the page is asked, and replayed to the page as
/// untrusted DOM events if it claims them); touches the web view takes reach the page natively
/// and are counted released at touch-down.
///
/// A two-finger gesture that starts on the overlay is the page's
/// (`RouterAction.decided(_, .page, .multiTouchGesture)`), but the web view never gets those
/// touches: the controller scrolls the web view's scroll view by the lead finger's movement
/// (its `.release` samples) and tells the engine the new layout. While no region snapshot is
/// fresh, a hovering Apple Pencil (or pointer) asks the page script to push one, at most every
/// 100 ms, so the touch that follows can be routed at touch-down.
///
/// Every input is taken with `now` = `ProcessInfo.processInfo.systemUptime`, the clock of
/// `UITouch.timestamp`. One `Timer` on the main run loop (common modes, so it fires while a
/// scroll view tracks) is armed for the engine's next deadline.
///
/// ```swift
/// // in a view controller, once the web view is in the view hierarchy
/// ink = try InkUIKitController(webView: webView)
/// ```
///
/// Type-checked against stand-ins for UIKit and WebKit; never run on a device.
@MainActor
public final class InkUIKitController {
    /// The engine (a value, owned here).
    public private(set) var engine: InkEngine
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
    /// Sees every batch of events after it was carried out (for an audit, a log, metrics).
    public var onEvents: (([EngineEvent]) -> Void)?
    /// How many times a hover asked the page script for a region snapshot.
    public private(set) var hoverRequests = 0
    /// How many times a two-finger gesture on the overlay scrolled the web view.
    public private(set) var gestureScrolls = 0

    private var events: [EngineEvent] = []
    private var inbox: [EngineInput] = []
    private var draining = false
    private var timer: Timer?
    private var timerDeadline: Double?
    private var scrollFollower: ScrollFollower?
    /// When a hover last asked the page for a snapshot (system uptime).
    private var hoverAskedAt = -Double.infinity
    /// The scroll the engine asked for (a two-finger gesture on the overlay) that the web view
    /// has not made yet, canvas points.
    private var pendingScroll = (x: 0.0, y: 0.0)

    /// Errors setting up the front end.
    public enum SetupError: Error, Sendable, Hashable {
        /// The web view has no superview to put the overlay and the recognizer in.
        case webViewHasNoSuperview
    }

    /// Sets up the overlay, the recognizer and the page side around a web view that is
    /// already in its superview.
    /// - Parameters:
    ///   - webView: The web view showing the exercise.
    ///   - configuration: The engine's settings; its routing is set to decide at touch-down.
    ///   - style: The style of the ink.
    /// - Throws: ``SetupError/webViewHasNoSuperview``, or when the page script cannot be read.
    public init(webView: WKWebView, configuration: InkEngineConfiguration = InkEngineConfiguration(),
                style: StrokeStyle = StrokeStyle()) throws {
        guard let container = webView.superview else { throw SetupError.webViewHasNoSuperview }
        var configuration = configuration
        configuration.routing = .decideAtTouchDown
        let transform = Self.transform(of: webView.scrollView)
        engine = InkEngine(configuration: configuration, transform: transform)
        self.webView = webView
        overlay = InkOverlayView(frame: webView.frame, style: style)
        overlay.pageTransform = transform
        overlay.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        recognizer = TouchObservingRecognizer(overlay: overlay)
        hoverRecognizer = HoverObservingRecognizer()
        oracle = try WKWebViewPageOracle(webView: webView)

        container.insertSubview(overlay, aboveSubview: webView)
        container.addGestureRecognizer(recognizer)
        container.addGestureRecognizer(hoverRecognizer)
        overlay.router = { [unowned self] point, tool in
            self.engine.route(at: point, tool: tool, now: ProcessInfo.processInfo.systemUptime)
        }
        recognizer.deliver = { [unowned self] inputs in self.take(inputs) }
        hoverRecognizer.onHover = { [unowned self] in self.hovered() }
        oracle.onMessage = { [unowned self] body in self.take([.pageMessage(body)]) }
        oracle.onSendFailed = { [unowned self] token in self.take([.sendFailed(token)]) }
        // Follow scroll and zoom; when the app already is the scroll view's delegate, it calls
        // pageDidScroll() from its own scrollViewDidScroll(_:) and scrollViewDidZoom(_:).
        if webView.scrollView.delegate == nil {
            let follower = ScrollFollower()
            follower.controller = self
            webView.scrollView.delegate = follower
            scrollFollower = follower
        }
    }

    // MARK: - Inputs

    /// Hands inputs to the engine now, carries out its events in order, and re-arms the timer.
    /// Inputs arriving while events are being carried out are taken right after, in order.
    public func take(_ inputs: [EngineInput]) {
        inbox.append(contentsOf: inputs)
        guard !draining else { return }
        draining = true
        defer { draining = false }
        drainInbox()
        armTimer()
    }

    /// Takes the waiting inputs in order, carrying out each batch's events (and the scroll a
    /// gesture asks for, whose layout is queued here too) before the next. Call with
    /// `draining` set.
    private func drainInbox() {
        while !inbox.isEmpty {
            let batch = inbox
            inbox.removeAll()
            engine.take(batch, now: ProcessInfo.processInfo.systemUptime, into: &events)
            carryOut()
            scrollForGesture()
        }
    }

    /// The page scrolled or zoomed: moves the ink with it and tells the engine. Called by the
    /// scroll view delegate this controller installs, or by the app's own.
    public func pageDidScroll() {
        guard let webView else { return }
        let transform = Self.transform(of: webView.scrollView)
        overlay.pageTransform = transform
        take([.layout(transform, generation: nil)])
    }

    /// Clear: removes every finished stroke (strokes being drawn stay). The engine's ledger
    /// is unchanged.
    public func clearInk() { overlay.clear() }

    /// Undo: removes the most recent finished stroke; returns its touch, or `nil` when no
    /// stroke is finished. Strokes being drawn stay. The engine's ledger is unchanged.
    @discardableResult
    public func undoLastStroke() -> TouchID? { overlay.undoLastStroke() }

    /// Settles every touch, removes the overlay, the recognizer, the message handler and the
    /// timer. Call it when the page goes away.
    public func invalidate() {
        engine.finish(into: &events)
        carryOut()
        timer?.invalidate()
        timer = nil
        timerDeadline = nil
        overlay.router = nil
        recognizer.deliver = nil
        recognizer.view?.removeGestureRecognizer(recognizer)
        hoverRecognizer.onHover = nil
        hoverRecognizer.view?.removeGestureRecognizer(hoverRecognizer)
        pendingScroll = (0, 0)
        overlay.removeFromSuperview()
        oracle.detach()
        if let scrollFollower, let webView, webView.scrollView.delegate === scrollFollower {
            webView.scrollView.delegate = nil
        }
        scrollFollower = nil
    }

    /// The transform from the overlay's points to the page's CSS pixels.
    public static func transform(of scrollView: UIScrollView) -> PageTransform {
        let zoom = Double(scrollView.zoomScale) > 0 ? Double(scrollView.zoomScale) : 1
        return PageTransform(scale: 1 / zoom, offsetX: Double(scrollView.contentOffset.x) / zoom,
                             offsetY: Double(scrollView.contentOffset.y) / zoom)
    }

    // MARK: - Events and the deadline

    private func carryOut() {
        guard !events.isEmpty else { return }
        for event in events {
            switch event.kind {
            case let .action(action):
                overlay.apply(action)
            case let .send(request, _): oracle.send(request)
            case let .replay(replay): oracle.replay(replay)
            case let .scrollPage(dx, dy):
                pendingScroll.x += dx
                pendingScroll.y += dy
            default: break
            }
        }
        onEvents?(events)
        events.removeAll(keepingCapacity: true)
    }

    private func armTimer() {
        let deadline = engine.nextDeadline
        if deadline == timerDeadline, timer?.isValid == true { return }
        timer?.invalidate()
        timer = nil
        timerDeadline = deadline
        guard let deadline else { return }
        let interval = max(0, deadline - ProcessInfo.processInfo.systemUptime)
        let timer = Timer(timeInterval: interval, repeats: false) { [weak self] _ in
            MainActor.assumeIsolated { self?.deadlinePassed() }
        }
        RunLoop.main.add(timer, forMode: .common)
        self.timer = timer
    }

    private func deadlinePassed() {
        timer = nil
        timerDeadline = nil
        guard !draining else { armTimer(); return }
        draining = true
        defer { draining = false }
        engine.advance(to: ProcessInfo.processInfo.systemUptime, into: &events)
        carryOut()
        scrollForGesture()
        drainInbox()
        armTimer()
    }

    // MARK: - Two-finger gestures

    /// Scrolls the web view's scroll view by the pending gesture movement, clamped to its
    /// content, without animation; then makes sure the engine hears the new layout.
    ///
    /// Canvas points to scroll-view points: a canvas point is a point of the overlay, which
    /// has the web view's frame, and `contentOffset` is in the scroll view's own points, where
    /// the page's content is drawn `zoomScale` points per CSS pixel (``transform(of:)``). A
    /// finger movement of `d` canvas points is `d / zoomScale` CSS pixels of page, which is
    /// `d / zoomScale * zoomScale = d` points of offset, at any zoom: the page moves under
    /// the finger exactly, as with the scroll view's own pan.
    private func scrollForGesture() {
        guard pendingScroll.x != 0 || pendingScroll.y != 0 else { return }
        let move = pendingScroll
        pendingScroll = (0, 0)
        guard let webView else { return }
        let scrollView = webView.scrollView
        let zoom = Double(scrollView.zoomScale) > 0 ? Double(scrollView.zoomScale) : 1
        let pageMove = (x: move.x / zoom, y: move.y / zoom)           // CSS pixels
        let offsetMove = (x: pageMove.x * zoom, y: pageMove.y * zoom)  // scroll-view points
        // The offsets the scroll view rests at: from -inset to content - bounds + inset.
        let inset = scrollView.adjustedContentInset
        let content = scrollView.contentSize, visible = scrollView.bounds.size
        let minX = -Double(inset.left), minY = -Double(inset.top)
        let maxX = max(minX, Double(content.width) - Double(visible.width) + Double(inset.right))
        let maxY = max(minY, Double(content.height) - Double(visible.height) + Double(inset.bottom))
        let current = scrollView.contentOffset
        let x = min(max(Double(current.x) + offsetMove.x, minX), maxX)
        let y = min(max(Double(current.y) + offsetMove.y, minY), maxY)
        guard x != Double(current.x) || y != Double(current.y) else { return }
        gestureScrolls += 1
        scrollView.setContentOffset(CGPoint(x: x, y: y), animated: false)
        // The scroll view's delegate (the follower, or the app's, which calls pageDidScroll())
        // reports the scroll, and the layout is queued; if nothing did, report it here.
        if Self.transform(of: scrollView) != overlay.pageTransform { pageDidScroll() }
    }

    // MARK: - Hover

    /// A hover update: while no region snapshot is fresh, asks the page script to push one
    /// now, at most every 100 ms, so the touch that follows is routed at touch-down.
    private func hovered() {
        guard engine.configuration.useRegionCache else { return }
        let now = ProcessInfo.processInfo.systemUptime
        guard now - hoverAskedAt >= 0.1, engine.touchDownRegions(now: now) == nil else { return }
        hoverAskedAt = now
        hoverRequests += 1
        oracle.askForRegions()
    }
}

/// The web view's scroll view delegate when the app has none.
@MainActor
private final class ScrollFollower: NSObject, UIScrollViewDelegate {
    weak var controller: InkUIKitController?

    func scrollViewDidScroll(_ scrollView: UIScrollView) { controller?.pageDidScroll() }
    func scrollViewDidZoom(_ scrollView: UIScrollView) { controller?.pageDidScroll() }
}
#endif
