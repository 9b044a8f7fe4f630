@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

/// What happened to every touch of a replay, and on the page, over time: the answer to "why
/// did this touch wait, and who got it?".
///
/// A fold over the engine's events (``observe(_:)``): ``ReplayDriver`` feeds it every event
/// when ``ReplayDriver/timeline`` is set (``ReplayConfiguration/recordsTimeline`` does that
/// for ``SessionReplayer``). Each event carries the time it happened, deadlines included. Memory is bounded: at most ``touchLimit`` touches and ``pageEventLimit``
/// page events are kept (the rest are counted), and a touch keeps at most
/// ``questionLimit`` questions and ``noteLimit`` notes.
///
/// ```swift
/// var configuration = ReplayConfiguration(oracle: .recordedWithLatency(0.100))
/// configuration.recordsTimeline = true
/// let report = SessionReplayer(configuration: configuration).replay(contentsOf: "Fixtures/strokes/decimal-point.jsonl")
/// for touch in report.timeline?.touches ?? [] {
///     print(touch.platformID, touch.decision?.reason as Any, touch.ink?.first as Any)
/// }
/// ```
public struct DecisionTimeline: Sendable {
    /// One touch's story.
    public struct Touch: Sendable, Hashable {
        /// The engine's id (unique over the session).
        public var id: TouchID
        /// The platform's id, as the log names the touch.
        public var platformID: PlatformTouchID
        /// The tool of its first sample.
        public var tool: ToolKind
        /// Touch-down, seconds.
        public var down: Double
        /// Lift: when the platform ended or cancelled it.
        public var lift: Double?
        /// Samples received with the touch's events.
        public var samples = 0
        /// The questions asked for it, in order.
        public var questions: [Question] = []
        /// Questions beyond ``DecisionTimeline/questionLimit``, counted.
        public var omittedQuestions = 0
        /// When and how it was decided: the decision, then any change of it (a second finger
        /// within the gesture window takes a touch already inking to the page); at most
        /// ``DecisionTimeline/questionLimit``.
        public var decisions: [Decision] = []
        /// The first decision, which ends the wait.
        public var decision: Decision? { decisions.first }
        /// The decision that stood.
        public var finalDecision: Decision? { decisions.last }
        /// Ink drawn before the decision (speculative ink).
        public var speculative: Span?
        /// Ink drawn once it was decided.
        public var ink: Span?
        /// Samples delivered to the page.
        public var released: Span?
        /// When speculative ink was taken back.
        public var retracted: Double?
        /// When the platform cancelled it, and what had been shown.
        public var cancelled: Cancellation?
        /// When the engine finished it, and its ledger.
        public var finished: Finish?
        /// Other things that happened to it (late or duplicate answers, refused events).
        public var notes: [Note] = []
        /// Notes beyond ``DecisionTimeline/noteLimit``, counted.
        public var omittedNotes = 0

        /// The last time anything happened to it.
        public var end: Double {
            [lift, decisions.last?.time, speculative?.last, ink?.last, released?.last, retracted, cancelled?.time, finished?.time,
             questions.last?.answered, questions.last?.closed, notes.last?.time]
                .compactMap { $0 }.reduce(down, max)
        }
    }

    /// A cancellation by the platform.
    public struct Cancellation: Sendable, Hashable {
        /// When.
        public var time: Double
        /// What the host had done with the touch.
        public var previously: CancelledRoute
    }

    /// The engine's last word on a touch.
    public struct Finish: Sendable, Hashable {
        /// When.
        public var time: Double
        /// Where its samples went.
        public var ledger: SampleLedger
    }

    /// A question to the page about a touch.
    public struct Question: Sendable, Hashable {
        /// When the engine asked.
        public var asked: Double
        /// Where, in page points (known once it is sent).
        @_spi(Tooling) public var pagePoint: PagePoint?
        /// The round trip that carries it (`nil`: it joined a round trip already in flight,
        /// or the cache answered first).
        @_spi(Tooling) public var token: QueryToken?
        /// When its round trip was sent.
        public var sent: Double?
        /// When the answer that decided it arrived.
        public var answered: Double?
        /// How many questions that answer decided (more than one: a shared round trip).
        public var answeredQueries: Int?
        /// When it was closed without an answer (its touch was decided otherwise).
        public var closed: Double?
    }

