@_spi(Tooling) import InkCore

/// One touch as both sides name it: the platform's identifier (reused as soon as a finger
/// lifts) and the engine's (unique over the engine's life).
@_spi(Tooling) public struct EngineTouch: Sendable, Hashable, CustomStringConvertible {
    /// The engine's identifier: what `RouterAction`s and `InkLayer` strokes name.
    public var engine: TouchID
    /// The identifier the platform (or a session log) gave the touch.
    public var platform: PlatformTouchID

    /// Creates a pair.
    public init(engine: TouchID, platform: PlatformTouchID) {
        self.engine = engine
        self.platform = platform
    }

    /// The pointer id the page sees for this touch on every path the engine chooses: handed
    /// over after the decision (inject the `release`, `endRelease` and page `cancel` actions
    /// under it) and replayed by the page script (``PageReplay/touch``, dispatched as
    /// `pointerId` 1000 + this, stepped past a pointer the platform has down on the page).
    ///
    /// It is the engine's identifier, unique over the session: it never names two pointers
    /// down on the page at once, however soon the platform reuses its own id (a tap the page
    /// claims late and a new finger under the tap's reused id are two page pointers). The
    /// platform's id stays in ``platform``, for the app. A touch the platform gives the page
    /// natively (``EngineInput/nativePageTouch(_:)``) keeps the platform's own pointer there.
    public var pagePointer: UInt64 { engine.rawValue }

    /// `touch P` when both are the same number, else `touch P (engine E)`.
    public var description: String {
        platform.rawValue == engine.rawValue ? "\(platform)" : "\(platform) (engine \(engine.rawValue))"
    }
}

