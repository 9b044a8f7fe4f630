import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore

/// An exercise page in a WebKitWebView, with the package's page script installed the way
/// an iPad app installs it in a WKWebView:
///
/// - a script world of its own (`scratchpad-ink`, the twin of `WKContentWorld`): the
///   page's scripts share the DOM but cannot see `window.scratchpadInk`, replace it, or
///   poison the built-ins it uses;
/// - the page script as a user script at document start, top frame only, in that world
///   (`WKUserScript(source:injectionTime:forMainFrameOnly:in:)`);
/// - a script message handler named `scratchpadInk` registered in that world only
///   (`add(_:contentWorld:name:)`): `window.webkit.messageHandlers.scratchpadInk` exists
///   nowhere else, so nothing the page posts can reach it;
/// - questions asked by evaluating `HitTestRequest.scriptInvocation` in that world
///   (`evaluateJavaScript(_:in:in:)`); answers and region snapshots come back as messages
///   through the handler, as untrusted bytes for the bridge.
///
/// GTK is single-threaded: use a page only on the thread that initialised GTK (the main
/// thread of `scratchpad-gtk`, or ``GTKThread``). Messages are queued (at most
/// ``messageLimit``, the oldest dropped beyond) unless ``onMessage`` takes them as they arrive.
public final class WebKitGTKPage {
    /// A message the page script posted, as it arrived.
    public struct PostedMessage: Sendable {
        /// The message text, as UTF-8: untrusted, for the bridge to validate
        /// (`EngineInput.pageMessage(_:)`).
        public var bytes: [UInt8]
        /// Its place in the order the page's messages arrived (1 for the first this page
        /// object received; 0 for a message made by hand).
        public var sequence: UInt64

        /// A message from its bytes.
        public init(bytes: [UInt8], sequence: UInt64 = 0) {
            self.bytes = bytes
            self.sequence = sequence
        }
    }

    /// The script world the page script runs in.
    public static let worldName = "scratchpad-ink"
    /// The message handler's name: the page script posts to
    /// `window.webkit.messageHandlers.scratchpadInk`, the name it uses on iOS.
    public static let handlerName = "scratchpadInk"

    /// The web view, as a GTK widget (place it in a container; the page keeps a reference).
    public let widget: UnsafeMutablePointer<GtkWidget>
    private let manager: UnsafeMutablePointer<WebKitUserContentManager>
    /// The user content manager's handler and page script, shared with the pages made
    /// ``init(sharingUserContentWith:)`` this one.
    let content: SharedUserContent
    private var queued: [PostedMessage] = []
    private var loadFinished = false
    /// Evaluations sent and not completed.
    public private(set) var pendingEvaluations = 0
    private var loadFailure: String?

    /// When set, every message goes here as it arrives instead of into the queue.
    public var onMessage: ((PostedMessage) -> Void)?
    /// Called on the GTK thread when the page's document is replaced: a navigation committed
    /// (`load-changed` with `WEBKIT_LOAD_COMMITTED`, before the new document's scripts run) or
    /// the web content process terminated (`web-process-terminated`). A front end tells its
    /// engine (`EngineInput.newDocument`), so nothing the old document said is taken for the
    /// new one's.
    public var onNewDocument: (() -> Void)?
    /// Whether the page reloads when its web content process terminated (default `true`: a
    /// crashed or killed page comes back, as WebKit on iOS reloads one, rather than leaving
    /// the dead page's last frame). The reload is a new document.
    public var reloadsAfterTermination = true
    /// How many times the web content process terminated.
    public private(set) var processTerminations = 0
    /// Whether the last load (or the reload after a terminated process) finished.
    public var isLoaded: Bool { loadFinished }
    /// The most messages held for ``takePostedMessages()`` (at least 1); the oldest are
    /// dropped beyond it.
    public var messageLimit = 1_000 {
        didSet {
            messageLimit = max(1, messageLimit)
            trim()
        }
    }
    /// Seconds every message from the page is held before it is delivered: a slower page,
    /// for measuring what a user sees at a given page latency. Default 0.
    public var messageDelay: Double = 0 {
        didSet { messageDelay = messageDelay.isFinite ? min(max(0, messageDelay), 600) : 0 }
    }
    /// Messages dropped because the queue was full.
    public private(set) var droppedMessages = 0
    /// Messages that arrived through the handler.
    public private(set) var receivedMessages = 0

