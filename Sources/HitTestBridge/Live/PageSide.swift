@_spi(Tooling) import InkCore

/// The page side of a front end, written once: an ``InkLoop`` with everything that faces
/// the page, so that a front end (InkUIKit, the GTK twin, an app's own) only hands over its
/// platform's input and performs three things for it (``Page``): evaluate JavaScript in the
/// page script's world, scroll the page's view, redraw an area of the overlay.
///
/// It is the loop's shell (``InkLoopShell``) and does, in one place, what every front end
/// over a page needs:
/// - **Ink on the page**: actions go into ``ink`` (``PageInk``, page coordinates) through the
///   transform the loop holds, and each change is redrawn where it shows now; a scroll, a zoom
///   or a resize redraws the overlay (the ink moves with the page). Ink belongs to its
///   document: a new document starts with clean paper, and going back to one of the last
///   ``inkDocumentsKept`` documents (the page restored, it says it is shown) brings its ink
///   back.
/// - **The page's deliveries**: replays are evaluated in the page; under hand-over routing each
///   ``PageTouch`` is injected (``Page/inject``), cancel included.
/// - **Sends**: each request is evaluated in the page; a page whose script is missing (the
///   evaluation says `false`) or a failed evaluation fails the send at once
///   (``EngineInput/sendFailed(_:)``): the touch gets the fallback now, not at its deadline.
/// - **Gestures and regions**: a two-finger gesture on the overlay scrolls the page's view
///   (``Page/scroll``); a request for regions asks the page script to push them.
/// - **The view**: ``viewMoved(_:)`` (scroll, zoom), ``viewResized(_:)`` and
///   ``navigated(_:)`` become the loop's inputs, and ``transform`` is where the view is now.
///
/// ```swift
/// let side = PageSide(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), transform: view,
///                     page: PageSide.Page(evaluate: run, scroll: scrollBy, redraw: setNeedsDisplay))
/// side.takesTouch(at: point, tool: nil)          // the overlay's hit test
/// side.touched(events, onOverlay: true)          // every touch, several per callback
/// side.pageSaid(body)                            // the script message handler
/// side.viewMoved(view)                           // the scroll view scrolled or zoomed
/// ```
///
/// Like the loop, it lives on the thread that made it (debug builds check).
public final class PageSide: InkLoopShell, TouchDownRegionsObserver {
    /// What the platform does for the page side: the only page-facing code a front end writes.
    public struct Page {
        /// Evaluates JavaScript in the page script's world (``PageScript``); calls `done` with
        /// `true` when the script evaluated to `true` (the page script was there and took it),
        /// `false` when it evaluated to anything else or failed. `done` may be called later,
        /// on the loop's thread.
        public var evaluate: (_ script: String, _ done: @escaping (Bool) -> Void) -> Void
        /// Scrolls the page's view by this much, canvas points (a two-finger gesture on the
        /// overlay, which the web view cannot see); the front end reports where the view
        /// lands through ``PageSide/viewMoved(_:)`` (a scroll view's delegate does).
        public var scroll: (_ dx: Double, _ dy: Double) -> Void
        /// Zooms the page's view by `scale` about `about`, canvas points (two fingers pinching
        /// on the overlay, which the web view cannot see), keeping the content under `about`
        /// where it is; the front end reports where the view lands through
        /// ``PageSide/viewMoved(_:)``. Called before the same gesture's ``scroll``.
        public var zoom: (_ scale: Double, _ about: CanvasPoint) -> Void
        /// Redraws this area of the overlay, canvas points (`nil`: all of it).
        public var redraw: (_ area: CanvasRect?) -> Void
        /// Under ``TouchRouting/handOverAfterDecision``: injects one of the page's touch
        /// events (down, move, up or cancel) into the page. Unused under touch-down routing.
        public var inject: (_ touch: PageTouch) -> Void
        /// Under ``TouchRouting/decideAtTouchDown``: the canvas areas that route to the page
        /// at touch-down changed (a front end that routes by an input shape, as the GTK
        /// twin does, cuts them out; one that asks ``PageSide/takesTouch(at:tool:)`` in its hit
        /// test, as UIKit's overlay does, needs nothing).
        public var regionsChanged: (_ regions: TouchDownRegions?) -> Void

        /// Creates what a platform does for the page side.
        public init(evaluate: @escaping (_ script: String, _ done: @escaping (Bool) -> Void) -> Void,
                    scroll: @escaping (_ dx: Double, _ dy: Double) -> Void = { _, _ in },
                    zoom: @escaping (_ scale: Double, _ about: CanvasPoint) -> Void = { _, _ in },
                    redraw: @escaping (_ area: CanvasRect?) -> Void = { _ in },
                    inject: @escaping (_ touch: PageTouch) -> Void = { _ in },
                    regionsChanged: @escaping (_ regions: TouchDownRegions?) -> Void = { _ in }) {
            self.evaluate = evaluate
            self.scroll = scroll
            self.zoom = zoom
            self.redraw = redraw
            self.inject = inject
            self.regionsChanged = regionsChanged
        }
    }