/// One input the engine takes: everything a front end or a replay can tell it. Touch
/// events, estimated-property updates and recorded answers name touches by the platform's
/// identifier; the engine keeps the one map to its own. Two cases are for replays only
/// (`@_spi(Tooling)`), so a `switch` over an input ends with `default:`.
public enum EngineInput: Sendable, Hashable {
    /// Nothing but the passing of time (a timer fired).
    case tick
    /// A platform touch event, by the platform's touch identifier.
    case touch(TouchEvent)
    /// An event of a touch the platform delivers to the page itself: the front end routed
    /// it there at touch-down (`InkEngine.route(at:tool:now:)` said `HitTestVerdict.page`,
    /// or the platform's hit test chose the web view). The engine counts its samples as
    /// released natively and asks nothing. The `began` event decides: later events of the
    /// touch may come as this case or as ``touch(_:)``.
    case nativePageTouch(TouchEvent)
    /// An estimated-property update (Apple Pencil's refined force), by the platform's
    /// touch identifier.
    case update(EstimatedPropertyUpdate)
    /// A message the page posted, untrusted: validated by the bridge, or refused and counted.
    case pageMessage([UInt8])
    /// A page message already decoded at the edge (a region snapshot from a session log, a
    /// message a host decoded from its own protocol).
    @_spi(Tooling) case decodedPageMessage(PageMessage)
    /// The page's answer for a touch as a session log records it, by the platform's touch
    /// identifier rather than by round trip.
    @_spi(Tooling) case recordedAnswer(touch: PlatformTouchID, verdict: HitTestVerdict)
    /// The page scrolled, zoomed or changed its layout.
    case layout(PageTransform, generation: UInt64?)
    /// This request could not be sent (the transport failed): the touches waiting for it
    /// get the fallback now.
    case sendFailed(HitTestRequest)
    /// A navigation committed (the next exercise, Back, a reload, the web content process
    /// restarted), with the new page's transform. Feed it when the navigation commits.
    ///
    /// The document rule (docs/bridge.md, "Documents"): the page identifies its document
    /// and says which one is shown; this report is idempotent. When the current document
    /// began by speaking while another was current, the report is its own, however late, and
    /// only sets the transform; a second report with no page spoken since retires nothing.
    /// Otherwise the current document (`PageDocumentID`) is retired: questions in flight get
    /// the configured fallback now, the region snapshot is dropped, the generations start
    /// over at ``PageScript/firstGeneration``, every touch the old document had down on a
    /// path the engine chose is cancelled there (its later samples refused and counted), and
    /// the old document's messages are refused (`ReceiveOutcome.oldDocument(_:)`) until its
    /// page says it is shown again. An ``InkLoop`` then asks the page which document it
    /// shows. A transform that is not finite and positive refuses the input
    /// (``InputRefusal/invalidTransform(_:)``), and nothing changes.
    case newDocument(PageTransform)
    /// The view showing the page changed size (a rotation, split view or Stage Manager on an
    /// iPad, a resized window): the page reflows, so its interactive regions may be anywhere
    /// now. The region snapshot is dropped (`InkEngine.touchDownRegions(now:)` is `nil` and
    /// every touch-down route is `nil` until the page pushes a snapshot again:
    /// the engine asks it, never guesses from the old layout), and future points go through
    /// `transform`. A snapshot of the layout generation known at the resize, or older, was
    /// measured before it and is refused; the page bumps its generation when its viewport
    /// changes. Questions in flight wait for their answers, which the page computes on the
    /// live layout. An ``InkLoop`` asks the page to push (``InkLoopShell/askForRegions()``)
    /// once the size has held still for ``InkLoop/resizeSettleTime`` (a live resize is asked
    /// once, not at every step). A transform that is not finite and positive refuses the input
    /// (``InputRefusal/invalidTransform(_:)``), and nothing changes.
    case viewResized(PageTransform)
    /// Apple Pencil began (`true`) or stopped (`false`) hovering over the overlay (Apple
    /// Pencil hover on the iPads that have it, iOS 16.1; a pen's proximity on a tablet). The
    /// palm rule (``InkEngineConfiguration/palmHold``) holds a finger-type touch that begins
    /// on the scratch paper while the pencil hovers, as while it is down, and for `palmHold`
    /// after the hover ends: the hand comes down as the pen approaches. Feed `true` when a
    /// hover begins and `false` when it ends or is cancelled; a repeated value changes
    /// nothing.
    case pencilHovering(Bool)
    /// The user's pencil-only setting as read now (on an iPad, "Only Draw with Apple Pencil",
    /// `UIPencilInteraction.prefersPencilOnlyDrawing`, which the user can change in Settings
    /// or the pencil's palette while the app runs): from the next touch-down on it replaces
    /// ``InkEngineConfiguration/pencilOnly``; touches already down keep their decision. Feed
    /// it when the setting may have changed (at a touch-down, or when the scene becomes
    /// active); a value equal to the current one changes nothing.
    case pencilOnly(Bool)

    /// A page message posted as text.
    public static func pageMessage(_ text: String) -> EngineInput { .pageMessage(Array(text.utf8)) }

    /// The real samples the input carries (a touch event's; 0 for anything else).
    public var sampleCount: Int {
        switch self {
        case let .touch(event), let .nativePageTouch(event): return event.samples.count
        default: return 0
        }
    }
}

/// The canvas areas that route to the page at touch-down while a region snapshot is fresh
/// (`InkEngine.touchDownRegions(now:)`).
public struct TouchDownRegions: Sendable, Hashable {
    /// The page's interactive regions, in canvas points.
    public var rects: [CanvasRect]
    /// Until when they hold (the snapshot's freshness), seconds on the engine's clock;
    /// after it every touch-down route is `nil` until the page pushes again.
    public var validUntil: Double
    /// The snapshot's layout generation.
    public var generation: UInt64

    /// Creates a set of regions.
    public init(rects: [CanvasRect], validUntil: Double, generation: UInt64) {
        self.rects = rects
        self.validUntil = validUntil
        self.generation = generation
    }
}

