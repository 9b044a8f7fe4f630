/// The router's record of one touch: what touch-down fixed, the accounts kept whatever the
/// touch's state, and the state itself, which carries everything else.
struct TouchRecord: Sendable {
    let id: TouchID
    let tool: ToolKind
    /// Timestamp of the touch-down sample, seconds.
    let downTime: Double
    /// Timestamp of the latest sample, which the next must not precede.
    var lastTimestamp: Double
    var state: TouchState
    /// The touch is known to have begun on the scratch paper: its touch-down was decided ink
    /// by the page (answered, or a fresh region snapshot). The gesture rule reads it.
    var onPaper = false
    /// A finger that began while the palm rule held (``TouchRouterConfiguration/palmHold``,
    /// ``TouchRouterConfiguration/palmRadius``) where the paper is not known at touch-down
    /// (hand-over routing): the page is asked; its samples go to the page if it claims the
    /// touch, and the touch is held as a palm if it is ink (on the paper).
    var palmCandidate = false
    /// Routed samples whose estimated properties may still be refined (in every state: an
    /// update may come for a sample inked, released or discarded, even after the touch finished).
    var awaiting: [AwaitingUpdate] = []
    var ledger = SampleLedger()

    init(id: TouchID, tool: ToolKind, downTime: Double, state: TouchState) {
        self.id = id
        self.tool = tool
        self.downTime = downTime
        self.lastTimestamp = downTime
        self.state = state
    }

    /// Moves `count` samples between two ledger columns, here and in the session totals.
    mutating func move(
        _ count: Int, from source: WritableKeyPath<SampleLedger, Int>,
        to destination: WritableKeyPath<SampleLedger, Int>, totals: inout SampleLedger
    ) {
        ledger[keyPath: source] -= count
        ledger[keyPath: destination] += count
        totals[keyPath: source] -= count
        totals[keyPath: destination] += count
    }

    /// Adds `count` (negative to take back) to a breakdown column of `released`, here and
    /// in the session totals.
    mutating func count(_ count: Int, in column: WritableKeyPath<SampleLedger, Int>, totals: inout SampleLedger) {
        ledger[keyPath: column] += count
        totals[keyPath: column] += count
    }
}

/// Where one touch is in its life. Each case carries the data valid there and nothing else:
/// a queue on a decided touch, tentative ink on a touch the page owns, a lift on a touch that
/// should have finished, or an ink window on the page's touch cannot be written down.
///
/// ```
///                speculate
///   deciding ───────────────▶ speculating
///    │ ink   └─ page ─┐  ink ┘      │ page (its tentative ink retracted)
///    ▼                ▼             ▼
///   inking ── gesture ──▶ page(.handedOver | .gesture | .native, at touch-down)
///    │                        │
///    └── ended or cancelled ──┴──▶ finished   (deciding and speculating: cancelled,
///                                              or ended and finished once decided)
/// ```
///
/// A touch in ``TouchRouter``'s active list is never `finished`; a finished touch is kept
/// (in that state) only while its samples still await estimated-property updates.
enum TouchState: Sendable, Equatable {
    /// Undecided: the page was asked, the samples wait.
    case deciding(Deciding)
    /// Undecided, and drawn as tentative ink meanwhile (``TouchRouter/speculate(_:into:)``).
    case speculating(Speculating)
    /// The ink's: each sample becomes ink as it comes.
    case inking(Inking)
    /// The page's, and how the page gets its samples.
    case page(PageRoute)
    /// Held as a palm: neither ink nor the page's. Nobody gets its samples: each is counted
    /// cancelled as it comes, so nothing waits and nothing is dropped.
    case held
    /// Ended or cancelled, and how.
    case finished(Ending)

    struct Deciding: Sendable, Equatable {
        let query: QueryID
        /// Samples waiting for the decision, oldest first.
        var queue: [TouchSample]
        /// The touch ended before it was decided: it finishes as soon as it is. A Boolean
        /// because both values are valid for the whole of the state (an ended touch still
        /// waits, so a dot becomes ink and a tap reaches its button); it exists only here
        /// and in ``Speculating``, the states in which a touch outlives its lift.
        var lifted: Bool
    }

    struct Speculating: Sendable, Equatable {
        let query: QueryID
        /// The tentative ink, in order and refined by updates as the stroke is: every sample
        /// the touch had, all released to the page if the page claims the touch.
        var tentative: [TouchSample]
        /// The ink's own bookkeeping, which becomes the touch's when the answer confirms it.
        var ink: Inking
        /// As ``Deciding/lifted``.
        var lifted: Bool
    }

    struct Inking: Sendable, Equatable {
        /// The inked samples while the touch is still inside the gesture window, where a
        /// second finger takes them back for the page; `nil` once the touch inked a sample
        /// past the window (at once for a pencil, or with no gesture window).
        var window: [TouchSample]? = []
        /// A predicted tail is drawn, so an event without one must clear it. A Boolean: what
        /// the host shows, independent of the rest of the ink.
        var showsPrediction = false
    }

    /// How the page gets the samples of a touch it owns.
    enum PageRoute: Sendable, Equatable {
        /// Routed to the page at touch-down: the platform delivers it natively and ends it
        /// there; the router only counts its samples. Never part of a gesture.
        case native
        /// Decided for the page (answered, deadline, bound, flush or tool policy): the
        /// samples are handed over (``RouterAction/release(_:_:)``).
        case handedOver
        /// Handed over as part of a multi-finger gesture: a finger that joins the gesture
        /// is counted in it, not as a new one.
        case gesture
    }

