import InkCore

/// Samples of a touch the page claimed after the overlay took it, for the page script to
/// replay into the page as synthesized DOM events: the one delivery route for late page
/// verdicts where the platform cannot hand a touch over once it began (a WKWebView; the
/// WebKitGTK twin). ``InkEngine`` emits one per touch per input
/// (``EngineEvent/Kind-swift.enum/replay(_:)``) under ``TouchRouting/decideAtTouchDown``;
/// a front end evaluates ``scriptInvocation`` in the page script's world, in order.
///
/// The page script dispatches pointer events (and touch or compatibility mouse events
/// where it can construct them) at the samples' page positions, in order, each carrying
/// the sample's original time in `scratchpadInkTime`. They are untrusted (`isTrusted` is
/// false): the page's handlers run; default actions (focus, keyboard, native scrolling)
/// do not. It paces them: the first sample of a replay that finds nothing waiting goes at
/// once, the rest follow their original gaps at least twice as fast, every sample within
/// 100 ms of being handed over, so the page's handlers see motion, not one burst (the
/// engine counts them as replayed when it hands them over). A page whose drag code calls
/// `setPointerCapture` includes ``PageScript/pointerCaptureShim``.
///
/// A front end needs nothing of it but ``scriptInvocation`` (and ``eventCount``, to count).
/// Its events are the engine's own (`package`), not API: a fake page or a test reads them from
/// the invocation's JSON argument, exactly as the page script does.
public struct PageReplay: Sendable, Hashable {
    /// What one replayed event does.
    package enum Phase: String, Sendable, Hashable, CaseIterable {
        /// The touch's first sample: `pointerdown`.
        case down
        /// A later sample: `pointermove`.
        case move
        /// The touch lifted at its last sample: `pointerup`.
        case up
        /// The system cancelled the touch: `pointercancel`.
        case cancel
    }

    /// The kind of pointer the page sees (`PointerEvent.pointerType`).
    package enum PointerType: String, Sendable, Hashable, CaseIterable {
        /// A finger.
        case touch
        /// A stylus.
        case pen
        /// A mouse.
        case mouse

        /// The pointer type of a tool.
        package init(_ tool: ToolKind) {
            self = tool == .finger ? .touch : .pen
        }
    }

    /// One event to replay.
    package struct Event: Sendable, Hashable {
        /// What it does.
        package var phase: Phase
        /// Where, in page coordinates (CSS pixels of the document, scroll included).
        package var pagePoint: CanvasPoint
        /// The sample's original timestamp, seconds on the samples' clock.
        package var time: Double
        /// The sample's force, 0...1, when it had one.
        package var pressure: Double?

        /// Creates an event.
        package init(phase: Phase, pagePoint: CanvasPoint, time: Double, pressure: Double? = nil) {
            self.phase = phase
            self.pagePoint = pagePoint
            self.time = time
            self.pressure = pressure
        }
    }

    /// The touch, by the engine's identifier (unique over the session; the page tells
    /// touches apart by it).
    public var touch: TouchID
    /// How the page sees the pointer.
    package var pointerType: PointerType
    /// The events, in order (the engine's own; an app hands ``scriptInvocation`` on).
    package var events: [Event]

    /// How many events the replay carries (down, moves, up or cancel).
    public var eventCount: Int { events.count }

    /// Creates a replay.
    package init(touch: TouchID, pointerType: PointerType, events: [Event] = []) {
        self.touch = touch
        self.pointerType = pointerType
        self.events = events
    }

    /// The replay as a JSON object:
    /// `{"type":"replay","touch":N,"pointerType":"touch"|"pen"|"mouse","events":[{"phase":"down","x":…,"y":…,"t":…,"pressure":…}…]}`.
    /// A non-finite number (which the engine never emits) is written 0.
    public var json: String {
        var out = #"{"type":"replay","touch":"#
        out += String(touch.rawValue)
        out += #","pointerType":""#
        out += pointerType.rawValue
        out += #"","events":["#
        for (i, event) in events.enumerated() {
            if i > 0 { out += "," }
            var fields: [(String, JSONValue)] = [
                ("phase", .string(event.phase.rawValue)), ("x", .number(Self.finite(event.pagePoint.x))),
                ("y", .number(Self.finite(event.pagePoint.y))), ("t", .number(Self.finite(event.time))),
            ]
            if let pressure = event.pressure, pressure.isFinite { fields.append(("pressure", .number(pressure))) }
            out += JSONValue.object(JSONObject(fields)).serialized()
        }
        out += "]}"
        return out
    }

    /// JavaScript that hands the replay to the page script; like
    /// ``HitTestRequest/scriptInvocation`` it is built only from the engine's own numbers
    /// and evaluates to `true` when the page script was there to take it, `false` when not.
    public var scriptInvocation: String {
        "(window.scratchpadInk && window.scratchpadInk.replay ? (window.scratchpadInk.replay(\(json)), true) : false);"
    }

    private static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
}
