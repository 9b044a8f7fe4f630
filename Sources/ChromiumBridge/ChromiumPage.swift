#if canImport(Glibc)
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

/// An exercise page open in a headless Chromium, with the package's page script injected
/// into an isolated world: the page's own scripts share its DOM but cannot see or replace
/// the script, nor reach the channel its messages travel on (a `scratchpadInkHost`
/// function in that world that queues them, at most 1,000, for the host to collect).
/// Hit tests are real `elementFromPoint` calls; released touches are real touch events
/// (`Input.dispatchTouchEvent`), so the page's own handlers run.
///
/// Synchronous and single-owner; Linux only (it spawns the browser).
public final class ChromiumPage {
    /// A message the page script posted, as it arrived (untrusted bytes for the bridge).
    public struct PostedMessage: Sendable {
        /// The message text, as UTF-8.
        public var bytes: [UInt8]
        /// The message decoded, or why it was refused.
        @_spi(Tooling) public var decoded: Result<PageMessage, WireMessageError>
    }

    private let connection: DevToolsConnection
    private let session: String
    private var world: Int = 0
    /// The viewport, CSS pixels.
    public let width: Int, height: Int
    private var activeTouches: [(id: Int, x: Double, y: Double)] = []
    /// Messages the page script posted that no call has taken yet (snapshots, mostly).
    private var posted: [PostedMessage] = []

    static let worldName = "scratchpad-ink"

    /// How long each step of opening the page may wait for the browser, seconds: the first
    /// replies include the browser's own start, which a busy machine (tests starting several
    /// browsers at once, a thread-sanitized host) has held past the 15 s a command otherwise
    /// gets (`Target.createTarget: no reply within 15.0 s`, seen in a CI run under the thread
    /// sanitizer). A browser that never answers still fails, with the step it stopped at.
    static let openingTimeout: Double = 60

    /// Opens `url` in a new headless Chromium with a `width` × `height` viewport and
    /// injects the page script. The process then ignores SIGPIPE (a browser that dies must
    /// not kill the host); the browser and its profile go when the page is closed or freed.
    /// - Parameters:
    ///   - url: The page (a `file:` URL for the fixture pages).
    ///   - width: The viewport's width, CSS pixels (the canvas covers it, one point each).
    ///   - height: The viewport's height, CSS pixels.
    ///   - executable: The browser; by default `$CHROMIUM` or the first of chromium,
    ///     chromium-browser, google-chrome on the PATH.
    public init(url: URL, width: Int = 1024, height: Int = 768, executable: String? = nil) throws(DevToolsError) {
        connection = try DevToolsConnection(executable: executable)
        self.width = width
        self.height = height
        let target = try connection.call("Target.createTarget", JSONObject([("url", .string("about:blank"))]),
                                         timeout: Self.openingTimeout)
        guard case let .string(targetID)? = target["targetId"] else { throw .malformedMessage("createTarget: no targetId") }
        let attached = try connection.call("Target.attachToTarget",
                                           JSONObject([("targetId", .string(targetID)), ("flatten", .bool(true))]),
                                           timeout: Self.openingTimeout)
        guard case let .string(session)? = attached["sessionId"] else { throw .malformedMessage("attachToTarget: no sessionId") }
        self.session = session
        try connection.call("Page.enable", session: session, timeout: Self.openingTimeout)
        // The Runtime domain is not enabled: messages are collected by evaluation, so the
        // browser sends no console events for a page to flood the pipe with.
        try connection.call("Emulation.setDeviceMetricsOverride", JSONObject([
            ("width", .number(Double(width))), ("height", .number(Double(height))), ("deviceScaleFactor", .number(1)),
            ("mobile", .bool(false)),
        ]), session: session)
        try connection.call("Emulation.setTouchEmulationEnabled",
                            JSONObject([("enabled", .bool(true)), ("maxTouchPoints", .number(5))]), session: session)
        try connection.call("Page.navigate", JSONObject([("url", .string(url.absoluteString))]), session: session,
                            timeout: Self.openingTimeout)
        guard try connection.nextEvent(timeout: Self.openingTimeout,
                                       where: { $0.method == "Page.loadEventFired" && $0.sessionId == session }) != nil
        else { throw .timeout(method: "Page.loadEventFired", seconds: Self.openingTimeout) }
        let tree = try connection.call("Page.getFrameTree", session: session)
        guard case let .object(frameTree)? = tree["frameTree"], case let .object(frame)? = frameTree["frame"],
              case let .string(frameID)? = frame["id"] else { throw .malformedMessage("getFrameTree: no frame id") }
        let created = try connection.call("Page.createIsolatedWorld", JSONObject([
            ("frameId", .string(frameID)), ("worldName", .string(Self.worldName)), ("grantUniveralAccess", .bool(false)),
        ]), session: session)
        guard case let .number(number)? = created["executionContextId"], let context = Int(exactly: number) else {
            throw .malformedMessage("no executionContextId (a whole number)")
        }
        world = context
        let source: String
        do { source = try PageScript.source } catch { throw .scriptFailed("could not load the page script: \(error)") }
        try evaluate(Self.channel)
        _ = try evaluate(source, inPageWorld: false)
    }