    /// How and when a touch was decided.
    public struct Decision: Sendable, Hashable {
        /// When.
        public var time: Double
        /// Ink or page.
        public var verdict: HitTestVerdict
        /// Why (answered, region cache, deadline, gesture, bound, …).
        public var reason: DecisionReason
    }

    /// A stretch of samples: the times of the first and the last, and how many.
    public struct Span: Sendable, Hashable {
        /// When the first sample went.
        public var first: Double
        /// When the last sample went.
        public var last: Double
        /// How many samples.
        public var samples: Int
    }

    /// Something that happened to a touch, at a time.
    public struct Note: Sendable, Hashable {
        /// When.
        public var time: Double
        /// What, in a few words.
        public var text: String
    }

    /// Something the page did, or that happened to one of its messages.
    public struct PageEvent: Sendable, Hashable {
        /// What happened.
        public enum Kind: Sendable, Hashable {
            /// A region snapshot taken into the cache (its generation and regions).
            case regionsAccepted(generation: UInt64?, regions: Int?)
            /// A region snapshot refused, and why.
            case regionsRefused(String)
            /// The page scrolled, zoomed or changed layout.
            case layout(generation: UInt64?)
            /// A new page document began (questions in flight got the fallback, the region
            /// snapshot was dropped, generations start over).
            case newDocument
            /// The view showing the page changed size (the page reflows; the region snapshot
            /// was dropped until the page pushes one of the new layout).
            case viewResized
            /// An answer the bridge did not take: late, duplicate, unknown, or computed for
            /// another layout (stale: the question was sent again).
            @_spi(Tooling) case answerNotTaken(ReceiveOutcome, token: QueryToken?)
            /// A message refused before it meant anything.
            case refused(String)
        }
        /// When.
        public var time: Double
        /// What.
        public var kind: Kind
    }

    /// The most touches kept; later ones are counted in ``omittedTouches``.
    public let touchLimit: Int
    /// The most page events kept; later ones are counted in ``omittedPageEvents``.
    public let pageEventLimit: Int
    /// The most questions a touch keeps.
    public static let questionLimit = 16
    /// The most notes a touch keeps.
    public static let noteLimit = 16

    /// The touches, in the order they began.
    public private(set) var touches: [Touch] = []
    /// What the page did, in time order.
    public private(set) var page: [PageEvent] = []
    /// Touches begun past ``touchLimit``, not kept.
    public private(set) var omittedTouches = 0
    /// Page events past ``pageEventLimit``, not kept.
    public private(set) var omittedPageEvents = 0
    /// The first time recorded.
    public private(set) var start: Double?
    /// The last time recorded.
    public private(set) var end: Double?

    private var lane: [TouchID: Int] = [:]
    /// The touches each recent round trip carried (the latest ``tripLimit``), to name the
    /// touches a late or duplicate answer was for.
    private var trips: [(token: QueryToken, touches: [TouchID])] = []
    private static let tripLimit = 256

    /// An empty timeline that keeps at most `touchLimit` touches and `pageEventLimit` page
    /// events (at least one of each).
    public init(touchLimit: Int = 10_000, pageEventLimit: Int = 10_000) {
        self.touchLimit = max(1, touchLimit)
        self.pageEventLimit = max(1, pageEventLimit)
    }