    var view: UnsafeMutablePointer<WebKitWebView> { cast(widget) }

    /// Creates a web view with the page script installed. Call on the GTK thread.
    /// - Parameter other: A page whose user content manager the new web view shares (the
    ///   twin of two `WKWebView`s made from one `WKWebViewConfiguration`, whose
    ///   `WKUserContentController` is shared by reference). The page script and the message
    ///   handler are installed once per manager; each message goes to the page whose
    ///   document it names (``SharedUserContent``). `nil` (the default): a manager of its own.
    /// - Throws: ``WebKitGTKError/noDisplay`` without a display;
    ///   ``WebKitGTKError/pageScriptMissing(_:)`` when the script cannot be read.
    public init(sharingUserContentWith other: WebKitGTKPage? = nil) throws(WebKitGTKError) {
        try GTK.initialize()
        let content: SharedUserContent
        if let other {
            content = other.content
        } else {
            let source: String
            do { source = try PageScript.source } catch { throw .pageScriptMissing("\(error)") }
            content = SharedUserContent(pageScript: source, world: Self.worldName, handler: Self.handlerName)
        }
        self.content = content
        manager = content.manager
        widget = scratchpad_web_view_new(manager)
        g_object_ref_sink(widget)
        let me = Unmanaged.passUnretained(self).toOpaque()
        content.attach(self)
        _ = (scratchpad_connect(widget, "load-changed", unsafeBitCast(
            { (_: UnsafeMutableRawPointer?, event: WebKitLoadEvent, context: UnsafeMutableRawPointer?) in
                guard let context else { return }
                let page = Unmanaged<WebKitGTKPage>.fromOpaque(context).takeUnretainedValue()
                // Committed: the new document replaced the old one (its scripts have not run yet).
                if event == WEBKIT_LOAD_COMMITTED { page.onNewDocument?() }
                if event == WEBKIT_LOAD_FINISHED { page.loadFinished = true }
            } as @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafeMutableRawPointer?) -> Void,
            to: GCallback.self), me))
        // The web content process terminated: its document is gone; the page reloads (a new
        // document), as WebKit on iOS reloads a page whose process the system killed.
        _ = (scratchpad_connect(widget, "web-process-terminated", unsafeBitCast(
            { (_: UnsafeMutableRawPointer?, _: WebKitWebProcessTerminationReason, context: UnsafeMutableRawPointer?) in
                guard let context else { return }
                Unmanaged<WebKitGTKPage>.fromOpaque(context).takeUnretainedValue().processTerminated()
            } as @convention(c) (UnsafeMutableRawPointer?, WebKitWebProcessTerminationReason, UnsafeMutableRawPointer?) -> Void,
            to: GCallback.self), me))
        _ = (scratchpad_connect(widget, "load-failed", unsafeBitCast(
            { (_: UnsafeMutableRawPointer?, _: WebKitLoadEvent, uri: UnsafePointer<CChar>?, error: UnsafeMutablePointer<GError>?,
               context: UnsafeMutableRawPointer?) -> gboolean in
                guard let context else { return 0 }
                let page = Unmanaged<WebKitGTKPage>.fromOpaque(context).takeUnretainedValue()
                page.loadFailure = "\(uri.map { String(cString: $0) } ?? "?"): \(error.map { String(cString: $0.pointee.message) } ?? "error")"
                return 0
            } as @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?,
                                 UnsafeMutableRawPointer?) -> gboolean,
            to: GCallback.self), me))
    }

    deinit {
        // By data: a destroyed widget has already dropped its handlers. Evaluations still
        // in flight hold references of their own on the view (see `evaluate`).
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_signal_handlers_disconnect_matched(widget, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, me)
        content.detach(self)   // the last page on the manager unregisters the handler
        g_object_unref(widget)
    }

    /// Opens a top-level window of `width` × `height` holding only this page (the oracle
    /// without a front end, as the tests use it). Returns the window.
    @discardableResult
    public func showInWindow(width: Int = 1024, height: Int = 768) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_default_size(cast(window), gint(width), gint(height))
        gtk_window_set_resizable(cast(window), 0)
        gtk_widget_set_size_request(widget, gint(width), gint(height))
        gtk_container_add(cast(window), widget)
        gtk_widget_show_all(window)
        return window
    }

    /// The web content process terminated: the document is gone (the front end hears it
    /// through ``onNewDocument``), and the page reloads unless ``reloadsAfterTermination`` is off.
    private func processTerminated() {
        processTerminations += 1
        loadFinished = false
        onNewDocument?()
        if reloadsAfterTermination { webkit_web_view_reload(view) }
    }

    /// Ends the web content process, as the system does to a page in the background (the
    /// page then reloads, ``reloadsAfterTermination``).
    public func terminateWebProcess() { webkit_web_view_terminate_web_process(view) }

    /// Loads `url` and waits until it has loaded (the page script is installed at document
    /// start, so it is there by then).
    public func load(_ url: URL, timeout: Double = 15) throws(WebKitGTKError) {
        loadFinished = false
        loadFailure = nil
        webkit_web_view_load_uri(view, url.absoluteString)
        guard GTK.spin(timeout: timeout, until: { loadFinished || loadFailure != nil }) else {
            throw .timeout(what: "loading \(url.lastPathComponent)", seconds: timeout)
        }
        if let loadFailure { throw .loadFailed(loadFailure) }
    }

    /// A message the page script posted in this page's web view (``SharedUserContent`` has
    /// told which).
    func received(_ bytes: [UInt8]) {
        receivedMessages += 1
        let message = PostedMessage(bytes: bytes, sequence: UInt64(receivedMessages))
        if messageDelay > 0 {
            hold(message)
            return
        }
        deliver(message)
    }

    private func deliver(_ message: PostedMessage) {
        if let onMessage {
            onMessage(message)
            return
        }
        queued.append(message)
        trim()
    }

    /// Holds a message for ``messageDelay`` seconds, then delivers it: a slower page.
    private func hold(_ message: PostedMessage) {
        final class Held {
            weak var page: WebKitGTKPage?
            let message: PostedMessage
            init(_ page: WebKitGTKPage, _ message: PostedMessage) {
                self.page = page
                self.message = message
            }
        }
        let held = Unmanaged.passRetained(Held(self, message)).toOpaque()
        g_timeout_add(guint(min((messageDelay * 1000).rounded(), 600_000)), { context in
            let held = Unmanaged<Held>.fromOpaque(context!).takeRetainedValue()
            held.page?.deliver(held.message)
            return 0
        }, held)
    }

    private func trim() {
        guard queued.count > messageLimit else { return }
        let excess = queued.count - messageLimit
        queued.removeFirst(excess)
        droppedMessages += excess
    }

    /// Evaluates `script` in the page script's world (or the page's own) and calls
    /// `completion` with its value as JSON text (`nil` for `undefined`), or the error.
    public func evaluate(_ script: String, inPageWorld: Bool = false,
                         completion: @escaping (Result<String?, WebKitGTKError>) -> Void) {
        final class Box {
            let completion: (Result<String?, WebKitGTKError>) -> Void
            init(_ completion: @escaping (Result<String?, WebKitGTKError>) -> Void) { self.completion = completion }
        }
        pendingEvaluations += 1
        let box = Unmanaged.passRetained(Box { [weak self] result in
            self?.pendingEvaluations -= 1
            completion(result)
        }).toOpaque()
        // The evaluation holds the view until its completion has run, and lets go of it from
        // the main loop afterwards: a web view freed inside WebKit's own completion (the
        // page gone meanwhile) makes WebKit abort.
        g_object_ref(widget)
        webkit_web_view_evaluate_javascript(view, script, -1, inPageWorld ? nil : Self.worldName, nil, nil, { object, result, context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            defer { g_idle_add_full(G_PRIORITY_DEFAULT, { view in g_object_unref(view); return 0 }, UnsafeMutableRawPointer(object), nil) }
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_evaluate_javascript_finish(cast(UnsafeMutableRawPointer(object!)), result, &error)
            if let error {
                let message = String(cString: error.pointee.message)
                g_error_free(error)
                box.completion(.failure(.scriptFailed(message)))
                return
            }
            guard let value else { return box.completion(.success(nil)) }
            defer { g_object_unref(value) }
            if jsc_value_is_undefined(value) != 0 { return box.completion(.success(nil)) }
            guard let json = jsc_value_to_json(value, 0) else { return box.completion(.success(nil)) }
            defer { g_free(json) }
            box.completion(.success(String(cString: json)))
        }, box)
    }

    /// Evaluates `script` and waits for its value (JSON text; `nil` for `undefined`).
    @discardableResult
    public func evaluate(_ script: String, inPageWorld: Bool = false, timeout: Double = 5) throws(WebKitGTKError) -> String? {
        var result: Result<String?, WebKitGTKError>?
        evaluate(script, inPageWorld: inPageWorld) { result = $0 }
        guard GTK.spin(timeout: timeout, until: { result != nil }), let result else {
            throw .timeout(what: "evaluateJavaScript", seconds: timeout)
        }
        return try result.get()
    }

    /// Sends `request` to the page script; `completion` is told whether the script took it
    /// (its answer comes later, as a message), or why it could not be asked.
    public func send(_ request: HitTestRequest, completion: @escaping (Result<Void, WebKitGTKError>) -> Void) {
        evaluate(request.scriptInvocation) { result in
            switch result {
            case .success("true"): completion(.success(()))
            case let .success(other): completion(.failure(.scriptFailed("the page script is not there (the invocation returned \(other ?? "undefined"))")))
            case let .failure(error): completion(.failure(error))
            }
        }
    }

    /// Takes the first queued message that `matches` out of the queue; `nil` when none does.
    public func takeMessage(where matches: (PostedMessage) -> Bool) -> PostedMessage? {
        guard let index = queued.firstIndex(where: matches) else { return nil }
        return queued.remove(at: index)
    }

    /// Every queued message, in order (heartbeat snapshots, and anything else the page made
    /// the script post); the queue is emptied.
    public func takePostedMessages() -> [PostedMessage] {
        defer { queued.removeAll() }
        return queued
    }

    /// Messages held, not taken yet.
    public var heldMessages: Int { queued.count }

    /// A `data-*` value of the page's `<body>` (how the fixture pages expose their state),
    /// read in the page's own world.
    public func bodyData(_ name: String) throws(WebKitGTKError) -> String? {
        let key = String(decoding: (try? JSONSerialization.data(withJSONObject: name, options: .fragmentsAllowed)) ?? Data("\"\"".utf8), as: UTF8.self)
        guard let json = try evaluate("document.body.dataset[\(key)] ?? null", inPageWorld: true), json != "null" else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) as? String
    }

    /// WebKitGTK's page zoom (`zoom-level`: CSS pixels are drawn this many points wide; 1 by
    /// default), read and set on the web view. A user changes it too (Ctrl and the wheel, where
    /// the front end allows it).
    public var zoomLevel: Double {
        get { webkit_web_view_get_zoom_level(cast(widget)) }
        set { webkit_web_view_set_zoom_level(cast(widget), newValue) }
    }

    /// Where the view lands on the page: page = view / (zoom × ``zoomLevel``) + the visual
    /// viewport's page offset, where zoom is the visual viewport's scale (a pinch) and
    /// ``zoomLevel`` WebKitGTK's page zoom, which the page cannot see as a scale (it shows as
    /// fewer, larger CSS pixels). The viewport is read in the script's world (the page cannot
    /// fake it); the zoom level from the web view when the answer arrives.
    public func canvasToPage() throws(WebKitGTKError) -> PageTransform {
        try Self.transform(fromJSON: try evaluate(PageTransform.viewportScript), zoomLevel: zoomLevel)
    }

    /// ``canvasToPage()`` without waiting: `completion` gets the transform later.
    public func canvasToPage(completion: @escaping (Result<PageTransform, WebKitGTKError>) -> Void) {
        evaluate(PageTransform.viewportScript) { [weak self] result in
            let level = self?.zoomLevel ?? 1
            completion(result.flatMap { json in
                Result { () throws(WebKitGTKError) in try Self.transform(fromJSON: json, zoomLevel: level) }
            })
        }
    }

    static func transform(fromJSON json: String?, zoomLevel: Double = 1) throws(WebKitGTKError) -> PageTransform {
        guard let json, var transform = PageTransform(viewportResult: json) else {
            throw .scriptFailed("visual viewport: \(json ?? "undefined")")
        }
        if zoomLevel.isFinite, zoomLevel > 0 { transform.scale /= zoomLevel }
        guard transform.isValid else { throw .scriptFailed("visual viewport: \(json) at zoom level \(zoomLevel)") }
        return transform
    }

    /// The phase of a touch delivered to the page.
    public enum TouchPhase: Sendable {
        /// A finger comes down (`touchstart`).
        case start
        /// It moves (`touchmove`).
        case move
        /// It lifts (`touchend`).
        case end
        /// The system takes it away. WebKitGTK 2.50 gives the page a `touchend`, not a
        /// `touchcancel`, for a GDK touch cancel (seen by `PageConformance` on this twin), so
        /// ``WebKitGTKPage/dispatchTouch(_:sequence:x:y:time:)`` moves the touch far outside
        /// the view first: it ends there, and nothing it was pressed on is tapped or clicked.
        case cancel
    }

    /// Delivers a synthesized GDK touch event to the web view at view coordinates (CSS
    /// pixels when unzoomed). WebKit turns it into a DOM touch event, so the page's own
    /// handlers run. `sequence` tells touches apart (not 0); a touch must start before it
    /// moves (WebKitGTK 2.50 crashed on a move for a sequence it never saw start).
    /// `time` is the event's timestamp, milliseconds on the monotonic clock (default: now).
    @discardableResult
    public func dispatchTouch(_ phase: TouchPhase, sequence: UInt64, x: Double, y: Double, time: UInt32? = nil) -> Bool {
        let type: GdkEventType = switch phase {
        case .start: GDK_TOUCH_BEGIN
        case .move: GDK_TOUCH_UPDATE
        case .end: GDK_TOUCH_END
        case .cancel: GDK_TOUCH_CANCEL
        }
        let time = time ?? GTK.eventTime
        guard phase == .cancel else { return scratchpad_send_touch(widget, type, x, y, sequence, time) != 0 }
        // No cancel reaches the page (it becomes a touchend): end the touch far outside the view.
        let outside = -10_000.0
        let moved = scratchpad_send_touch(widget, GDK_TOUCH_UPDATE, outside, outside, sequence, time) != 0
        return scratchpad_send_touch(widget, type, outside, outside, sequence, time) != 0 && moved
    }

    /// Delivers a synthesized primary-button event (press, drag, release) to the web view:
    /// mouse events, pointer events and clicks in the page. GDK has no pointer cancel: a
    /// cancel releases the button far outside the view, so no click lands on what was pressed.
    @discardableResult
    public func dispatchPointer(_ phase: TouchPhase, x: Double, y: Double, time: UInt32? = nil) -> Bool {
        let type: GdkEventType = switch phase {
        case .start: GDK_BUTTON_PRESS
        case .move: GDK_MOTION_NOTIFY
        case .end, .cancel: GDK_BUTTON_RELEASE
        }
        let outside = phase == .cancel
        return scratchpad_send_pointer(widget, type, outside ? -10_000 : x, outside ? -10_000 : y, time ?? GTK.eventTime) != 0
    }

    /// A sample's timestamp (seconds on the monotonic clock) as a GDK event time.
    public static func eventTime(for timestamp: Double) -> UInt32 {
        guard timestamp.isFinite else { return GTK.eventTime }
        return UInt32(truncatingIfNeeded: Int64(min(max(timestamp * 1000, -9e18), 9e18).rounded(.down)))
    }
}