/// Why `InkEngine` refused an input. A refused input changes nothing but the ledger, which
/// counts its samples as received and refused. Touch identifiers in it are the platform's.
public enum InputRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `began` for a platform id whose touch is still down (end or cancel it first).
    case touchStillDown(PlatformTouchID)
    /// A `moved`, `ended` or `cancelled` event, or an update, for a platform id with no touch
    /// down.
    case touchNotDown(PlatformTouchID)
    /// A `began` for a touch the engine has not finished (ended, but still undecided).
    case touchUnfinished(PlatformTouchID)
    /// A sample with a non-finite position or timestamp, or a force out of 0...1.
    case invalidSample(PlatformTouchID, TouchSample)
    /// A sample older than the touch's previous sample.
    case timestampWentBackwards(PlatformTouchID, previous: Double, got: Double)
    /// A `began` event that carried no sample.
    case beganWithoutSample(PlatformTouchID)
    /// An estimated-property update for an index no sample of the touch awaits.
    case unknownUpdateIndex(PlatformTouchID, UInt64)
    /// An estimated-property update whose index more than one sample awaits (a platform that
    /// numbers indices per touch, its id reused): the engine cannot tell whose it is, so it
    /// refines neither.
    case ambiguousUpdateIndex(PlatformTouchID, UInt64)
    /// An estimated-property update with a non-finite or out-of-range value.
    case invalidUpdate(PlatformTouchID, UInt64)
    /// The input's time is earlier than a time the engine was already given (`now`), or not
    /// finite.
    case timeWentBackwards(now: Double, given: Double)
    /// A page transform that is not finite and positive.
    case invalidTransform(PageTransform)
    /// The live loop had stopped (``InkLoop/stop()``: the front end was closing) when the
    /// input was handed in: nothing takes it any more, but its samples are counted
    /// (received and refused), so a touch UIKit ends during teardown is never lost uncounted.
    case stopped

    /// The refusal of the touch-id rule's error.
    package init(_ error: TouchIdentityError) {
        switch error {
        case let .stillDown(id): self = .touchStillDown(id)
        case let .notDown(id): self = .touchNotDown(id)
        }
    }

    /// The refusal of the decision engine's error about the input's touch, named by the
    /// platform's identifier `touch` (the decision engine names it by the engine's).
    package init(_ error: RouterError, platform touch: PlatformTouchID) {
        switch error {
        case let .invalidSample(_, sample): self = .invalidSample(touch, sample)
        case let .timestampWentBackwards(_, previous, got): self = .timestampWentBackwards(touch, previous: previous, got: got)
        case .beganWithoutSample: self = .beganWithoutSample(touch)
        case .touchAlreadyActive: self = .touchUnfinished(touch)
        case .unknownTouch: self = .touchNotDown(touch)
        case let .unknownUpdateIndex(_, index): self = .unknownUpdateIndex(touch, index)
        case let .ambiguousUpdateIndex(_, index): self = .ambiguousUpdateIndex(touch, index)
        case let .invalidUpdate(_, index): self = .invalidUpdate(touch, index)
        }
    }

    /// The touch the refusal names, when it names one.
    public var touch: PlatformTouchID? {
        switch self {
        case let .touchStillDown(touch), let .touchNotDown(touch), let .touchUnfinished(touch), let .invalidSample(touch, _),
             let .timestampWentBackwards(touch, _, _), let .beganWithoutSample(touch), let .unknownUpdateIndex(touch, _),
             let .ambiguousUpdateIndex(touch, _), let .invalidUpdate(touch, _):
            return touch
        case .timeWentBackwards, .invalidTransform, .stopped:
            return nil
        }
    }

    /// The sentence every front end and replay reports.
    // The sentences are the decision engine's, which names a touch as "touch N" by either id.
    public var description: String {
        switch self {
        case let .touchStillDown(touch): return TouchIdentityError.stillDown(touch).description
        case let .touchNotDown(touch): return RouterError.unknownTouch(TouchID(touch.rawValue)).description
        case let .touchUnfinished(touch): return RouterError.touchAlreadyActive(TouchID(touch.rawValue)).description
        case let .invalidSample(touch, sample): return RouterError.invalidSample(TouchID(touch.rawValue), sample).description
        case let .timestampWentBackwards(touch, previous, got):
            return RouterError.timestampWentBackwards(TouchID(touch.rawValue), previous: previous, got: got).description
        case let .beganWithoutSample(touch): return RouterError.beganWithoutSample(TouchID(touch.rawValue)).description
        case let .unknownUpdateIndex(touch, index): return RouterError.unknownUpdateIndex(TouchID(touch.rawValue), index).description
        case let .ambiguousUpdateIndex(touch, index): return RouterError.ambiguousUpdateIndex(TouchID(touch.rawValue), index).description
        case let .invalidUpdate(touch, index): return RouterError.invalidUpdate(TouchID(touch.rawValue), index).description
        case let .timeWentBackwards(now, given): return "time went backwards from \(now) s to \(given) s"
        case let .invalidTransform(transform):
            return "page transform refused: scale \(transform.scale), offset (\(transform.offsetX), \(transform.offsetY))"
        case .stopped: return "the live loop had stopped: the input came after the front end closed"
        }
    }
}