    /// The loop it is the shell of.
    public let loop: InkLoop
    /// The ink, held on the page.
    public private(set) var ink: PageInk
    /// Where the overlay lands on the page now: the last transform the loop took.
    public private(set) var transform: PageTransform
    /// Replays evaluated in the page (touch-down routing), and the events they carried.
    public private(set) var replaysSent = 0, replayedEvents = 0
    /// Replays the page script was not there to take (their samples never reached the page).
    public private(set) var replaysLost = 0
    /// Page touches injected (hand-over routing).
    public private(set) var pageTouchesInjected = 0
    /// Gesture scrolls asked of the page's view.
    public private(set) var gestureScrolls = 0
    /// Zooms of the page's view for two fingers pinching on the overlay.
    public private(set) var gestureZooms = 0
    /// Called with each input's events after the page side has carried them out (an app's
    /// own observer; `nil`, the default, observes nothing).
    public var onEvents: (([EngineEvent]) -> Void)?
    /// How many documents' ink is kept besides the current one's (the oldest is forgotten):
    /// Back and Forward over the last eight exercises find their ink again.
    public static let inkDocumentsKept = 8
    /// The document ``ink`` was drawn on (`nil` until the page names one).
    package private(set) var inkDocument: PageDocumentID?
    /// The ink of the documents left, oldest first.
    package private(set) var keptInk: [(document: PageDocumentID, ink: PageInk)] = []
    private let page: Page

    /// Creates the page side and its loop.
    /// - Parameters:
    ///   - configuration: How touches are decided and the page asked.
    ///   - transform: Where the overlay lands on the page now.
    ///   - style: The ink's style.
    ///   - clock: The loop's clock (`nil`: the run loop of this thread, on the touches'
    ///     timebase).
    ///   - recorder: Records the session (``SessionRecorder``), or `nil`.
    ///   - page: What the platform does for the page side.
    public init(configuration: InkEngineConfiguration = InkEngineConfiguration(), transform: PageTransform = .identity,
                style: StrokeStyle = StrokeStyle(), clock: (any InkLoopClock)? = nil, recorder: SessionRecorder? = nil,
                page: Page) {
        loop = InkLoop(configuration: configuration, transform: transform, clock: clock, recorder: recorder)
        ink = PageInk(style: style)
        self.transform = transform
        self.page = page
        loop.shell = self
    }

    // MARK: - In, from the platform

    /// The overlay's hit test: whether the overlay takes a touch beginning at `point`
    /// (`false`: the web view gets it natively, the page's region there is fresh).
    public func takesTouch(at point: CanvasPoint, tool: ToolKind?) -> Bool {
        loop.route(at: point, tool: tool) != .page
    }

    /// Touch events, in order, several per callback: those the overlay holds
    /// (`onOverlay`), or those the platform gave the web view natively.
    public func touched(_ events: some Sequence<TouchEvent>, onOverlay: Bool) {
        loop.submit(events.lazy.map { onOverlay ? EngineInput.touch($0) : .nativePageTouch($0) })
    }

    /// Estimated properties refined later (Apple Pencil's force), by the platform's ids.
    public func refined(_ updates: some Sequence<EstimatedPropertyUpdate>) {
        loop.submit(updates.lazy.map { EngineInput.update($0) })
    }

    /// A message the page script posted.
    public func pageSaid(_ body: String) { loop.submit(.pageMessage(body)) }

    /// The page's view scrolled or zoomed: it now lands at `view`.
    public func viewMoved(_ view: PageTransform) {
        guard view != transform else { return }
        loop.submit(.layout(view, generation: nil))
    }

    /// The view showing the page changed size: it lands at `view` (the regions of the old
    /// layout are dropped until the page pushes again).
    public func viewResized(_ view: PageTransform) { loop.submit(.viewResized(view)) }

    /// A navigation committed (the next exercise, Back, a reload): the new document lands at
    /// `view`.
    public func navigated(_ view: PageTransform) { loop.submit(.newDocument(view)) }

    /// A pointer hovers over the overlay (a pencil in range): the page is asked for fresh
    /// regions if it has none.
    public func hovered() { loop.pointerHovered() }

    /// Undo: removes the most recent finished stroke (`PageInk.undo()`) and redraws where it
    /// was; returns its touch, or `nil` when no stroke is finished. The ledger is unchanged.
    @discardableResult
    public func undo() -> TouchID? {
        guard let removed = ink.undo() else { return nil }
        if let bounds = removed.bounds { page.redraw(transform.canvasRect(for: bounds)) }
        return removed.touch
    }

    /// Clear: removes every finished stroke (`PageInk.clear()`) and redraws where they were.
    public func clear() {
        if let bounds = ink.clear() { page.redraw(transform.canvasRect(for: bounds)) }
    }

