/// The account of every real sample: where it went.
///
/// The invariant every test leans on: `received = inked + released + cancelled + refused +
/// pending`, and once every touch is settled `pending = 0`, so `received = inked + released
/// + cancelled + refused` with ``dropped`` = 0. Every sample an app hands in is received,
/// even one that is refused: a refused finger shows in ``refused``, never behind
/// `dropped = 0`. Predicted samples are never counted.
public struct SampleLedger: Sendable, Hashable, Codable {
    /// Real samples handed in, taken or refused.
    public var received: Int = 0
    /// Samples that ended up as ink (a retracted sample is not counted here).
    public var inked: Int = 0
    /// Samples the page got from this engine, with their original timestamps, however they
    /// reached it (``releasedNatively`` and ``replayed`` say how many of them went which way;
    /// the rest were handed over after the decision), including those of a touch the system
    /// cancelled afterwards: the page keeps what it got and gets the cancel.
    ///
    /// It covers the samples the engine took while it ran, no more. A touch the platform gave
    /// the web view natively goes on there after the loop stopped or was replaced: its later
    /// samples, handed to the stopped loop, are refused and counted in ``refused`` (though
    /// the page got them), and a new loop never sees them (its ledger starts at the touches it
    /// was handed). An app that reconciles with its own count adds what it handed no live loop.
    public var released: Int = 0
    /// Of ``released``: samples of touches the platform gave the page itself, routed there at
    /// touch-down (native, trusted events; the engine only counted them).
    public var releasedNatively: Int = 0
    /// Of ``released``: samples the page script replayed into the page as synthesized
    /// (untrusted) DOM events, after a late page verdict on a platform that cannot hand a
    /// touch over once it began (a WKWebView).
    public var replayed: Int = 0
    /// Samples of touches the system cancelled that nobody got: queued while the touch was
    /// undecided, or inked and then discarded with its stroke. Samples the page got before
    /// the cancel are ``released``, never also counted here (nor is retracted ink: the page
    /// got it).
    public var cancelled: Int = 0
    /// Samples of events the engine refused (invalid samples, time going backwards, an
    /// event for no touch that is down). A refused event changes nothing else.
    public var refused: Int = 0
    /// Samples queued by touches still waiting for a decision.
    public var pending: Int = 0

    /// Creates an empty ledger, or one with the given counts.
    public init(received: Int = 0, inked: Int = 0, released: Int = 0, cancelled: Int = 0, refused: Int = 0,
                pending: Int = 0, releasedNatively: Int = 0, replayed: Int = 0) {
        self.received = received
        self.inked = inked
        self.released = released
        self.releasedNatively = releasedNatively
        self.replayed = replayed
        self.cancelled = cancelled
        self.refused = refused
        self.pending = pending
    }

    /// Samples received but accounted for nowhere. Zero, always; anything else is a bug.
    public var dropped: Int { received - inked - released - cancelled - refused - pending }

    /// Of ``released``: samples handed to the page after the decision (trusted input the
    /// host synthesized, as an Android WebView or Chromium allows).
    public var handedOver: Int { released - releasedNatively - replayed }

    /// `true` when nothing is pending and nothing was dropped.
    public var isBalanced: Bool { pending == 0 && dropped == 0 }

    /// Adds two ledgers field by field (a session total from per-touch ledgers).
    public static func + (lhs: SampleLedger, rhs: SampleLedger) -> SampleLedger {
        SampleLedger(
            received: lhs.received + rhs.received, inked: lhs.inked + rhs.inked,
            released: lhs.released + rhs.released, cancelled: lhs.cancelled + rhs.cancelled,
            refused: lhs.refused + rhs.refused, pending: lhs.pending + rhs.pending,
            releasedNatively: lhs.releasedNatively + rhs.releasedNatively, replayed: lhs.replayed + rhs.replayed)
    }

    /// Adds another ledger into this one.
    public static func += (lhs: inout SampleLedger, rhs: SampleLedger) { lhs = lhs + rhs }

    /// The same account with `samples` more received and refused.
    package func refusing(_ samples: Int) -> SampleLedger {
        var ledger = self
        ledger.received += samples
        ledger.refused += samples
        return ledger
    }
}

extension SampleLedger {
    private enum CodingKeys: String, CodingKey { case received, inked, released, cancelled, refused, pending, releasedNatively, replayed }

    /// Decodes a ledger; `refused`, `releasedNatively` and `replayed` may be absent (logs and
    /// reports written before they existed), and then are 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(received: try container.decode(Int.self, forKey: .received), inked: try container.decode(Int.self, forKey: .inked),
                  released: try container.decode(Int.self, forKey: .released),
                  cancelled: try container.decode(Int.self, forKey: .cancelled),
                  refused: try container.decodeIfPresent(Int.self, forKey: .refused) ?? 0,
                  pending: try container.decode(Int.self, forKey: .pending),
                  releasedNatively: try container.decodeIfPresent(Int.self, forKey: .releasedNatively) ?? 0,
                  replayed: try container.decodeIfPresent(Int.self, forKey: .replayed) ?? 0)
    }
}