    /// Takes one engine event, in order: the timeline is a fold over `InkEngine`'s events.
    public mutating func observe(_ event: EngineEvent) {
        let time = event.time
        start = min(start ?? time, time)
        end = max(end ?? time, time)
        switch event.kind {
        case let .took(touchEvent):
            guard let named = event.engineTouch else { break }
            let id = named.engine
            if touchEvent.phase == .began {
                guard touches.count < touchLimit else { omittedTouches += 1; break }
                lane[id] = touches.count
                touches.append(Touch(id: id, platformID: named.platform,
                                     tool: touchEvent.samples.first?.tool ?? .finger, down: time))
            }
            guard let i = lane[id] else { break }
            touches[i].samples += touchEvent.samples.count
            if touchEvent.phase == .ended || touchEvent.phase == .cancelled { touches[i].lift = time }
        case let .refused(input, refusal):
            // Only an event of a touch the engine knew (a refusal by the touch-id rule names
            // no lane).
            if case let .touch(touchEvent) = input, let touch = event.engineTouch, let i = lane[touch.engine] {
                note(i, time, "refused event (\(touchEvent.phase)): \(refusal)")
            } else if case let .nativePageTouch(touchEvent) = input, let touch = event.engineTouch, let i = lane[touch.engine] {
                note(i, time, "refused event (\(touchEvent.phase)): \(refusal)")
            }
        case let .pageMessage(message, outcome):
            if let touch = event.engineTouch {
                // A recorded answer, by touch.
                answerOutcome(outcome, token: event.roundTrip, touch: touch.engine, at: time)
            } else if let message {
                page(message, outcome: outcome, at: time)
            } else {
                answerOutcome(outcome, token: nil, at: time)
            }
        case let .layout(_, generation):
            addPage(PageEvent(time: time, kind: .layout(generation: generation)))
        case .newDocument:
            addPage(PageEvent(time: time, kind: .newDocument))
        case .viewResized:
            addPage(PageEvent(time: time, kind: .viewResized))
        case let .send(request, waiting):
            if trips.count == Self.tripLimit { trips.removeFirst() }
            trips.append((request.token, waiting.map(\.engine)))
            for touch in waiting {
                guard let i = lane[touch.engine] else { continue }
                if let last = touches[i].questions.indices.last, touches[i].questions[last].sent == nil,
                   touches[i].questions[last].closed == nil, touches[i].questions[last].answered == nil {
                    touches[i].questions[last].token = request.token
                    touches[i].questions[last].sent = time
                    touches[i].questions[last].pagePoint = request.pagePoint
                } else {
                    // Sent again (the page answered for another layout): the earlier round
                    // trip is closed here, and a new question begins.
                    if let last = touches[i].questions.indices.last, touches[i].questions[last].answered == nil,
                       touches[i].questions[last].closed == nil {
                        touches[i].questions[last].closed = time
                    }
                    question(i, Question(asked: time, pagePoint: request.pagePoint, token: request.token, sent: time))
                }
            }
        case let .action(action):
            apply(action, at: time)
        case .replay, .pageTouch, .scrollPage, .zoomPage:
            break  // the release actions they follow are drawn already
        }
    }

    private mutating func apply(_ action: RouterAction, at time: Double) {
        switch action {
        case let .queryPage(_, touch, _, _):
            if let i = lane[touch] { question(i, Question(asked: time)) }
        case let .abandonQuery(_, touch):
            if let i = lane[touch], let q = touches[i].questions.indices.last, touches[i].questions[q].answered == nil {
                touches[i].questions[q].closed = time
            }
        case let .decided(touch, verdict, reason):
            guard let i = lane[touch] else { return }
            if touches[i].decisions.count < Self.questionLimit {
                touches[i].decisions.append(Decision(time: time, verdict: verdict, reason: reason))
            }
            if let q = touches[i].questions.indices.last, touches[i].questions[q].answered == nil, touches[i].questions[q].closed == nil {
                if reason == .answered {
                    touches[i].questions[q].answered = time
                } else {
                    touches[i].questions[q].closed = time
                }
            }
        case let .ink(touch, _):
            guard let i = lane[touch] else { return }
            if touches[i].decision == nil {
                Self.extend(&touches[i].speculative, at: time)
            } else {
                Self.extend(&touches[i].ink, at: time)
            }
        case let .release(touch, _), let .nativeRelease(touch, _):
            if let i = lane[touch] { Self.extend(&touches[i].released, at: time) }
        case let .retractInk(touch):
            if let i = lane[touch] { touches[i].retracted = time }
        case let .cancel(touch, previously):
            if let i = lane[touch] { touches[i].cancelled = Cancellation(time: time, previously: previously) }
        case let .touchFinished(touch, ledger):
            if let i = lane[touch] { touches[i].finished = Finish(time: time, ledger: ledger) }
        case .predictInk, .refineInk, .endInk, .endRelease:
            break
        }
    }