/// One thing that happened in the engine, in the order it happened: the engine's one
/// output. A front end's shell carries out ``Kind-swift.enum/action(_:)`` and
/// ``Kind-swift.enum/replay(_:)`` events in order (the loop sends the requests through
/// ``InkLoopShell/send(_:)``); every observer (the audit, first-ink latency, a timeline,
/// metrics) is a fold over the same stream.
public struct EngineEvent: Sendable, Hashable {
    /// When it happened: the engine's time, seconds on the samples' clock (a deadline's
    /// events carry the deadline's time).
    public var time: Double
    /// The touch it is about, by the engine's identifier (what `RouterAction`s and
    /// `InkLayer` strokes name, and the pointer id the page sees for it when the engine hands
    /// it over or has it replayed); `nil` for page events that concern no single touch.
    public var touch: TouchID?
    /// The same touch by the identifier the platform (or a session log) gave it; `nil`
    /// exactly when ``touch`` is.
    public var platformTouch: PlatformTouchID?
    /// The round trip to the page it belongs to, when there is one: the question a touch
    /// waits for, the one that decided it, or the one a page answer named.
    @_spi(Tooling) public var roundTrip: QueryToken?
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    @_spi(Tooling) public init(time: Double, touch: EngineTouch? = nil, roundTrip: QueryToken? = nil, kind: Kind) {
        self.time = time
        self.touch = touch?.engine
        self.platformTouch = touch?.platform
        self.roundTrip = roundTrip
        self.kind = kind
    }

    /// The touch by both identifiers, for tools that print or compare them.
    @_spi(Tooling) public var engineTouch: EngineTouch? {
        get { touch.map { EngineTouch(engine: $0, platform: platformTouch ?? PlatformTouchID($0.rawValue)) } }
        set {
            touch = newValue?.engine
            platformTouch = newValue?.platform
        }
    }

