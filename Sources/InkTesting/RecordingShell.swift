import HitTestBridge
import InkCore

/// A shell (`InkLoopShell`) that records what its loop asked of it, for an app's tests and
/// the package's own: the events it was handed, in order, the requests it was to send and
/// those it may cancel, the gesture scrolls and zooms, the requests for region snapshots. It performs
/// nothing: a test answers the requests itself (through `FakePage`) and reads what the loop
/// did. A front end's real shell is `PageSide`; this is the loop's contract seen from outside.
///
/// ```swift
/// let loop = InkLoop(clock: ManualClock(start: 1))
/// let shell = RecordingShell()
/// loop.shell = shell
/// loop.submit(.touch(began))
/// let request = try #require(shell.sent.first)
/// loop.submit(.pageMessage(FakePage.answer(to: request, verdict: .ink)))
/// ```
///
/// Like the loop, it lives on the thread that made the loop.
public final class RecordingShell: InkLoopShell, TouchDownRegionsObserver {
    /// Every event the loop handed over, in order.
    public private(set) var events: [EngineEvent] = []
    /// The requests the loop had sent, in order.
    public private(set) var sent: [HitTestRequest] = []
    /// The requests whose sends the loop no longer needs, in order.
    public private(set) var cancelledSends: [HitTestRequest] = []
    /// The gesture scrolls the loop asked for, canvas points.
    public private(set) var scrolls: [(dx: Double, dy: Double)] = []
    /// The gesture zooms (two fingers pinching) the loop asked for: factor and anchor.
    public private(set) var zooms: [(scale: Double, about: CanvasPoint)] = []
    /// How many times the loop asked for a region snapshot.
    public private(set) var regionRequests = 0
    /// The areas routed at touch-down, each time they changed (under touch-down routing).
    public private(set) var regionChanges: [TouchDownRegions?] = []
    /// Called with each request as it is sent (a test's page that answers at once, or fails
    /// the send); `nil`, the default, does nothing.
    public var onSend: ((HitTestRequest) -> Void)?

    /// A shell that has recorded nothing.
    public init() {}

    /// Records the events.
    public func carryOut(_ events: [EngineEvent]) { self.events += events }
    /// Records the request, then calls ``onSend``.
    public func send(_ request: HitTestRequest) {
        sent.append(request)
        onSend?(request)
    }
    /// Records the cancelled send.
    public func cancelSend(_ request: HitTestRequest) { cancelledSends.append(request) }
    /// Records the scroll.
    public func scrollPage(dx: Double, dy: Double) { scrolls.append((dx, dy)) }
    /// Records the zoom.
    public func zoomPage(scale: Double, about: CanvasPoint) { zooms.append((scale, about)) }
    /// Counts the request for regions.
    public func askForRegions() { regionRequests += 1 }
    /// Records the areas routed at touch-down.
    package func touchDownRegionsChanged(_ regions: TouchDownRegions?) { regionChanges.append(regions) }

    /// The engine's actions among the events, in order.
    public var actions: [RouterAction] { events.compactMap(\.action) }
    /// The refusals among the events, in order.
    public var refusals: [InputRefusal] { events.compactMap { if case let .refused(_, refusal) = $0.kind { refusal } else { nil } } }
    /// The decisions the engine made for the touch with this platform id: verdict and reason.
    public func decisions(_ platform: UInt64) -> [(HitTestVerdict, DecisionReason)] {
        events.compactMap {
            guard $0.platformTouch?.rawValue == platform, case let .action(.decided(_, verdict, reason)) = $0.kind else { return nil }
            return (verdict, reason)
        }
    }
}