    /// The channel, installed in the isolated world before the page script: the script
    /// posts to `scratchpadInkHost`, which queues (at most 1,000; the newest are dropped
    /// beyond); the host takes the queue with `scratchpadInkTake()`.
    static let channel = """
        (function () {
          var queue = [];
          window.scratchpadInkHost = function (message) { if (queue.length < 1000) { queue.push(String(message)); } };
          window.scratchpadInkTake = function () { var taken = queue; queue = []; return taken; };
        })();
        """

    deinit { connection.shutDown() }

    /// Closes the browser.
    public func close() { connection.shutDown() }

    /// Evaluates JavaScript in the script's isolated world (default) or in the page's own
    /// world, and returns its value (JSON-serialisable values only); with `awaitPromise`, the
    /// value a promise it evaluates to settles with.
    @discardableResult
    package func evaluate(_ expression: String, inPageWorld: Bool = false, awaitPromise: Bool = false) throws(DevToolsError) -> JSONValue {
        var params = JSONObject([("expression", .string(expression)), ("returnByValue", .bool(true))])
        if awaitPromise { params.append("awaitPromise", .bool(true)) }
        if !inPageWorld { params.append("contextId", .number(Double(world))) }
        let result = try connection.call("Runtime.evaluate", params, session: session)
        if case let .object(details)? = result["exceptionDetails"] {
            var text = JSONValue.object(details).serialized()
            if case let .object(exception)? = details["exception"], case let .string(description)? = exception["description"] {
                text = description
            }
            throw .scriptFailed(text)
        }
        guard case let .object(remote)? = result["result"] else { return .null }
        return remote["value"] ?? .null
    }