    /// What happened.
    ///
    /// Some cases are for tools only (`@_spi(Tooling)`: the requests sent, what the bridge
    /// made of a page message), so an app's `switch` over a kind ends with `default:`; most
    /// read the one they need with `if case`.
    public enum Kind: Sendable, Hashable {
        /// The engine took a touch event: its samples are received. The event is the
        /// platform's, naming the platform's identifier; the engine's is ``EngineEvent/touch``.
        case took(TouchEvent)
        /// An input was refused; its samples (``EngineInput/sampleCount``) are counted
        /// received and refused. ``EngineEvent/touch`` names the touch when it is known.
        indirect case refused(EngineInput, InputRefusal)
        /// An engine action to carry out, in order: draw ink, hand samples to the page.
        /// Touch identifiers in it are the engine's.
        case action(RouterAction)
        /// Send this request to the page (``HitTestRequest/scriptInvocation`` or
        /// ``HitTestRequest/json``); `touches` are the touches waiting for it.
        @_spi(Tooling) case send(HitTestRequest, touches: [EngineTouch])
        /// What the bridge made of a message from the page (or a recorded answer): the
        /// message when it decoded, and the outcome (`nil`: a recorded answer that found no
        /// round trip to go to).
        @_spi(Tooling) indirect case pageMessage(PageMessage?, ReceiveOutcome?)
        /// The page's transform changed (a layout input was taken).
        case layout(PageTransform, generation: UInt64?)
        /// A navigation was reported (an ``EngineInput/newDocument(_:)`` was taken, under
        /// this transform), or the current document changed because a page message named
        /// another document (a new id, or a retired one that says it is shown again; the
        /// transform then is the one held). The questions it abandoned follow as their
        /// touches' `decided` actions (reason `DecisionReason.newDocument`); the region
        /// snapshot is gone, so a front end routing at touch-down drops the regions it
        /// holds (`InkEngine.touchDownRegions(now:)` is `nil` until the new document
        /// pushes).
        case newDocument(PageTransform)
        /// The view changed size under this transform (an ``EngineInput/viewResized(_:)``
        /// was taken): the region snapshot is gone, so a front end routing at touch-down drops
        /// the regions it holds until the page pushes again.
        case viewResized(PageTransform)
        /// Under ``TouchRouting/handOverAfterDecision``: hand the page this event of its
        /// pointer (``PageTouch``: down, move, up or cancel, in order, under the page pointer
        /// id), right after the action that made it. The engine's one fold of its actions into
        /// what the page gets; a host only injects it.
        case pageTouch(PageTouch)
        /// Under ``TouchRouting/decideAtTouchDown``: have the page script replay these
        /// samples of a touch the page claimed late (evaluate ``PageReplay/scriptInvocation``
        /// in the page script's world). It follows the actions it replays (the touch's
        /// `release`, `endRelease` or `cancel` actions of the same input), which a front end
        /// on this routing carries out only through it.
        case replay(PageReplay)
        /// Under ``TouchRouting/decideAtTouchDown``, the gesture rule:
        /// Two fingers that begin on the scratch paper within 150 ms of each other, both still
        /// down, make a gesture: the page gets them (replayed, or handed over) and the front
        /// end scrolls the page by them; a finger is on the scratch paper once the page (or a
        /// fresh region snapshot) decided its touch-down ink, so a finger still waiting for its
        /// answer, one the page claimed or has natively (routed to it at touch-down), and one a
        /// fallback decided are never part of a gesture.
        /// The engine gave such a gesture to the page (and, with
        /// ``InkEngineConfiguration/pencilOnly``, so does one finger on the overlay: fingers
        /// scroll, the pencil writes), but the page cannot scroll natively for touches the
        /// overlay holds: scroll the page's view by this much, canvas points (the lead
        /// finger's movement, reversed: the content follows the fingers; while two fingers
        /// pinch, their midpoint's). A `UIScrollView` moves its `contentOffset` by it; a web
        /// page scrolls by it times the page transform's scale. It follows the input's
        /// ``zoomPage(scale:about:)``, if any.
        case scrollPage(dx: Double, dy: Double)
        /// Under ``TouchRouting/decideAtTouchDown``: the two fingers of a gesture on the overlay
        /// pinch (their distance changed by more than `InkEngine.pinchThreshold` since both
        /// were known, at two successive moves, then every change): zoom the page's view by `scale` (the ratio of their
        /// distance now to before) about `about`, their midpoint, canvas points, so the
        /// content under it stays there. The web view cannot see the pinch, as it cannot see
        /// the scroll. A `UIScrollView` multiplies its `zoomScale` by it (within its limits)
        /// and moves its `contentOffset` to keep `about` fixed; then comes the input's
        /// ``scrollPage(dx:dy:)``, if any, and the front end reports the new transform.
        case zoomPage(scale: Double, about: CanvasPoint)
    }

    /// The engine action, when this event is one.
    public var action: RouterAction? {
        if case let .action(action) = kind { return action }
        return nil
    }
}

extension EngineEvent {
    /// Whether the event is a touch-down the engine took (read in place, for the drivers).
    package var isTouchDown: Bool {
        if case let .took(event) = kind { return event.phase == .began }
        return false
    }
}
