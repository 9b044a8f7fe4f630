import InkCore

/// How ``SessionReplayer`` replays a log.
public struct ReplayConfiguration: Sendable, Hashable {
    /// The decision engine's settings (timeout, gesture window, pencil-only, bounds).
    public var router: TouchRouterConfiguration
    /// Who answers the hit tests.
    public var oracle: ReplayOracle
    /// Where a touch goes when its hit test is not answered before its deadline.
    public var timeoutFallback: HitTestVerdict

    /// Creates a configuration; the defaults replay answers as recorded with a 250 ms
    /// timeout that falls back to ink.
    public init(
        router: TouchRouterConfiguration = TouchRouterConfiguration(),
        oracle: ReplayOracle = .recorded, timeoutFallback: HitTestVerdict = .ink
    ) {
        self.router = router
        self.oracle = oracle
        self.timeoutFallback = timeoutFallback
    }
}