    /// How a touch finished.
    enum Ending: Sendable, Equatable {
        /// Ended as ink: its stroke stands, so late updates still refine it.
        case inked
        /// Ended as the page's.
        case released
        case cancelled
    }

    /// What a record holds for the instant its payload is taken out to change in place
    /// (``TouchRecord/takeDeciding()`` and the like), so the payload's arrays are uniquely
    /// referenced and grow without being copied. Never seen outside that instant.
    static let vacated = TouchState.finished(.cancelled)

    // MARK: - Reading

    /// The query of an undecided touch (deciding or speculating); `nil` once decided.
    var undecidedQuery: QueryID? {
        switch self {
        case let .deciding(deciding): deciding.query
        case let .speculating(speculating): speculating.query
        case .inking, .page, .held, .finished: nil
        }
    }

    /// The touch inks, past its gesture window: a sample changes nothing of the state.
    var isInkingPastWindow: Bool {
        if case let .inking(inking) = self { return inking.window == nil }
        return false
    }

    /// The touch ended, but is not finished: it is still undecided.
    var isLifted: Bool {
        switch self {
        case let .deciding(deciding): deciding.lifted
        case let .speculating(speculating): speculating.lifted
        case .inking, .page, .held, .finished: false
        }
    }

    /// The samples waiting for the decision (none once speculating or decided).
    var queue: [TouchSample] {
        if case let .deciding(deciding) = self { return deciding.queue }
        return []
    }

    /// Whether a predicted tail is drawn; `nil` when the touch draws no ink.
    var showsPrediction: Bool? {
        switch self {
        case let .inking(inking): inking.showsPrediction
        case let .speculating(speculating): speculating.ink.showsPrediction
        case .deciding, .page, .held, .finished: nil
        }
    }

    /// Whether the touch's ink, tentative or not, stands: an estimated-property update to an
    /// inked sample refines the stroke (even after the touch ended as ink, not once cancelled).
    var inkStands: Bool {
        switch self {
        case .inking, .speculating, .finished(.inked): true
        case .deciding, .page, .held, .finished(.released), .finished(.cancelled): false
        }
    }
}

extension TouchRecord {
    // MARK: - Changing a payload in place
    //
    // Each `take…()` moves its payload out and leaves `TouchState.vacated` behind; the caller
    // changes it and stores the new state. The payload's arrays then have one owner, so they
    // grow in place: no copy, no allocation per sample. (Changing a payload bound in a
    // `switch` over `state` would copy it: the switch keeps the subject alive.)

    /// The payload of a deciding touch, taken out; `nil` (and nothing changed) otherwise.
    mutating func takeDeciding() -> TouchState.Deciding? {
        guard case let .deciding(deciding) = state else { return nil }
        state = TouchState.vacated
        return deciding
    }

    /// The payload of a speculating touch, taken out; `nil` (and nothing changed) otherwise.
    mutating func takeSpeculating() -> TouchState.Speculating? {
        guard case let .speculating(speculating) = state else { return nil }
        state = TouchState.vacated
        return speculating
    }

    /// The payload of an inking touch, taken out; `nil` (and nothing changed) otherwise.
    mutating func takeInking() -> TouchState.Inking? {
        guard case let .inking(inking) = state else { return nil }
        state = TouchState.vacated
        return inking
    }

    /// Notes that an undecided touch ended.
    mutating func lift() {
        if var deciding = takeDeciding() {
            deciding.lifted = true
            state = .deciding(deciding)
        } else if var speculating = takeSpeculating() {
            speculating.lifted = true
            state = .speculating(speculating)
        }
    }

    /// Records whether a predicted tail is drawn, for a touch that draws ink.
    mutating func setShowsPrediction(_ shows: Bool) {
        if var inking = takeInking() {
            inking.showsPrediction = shows
            state = .inking(inking)
        } else if var speculating = takeSpeculating() {
            speculating.ink.showsPrediction = shows
            state = .speculating(speculating)
        }
    }

    /// Refines the inked sample at `position` wherever the state keeps it: in the gesture
    /// window, and in the tentative ink the page gets if it claims the touch.
    mutating func refineInk(at position: Int, to refined: TouchSample) {
        if var inking = takeInking() {
            Self.refine(&inking, at: position, to: refined)
            state = .inking(inking)
        } else if var speculating = takeSpeculating() {
            Self.refine(&speculating.ink, at: position, to: refined)
            if speculating.tentative.indices.contains(position) { speculating.tentative[position] = refined }
            state = .speculating(speculating)
        }
    }

    private static func refine(_ inking: inout TouchState.Inking, at position: Int, to refined: TouchSample) {
        if inking.window?.indices.contains(position) == true { inking.window?[position] = refined }
    }

    /// Refines a queued sample in place. Returns `false` (and changes nothing) when no
    /// queued sample carries the update's index.
    mutating func refineQueued(with update: EstimatedPropertyUpdate) -> Bool {
        // `state.queue` is a temporary, gone before the payload is taken.
        guard let q = state.queue.firstIndex(where: { $0.estimationUpdateIndex == update.updateIndex }),
              var deciding = takeDeciding() else { return false }
        deciding.queue[q] = update.applied(to: deciding.queue[q])
        state = .deciding(deciding)
        return true
    }
}

/// A routed sample whose estimated properties an update may still refine.
struct AwaitingUpdate: Sendable {
    /// Index among the touch's inked samples; -1 for a sample released to the page or
    /// discarded undecided by a cancel.
    var position: Int
    var sample: TouchSample
}
