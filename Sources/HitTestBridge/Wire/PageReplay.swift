@_spi(Tooling) import InkCore

/// Samples of a touch the page claimed after the overlay took it, for the page script to
/// replay into the page as synthesized DOM events: the one delivery route for late page
/// verdicts where the platform cannot hand a touch over once it began (a WKWebView; the
/// WebKitGTK twin). `InkEngine` emits one per touch per input
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
/// A fake page, a test or a tool reads the same replay as data: ``tool`` and ``events``,
/// the page touches (``PageTouch``) the engine's one fold made.
public struct PageReplay: Sendable, Hashable {
    /// One event to replay (``PageTouch``): `pointerdown` (`TouchPhase.began`, the
    /// touch's first sample), `pointermove` (`TouchPhase.moved`), `pointerup`
    /// (`TouchPhase.ended`, where the last sample was) or `pointercancel`
    /// (`TouchPhase.cancelled`).
    public typealias Event = PageTouch

    /// The touch, by the engine's identifier (unique over the session; the page tells
    /// touches apart by it).
    public private(set) var touch: TouchID
    /// The tool that drew the touch: the page sees a finger as `pointerType` `"touch"`, a
    /// stylus as `"pen"`.
    public private(set) var tool: ToolKind
    /// The page document the replay is for (`PageDocumentID`, the one current when the
    /// engine made it; `nil` before any page named its document): the page script refuses a
    /// replay naming another document, so no touch crosses from one page into the next.
    @_spi(Tooling) public private(set) var document: PageDocumentID?
    /// The engine that made the replay (a random number per engine, `InkEngine.pageSource`):
    /// the page script keeps the touches of two engines over one document apart, and gives a
    /// touch number a new engine uses again a pointer id the page has not seen (page pointer
    /// ids are unique per page, not per loop). `nil`: not named.
    @_spi(Tooling) public private(set) var source: UInt64?
    /// The events, in order.
    public package(set) var events: [PageTouch]

    /// How many events the replay carries (down, moves, up or cancel).
    public var eventCount: Int { events.count }

    /// Creates a replay.
    package init(touch: TouchID, tool: ToolKind, document: PageDocumentID? = nil, source: UInt64? = nil, events: [Event] = []) {
        self.touch = touch
        self.tool = tool
        self.document = document
        self.source = source
        self.events = events
    }

    /// The replay as a JSON object:
    /// `{"type":"replay","touch":N,"pointerType":"touch"|"pen","document":"<id>"?,"events":[{"phase":"down","x":…,"y":…,"t":…,"pressure":…}…]}`
    /// (`document` only when `document` is set; `"source":"<16 hex>"` after it when `source` is).
    /// A non-finite number (which the engine never emits) is written 0.
    public var json: String {
        var out = #"{"type":"replay","touch":"#
        out += String(touch.rawValue)
        out += #","pointerType":""#
        out += tool == .finger ? "touch" : "pen"
        out += #"""#
        if let document {
            out += #","document":"#
            out += JSONValue.string(document.text).serialized()
        }
        if let source {
            out += #","source":""#
            out += Self.hex(source)
            out += #"""#
        }
        out += #","events":["#
        for (i, event) in events.enumerated() {
            if i > 0 { out += "," }
            var fields: [(String, JSONValue)] = [
                ("phase", .string(event.phaseName)), ("x", .number(Self.finite(event.pagePoint.x))),
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
    /// (and the document id, letters and digits) and evaluates to `true` when the page script
    /// was there to take it, `false` when not, or when the page script refused it (it names
    /// another document than the page's).
    public var scriptInvocation: String {
        "(window.scratchpadInk && window.scratchpadInk.replay ? window.scratchpadInk.replay(\(json)) !== false : false);"
    }

    private static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
