@_spi(Tooling) import InkCore

/// One event of a touch the page gets on a path the engine chooses (handed over after the
/// decision, or replayed by the page script): the page's pointer goes down, moves, goes up
/// or is cancelled, in order. The one typed form of what the page receives, under both
/// routings:
///
/// - ``TouchRouting/handOverAfterDecision``: each comes as an
///   ``EngineEvent/Kind-swift.enum/pageTouch(_:)`` event, right after the action that made
///   it; a host injects it into the page under ``pointer`` (at ``point`` in the view, or at
///   ``pagePoint`` in the page).
/// - ``TouchRouting/decideAtTouchDown``: the page script replays them, a touch's events of
///   one input batched into one ``PageReplay`` (its ``PageReplay/events``), evaluated in
///   the page.
///
/// A front end performs them and never folds the engine's actions into them itself: which
/// `release` is a pointer's `down`, where an `up` or a `cancel` lands, and the `cancel` a
/// touch still down on the page gets when the engine finishes it are decided here, once.
/// A touch the platform gave the page natively (``EngineInput/nativePageTouch(_:)``) never
/// appears: the page had it already.
public struct PageTouch: Sendable, Hashable {
    /// What the page's pointer does: `began` is its `down` (the first sample the page gets),
    /// `moved` a `move`, `ended` its `up` (where the last sample was), `cancelled` its
    /// `cancel` (the system took the touch, or the engine finished it while the page still
    /// had it down; where the last sample was).
    public var phase: TouchPhase
    /// The pointer id the page sees (``EngineEvent/touch``'s number: unique over the
    /// engine's life, so two pointers down on the page never share it, however soon the
    /// platform reuses its own id).
    public var pointer: UInt64
    /// The tool: the page sees a finger as a touch (`pointerType` `"touch"`), anything else
    /// as a pen.
    public var tool: ToolKind
    /// Where, in canvas points (the view's own coordinates): where a host that injects
    /// events into the view puts it.
    public var point: CanvasPoint
    /// Where, in page coordinates (CSS pixels of the document, scroll included), through
    /// the transform the engine held when it was delivered.
    public var pagePoint: PagePoint
    /// The sample's original timestamp, seconds on the samples' clock (a lift or a cancel
    /// carries the last sample's).
    public var time: Double
    /// The sample's force, 0...1, when it had one (`nil` for a lift or a cancel).
    public var pressure: Double?

    /// Creates a page touch event.
    package init(phase: TouchPhase, pointer: UInt64 = 0, tool: ToolKind = .finger, point: CanvasPoint = CanvasPoint(x: 0, y: 0),
                 pagePoint: PagePoint, time: Double, pressure: Double? = nil) {
        self.phase = phase
        self.pointer = pointer
        self.tool = tool
        self.point = point
        self.pagePoint = pagePoint
        self.time = time
        self.pressure = pressure
    }

    /// The phase's name in the page script's message: `down`, `move`, `up`, `cancel`.
    public var phaseName: String {
        switch phase {
        case .began: "down"
        case .moved: "move"
        case .ended: "up"
        case .cancelled: "cancel"
        }
    }
}

/// The one fold from the engine's actions to the page's pointers (``PageTouch``): which
/// touches the page has down, and where each last was. Written once, in the engine; every
/// front end and tool reads its output.
package struct PagePointers: Sendable {
    /// The page's pointers down, by the engine's touch id, with their last event.
    private var down: [TouchID: PageTouch] = [:]
    /// Touches the engine finished while the page still had them down (cancelled there
    /// then). Zero unless an action sequence is broken.
    package private(set) var leftOpen = 0

    package init() {}

    /// The touches whose pointer the page has down, in the order of their ids.
    package var pointersDown: [TouchID] { down.keys.sorted { $0.rawValue < $1.rawValue } }

    /// Whether the page has this touch's pointer down.
    package func isDown(_ touch: TouchID) -> Bool { down[touch] != nil }

    /// What `action` hands the page, if anything: a `release` is the pointer's `down` the
    /// first time and a `move` after; an `endRelease` lifts it where its last sample was; a
    /// cancel of a touch the page has cancels it there; a touch finished while the page
    /// still has it down is cancelled there too.
    package mutating func delivery(for action: RouterAction, through transform: PageTransform) -> PageTouch? {
        switch action {
        case let .release(id, sample):
            let previous = down[id]
            let touch = PageTouch(phase: previous == nil ? .began : .moved, pointer: id.rawValue, tool: previous?.tool ?? sample.tool,
                                  point: sample.point, pagePoint: transform.pagePoint(for: sample.point), time: sample.timestamp,
                                  pressure: sample.force)
            down[id] = touch
            return touch
        case let .endRelease(id):
            return lift(id, .ended)
        case let .cancel(id, .page):
            return lift(id, .cancelled)
        case let .touchFinished(id, _):
            guard down[id] != nil else { return nil }
            leftOpen += 1
            return lift(id, .cancelled)
        default:
            return nil
        }
    }

    private mutating func lift(_ id: TouchID, _ phase: TouchPhase) -> PageTouch? {
        guard var last = down.removeValue(forKey: id) else { return nil }
        last.phase = phase
        last.pressure = nil
        return last
    }
}
