/// The answer to "does this touch belong to the page?".
public enum HitTestVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing interactive is under the touch: it is ink on the scratchpad.
    case ink
    /// An interactive element of the page is under the touch: the page gets it.
    case page
}

/// Identifies one question the engine asked about one touch.
///
/// Query identifiers are issued by the decision engine in increasing order and never reused
/// within one engine, so a late or duplicate answer can always be told apart from an answer
/// for a newer touch that happens to reuse a ``TouchID``. They are not secret: code that
/// talks to an untrusted page must map them to unguessable tokens.
@_spi(Tooling) public struct QueryID: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible
{
    /// The sequence number, starting at 1.
    public var rawValue: UInt64

    /// Wraps a sequence number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders queries by the order they were asked in.
    public static func < (lhs: QueryID, rhs: QueryID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `query N`.
    public var description: String { "query \(rawValue)" }
}

/// Why a touch ended up owned by the ink or by the page.
public enum DecisionReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The page answered the hit test.
    case answered
    /// A fresh snapshot of the page's interactive regions answered, without asking the page.
    case regionCache
    /// The page could not be asked (the bridge failed or was overloaded); the fallback decided.
    case unreachable
    /// The hit test was not answered before its deadline; the fallback decided.
    case deadline
    /// A second touch began within the gesture window: a multi-finger gesture goes to the page.
    case multiTouchGesture
    /// Pencil-only mode: the tool decided without asking.
    case toolPolicy
    /// The touch queued the most samples an undecided touch may hold
    /// (`InkEngineConfiguration.Limits.queuedSamplesPerTouch` in HitTestBridge)
    /// before it was decided; the bound fallback decided.
    case queueBound
    /// A new touch began while the most touches allowed
    /// (`InkEngineConfiguration.Limits.activeTouches` in HitTestBridge) were
    /// unfinished: the oldest, still undecided, was settled by the bound fallback to make room.
    case touchBound
    /// The router was flushed (end of a session) while the touch was still undecided.
    case flushed
    /// The front end routed the touch to the page at touch-down (from a fresh region
    /// snapshot, where the platform fixes a touch's owner then): the platform delivered it
    /// to the page natively, and the engine only counted it.
    case routedAtTouchDown
    /// The page's document was replaced (the next exercise, a reload, a restarted web
    /// content process) while the touch waited for its answer: the element it touched is
    /// gone, so the fallback decided at once.
    case newDocument
}

/// How the decision engine treated an answer that reached it.
package enum VerdictOutcome: Sendable, Hashable {
    /// The answer decided a touch that was waiting for it.
    case applied
    /// The query had already been answered: this answer is a duplicate and was ignored.
    case duplicate
    /// The query was already settled another way (its deadline passed, its touch was
    /// cancelled, or a gesture decided it): the answer came too late and was ignored.
    case late
    /// No query with this identifier was ever issued: the answer was ignored.
    case unknownQuery
}