    /// The front end is going away: touches still down are cancelled (the page's too), the
    /// undecided settled, the recording ended.
    public func close() { loop.stop() }

    /// A page side released without ``close()`` closes here, and what the stop decides is
    /// carried out like any input's events: the cancelled and the settled touches reach
    /// ``ink`` and the redraw, a replay or a page touch's cancel reaches the page. (The loop's
    /// shell is weak, so it is already `nil` here: the stop goes through this page side.)
    /// Released on another thread than the one that made it, debug builds trap, as for any
    /// call into the loop.
    deinit {
        if !loop.isStopped { loop.stop(through: self) }
    }

    // MARK: - The loop's shell

    /// Carries out one input's events: ink, the page's deliveries, the moving view.
    public func carryOut(_ events: [EngineEvent]) {
        for event in events {
            switch event.kind {
            case let .action(action):
                if let changed = ink.apply(action, through: transform) { page.redraw(transform.canvasRect(for: changed)) }
            case let .replay(replay):
                replaysSent += 1
                replayedEvents += replay.eventCount
                page.evaluate(replay.scriptInvocation) { [weak self] took in
                    if !took { self?.replaysLost += 1 }
                }
            case let .pageTouch(touch):
                pageTouchesInjected += 1
                page.inject(touch)
            case let .newDocument(view):
                if view != transform { transform = view }
                documentChanged(to: loop.engine.pageDocument)
                page.redraw(nil)
            case let .layout(view, _), let .viewResized(view):
                if view != transform {
                    transform = view
                    page.redraw(nil)   // the ink moves with the page
                }
            case .took, .refused, .send, .pageMessage, .scrollPage, .zoomPage:
                // Counted by the loop; the loop sends, zooms and scrolls through this shell's
                // `send(_:)`, `zoomPage(scale:about:)` and `scrollPage(dx:dy:)`.
                break
            }
        }
        if inkDocument == nil, let shown = loop.engine.pageDocument {
            // The page a report announced spoke: the ink drawn since the report is its own,
            // unless it is a page left earlier, whose ink comes back.
            if let index = keptInk.firstIndex(where: { $0.document == shown }) {
                ink = keptInk.remove(at: index).ink
                page.redraw(nil)
            }
            inkDocument = shown
        }
        onEvents?(events)
    }

    /// The page's document changed (or a navigation was reported): the ink of the document
    /// left is kept, the paper of the document shown is its own (clean, or the ink it had).
    private func documentChanged(to shown: PageDocumentID?) {
        if let shown, shown == inkDocument { return }   // the report of the page shown
        if let left = inkDocument {
            keptInk.removeAll { $0.document == left }
        }
        if let left = inkDocument, !ink.finished.isEmpty {   // clean paper needs no keeping
            keptInk.append((left, ink))
            if keptInk.count > Self.inkDocumentsKept { keptInk.removeFirst(keptInk.count - Self.inkDocumentsKept) }
        }
        let style = ink.layer.style
        if let shown, let index = keptInk.firstIndex(where: { $0.document == shown }) {
            ink = keptInk.remove(at: index).ink
        } else {
            ink = PageInk(style: style)
        }
        inkDocument = shown
    }

    /// Evaluates the request in the page; a page script that is not there fails the send
    /// at once.
    public func send(_ request: HitTestRequest) {
        page.evaluate(request.scriptInvocation) { [weak self] took in
            guard let self, !took, !loop.isStopped else { return }
            loop.submit(.sendFailed(request))
        }
    }

    /// Scrolls the page's view for a gesture the overlay holds.
    public func scrollPage(dx: Double, dy: Double) {
        gestureScrolls += 1
        page.scroll(dx, dy)
    }

    /// Zooms the page's view for a pinch the overlay holds.
    public func zoomPage(scale: Double, about: CanvasPoint) {
        gestureZooms += 1
        page.zoom(scale, about)
    }

    /// Hands the areas that route to the page at touch-down to the front end.
    package func touchDownRegionsChanged(_ regions: TouchDownRegions?) { page.regionsChanged(regions) }

    /// Asks the page script to push a region snapshot now.
    public func askForRegions() {
        page.evaluate(PageScript.pushRegionsInvocation) { _ in }
    }
}

extension PageScript {
    /// JavaScript that asks the page script to push a region snapshot now, saying that its
    /// document is the one shown (`"shown":true`: the live page answers, so after a
    /// navigation was reported the engine learns which document the view shows); evaluates
    /// to `true` when the page script was there.
    public static let pushRegionsInvocation = "(window.scratchpadInk ? (window.scratchpadInk.pushRegions(true), true) : false)"

    /// JavaScript that stops the page script in the page shown (it posts nothing more: no
    /// snapshot, no heartbeat, no answer), for a front end whose last user on the page went
    /// away; evaluates to `true` when the page script was there.
    public static let stopInvocation = "(window.scratchpadInk && window.scratchpadInk.stop ? window.scratchpadInk.stop() === true : false)"
}