    private mutating func page(_ message: PageMessage, outcome: ReceiveOutcome?, at time: Double) {
        switch message {
        case let .regions(snapshot):
            if case .refused = outcome {
                answerOutcome(outcome, token: nil, at: time)
            } else {
                pageEvent(time, regions: outcome, generation: snapshot.generation, count: snapshot.regions.count)
            }
        case let .answer(answer):
            answerOutcome(outcome, token: answer.token, at: time)
        }
    }

    /// What the bridge did with an answer for the round trip `token`, or (a recorded answer)
    /// for `touch`.
    private mutating func answerOutcome(_ outcome: ReceiveOutcome?, token: QueryToken?, touch: TouchID? = nil, at time: Double) {
        let named = touch.map { [$0] } ?? touches(of: token)
        guard let outcome else { return }
        switch outcome {
        case let .answered(queries):
            // The touches it decided are marked by their `decided` actions; the count is kept.
            for touch in named {
                if let i = lane[touch], let q = touches[i].questions.indices.last { touches[i].questions[q].answeredQueries = queries }
            }
        case .late, .duplicate, .unknownQuery, .staleGeneration, .oldDocument:
            addPage(PageEvent(time: time, kind: .answerNotTaken(outcome, token: token)))
            for touch in named {
                if let i = lane[touch] { note(i, time, "\(Self.describe(outcome)) answer") }
            }
        case let .refused(error):
            addPage(PageEvent(time: time, kind: .refused("\(error)")))
        case .regionsAccepted, .regionsRefused:
            pageEvent(time, regions: outcome, generation: nil, count: nil)
        }
    }

    private func touches(of token: QueryToken?) -> [TouchID] {
        guard let token else { return [] }
        return trips.last { $0.token == token }?.touches ?? []
    }

    private mutating func pageEvent(_ time: Double, regions outcome: ReceiveOutcome?, generation: UInt64?, count: Int?) {
        switch outcome {
        case .regionsAccepted: addPage(PageEvent(time: time, kind: .regionsAccepted(generation: generation, regions: count)))
        case let .regionsRefused(refusal): addPage(PageEvent(time: time, kind: .regionsRefused("\(refusal)")))
        case let .oldDocument(document):
            addPage(PageEvent(time: time, kind: .regionsRefused("pushed by page document \(document), which was replaced")))
        case let .refused(error): addPage(PageEvent(time: time, kind: .refused("\(error)")))
        default: break
        }
    }

    private mutating func addPage(_ event: PageEvent) {
        guard page.count < pageEventLimit else { omittedPageEvents += 1; return }
        page.append(event)
    }

    private mutating func question(_ i: Int, _ question: Question) {
        guard touches[i].questions.count < Self.questionLimit else { touches[i].omittedQuestions += 1; return }
        touches[i].questions.append(question)
    }

    private mutating func note(_ i: Int, _ time: Double, _ text: String) {
        guard touches[i].notes.count < Self.noteLimit else { touches[i].omittedNotes += 1; return }
        touches[i].notes.append(Note(time: time, text: text))
    }

    private static func extend(_ span: inout Span?, at time: Double) {
        if span == nil { span = Span(first: time, last: time, samples: 1) } else {
            span!.last = time
            span!.samples += 1
        }
    }

    /// One word for what the bridge did with an answer it did not take.
    @_spi(Tooling) public static func describe(_ outcome: ReceiveOutcome) -> String {
        switch outcome {
        case .answered: return "answered"
        case .late: return "late"
        case .duplicate: return "duplicate"
        case .unknownQuery: return "unknown"
        case .staleGeneration: return "stale"
        case .regionsAccepted: return "regions"
        case .regionsRefused: return "refused regions"
        case .refused: return "refused"
        case .oldDocument: return "old-document"
        }
    }
}
