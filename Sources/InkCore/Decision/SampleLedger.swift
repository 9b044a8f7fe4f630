/// The account of every real sample: where it went.
///
/// The invariant every test leans on: `received = inked + released + cancelled + pending`,
/// and once every touch is settled `pending = 0`, so `received = inked + released +
/// cancelled` with ``dropped`` = 0. Predicted samples are never counted.
public struct SampleLedger: Sendable, Hashable, Codable {
    /// Real samples accepted from the platform.
    public var received: Int = 0
    /// Samples that ended up as ink (a retracted sample is not counted here).
    public var inked: Int = 0
    /// Samples handed to the page, with their original timestamps.
    public var released: Int = 0
    /// Samples of touches the system cancelled.
    public var cancelled: Int = 0
    /// Samples queued by touches still waiting for a decision.
    public var pending: Int = 0

    /// Creates an empty ledger, or one with the given counts.
    public init(received: Int = 0, inked: Int = 0, released: Int = 0, cancelled: Int = 0,
                pending: Int = 0) {
        self.received = received
        self.inked = inked
        self.released = released
        self.cancelled = cancelled
        self.pending = pending
    }

    /// Samples received but accounted for nowhere. Zero, always; anything else is a bug.
    public var dropped: Int { received - inked - released - cancelled - pending }

    /// `true` when nothing is pending and nothing was dropped.
    public var isBalanced: Bool { pending == 0 && dropped == 0 }

    /// Adds two ledgers field by field (a session total from per-touch ledgers).
    public static func + (lhs: SampleLedger, rhs: SampleLedger) -> SampleLedger {
        SampleLedger(
            received: lhs.received + rhs.received, inked: lhs.inked + rhs.inked,
            released: lhs.released + rhs.released, cancelled: lhs.cancelled + rhs.cancelled,
            pending: lhs.pending + rhs.pending)
    }

    /// Adds another ledger into this one.
    public static func += (lhs: inout SampleLedger, rhs: SampleLedger) { lhs = lhs + rhs }
}