    /// Asks the page script the question and waits for its answer; returns the answer
    /// (as posted) and the round trip's wall-clock duration in seconds.
    public func hitTest(_ request: HitTestRequest, timeout: Double = 5) throws(DevToolsError) -> (message: PostedMessage, seconds: Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        try collect(try evaluate(request.scriptInvocation + " window.scratchpadInkTake()"))
        let token = request.token.description
        let answer = try nextPosted(timeout: timeout) { message in
            if case let .success(.answer(answer)) = message.decoded { return answer.token.description == token }
            return false
        }
        guard let answer else { throw .timeout(method: "hitTest", seconds: timeout) }
        return (answer, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Asks the page script to post a region snapshot now and returns it.
    public func pushRegions(timeout: Double = 5) throws(DevToolsError) -> PostedMessage {
        try collect(try evaluate("window.scratchpadInk.pushRegions(); window.scratchpadInkTake()"))
        let snapshot = try nextPosted(timeout: timeout) { message in
            if case .success(.regions) = message.decoded { return true }
            return false
        }
        guard let snapshot else { throw .timeout(method: "pushRegions", seconds: timeout) }
        return snapshot
    }

    /// Messages and events held unread (bounded, whatever the page does).
    public var heldMessages: Int { posted.count + connection.events.count }

    /// Every message the page script posted that no call took, in order (heartbeat
    /// snapshots, and anything else the page made the script post).
    public func takePostedMessages() throws(DevToolsError) -> [PostedMessage] {
        try collect(try evaluate("window.scratchpadInkTake()"))
        defer { posted.removeAll() }
        return posted
    }

    private func nextPosted(timeout: Double, where matches: (PostedMessage) -> Bool) throws(DevToolsError) -> PostedMessage? {
        // The script posts synchronously; a message posted later (throttled) is collected
        // by asking again until the time limit.
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = posted.firstIndex(where: matches) { return posted.remove(at: index) }
            guard deadline.timeIntervalSinceNow > 0 else { return nil }
            usleep(2_000)
            try collect(try evaluate("window.scratchpadInkTake()"))
        }
    }

    /// Keeps the messages a `scratchpadInkTake()` returned.
    private func collect(_ taken: JSONValue) throws(DevToolsError) {
        guard case let .array(items) = taken else { throw .scriptFailed("the channel returned \(taken.typeName)") }
        for item in items {
            guard case let .string(text) = item else { continue }
            let bytes = Array(text.utf8)
            posted.append(PostedMessage(bytes: bytes, decoded: Result { () throws(WireMessageError) in try PageMessage.decode(bytes) }))
        }
        if posted.count > 1_000 { posted.removeFirst(posted.count - 1_000) }
    }

    /// The phase of a touch delivered to the page.
    public enum TouchPhase: String, Sendable {
        /// A finger comes down (`touchstart`).
        case start = "touchStart"
        /// It moves (`touchmove`).
        case move = "touchMove"
        /// It lifts (`touchend`).
        case end = "touchEnd"
        /// The system takes it away (`touchcancel`).
        case cancel = "touchCancel"
    }

    /// Delivers one touch point's event to the page as a real touch event at viewport
    /// coordinates (CSS pixels); other touches still down stay in the event. The browser
    /// stamps the event as it arrives: pace the calls as the user moved.
    public func dispatchTouch(_ phase: TouchPhase, id: Int, x: Double, y: Double) throws(DevToolsError) {
        switch phase {
        case .start:
            activeTouches.append((id, x, y))
        case .move:
            if let i = activeTouches.firstIndex(where: { $0.id == id }) { activeTouches[i] = (id, x, y) }
        case .end, .cancel:
            activeTouches.removeAll { $0.id == id }
        }
        // The protocol sends the set of points down; ending one of several is a move without it.
        let type: TouchPhase = (phase == .end || phase == .cancel) && !activeTouches.isEmpty ? .move : phase
        let points: [JSONValue] = type == .end || type == .cancel ? [] : activeTouches.map { touch in
            .object(JSONObject([("x", .number(touch.x)), ("y", .number(touch.y)), ("id", .number(Double(touch.id)))]))
        }
        try connection.call("Input.dispatchTouchEvent", JSONObject([("type", .string(type.rawValue)), ("touchPoints", .array(points))]),
                            session: session)
    }

    /// The browser these pages open in: `$CHROMIUM`, else the first of chromium,
    /// chromium-browser, google-chrome on the PATH; `nil` when there is none.
    public static var browserPath: String? { DevToolsConnection.findBrowser() }

    /// A `data-*` value of the page's `<body>` (how the fixture pages expose their state),
    /// read in the page's own world.
    public func bodyData(_ name: String) throws(DevToolsError) -> String? {
        let value = try evaluate("document.body.dataset[\(JSONValue.string(name).serialized())] ?? null", inPageWorld: true)
        if case let .string(text) = value { return text }
        return nil
    }

    /// How far the page is scrolled (CSS pixels): the offset from viewport to document
    /// coordinates, read in the script's world (the page cannot fake it there).
    public func scrollOffset() throws(DevToolsError) -> (x: Double, y: Double) {
        let value = try evaluate("[window.scrollX, window.scrollY]")
        guard case let .array(items) = value, items.count == 2, case let .number(x) = items[0], case let .number(y) = items[1]
        else { throw .scriptFailed("scroll offset: \(value.serialized())") }
        return (x, y)
    }

    /// Where the canvas, which covers the visual viewport one point per device-independent
    /// pixel, lands on the page: page = canvas / zoom + the visual viewport's page offset.
    /// Follows scrolling and pinch zoom.
    public func canvasToPage() throws(DevToolsError) -> PageTransform {
        let value = try evaluate(PageTransform.viewportScript)
        guard let transform = PageTransform(viewportResult: value.serialized()) else {
            throw .scriptFailed("visual viewport: \(value.serialized())")
        }
        return transform
    }

    /// Pinch-zooms the page (as a user's two fingers would; 1 is unzoomed).
    public func pinchZoom(_ factor: Double) throws(DevToolsError) {
        try connection.call("Emulation.setPageScaleFactor", JSONObject([("pageScaleFactor", .number(factor))]), session: session)
    }

    /// A PNG screenshot of the viewport.
    public func screenshot() throws(DevToolsError) -> Data {
        let result = try connection.call("Page.captureScreenshot", JSONObject([("format", .string("png"))]), session: session)
        guard case let .string(base64)? = result["data"], let data = Data(base64Encoded: base64) else {
            throw .malformedMessage("captureScreenshot: no data")
        }
        return data
    }
}
#endif
